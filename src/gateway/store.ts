// The gateway's store: operators, the policy's versions, the requests held for approvals and their approvals, the
// reservations against the rolling caps, and the hash-chained audit trail, on SQLite or Postgres (sql.ts). The only
// module of the gateway that reads and writes its tables in SQL; the schema's statements are in migrations.ts, and
// sql.ts (the two engines behind one interface) takes the transaction lock.
import { randomBytes, randomUUID } from 'node:crypto';
import {
  AUDIT_VERSION,
  type AuditEntry,
  type AuditEvent,
  type AuditWho,
  entryLine,
  GENESIS_HASH,
  sha256Hex,
} from '../audit/entry.js';
import { migrateStore, STORE_SCHEMA_VERSION, storeSchemaVersion } from './migrations.js';
import { hashSecret, newCredentials, type Role } from './operators.js';
import type { Row, Sql } from './sql.js';

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
});

/** Reservations count this long at most: past any 24-hour window (as on a coinop machine). */
const RESERVATION_KEEP_MS = 25 * 3600 * 1000;

export class GatewayStore {
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

  /** Appends entries to the chain (each line's prev: the SHA-256 of the line before), in one transaction. */
  async appendAudit(items: { who: AuditWho; event: AuditEvent }[]): Promise<AuditEntry[]> {
    return this.sql.exclusive('gw_audit', async (tx) => {
      const last = await tx.query<{ seq: number; hash: string }>(
        'SELECT seq, hash FROM gw_audit ORDER BY seq DESC LIMIT 1',
      );
      let seq = last.length ? Number(last[0].seq) : 0;
      let prev = last.length ? String(last[0].hash) : GENESIS_HASH;
      const out: AuditEntry[] = [];
      for (const { who, event } of items) {
        const entry: AuditEntry = {
          v: AUDIT_VERSION,
          seq: seq + 1,
          time: new Date(this.now()).toISOString(),
          prev,
          kind: event.kind,
          ref_id: event.ref_id ?? null,
          who: event.approver_keys?.length ? { ...who, approver_keys: event.approver_keys } : who,
          what: event.what,
          outcome: event.outcome,
        };
        const line = entryLine(entry);
        const hash = sha256Hex(line);
        await tx.query('INSERT INTO gw_audit (seq, line, hash) VALUES ($1, $2, $3)', [entry.seq, line, hash]);
        seq = entry.seq;
        prev = hash;
        out.push(entry);
      }
      return out;
    });
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
  async auditHead(): Promise<{ seq: number; sha256: string }> {
    const rows = await this.sql.query<{ seq: number; hash: string }>(
      'SELECT seq, hash FROM gw_audit ORDER BY seq DESC LIMIT 1',
    );
    return rows.length ? { seq: Number(rows[0].seq), sha256: String(rows[0].hash) } : { seq: 0, sha256: GENESIS_HASH };
  }

  // ---- reservations against the rolling caps (called inside exclusive('gw_caps')) ----

  async reservations(tx: Sql): Promise<HeldReservation[]> {
    const rows = await tx.query('SELECT * FROM gw_reservations WHERE at > $1', [this.now() - RESERVATION_KEEP_MS]);
    return rows.map((r) => ({
      ref_id: String(r.ref_id),
      operator: String(r.operator),
      asset: String(r.asset),
      amount: String(r.amount),
      at: Number(r.at),
    }));
  }

  async reserve(tx: Sql, reservation: HeldReservation): Promise<void> {
    await tx.query('DELETE FROM gw_reservations WHERE ref_id = $1', [reservation.ref_id]);
    await tx.query('INSERT INTO gw_reservations (ref_id, operator, asset, amount, at) VALUES ($1, $2, $3, $4, $5)', [
      reservation.ref_id,
      reservation.operator,
      reservation.asset,
      reservation.amount,
      reservation.at,
    ]);
  }

  /** Drops reservations: the service shows their transfers now, or they never left. */
  async release(tx: Sql, refIds: Iterable<string>): Promise<void> {
    for (const id of refIds) await tx.query('DELETE FROM gw_reservations WHERE ref_id = $1', [id]);
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

function policyOf(row: Row): PolicyVersion {
  return {
    version: Number(row.version),
    body: String(row.body),
    sha256: String(row.sha256),
    setBy: String(row.set_by),
    setAt: String(row.set_at),
  };
}
