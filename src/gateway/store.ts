// The gateway's store: operators, the policy's versions, the requests held for approvals and their approvals, the
// reservations against the rolling caps, and the hash-chained audit trail, on SQLite or Postgres (sql.ts). The only
// module of the gateway that reads and writes its tables in SQL; the schema's statements are in migrations.ts, and
// sql.ts (the two engines behind one interface) takes the transaction lock.
import { randomBytes, randomUUID } from 'node:crypto';
import {
  type AuditEntry,
  type AuditEvent,
  type AuditWho,
  entryLine,
  GENESIS_HASH,
  nextEntry,
  sha256Hex,
} from '../audit/entry.js';
import { migrateStore, STORE_SCHEMA_VERSION, storeSchemaVersion } from './migrations.js';
import { hashSecret, newCredentials, type Role } from './operators.js';
import { type Row, type Sql, Turns } from './sql.js';

export interface Operator {
  name: string;
  clientId: string;
  role: Role;
  disabled: boolean;
  approverKey: string | null;
  createdAt: string;
}

export interface PolicyVersion {
  version: number;
  body: string;
  sha256: string;
  setBy: string;
  setAt: string;
}

export type PendingStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'rejected' | 'expired';

export interface Pending {
  id: string;
  operator: string;
  operation: string;
  body: Record<string, unknown>;
  refId: string | null;
  /** The approval statement's lines (contentLines) the approvers sign. */
  content: string[];
  status: PendingStatus;
  createdAt: number;
  expiresAt: number;
  /** What the service answered when it was sent, or why it was not. */
  result: Record<string, unknown> | null;
  /** A batch being sent: the instance sending it and until when its lease holds (none otherwise). */
  lease?: Lease | null;
}

/** Which gateway instance sends a batch, and until when (ms) no other takes it over. */
export interface Lease {
  holder: string;
  until: number;
}

export interface StoredApproval {
  operator: string;
  text: string;
  at: number;
}

export interface HeldReservation {
  ref_id: string;
  operator: string;
  asset: string;
  amount: string;
  at: number;
}

const operatorOf = (r: Row): Operator => ({
  name: String(r.name),
  clientId: String(r.client_id),
  role: r.role as Role,
  disabled: Number(r.disabled) === 1,
  approverKey: (r.approver_key as string | null) ?? null,
  createdAt: String(r.created_at),
});

const pendingOf = (r: Row): Pending => ({
  id: String(r.id),
  operator: String(r.operator),
  operation: String(r.operation),
  body: JSON.parse(String(r.body)) as Record<string, unknown>,
  refId: (r.ref_id as string | null) ?? null,
  content: JSON.parse(String(r.content)) as string[],
  status: r.status as PendingStatus,
  createdAt: Number(r.created_at),
  expiresAt: Number(r.expires_at),
  result: r.result ? (JSON.parse(String(r.result)) as Record<string, unknown>) : null,
  lease: r.lease_holder == null ? null : { holder: String(r.lease_holder), until: Number(r.lease_until ?? 0) },
});

/** Reservations count this long at most: past any 24-hour window (as on a coinop machine). */
const RESERVATION_KEEP_MS = 25 * 3600 * 1000;

/** How many times an entry is made again after other writers' entries before the append gives up (none written). */
const AUDIT_APPEND_ATTEMPTS = 50;

export class GatewayStore {
  /** The chain's head as this instance last wrote or read it (another writer may be past it: see appendAudit). */
  private auditHeadKnown?: { seq: number; sha256: string };
  /** This instance's appends, one at a time (they would only collide with each other). */
  private readonly auditTurns = new Turns();

  constructor(
    readonly sql: Sql,
    private readonly now: () => number = Date.now,
  ) {}

