// The batch journal: each row's state (planned, sent, unknown, succeeded, failed, invalid) kept durably in SQLite, so an interrupted
// batch resumes where it stopped and a finished one sends nothing. Writes of one moment share one fsync.
import { closeSync, openSync, readFileSync, readSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { privateDatabase, privateDir } from '../config/private-files.js';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import type { Database as DatabaseType, Statement } from 'better-sqlite3';
import type { InvalidRow } from './stage.js';
import { isAlive } from './pid.js';
import { WalSync, walPragmas } from './wal-sync.js';
import { WriteError } from './write-error.js';
import { sha256hex } from './ref-ids.js';

const require = createRequire(import.meta.url);

/**
 * 3: each row carries the hash of what was confirmed (row_hash), and meta the digest of all of them (rows_sha256).
 * (2: rows carried their request body, meta named the service and the batch.)
 */
export const JOURNAL_VERSION = '3';
/** SQLite's application_id of a coinop batch journal ("cbj2"), in the file's header: known before the file is opened. */
export const JOURNAL_APP_ID = 0x63626a32;

/**
 * planned: not sent yet. sent: a request left (or was about to leave) and no answer is recorded; resending it with
 * the same ref_id is safe. unknown: retries ran out without an answer. succeeded: the service holds the transfer.
 * failed: the service refused the row, or its transfer ended FAILED.
 */
export type RowState = 'planned' | 'sent' | 'unknown' | 'succeeded' | 'failed' | 'invalid';

/** What a row asks for, kept so that the report of a finished batch needs nothing but the journal. */
export interface PlannedRow {
  row: number;
  ref_id: string;
  asset?: string;
  crypto_network?: string;
  destination_address?: string;
  amount?: string;
  total?: string;
  /** The request body exactly as validated and confirmed (JSON): what is sent, on this run and on any resume. */
  body?: string;
  /** Its rowHash, when already worked out (by the RowsDigest of the same row object). */
  hash?: string;
}

export interface JournalRow {
  row: number;
  /** Null for an invalid row. */
  ref_id: string | null;
  state: RowState;
  attempts: number;
  asset: string | null;
  crypto_network: string | null;
  destination_address: string | null;
  req_amount: string | null;
  req_total: string | null;
  transfer_id: string | null;
  status: string | null;
  /** 'created' or 'already submitted' for succeeded rows. */
  outcome: string | null;
  amount: string | null;
  fee: string | null;
  total: string | null;
  /** The problem as JSON for failed rows. */
  problem: string | null;
  body: string | null;
}

/** The columns of a row the report shows. */
const REPORTED =
  'row, ref_id, state, asset, crypto_network, destination_address, req_amount, req_total, transfer_id, status, outcome, amount, fee, total, problem';

export type ReportedRow = Omit<JournalRow, 'attempts' | 'body'>;

/** The journal's rows by what became of them (the report's summary line and the exit code). */
export interface OutcomeCounts {
  rows: number;
  created: number;
  alreadySubmitted: number;
  failed: number;
  invalid: number;
  /** Not sent: --allow-partial found a balance or a limit that could not cover them (failed, outcome skipped). */
  skipped: number;
  notSent: number;
  /** A transfer exists for the row (created now or before). */
  withTransfer: number;
}

export interface JournalMeta {
  version: string;
  file_hash: string;
  file_name: string;
  format: string;
  rows: string;
  environment: string;
  base_url: string;
  created_at: string;
  finished_at?: string;
  /** Absolute path of the file (not for standard input). */
  file_path?: string;
  /** This batch's id: its rows in the record of sent ref_ids, and the salt of its repeats (--allow-repeat). */
  batch_id?: string;
  /** The service instance the batch talks to (Connection.serviceId); another service holds none of its transfers. */
  service_id?: string;
  /** The digest of every planned row as confirmed (RowsDigest over rowHash), also in the batch's audit entry. */
  rows_sha256?: string;
  /** A repeat run (--allow-repeat): the salt its repeated rows' ref_ids carry (repeatSalt of the approved content). */
  repeat_salt?: string;
}

/**
 * The hash binding a planned row to what was confirmed: its number, ref_id, the fields the report and the prompt show,
 * and the exact body it sends. Kept with the row when the batch is planned; a resume recomputes it.
 */
export function rowHash(row: PlannedRow): string {
  const fields = [
    row.row,
    row.ref_id,
    row.asset,
    row.crypto_network,
    row.destination_address,
    row.amount,
    row.total,
    row.body,
  ];
  return sha256hex(JSON.stringify(fields.map((v) => v ?? null)));
}

/** What was planned and confirmed of a journal row: the fields its hash covers. */
export function plannedRow(row: JournalRow): PlannedRow {
  return {
    row: row.row,
    ref_id: row.ref_id ?? '',
    asset: row.asset ?? undefined,
    crypto_network: row.crypto_network ?? undefined,
    destination_address: row.destination_address ?? undefined,
    amount: row.req_amount ?? undefined,
    total: row.req_total ?? undefined,
    body: row.body ?? undefined,
  };
}

/** The digest of a batch's planned rows, in row order: what the journal meta and the batch's audit entry keep. */
export class RowsDigest {
  private readonly hash = createHash('sha256');
  rows = 0;
  /** Adds the row; returns its rowHash. */
  add(row: PlannedRow): string {
    const h = rowHash(row);
    this.hash.update(`${row.row} ${h}\n`);
    this.rows++;
    return h;
  }
  finish(): string {
    return this.hash.digest('hex');
  }
}

/** What --resume finds of the journal's rows: all as confirmed (their digest), or the first row that changed. */
export type RowsCheck = { ok: true; digest: string; rows: number } | { ok: false; row: number; why: string };

export class JournalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JournalError';
  }
}