  /** Brings the schema up to date and makes the token key once; true when the store was new. */
  async init(): Promise<boolean> {
    // Most starts find the store up to date: no exclusive section then (none is held while others start too).
    if ((await storeSchemaVersion(this.sql)) !== STORE_SCHEMA_VERSION) await migrateStore(this.sql);
    const key = await this.sql.query("SELECT value FROM gw_meta WHERE key = 'token_key'");
    if (key.length) return false;
    return this.sql.exclusive('gw_init', async (tx) => {
      const rows = await tx.query("SELECT value FROM gw_meta WHERE key = 'token_key'");
      if (rows.length) return false;
      await tx.query("INSERT INTO gw_meta (key, value) VALUES ('token_key', $1)", [randomBytes(32).toString('base64')]);
      // The store's own name: every gateway instance on it answers as the same service (journals resume across them).
      await tx.query("INSERT INTO gw_meta (key, value) VALUES ('gateway_id', $1)", [randomUUID()]);
      return true;
    });
  }

  /** The store's id, which every gateway instance on it serves as its identity. */
  async gatewayId(): Promise<string> {
    return this.sql.exclusive('gw_init', async (tx) => {
      const rows = await tx.query<{ value: string }>("SELECT value FROM gw_meta WHERE key = 'gateway_id'");
      if (rows.length) return rows[0].value;
      // A store made before instances had a shared name gets one now.
      const id = randomUUID();
      await tx.query("INSERT INTO gw_meta (key, value) VALUES ('gateway_id', $1)", [id]);
      return id;
    });
  }

  async tokenKey(): Promise<Buffer> {
    const rows = await this.sql.query<{ value: string }>("SELECT value FROM gw_meta WHERE key = 'token_key'");
    if (!rows.length) throw new Error('the gateway store has not been initialised (coinop gateway init)');
    return Buffer.from(rows[0].value, 'base64');
  }

  // ---- operators ----

  /** Adds an operator; the secret is returned once and kept only as its hash. */
  async addOperator(name: string, role: Role): Promise<{ clientId: string; secret: string }> {
    const creds = newCredentials(name);
    const hash = await hashSecret(creds.secret);
    await this.sql.query(
      'INSERT INTO gw_operators (name, client_id, secret_hash, role, disabled, created_at) VALUES ($1, $2, $3, $4, 0, $5)',
      [name, creds.clientId, hash, role, new Date(this.now()).toISOString()],
    );
    return creds;
  }

  async operators(): Promise<Operator[]> {
    return (await this.sql.query('SELECT * FROM gw_operators ORDER BY name')).map(operatorOf);
  }

  async operator(name: string): Promise<Operator | undefined> {
    const rows = await this.sql.query('SELECT * FROM gw_operators WHERE name = $1', [name]);
    return rows.length ? operatorOf(rows[0]) : undefined;
  }

  /** The operator holding a client id, with the stored hash of their secret. */
  async credentials(clientId: string): Promise<{ operator: Operator; secretHash: string } | undefined> {
    const rows = await this.sql.query('SELECT * FROM gw_operators WHERE client_id = $1', [clientId]);
    return rows.length ? { operator: operatorOf(rows[0]), secretHash: String(rows[0].secret_hash) } : undefined;
  }

  /** Disables (or enables) an operator; false when there is none by that name. */
  async setDisabled(name: string, disabled: boolean): Promise<boolean> {
    const rows = await this.sql.query('UPDATE gw_operators SET disabled = $1 WHERE name = $2 RETURNING name', [
      disabled ? 1 : 0,
      name,
    ]);
    return rows.length > 0;
  }

  /** The approver's public key, bound on their first approval: a later approval must carry the same one. */
  async bindApproverKey(name: string, key: string): Promise<string> {
    await this.sql.query('UPDATE gw_operators SET approver_key = $1 WHERE name = $2 AND approver_key IS NULL', [
      key,
      name,
    ]);
    return (await this.operator(name))?.approverKey ?? key;
  }

  // ---- the policy ----

  async policy(): Promise<PolicyVersion | undefined> {
    const rows = await this.sql.query('SELECT * FROM gw_policies ORDER BY version DESC LIMIT 1');
    return rows.length ? policyOf(rows[0]) : undefined;
  }

  async policyHistory(): Promise<PolicyVersion[]> {
    return (await this.sql.query('SELECT * FROM gw_policies ORDER BY version')).map(policyOf);
  }

  /** Keeps a new version of the policy; its number. */
  async setPolicy(body: string, sha256: string, setBy: string): Promise<number> {
    return this.sql.exclusive('gw_policy', (tx) => this.addPolicyVersion(tx, body, sha256, setBy));
  }

  /** The policy's current version as a transaction inside exclusive('gw_policy') sees it. */
  async policyIn(tx: Sql): Promise<PolicyVersion | undefined> {
    const rows = await tx.query('SELECT * FROM gw_policies ORDER BY version DESC LIMIT 1');
    return rows.length ? policyOf(rows[0]) : undefined;
  }

  /** Keeps a new version of the policy inside exclusive('gw_policy'); its number. */
  async addPolicyVersion(tx: Sql, body: string, sha256: string, setBy: string): Promise<number> {
    const rows = await tx.query<{ v: number | null }>('SELECT MAX(version) AS v FROM gw_policies');
    const version = Number(rows[0]?.v ?? 0) + 1;
    await tx.query('INSERT INTO gw_policies (version, body, sha256, set_by, set_at) VALUES ($1, $2, $3, $4, $5)', [
      version,
      body,
      sha256,
      setBy,
      new Date(this.now()).toISOString(),
    ]);
    return version;
  }

  // ---- the audit trail ----

  /**
   * Appends entries to the chain (each line's prev: the SHA-256 of the line before), after the head this instance
   * last wrote or read, one statement per entry: the entry goes in only if its number is free and the entry before
   * it is in the store with the hash its line names, so whoever appends first (another instance, an administration
   * command) makes this statement insert nothing, and the entry is made again after the head as it is now. One round
   * trip in the usual case; never two entries with one number, never a line after one that is not there. `tx`: inside
   * that transaction (the admission's section, so the attempt is written in one commit with its reservation); else
   * one entry on its own, several in one transaction.
   */
  async appendAudit(items: { who: AuditWho; event: AuditEvent }[], tx?: Sql): Promise<AuditEntry[]> {
    if (!items.length) return [];
    if (tx) return this.appendEach(tx, items);
    return this.auditTurns.run(() =>
      items.length === 1
        ? this.appendEach(this.sql, items)
        : this.sql.exclusive('gw_audit', (t) => this.appendEach(t, items)),
    );
  }

  /**
   * A group of entries appended in one statement, chained one after another from the head this instance knows, all or
   * none (a group another writer got between is rolled back and appended entry by entry instead): the gateway's reads.
   */
  async appendAuditGroup(items: { who: AuditWho; event: AuditEvent }[]): Promise<AuditEntry[]> {
    if (items.length < 2) return this.appendAudit(items);
    return this.auditTurns.run(async () => {
      const whole = await this.sql
        .exclusive('gw_audit', async (tx) => {
          const head = this.auditHeadKnown ?? (await this.auditHead(tx));
          const entries: AuditEntry[] = [];
          const params: unknown[] = [head.seq, head.sha256];
          const selects: string[] = [];
          let at = head;
          for (const item of items) {
            const entry = this.entryAfter(at, item);
            const line = entryLine(entry);
            at = { seq: entry.seq, sha256: sha256Hex(line) };
            entries.push(entry);
            const n = params.push(entry.seq, line, at.sha256);
            selects.push(
              `SELECT CAST($${n - 2} AS BIGINT), CAST($${n - 1} AS TEXT), CAST($${n} AS TEXT) WHERE ${
                head.seq === 0
                  ? 'NOT EXISTS (SELECT 1 FROM gw_audit) AND CAST($1 AS BIGINT) = 0 AND CAST($2 AS TEXT) IS NOT NULL'
                  : 'EXISTS (SELECT 1 FROM gw_audit WHERE seq = CAST($1 AS BIGINT) AND hash = CAST($2 AS TEXT))'
              }`,
            );
          }
          const rows = await tx.query(
            `INSERT INTO gw_audit (seq, line, hash) ${selects.join(' UNION ALL ')} ON CONFLICT (seq) DO NOTHING RETURNING seq`,
            params,
          );
          if (rows.length !== items.length) throw new GroupRaced();
          this.auditHeadKnown = at;
          return entries;
        })
        .catch((error: unknown) => {
          if (!(error instanceof GroupRaced)) throw error;
          this.auditHeadKnown = undefined;
          return undefined;
        });
      return whole ?? this.sql.exclusive('gw_audit', (t) => this.appendEach(t, items));
    });
  }