const SQLITE_MAGIC = 'SQLite format 3\u0000';

/**
 * Where a file's journal lives, unless --journal names the file: `<data dir>/batches/<hash>.<environment>-<url>.journal`.
 * One per file and service, so the same file run in the sandbox and then in production keeps two journals.
 */
export function journalPath(
  dataDir: string,
  fileHash: string,
  explicit: string | undefined,
  environment: string,
  baseUrl: string,
): string {
  if (explicit) return explicit;
  const target = createHash('sha256').update(baseUrl).digest('hex').slice(0, 8);
  const env = environment.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
  return join(dataDir, 'batches', `${fileHash.slice(0, 32)}.${env}-${target}.journal`);
}

const WAY_OUT = (path: string) =>
  `move it aside (mv '${path}' '${path}.damaged') and run the batch again with --resume: rows keep their ref_ids, so ` +
  `rows the service already holds are answered "already submitted" and not sent twice`;

function damaged(path: string, why: string): JournalError {
  return new JournalError(
    `the batch journal ${path} is damaged (${why}). If it is this batch's journal, ${WAY_OUT(path)}.`,
  );
}

/** A file that is not a coinop journal: refused before it is opened, so it is left exactly as it is. */
function notJournal(path: string, why: string): JournalError {
  return new JournalError(
    `the batch journal ${path} is damaged or is not a coinop batch journal (${why}); coinop left it as it is. ` +
      `If it is this batch's journal, ${WAY_OUT(path)}; otherwise name a new file with --journal.`,
  );
}

/**
 * Whether `path` may be opened as a journal, from its first 100 bytes only (opening it with SQLite would write WAL
 * and shared-memory files beside it): true for a new journal (absent or empty), false for an existing coinop
 * journal; anything else is refused untouched.
 */
function inspect(path: string): boolean {
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw notJournal(path, 'not a regular file');
    size = st.size;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return true;
    if (e instanceof JournalError) throw e;
    throw new JournalError(`cannot read the batch journal ${path} (${(e as Error).message})`);
  }
  if (size === 0) return true;
  const head = Buffer.alloc(100);
  const fd = openSync(path, 'r');
  let n: number;
  try {
    n = readSync(fd, head, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  if (n < 100 || head.toString('latin1', 0, 16) !== SQLITE_MAGIC) throw notJournal(path, 'not an SQLite database');
  if (head.readUInt32BE(68) !== JOURNAL_APP_ID) {
    throw new JournalError(
      `${path} is not a coinop batch journal (an SQLite database of another program, or a journal of an older coinop); ` +
        `coinop left it as it is. Name a new file with --journal. If it is an older coinop's journal, finish that batch ` +
        `with the coinop that started it: this version derives other ref_ids, so its rows would not be recognised as sent.`,
    );
  }
  return false;
}

export class Journal {
  private readonly db: DatabaseType;
  private readonly lockPath: string;
  private pending: { sql: 'sent' | 'result' | 'status'; args: unknown[] }[] = [];
  private waiters: (() => void)[] = [];
  private failers: ((e: Error) => void)[] = [];
  private scheduled: NodeJS.Timeout | undefined;
  private readonly stmts = new Map<string, Statement>();
  private closed = false;
  /** Commits are written with synchronous=NORMAL and made durable by an fsync of the WAL off the main thread. */
  private readonly wal: WalSync;
  /** Milliseconds the main thread spent committing (the bench's `journal-commit`). */
  commitMs = 0;
  /** Called after each group commit is on disk with the rows whose answers it held (the report streamed as rows finish). */
  onDurable?: (answered: number[]) => void;

  private constructor(
    readonly path: string,
    db: DatabaseType,
    lockPath: string,
    /** This run created the file. */
    private readonly fresh: boolean,
  ) {
    this.db = db;
    this.lockPath = lockPath;
    this.wal = new WalSync(path);
  }

  /**
   * Opens (or creates, 0600) a journal, taking its lock; refuses a damaged journal, one of another file, and any
   * file that is not a coinop journal (left untouched).
   */
  static open(path: string, fileHash: string): Journal {
    const fresh = inspect(path);
    privateDir(dirname(path));
    const lockPath = `${path}.lock`;
    takeLock(lockPath);
    let db: DatabaseType | undefined;
    try {
      // Rows hold payout details: the file, and the WAL files SQLite makes with its mode, are the owner's alone.
      privateDatabase(path);
      db = openDb(path, fresh);
      const j = new Journal(path, db, lockPath, fresh);
      const meta = j.meta();
      if (meta.version === '2')
        throw new JournalError(
          `the journal ${path} was written by an older coinop (journal version 2, without the hash of its confirmed rows); finish that batch with the coinop that started it, or ${WAY_OUT(path)}`,
        );
      if (meta.version !== JOURNAL_VERSION) throw damaged(path, `unknown journal version ${meta.version ?? '(none)'}`);
      if (meta.file_hash && meta.file_hash !== fileHash) {
        throw new JournalError(
          `the journal ${path} belongs to another file (its hash differs); name another with --journal`,
        );
      }
      if (!meta.file_hash && j.count() > 0) throw damaged(path, 'it has rows but no header');
      return j;
    } catch (e) {
      try {
        db?.close();
      } catch {
        /* already failing */
      }
      releaseLock(lockPath);
      if (e instanceof JournalError) throw e;
      throw new WriteError('batch journal', path, e);
    }
  }

  meta(): Partial<JournalMeta> {
    const out: Record<string, string> = {};
    for (const r of this.db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[])
      out[r.key] = r.value;
    return out as Partial<JournalMeta>;
  }

  setMeta(values: Partial<JournalMeta>): void {
    this.write(() => setMeta(this.db, values));
  }

  /** Runs a write; a failure (a full disk, an I/O error) is a WriteError naming the journal. */
  private write<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      throw new WriteError('batch journal', this.path, e);
    }
  }

  count(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM rows').get() as { n: number }).n;
  }

  counts(): Record<RowState, number> {
    const out: Record<RowState, number> = { planned: 0, sent: 0, unknown: 0, succeeded: 0, failed: 0, invalid: 0 };
    for (const r of this.db.prepare('SELECT state, count(*) AS n FROM rows GROUP BY state').all() as {
      state: RowState;
      n: number;
    }[]) {
      out[r.state] = r.n;
    }
    return out;
  }

  /** Records every row as planned, in one transaction; rows already in the journal keep their state. */
  plan(rows: Iterable<PlannedRow>): void {
    const ins = this.stmt(
      `INSERT INTO rows (row, ref_id, state, asset, crypto_network, destination_address, req_amount, req_total, body, row_hash, updated_at)
       VALUES (?, ?, 'planned', ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(row) DO NOTHING`,
    );
    const now = new Date().toISOString();
    this.write(() =>
      this.db.transaction(() => {
        for (const r of rows) {
          ins.run(
            r.row,
            r.ref_id,
            r.asset ?? null,
            r.crypto_network ?? null,
            r.destination_address ?? null,
            r.amount ?? null,
            r.total ?? null,
            r.body ?? null,
            r.hash ?? rowHash(r),
            now,
          );
        }
      })(),
    );
  }

  /** Forgets the rows of a batch that never began (none left), to plan it afresh. */
  reset(): void {
    if (this.begun()) throw new Error('internal: reset of a journal whose rows may have gone out');
    this.write(() => this.db.exec('DELETE FROM rows'));
  }

  /**
   * Records rows skipped with --skip-invalid, with their issues and what they gave, so the report accounts for every
   * row. Their ref_id (unique among sent rows, and maybe a repeat here) is kept in the problem, not the ref_id column.
   */
  planInvalid(rows: Iterable<InvalidRow>): void {
    const ins = this.stmt(
      `INSERT INTO rows (row, ref_id, state, asset, crypto_network, destination_address, req_amount, req_total, problem, updated_at)
       VALUES (?, NULL, 'invalid', ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(row) DO NOTHING`,
    );
    const now = new Date().toISOString();
    this.write(() =>
      this.db.transaction(() => {
        for (const { row, issues, given: g } of rows) {
          const problem = { title: 'Invalid row', detail: issues, ...(g.ref_id ? { ref_id: g.ref_id } : {}) };
          const fields = [g.asset, g.crypto_network, g.destination_address, g.amount, g.total].map((v) => v ?? null);
          ins.run(row, ...fields, JSON.stringify(problem), now);
        }
      })(),
    );
  }

  /**
   * Recomputes every planned row's hash from what the journal holds now, against the hash kept when it was confirmed
   * and the digest of them all in meta: the first row that differs (a destination, an amount, a ref_id, a body
   * edited; a row added or removed) is named. Reads a page at a time.
   */
  checkRows(): RowsCheck {
    const digest = new RowsDigest();
    const q = this.db.prepare(
      `SELECT row, ref_id, asset, crypto_network, destination_address, req_amount, req_total, body, row_hash FROM rows WHERE state != 'invalid' ORDER BY row`,
    );
    for (const r of q.iterate() as IterableIterator<JournalRow & { row_hash: string | null }>) {
      const planned = plannedRow(r);
      if (!r.row_hash) return { ok: false, row: r.row, why: 'it has no hash of what was confirmed' };
      // Hashed once: into the digest, and against the hash kept (a row that differs ends the check).
      if (digest.add(planned) !== r.row_hash)
        return { ok: false, row: r.row, why: 'it is not the row that was confirmed (its request or ref_id changed)' };
    }
    const d = digest.finish();
    const kept = this.meta().rows_sha256;
    if (kept !== d)
      return {
        ok: false,
        row: 0,
        why: kept
          ? `its rows are not those confirmed (digest ${d.slice(0, 12)}…, confirmed ${kept.slice(0, 12)}…): a row was added, removed or re-hashed`
          : 'it has no digest of its confirmed rows',
      };
    return { ok: true, digest: d, rows: digest.rows };
  }

  /** A row's state and ref_id only (what the runner checks before each row leaves). */
  stateOf(row: number): { state: RowState; ref_id: string | null } | undefined {
    return this.stmt('SELECT state, ref_id FROM rows WHERE row = ?').get(row) as
      | { state: RowState; ref_id: string | null }
      | undefined;
  }

  /**
   * The state and ref_id of each of these rows (what the runner checks before rows leave): one statement over the
   * range they span.
   */
  statesOf(rows: number[]): Map<number, { state: RowState; ref_id: string | null }> {
    const out = new Map<number, { state: RowState; ref_id: string | null }>();
    if (!rows.length) return out;
    let first = rows[0];
    let last = rows[0];
    for (const r of rows) {
      if (r < first) first = r;
      if (r > last) last = r;
    }
    const wanted = new Set(rows);
    const q = this.stmt('SELECT row, state, ref_id FROM rows WHERE row BETWEEN ? AND ?');
    for (const r of q.iterate(first, last) as IterableIterator<{ row: number; state: RowState; ref_id: string | null }>)
      if (wanted.has(r.row)) out.set(r.row, { state: r.state, ref_id: r.ref_id });
    return out;
  }

  get(row: number): JournalRow | undefined {
    return this.stmt('SELECT * FROM rows WHERE row = ?').get(row) as JournalRow | undefined;
  }

  /** Every row's state, in row order; iterates lazily so a huge journal is read with bounded memory. */
  *all(): IterableIterator<JournalRow> {
    yield* this.db.prepare('SELECT * FROM rows ORDER BY row').iterate() as IterableIterator<JournalRow>;
  }

  /** What the report shows of every row (no request body, no hash), in row order; lazily. */
  *reported(): IterableIterator<ReportedRow> {
    yield* this.db.prepare(`SELECT ${REPORTED} FROM rows ORDER BY row`).iterate() as IterableIterator<ReportedRow>;
  }

  /** Every row's number, in row order; lazily. */
  *rowNumbers(): IterableIterator<number> {
    yield* this.db.prepare('SELECT row FROM rows ORDER BY row').pluck().iterate() as IterableIterator<number>;
  }

  /** What the report shows of the rows from `first` to `last`, in row order: one statement for all of them. */
  reportedBetween(first: number, last: number): ReportedRow[] {
    return this.stmt(`SELECT ${REPORTED} FROM rows WHERE row BETWEEN ? AND ? ORDER BY row`).all(
      first,
      last,
    ) as ReportedRow[];
  }

  /** The rows counted by what became of them: one aggregate over the journal, no row read into memory. */
  outcomeCounts(): OutcomeCounts {
    return this.stmt(
      `SELECT count(*) AS rows,
         coalesce(sum(state = 'succeeded' AND outcome IS NOT 'already submitted'), 0) AS created,
         coalesce(sum(state = 'succeeded' AND outcome IS 'already submitted'), 0) AS alreadySubmitted,
         coalesce(sum(state = 'failed' AND outcome IS NOT 'skipped'), 0) AS failed,
         coalesce(sum(state = 'invalid'), 0) AS invalid,
         coalesce(sum(state = 'failed' AND outcome IS 'skipped'), 0) AS skipped,
         coalesce(sum(state NOT IN ('succeeded', 'failed', 'invalid')), 0) AS notSent,
         coalesce(sum(transfer_id IS NOT NULL AND transfer_id != ''), 0) AS withTransfer
       FROM rows`,
    ).get() as OutcomeCounts;
  }

  /** Every row of the batch that is sent (all but invalid ones), in row order, with its body: lazily. */
  *bodies(): IterableIterator<{ row: number; ref_id: string; state: RowState; body: string | null }> {
    yield* this.db
      .prepare(`SELECT row, ref_id, state, body FROM rows WHERE state != 'invalid' ORDER BY row`)
      .iterate() as IterableIterator<{ row: number; ref_id: string; state: RowState; body: string | null }>;
  }

  /** Planned rows after `row`, in row order, with the body each sends: a page at a time. */
  plannedAfter(row: number, limit: number): { row: number; ref_id: string; body: string | null }[] {
    return this.stmt(`SELECT row, ref_id, body FROM rows WHERE state = 'planned' AND row > ? ORDER BY row LIMIT ?`).all(
      row,
      limit,
    ) as {
      row: number;
      ref_id: string;
      body: string | null;
    }[];
  }

  /** Rows in the given states, in row order. */
  rowsIn(states: RowState[]): Map<number, JournalRow> {
    const out = new Map<number, JournalRow>();
    const q = this.db.prepare(`SELECT * FROM rows WHERE state IN (${states.map(() => '?').join(',')}) ORDER BY row`);
    for (const r of q.iterate(...states) as IterableIterator<JournalRow>) out.set(r.row, r);
    return out;
  }

  /** A statement prepared once per journal. */
  private stmt(sql: string): Statement {
    let s = this.stmts.get(sql);
    if (!s) this.stmts.set(sql, (s = this.db.prepare(sql)));
    return s;
  }

  /** Durably records that a request for the row is about to leave; resolves once it is on disk. */
  markSent(row: number): Promise<void> {
    return this.enqueue('sent', [row]);
  }

  /**
   * Records that requests for these rows are about to leave (with whatever else is queued), and resolves once that is
   * on disk: one commit and one fsync (off the main thread) for a window of rows. A row marked sent and never sent
   * is harmless: sent means "maybe".
   */
  markSentDurable(rows: number[]): Promise<void> {
    if (this.closed) return Promise.reject(new JournalError('the journal is closed'));
    for (const row of rows) this.pending.push({ sql: 'sent', args: [row] });
    const p = new Promise<void>((resolve, reject) => {
      this.waiters.push(resolve);
      this.failers.push(reject);
    });
    this.flush();
    return p;
  }

  markSucceeded(
    row: number,
    transfer: { transfer_id: string; status: string; outcome: string; amount?: string; fee?: string; total?: string },
  ): Promise<void> {
    return this.enqueue('result', [
      'succeeded',
      transfer.transfer_id,
      transfer.status,
      transfer.outcome,
      transfer.amount ?? null,
      transfer.fee ?? null,
      transfer.total ?? null,
      null,
      row,
    ]);
  }

  markFailed(
    row: number,
    problem: unknown,
    transfer?: { transfer_id?: string; status?: string; amount?: string; fee?: string; total?: string },
  ): Promise<void> {
    return this.enqueue('result', [
      'failed',
      transfer?.transfer_id ?? null,
      transfer?.status ?? null,
      transfer ? 'created' : null,
      transfer?.amount ?? null,
      transfer?.fee ?? null,
      transfer?.total ?? null,
      JSON.stringify(problem),
      row,
    ]);
  }

  /**
   * Rows planned that this run does not send (--allow-partial: a balance or a limit cannot cover them), with why: failed
   * without a transfer, outcome `skipped`, so --resume --retry-failed sends them. Written at once, before any row leaves.
   */
  markSkipped(rows: { row: number; problem: unknown }[]): void {
    const now = new Date().toISOString();
    const skip = this.stmt(
      `UPDATE rows SET state = 'failed', outcome = 'skipped', problem = ?, updated_at = ? WHERE row = ? AND state = 'planned'`,
    );
    this.write(() =>
      this.db.transaction(() => {
        for (const r of rows) skip.run(JSON.stringify(r.problem), now, r.row);
      })(),
    );
  }

  markUnknown(row: number, problem: unknown): Promise<void> {
    return this.enqueue('result', ['unknown', null, null, null, null, null, null, JSON.stringify(problem), row]);
  }

  /** Rows recorded as sent that certainly never reached the service go back to planned (sync). */
  markPlannedNow(rows: number[]): void {
    this.flush();
    const back = this.stmt(
      `UPDATE rows SET state = 'planned', attempts = max(attempts - 1, 0) WHERE row = ? AND state = 'sent'`,
    );
    this.write(() =>
      this.db.transaction(() => {
        for (const r of rows) back.run(r);
      })(),
    );
  }

  /** Whether any request of this batch may have reached the service. */
  begun(): boolean {
    return (
      (this.stmt(`SELECT count(*) AS n FROM rows WHERE state NOT IN ('planned', 'invalid')`).get() as { n: number }).n >
      0
    );
  }

  /** A followed transfer changed status (--wait). */
  markStatus(row: number, status: string, problem?: unknown): Promise<void> {
    return this.enqueue('status', [
      status,
      status === 'FAILED' ? 'failed' : 'succeeded',
      problem === undefined ? null : JSON.stringify(problem),
      row,
    ]);
  }

  /** Rows whose transfer is known but not yet at an end (for --wait). */
  pendingTransfers(): { row: number; transfer_id: string }[] {
    return this.db
      .prepare(
        `SELECT row, transfer_id FROM rows WHERE state = 'succeeded' AND status NOT IN ('COMPLETED', 'FAILED') AND transfer_id IS NOT NULL ORDER BY row`,
      )
      .all() as { row: number; transfer_id: string }[];
  }

  /** Requeues rows for --resume: interrupted ones always, failed ones when asked. */
  /** Rows the service refused (no transfer exists for them): what --resume --retry-failed sends again. */
  refused(): number {
    return (
      this.db.prepare(`SELECT count(*) AS n FROM rows WHERE state = 'failed' AND transfer_id IS NULL`).get() as {
        n: number;
      }
    ).n;
  }

  requeue(retryFailed: boolean): void {
    const states = retryFailed ? `('sent', 'unknown', 'failed')` : `('sent', 'unknown')`;
    // A failed row whose transfer exists (it ended FAILED on chain) is final: resending its ref_id would only
    // answer already-exists.
    this.write(() =>
      this.db
        .prepare(`UPDATE rows SET state = 'planned', outcome = NULL WHERE state IN ${states} AND transfer_id IS NULL`)
        .run(),
    );
  }

  private enqueue(sql: 'sent' | 'result' | 'status', args: unknown[]): Promise<void> {
    if (this.closed) return Promise.reject(new JournalError('the journal is closed'));
    this.pending.push({ sql, args });
    const p = new Promise<void>((resolve, reject) => {
      this.waiters.push(resolve);
      this.failers.push(reject);
    });
    if (!this.scheduled) {
      // Answers recorded within a few milliseconds share one transaction and one fsync (a group commit); the
      // next markSentDurable takes them along earlier. Losing the last of them in a crash is safe: the row is sent
      // again with its ref_id and the service answers already-exists.
      this.scheduled = setTimeout(() => this.flush(), sql === 'sent' ? 0 : 100);
    }
    return p;
  }

  /** Commits queued writes now. */
  flush(): Error | undefined {
    if (this.scheduled) clearTimeout(this.scheduled);
    this.scheduled = undefined;
    if (!this.pending.length) return undefined;
    const batch = this.pending;
    const waiters = this.waiters;
    const failers = this.failers;
    this.pending = [];
    this.waiters = [];
    this.failers = [];
    const now = new Date().toISOString();
    const sent = this.stmt(`UPDATE rows SET state = 'sent', attempts = attempts + 1, updated_at = ? WHERE row = ?`);
    const result = this.stmt(
      `UPDATE rows SET state = ?, transfer_id = ?, status = ?, outcome = ?, amount = ?, fee = ?, total = ?, problem = ?, updated_at = ? WHERE row = ?`,
    );
    const status = this.stmt(
      `UPDATE rows SET status = ?, state = ?, problem = coalesce(?, problem), updated_at = ? WHERE row = ?`,
    );
    const t = performance.now();
    const answered: number[] = [];
    try {
      this.db.transaction(() => {
        for (const w of batch) {
          if (w.sql === 'sent') sent.run(now, w.args[0]);
          else if (w.sql === 'result') {
            result.run(...w.args.slice(0, 8), now, w.args[8]);
            answered.push(w.args[8] as number);
          } else {
            status.run(w.args[0], w.args[1], w.args[2], now, w.args[3]);
            answered.push(w.args[3] as number);
          }
        }
      })();
    } catch (e) {
      const err = new WriteError('batch journal', this.path, e);
      for (const f of failers) f(err);
      return err;
    } finally {
      this.commitMs += performance.now() - t;
    }
    // Written: each waiter is answered once the WAL's fsync has it on disk.
    if (waiters.length || this.onDurable)
      this.wal.sync().then(
        () => {
          for (const w of waiters) w();
          this.onDurable?.(answered);
        },
        (error: unknown) => {
          const err = new WriteError('batch journal', this.path, error);
          for (const f of failers) f(err);
        },
      );
    return undefined;
  }

  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.wal.close();
    this.db.close();
    releaseLock(this.lockPath);
  }

  /**
   * Closes the journal, and deletes it if this run created it and planned nothing in it (a batch refused or
   * cancelled before its rows were recorded leaves no file behind).
   */
  discard(): void {
    if (this.closed) return;
    if (!this.fresh || this.count() > 0) return this.close();
    this.closed = true;
    this.wal.close();
    this.db.close();
    for (const f of [this.path, `${this.path}-wal`, `${this.path}-shm`]) {
      try {
        unlinkSync(f);
      } catch {
        /* not there */
      }
    }
    releaseLock(this.lockPath);
  }
}