  private async appendEach(sql: Sql, items: { who: AuditWho; event: AuditEvent }[]): Promise<AuditEntry[]> {
    const out: AuditEntry[] = [];
    for (const item of items) {
      for (let attempt = 1; ; attempt++) {
        const head = this.auditHeadKnown ?? (await this.auditHead(sql));
        const entry = this.entryAfter(head, item);
        const line = entryLine(entry);
        const hash = sha256Hex(line);
        const rows =
          head.seq === 0
            ? await sql.query(
                `INSERT INTO gw_audit (seq, line, hash) SELECT $1, $2, $3 WHERE NOT EXISTS (SELECT 1 FROM gw_audit)
                 ON CONFLICT (seq) DO NOTHING RETURNING seq`,
                [entry.seq, line, hash],
              )
            : await sql.query(
                `INSERT INTO gw_audit (seq, line, hash) SELECT $1, $2, $3
                 WHERE EXISTS (SELECT 1 FROM gw_audit WHERE seq = $4 AND hash = $5)
                 ON CONFLICT (seq) DO NOTHING RETURNING seq`,
                [entry.seq, line, hash, head.seq, head.sha256],
              );
        if (rows.length) {
          this.auditHeadKnown = { seq: entry.seq, sha256: hash };
          out.push(entry);
          break;
        }
        this.auditHeadKnown = undefined;
        if (attempt >= AUDIT_APPEND_ATTEMPTS)
          throw new Error(`the audit chain was appended to by others ${attempt} times over; nothing was written`);
      }
    }
    return out;
  }

  /** The entry that follows `head`. */
  private entryAfter(head: { seq: number; sha256: string }, { who, event }: { who: AuditWho; event: AuditEvent }) {
    return nextEntry({ seq: head.seq, hash: head.sha256 }, who, event, this.now());
  }

  /** The chain's lines from `afterSeq` on, in order, at most `limit`. */
  async auditLines(afterSeq = 0, limit = 10_000): Promise<{ seq: number; line: string }[]> {
    const rows = await this.sql.query<{ seq: number; line: string }>(
      'SELECT seq, line FROM gw_audit WHERE seq > $1 ORDER BY seq LIMIT $2',
      [afterSeq, limit],
    );
    return rows.map((r) => ({ seq: Number(r.seq), line: String(r.line) }));
  }

  /** The chain's head: its last entry's number and the SHA-256 of its line (for anchoring elsewhere). */
  async auditHead(sql: Sql = this.sql): Promise<{ seq: number; sha256: string }> {
    const rows = await sql.query<{ seq: number; hash: string }>(
      'SELECT seq, hash FROM gw_audit ORDER BY seq DESC LIMIT 1',
    );
    return rows.length ? { seq: Number(rows[0].seq), sha256: String(rows[0].hash) } : { seq: 0, sha256: GENESIS_HASH };
  }

  // ---- reservations against the rolling caps (called inside exclusive('gw_caps')) ----
  // A reservation is what went through the gateway: kept for its day (the upstream showing its transfer changes
  // nothing), dropped only when its request was refused or never left, or after RESERVATION_KEEP_MS.

  /** The reservations of the last RESERVATION_KEEP_MS (of one asset, when given). */
  async reservations(tx: Sql, asset?: string): Promise<HeldReservation[]> {
    const since = this.now() - RESERVATION_KEEP_MS;
    const rows =
      asset === undefined
        ? await tx.query('SELECT ref_id, operator, asset, amount, at FROM gw_reservations WHERE at > $1', [since])
        : await tx.query(
            'SELECT ref_id, operator, asset, amount, at FROM gw_reservations WHERE at > $1 AND asset = $2',
            [since, asset],
          );
    return rows.map((r) => ({
      ref_id: String(r.ref_id),
      operator: String(r.operator),
      asset: String(r.asset),
      amount: String(r.amount),
      at: Number(r.at),
    }));
  }