/** A lock without a pid younger than this may be a coinop that has created it and is about to write its pid. */
const LOCK_GRACE_MS = 10_000;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** The lock's owner: its pid, 'young' (no pid yet, just created: held), 'stale' (no pid, old) or 'gone'. */
function lockOwner(lockPath: string): number | 'young' | 'stale' | 'gone' {
  for (let i = 0; ; i++) {
    let text: string;
    let mtime: number;
    try {
      text = readFileSync(lockPath, 'utf8').trim();
      mtime = statSync(lockPath).mtimeMs;
    } catch {
      return 'gone';
    }
    const pid = Number(text);
    if (/^\d+$/.test(text) && pid > 0) return pid;
    if (Date.now() - mtime >= LOCK_GRACE_MS) return 'stale';
    // Created a moment ago and not yet written: give its owner a moment to write the pid.
    if (i >= 10) return 'young';
    sleepSync(20);
  }
}

/** One coinop at a time per journal: a lock file holding the owner's pid; a dead owner's lock is taken over. */
function takeLock(lockPath: string): void {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST')
        throw new JournalError(`cannot lock the journal (${(e as Error).message})`);
      const owner = lockOwner(lockPath);
      if (owner === 'gone') continue;
      if (owner === 'young') {
        throw new JournalError(
          `another coinop is opening this batch (its lock ${lockPath} has no pid yet); wait for it, or if no coinop is running, remove ${lockPath}`,
        );
      }
      if (owner !== 'stale' && owner !== process.pid && isAlive(owner)) {
        throw new JournalError(
          `another coinop (pid ${owner}) is running this batch; wait for it or stop it first (if no coinop is running, remove ${lockPath})`,
        );
      }
      // The owner died (killed or crashed): replace its lock atomically.
      const stale = `${lockPath}.${process.pid}.stale`;
      try {
        renameSync(lockPath, stale);
        unlinkSync(stale);
      } catch {
        /* someone else took it over first; try again */
      }
    }
  }
  throw new JournalError(`cannot lock the journal ${lockPath}`);
}

function releaseLock(lockPath: string): void {
  try {
    if (Number(readFileSync(lockPath, 'utf8').trim()) === process.pid) unlinkSync(lockPath);
  } catch {
    /* gone already */
  }
}

function setMeta(db: DatabaseType, values: Partial<JournalMeta>): void {
  const put = db.prepare(
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  );
  db.transaction(() => {
    for (const [k, v] of Object.entries(values)) if (v !== undefined) put.run(k, v);
  })();
}

/** Opens the SQLite file; a new journal gets its application id, tables and version before anything else. */
function openDb(path: string, fresh: boolean): DatabaseType {
  const Database = require('better-sqlite3') as typeof import('better-sqlite3');
  let db: DatabaseType | undefined;
  try {
    db = new Database(path);
    // Written into the header while the file is still in rollback mode: the mark inspect() knows a journal by.
    if (fresh) db.pragma(`application_id = ${JOURNAL_APP_ID}`);
    // NORMAL: a commit is written to the WAL without an fsync; the rows a request is about to leave for are made
    // durable by an fsync of the WAL off the main thread (WalSync), awaited before the request leaves. A cache of 2 MB:
    // a batch reads and writes its rows a window at a time, in row order.
    walPragmas(db, 2000);
    if (!fresh) {
      const check = db.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw damaged(path, String(check));
    }
    db.exec(`
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS rows (
        row INTEGER PRIMARY KEY, ref_id TEXT UNIQUE, state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
        asset TEXT, crypto_network TEXT, destination_address TEXT, req_amount TEXT, req_total TEXT,
        transfer_id TEXT, status TEXT, outcome TEXT, amount TEXT, fee TEXT, total TEXT, problem TEXT, body TEXT,
        row_hash TEXT, updated_at TEXT NOT NULL);
    `);
    if (fresh) setMeta(db, { version: JOURNAL_VERSION });
    return db;
  } catch (e) {
    db?.close();
    if (e instanceof JournalError) throw e;
    const code = (e as { code?: string }).code ?? '';
    // Damage SQLite finds on opening; anything else (a full disk, no permission) is a write error of the caller's.
    if (/^SQLITE_(CORRUPT|NOTADB)/.test(code) || /malformed|not a database/i.test((e as Error).message))
      throw damaged(path, (e as Error).message);
    throw e;
  }
}

/** A journal read back without taking its lock or writing beside it (coinop reconcile): its meta and rows, lazily. */
export interface JournalReading {
  meta: Partial<JournalMeta>;
  /** Every row but invalid ones, in row order. */
  rows(): IterableIterator<JournalRow>;
  close(): void;
}

/**
 * Opens a journal read-only; undefined when the file is empty or gone. A file that is not a coinop journal is a
 * JournalError, and is left untouched.
 */
export function readJournal(path: string): JournalReading | undefined {
  if (inspect(path)) return undefined;
  const Database = require('better-sqlite3') as typeof import('better-sqlite3');
  const db = new Database(path, { readonly: true, fileMustExist: true });
  const meta: Record<string, string> = {};
  for (const r of db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[])
    meta[r.key] = r.value;
  return {
    meta: meta as Partial<JournalMeta>,
    rows: () =>
      db.prepare("SELECT * FROM rows WHERE state != 'invalid' ORDER BY row").iterate() as IterableIterator<JournalRow>,
    close: () => db.close(),
  };
}