  /** Keeps a reservation (one statement; a ref_id reserved before is replaced). */
  async reserve(tx: Sql, reservation: HeldReservation): Promise<void> {
    await tx.query(
      `INSERT INTO gw_reservations (ref_id, operator, asset, amount, at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (ref_id) DO UPDATE SET operator = excluded.operator, asset = excluded.asset,
         amount = excluded.amount, at = excluded.at`,
      [reservation.ref_id, reservation.operator, reservation.asset, reservation.amount, reservation.at],
    );
  }

  /** Drops reservations: their requests were refused by the upstream, or never left. */
  async release(tx: Sql, refIds: Iterable<string>): Promise<void> {
    for (const id of refIds) await tx.query('DELETE FROM gw_reservations WHERE ref_id = $1', [id]);
    await this.expire(tx);
  }

  /** Drops the reservations older than any 24-hour window they could count in. */
  async expire(tx: Sql): Promise<void> {
    await tx.query('DELETE FROM gw_reservations WHERE at <= $1', [this.now() - RESERVATION_KEEP_MS]);
  }

  // ---- requests held for approvals ----

  async hold(pending: Omit<Pending, 'id' | 'status' | 'result' | 'createdAt'>): Promise<Pending> {
    const held: Pending = { ...pending, id: randomUUID(), status: 'pending', createdAt: this.now(), result: null };
    await this.sql.query(
      `INSERT INTO gw_pending (id, operator, operation, body, ref_id, content, status, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        held.id,
        held.operator,
        held.operation,
        JSON.stringify(held.body),
        held.refId,
        JSON.stringify(held.content),
        held.status,
        held.createdAt,
        held.expiresAt,
      ],
    );
    return held;
  }

  async pending(id: string): Promise<Pending | undefined> {
    const rows = await this.sql.query('SELECT * FROM gw_pending WHERE id = $1', [id]);
    return rows.length ? pendingOf(rows[0]) : undefined;
  }

  /** The held requests, newest first; `status` narrows them. Expired ones are marked so on the way. */
  async pendingList(status?: PendingStatus): Promise<Pending[]> {
    await this.sql.query("UPDATE gw_pending SET status = 'expired' WHERE status = 'pending' AND expires_at <= $1", [
      this.now(),
    ]);
    const rows = status
      ? await this.sql.query('SELECT * FROM gw_pending WHERE status = $1 ORDER BY created_at DESC', [status])
      : await this.sql.query('SELECT * FROM gw_pending ORDER BY created_at DESC');
    return rows.map(pendingOf);
  }

  /** The held request with this ref_id that is not finished, if any (a retry finds its own). */
  async pendingByRef(refId: string): Promise<Pending | undefined> {
    const rows = await this.sql.query(
      "SELECT * FROM gw_pending WHERE ref_id = $1 AND status IN ('pending', 'sending', 'sent') ORDER BY created_at DESC",
      [refId],
    );
    return rows.length ? pendingOf(rows[0]) : undefined;
  }

  async approvals(pendingId: string): Promise<StoredApproval[]> {
    const rows = await this.sql.query('SELECT * FROM gw_approvals WHERE pending_id = $1 ORDER BY at', [pendingId]);
    return rows.map((r) => ({ operator: String(r.operator), text: String(r.text), at: Number(r.at) }));
  }

  /** An operator's approval (their latest replaces an earlier one of theirs). */
  async addApproval(tx: Sql, pendingId: string, operator: string, text: string): Promise<void> {
    await tx.query('DELETE FROM gw_approvals WHERE pending_id = $1 AND operator = $2', [pendingId, operator]);
    await tx.query('INSERT INTO gw_approvals (pending_id, operator, text, at) VALUES ($1, $2, $3, $4)', [
      pendingId,
      operator,
      text,
      this.now(),
    ]);
  }

  /** Moves a held request from one status to another; false when it was not in `from` (someone else moved it). */
  async transition(
    tx: Sql,
    id: string,
    from: PendingStatus,
    to: PendingStatus,
    result?: Record<string, unknown>,
  ): Promise<boolean> {
    const rows = await tx.query(
      'UPDATE gw_pending SET status = $1, result = $2 WHERE id = $3 AND status = $4 RETURNING id',
      [to, result ? JSON.stringify(result) : null, id, from],
    );
    return rows.length > 0;
  }
}

/** A row of a batch held for approvals as one: its request, and what became of it once the batch was released. */
export interface BatchRow {
  idx: number;
  refId: string;
  body: Record<string, unknown>;
  status: 'planned' | 'sent' | 'failed';
  /** The transfer the service answered, or the problem it refused the row with. */
  result: Record<string, unknown> | null;
}

const batchRowOf = (r: Row): BatchRow => ({
  idx: Number(r.idx),
  refId: String(r.ref_id),
  body: JSON.parse(String(r.body)) as Record<string, unknown>,
  status: r.status as BatchRow['status'],
  result: r.result ? (JSON.parse(String(r.result)) as Record<string, unknown>) : null,
});

/**
 * Batches held for approvals as one (gw_pending with operation 'batch', its rows in gw_batch_rows): a store of its
 * own over the same tables, so the single requests' code above stays as it was.
 */
export class BatchStore {
  constructor(private readonly store: GatewayStore) {}

  /**
   * Holds a batch: the pending entry and every row, in one transaction; the same content live already (the same batch
   * submitted twice at once) is that one, not a second.
   */
  async hold(
    pending: Omit<Pending, 'id' | 'status' | 'result' | 'createdAt' | 'refId' | 'operation'>,
    rows: { refId: string; body: Record<string, unknown> }[],
    createdAt: number,
  ): Promise<{ held: Pending; created: boolean }> {
    const held: Pending = {
      ...pending,
      id: randomUUID(),
      operation: 'batch',
      refId: null,
      status: 'pending',
      createdAt,
      result: null,
    };
    return this.store.sql.exclusive('gw_batches', async (tx) => {
      const live = await tx.query(
        `SELECT * FROM gw_pending WHERE operation = 'batch' AND content = $1 AND status IN ('pending', 'sending', 'sent')`,
        [JSON.stringify(held.content)],
      );
      if (live.length) return { held: pendingOf(live[0]), created: false };
      await tx.query(
        `INSERT INTO gw_pending (id, operator, operation, body, ref_id, content, status, created_at, expires_at)
         VALUES ($1, $2, $3, $4, NULL, $5, $6, $7, $8)`,
        [
          held.id,
          held.operator,
          held.operation,
          JSON.stringify(held.body),
          JSON.stringify(held.content),
          held.status,
          held.createdAt,
          held.expiresAt,
        ],
      );
      for (const [idx, r] of rows.entries())
        await tx.query(
          "INSERT INTO gw_batch_rows (pending_id, idx, ref_id, body, status) VALUES ($1, $2, $3, $4, 'planned')",
          [held.id, idx, r.refId, JSON.stringify(r.body)],
        );
      return { held, created: true };
    });
  }

  /** A live batch (pending, sending or sent) with exactly this content, if any: a submission again finds it. */
  async byContent(content: string[]): Promise<Pending | undefined> {
    const rows = await this.store.sql.query(
      `SELECT * FROM gw_pending WHERE operation = 'batch' AND content = $1 AND status IN ('pending', 'sending', 'sent')
       ORDER BY created_at DESC`,
      [JSON.stringify(content)],
    );
    return rows.length ? pendingOf(rows[0]) : undefined;
  }

  /** The live batch (pending, sending or sent) holding a row with this ref_id, with that row. */
  async byRef(refId: string): Promise<{ batch: Pending; row: BatchRow } | undefined> {
    const rows = await this.store.sql.query(
      `SELECT r.idx, r.ref_id, r.body AS row_body, r.status AS row_status, r.result AS row_result, p.*
       FROM gw_batch_rows r JOIN gw_pending p ON p.id = r.pending_id
       WHERE r.ref_id = $1 AND p.status IN ('pending', 'sending', 'sent') ORDER BY p.created_at DESC`,
      [refId],
    );
    if (!rows.length) return undefined;
    const r = rows[0];
    return {
      batch: pendingOf(r),
      row: batchRowOf({ idx: r.idx, ref_id: r.ref_id, body: r.row_body, status: r.row_status, result: r.row_result }),
    };
  }

  async rows(pendingId: string): Promise<BatchRow[]> {
    const rows = await this.store.sql.query('SELECT * FROM gw_batch_rows WHERE pending_id = $1 ORDER BY idx', [
      pendingId,
    ]);
    return rows.map(batchRowOf);
  }

  /** A row's outcome once the batch is released: sent (its transfer) or failed (the problem). */
  async settleRow(pendingId: string, idx: number, status: 'sent' | 'failed', result: Record<string, unknown>) {
    await this.store.sql.query('UPDATE gw_batch_rows SET status = $1, result = $2 WHERE pending_id = $3 AND idx = $4', [
      status,
      JSON.stringify(result),
      pendingId,
      idx,
    ]);
  }

  // ---- the lease of a batch being sent: every move below is one conditional statement (a compare-and-set) ----

  /** pending -> sending, with the sender's lease; false when it was not pending (another caller moved it). */
  startSending(id: string, lease: Lease): Promise<boolean> {
    return this.cas(
      id,
      `UPDATE gw_pending SET status = 'sending', result = NULL, lease_holder = $1, lease_until = $2
       WHERE id = $3 AND status = 'pending' RETURNING id`,
      [lease.holder, lease.until, id],
    );
  }

  /** The holder's lease pushed on to `until`; false when the batch is no longer sending under this holder. */
  async renewLease(id: string, lease: Lease): Promise<boolean> {
    const rows = await this.store.sql.query(
      `UPDATE gw_pending SET lease_until = $1 WHERE id = $2 AND status = 'sending' AND lease_holder = $3 RETURNING id`,
      [lease.until, id, lease.holder],
    );
    return rows.length > 0;
  }

  /**
   * A sending batch taken over: the lease becomes `lease` only if it is still exactly `expired` (none: a batch sent
   * before leases were kept), so of several instances taking it over at once one does.
   */
  takeOver(id: string, expired: Lease | null, lease: Lease): Promise<boolean> {
    return this.cas(
      id,
      `UPDATE gw_pending SET lease_holder = $1, lease_until = $2
       WHERE id = $3 AND status = 'sending' AND COALESCE(lease_holder, '') = $4 AND COALESCE(lease_until, 0) = $5
       RETURNING id`,
      [lease.holder, lease.until, id, expired?.holder ?? '', expired?.until ?? 0],
    );
  }

  /** sending -> `to` by the lease's holder, the lease cleared; false when another instance holds it now. */
  finishSending(id: string, holder: string, to: PendingStatus, result?: Record<string, unknown>): Promise<boolean> {
    return this.cas(
      id,
      `UPDATE gw_pending SET status = $1, result = $2, lease_holder = NULL, lease_until = NULL
       WHERE id = $3 AND status = 'sending' AND lease_holder = $4 RETURNING id`,
      [to, result ? JSON.stringify(result) : null, id, holder],
    );
  }

  private cas(id: string, statement: string, params: unknown[]): Promise<boolean> {
    return this.store.sql.exclusive(`gw_pending:${id}`, async (tx) => (await tx.query(statement, params)).length > 0);
  }
}

function policyOf(row: Row): PolicyVersion {
  return {
    version: Number(row.version),
    body: String(row.body),
    sha256: String(row.sha256),
    setBy: String(row.set_by),
    setAt: String(row.set_at),
  };
}

/** Another writer appended between a group's head and its statement: the group is appended entry by entry. */
class GroupRaced extends Error {}
