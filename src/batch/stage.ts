// The staged batch: every row of the file as it was read, validated and totalled, kept in a private SQLite file
// until the journal takes it over. The dry run, the guards and the journal read from here, never from the file.
import { closeSync, openSync, readdirSync, unlinkSync } from 'node:fs';
import { privateDir } from '../config/private-files.js';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { Database as DatabaseType, Statement } from 'better-sqlite3';
import { canonicalAddress } from '../contract/index.js';
import type { BatchRow, GivenFields } from './rows.js';
import { deriveRefId, nthRefId, saltedRefId, stagedText } from './ref-ids.js';
import { isAlive } from './pid.js';
import { WriteError } from './write-error.js';

const require = createRequire(import.meta.url);

/** A valid row as staged: the request body exactly as validated (JSON), with its final ref_id. */
export interface StagedRow {
  row: number;
  line: number;
  ref_id: string;
  derived: number;
  body: string;
  profile_id: string | null;
  asset: string | null;
  crypto_network: string | null;
  destination_address: string | null;
  amount: string | null;
  total: string | null;
  /** The balance it is debited from when not its asset's own (the funds' preflight). */
  balance_asset: string | null;
}

/** A row --skip-invalid leaves out: its issues in one line, and what it gave of the fields a report shows. */
export interface InvalidRow {
  row: number;
  issues: string;
  given: GivenFields;
}

/** A staged row some other batch already paid (found in the service, or in this machine's record of sent ref_ids). */
export interface StagedRepeat extends StagedRow {
  seen_transfer: string | null;
  seen_status: string | null;
  /** When the service created its transfer. */
  seen_created: string | null;
  /** When this machine sent it, and in which batch's journal. */
  seen_at: string | null;
  seen_journal: string | null;
}

/**
 * The fields a listing, the journal or the funds' preflight read of a staged row: columns of their own, taken from the
 * body as it is staged, so that reading them does not parse it.
 */
const FIELDS = ['profile_id', 'asset', 'crypto_network', 'destination_address', 'amount', 'total', 'balance_asset'];

/** A staged body's FIELDS, in order (null where it has none). */
function fieldsOf(body: Record<string, unknown>): (string | null)[] {
  return FIELDS.map((field) => {
    const value = body[field];
    return typeof value === 'string' ? value : null;
  });
}

/** A valid row as staged (its columns, in the order of the INSERT): row, line, derived, ref_id, body, then FIELDS. */
type StagedValues = [
  row: number,
  line: number,
  derived: number,
  refId: string,
  body: string,
  ...fields: (string | null)[],
];

const PAGE = 1000;
const FLUSH_AT = 500;
/**
 * A batch of at most this many valid rows is read from the staged copy once and then kept in memory (a few MB): the
 * policy, the funds, the digest and the plan each go over every row, and the file's reads are most of their time.
 */
const KEEP_ROWS = 10_000;

export class Stage {
  private buffer: StagedValues[] = [];
  private invalidBuffer: unknown[][] = [];
  private readonly stmts = new Map<string, Statement>();
  private closed = false;
  /** The valid rows as last read (KEEP_ROWS at most); dropped by every write that changes them. */
  private kept: readonly Readonly<StagedRow>[] | undefined;
  /** Counts the writes that change valid rows (a read that saw one keeps nothing). */
  private version = 0;
  /**
   * The valid rows as they are staged, while they are KEEP_ROWS or fewer: kept by finish() when no row's ref_id
   * changed there, so the first reader does not read back what was just written.
   */
  private staging: Readonly<StagedRow>[] | undefined = [];
  /**
   * The valid rows held unwritten, while no row is in the file yet (undefined once one is): a batch whose rows are
   * all kept (KEEP_ROWS or fewer, fewer than FLUSH_AT invalid ones) and none of them sharing a ref_id is not written
   * at all unless something reads or changes the copy with SQL (marking repeats, salting them, listing invalid rows):
   * `db` writes the rows held first (materialize). They are the kept rows themselves (`staging`, then `kept`), not a
   * second copy, which for a file of more rows would live long enough to make V8 allocate every later row's values as
   * long-lived (the validation of 200,000 rows took 3% longer).
   */
  private held: readonly Readonly<StagedRow>[] | undefined = this.staging;
  /** finish() ran with every row held in memory: its index is made when they are written. */
  private finishedUnwritten = false;

  private constructor(
    readonly path: string,
    private readonly file: DatabaseType,
  ) {}

  /** The staged copy's database, with every row held so far written to it first. */
  private get db(): DatabaseType {
    if (this.held) this.materialize();
    return this.file;
  }

  /** Writes the rows held in memory (the same rows as kept: nothing kept changes), and the index finish() made. */
  private materialize(): void {
    this.releaseHeld();
    this.writeHeld();
    if (this.finishedUnwritten) this.write(() => this.file.exec('CREATE INDEX staged_ref ON staged (ref_id)'));
  }

  /** The rows held unwritten join those to write next (once): from then on every row is written as it comes. */
  private releaseHeld(): void {
    const held = this.held;
    this.held = undefined;
    for (const row of held ?? []) this.buffer.push(valuesOf(row));
  }

  /** Whether rows are held in memory instead of written: while every valid row so far is kept and none is written. */
  private holding(): boolean {
    return this.held !== undefined && this.staging !== undefined;
  }

  /** A new private staging file in `dir` (0600), removed by remove(); one left by a killed run is removeStale's. */
  static create(dir: string): Stage {
    privateDir(dir);
    const path = join(dir, `staging-${process.pid}-${randomBytes(4).toString('hex')}.db`);
    closeSync(openSync(path, 'wx', 0o600));
    const Database = require('better-sqlite3') as typeof import('better-sqlite3');
    const db = new Database(path);
    try {
      // A scratch copy: nothing to recover after a crash, so no rollback journal and no fsync.
      db.pragma('journal_mode = OFF');
      db.pragma('synchronous = OFF');
      // Rows are appended in order and read back page by page: a small cache does, and keeps memory flat.
      db.pragma('cache_size = -2000');
      db.exec(`CREATE TABLE staged (
        row INTEGER PRIMARY KEY, line INTEGER NOT NULL, derived INTEGER NOT NULL, ref_id TEXT, body TEXT, issues TEXT, given TEXT,
        ${FIELDS.map((field) => `${field} TEXT`).join(', ')},
        repeat INTEGER NOT NULL DEFAULT 0, seen_transfer TEXT, seen_status TEXT, seen_created TEXT, seen_at TEXT, seen_journal TEXT)`);
    } catch (e) {
      db.close();
      unlinkQuietly(path);
      throw new WriteError('staged copy of the batch', path, e);
    }
    return new Stage(path, db);
  }

  /** A write changed (or may change) the valid rows: what was kept of them goes. */
  private changed(): void {
    this.kept = undefined;
    this.version++;
  }

  private stmt(sql: string): Statement {
    let s = this.stmts.get(sql);
    if (!s) this.stmts.set(sql, (s = this.db.prepare(sql)));
    return s;
  }

  private write<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      throw new WriteError('staged copy of the batch', this.path, e);
    }
  }

  /**
   * A valid row: a derived ref_id is that of a first occurrence until finish() counts identical rows. Its destination
   * is staged (and so sent, and its ref_id derived) in its one spelling: the same payment written another way (an
   * address's case, a CashAddr's prefix) is the same row (issue 23).
   */
  addValid(row: BatchRow): void {
    const body = row.body as unknown as Record<string, unknown>;
    const { crypto_network: network, destination_address: address } = body;
    if (typeof network === 'string' && typeof address === 'string')
      body.destination_address = canonicalAddress(network, address);
    let values: StagedValues;
    if (row.derived) {
      const { text, key } = stagedText(body);
      values = [row.row, row.line, 1, deriveRefId(key, 1), text, ...fieldsOf(body)];
    } else values = [row.row, row.line, 0, String(body.ref_id), JSON.stringify(body), ...fieldsOf(body)];
    this.keepStaged(values);
    if (this.holding()) return;
    this.buffer.push(values);
    if (this.buffer.length >= FLUSH_AT) this.flush();
  }

  /** A valid row's staged values kept as the row valid() reads (rows in file order, KEEP_ROWS of them at most). */
  private keepStaged([row, line, derived, ref_id, body, ...fields]: StagedValues): void {
    const staging = this.staging;
    if (!staging) return;
    if (staging.length >= KEEP_ROWS || (staging.length && staging[staging.length - 1].row >= row)) {
      // Not kept: the rows held so far are written with the next ones.
      this.releaseHeld();
      this.staging = undefined;
      return;
    }
    // FIELDS' order, as fieldsOf wrote them (spelled out: this runs for every row; test/batch/stage.test.ts compares
    // these rows with the staged copy's, so an order that drifts from FIELDS fails it).
    const [profile_id, asset, crypto_network, destination_address, amount, total, balance_asset] = fields;
    staging.push(
      Object.freeze({
        row,
        line,
        ref_id,
        derived,
        body,
        profile_id,
        asset,
        crypto_network,
        destination_address,
        amount,
        total,
        balance_asset,
      }),
    );
  }

  /** An invalid row, its issues in one line and what it gave (kept for --skip-invalid's report). */
  addInvalid(row: number, line: number, issues: string, given: GivenFields = {}): void {
    this.invalidBuffer.push([row, line, issues, JSON.stringify(given)]);
    if (this.invalidBuffer.length >= FLUSH_AT) this.flush();
  }

  flush(): void {
    this.changed();
    this.releaseHeld();
    this.writeHeld();
  }

  /** The valid and invalid rows held since the last write, in one transaction. */
  private writeHeld(): void {
    const rows = this.buffer;
    const invalid = this.invalidBuffer;
    this.buffer = [];
    this.invalidBuffer = [];
    if (!rows.length && !invalid.length) return;
    const ins = this.stmt(
      `INSERT INTO staged (row, line, derived, ref_id, body, ${FIELDS.join(', ')}) VALUES (?, ?, ?, ?, ?, ${FIELDS.map(() => '?').join(', ')})`,
    );
    const bad = this.stmt('INSERT INTO staged (row, line, derived, issues, given) VALUES (?, ?, 0, ?, ?)');
    this.write(() =>
      this.file.transaction(() => {
        for (const r of rows) ins.run(...r);
        for (const r of invalid) bad.run(...r);
      })(),
    );
  }

  /**
   * Counts identical rows: the second of two identical payouts gets `-2`, and so on, in file order. Returns the rows
   * whose ref_id another row of the file already has (a given ref_id that looks like a derived one).
   */
  finish(): { row: number; ref_id: string; first: number }[] {
    if (this.holding() && distinctRefIds(this.staging ?? [])) {
      // Nothing to count and no ref_id twice: the rows as staged are the rows as read, and stay in memory.
      this.kept = this.staging;
      this.staging = undefined;
      this.finishedUnwritten = true;
      return [];
    }
    this.flush();
    this.changed();
    return this.write(() => {
      this.db.exec('CREATE INDEX staged_ref ON staged (ref_id)');
      this.db.function('nth_ref_id', { deterministic: true }, (first, n) => nthRefId(String(first), Number(n)));
      const counted = this.db
        .prepare(`UPDATE staged SET ref_id = nth_ref_id(o.ref_id, o.n)
        FROM (SELECT row, ref_id, row_number() OVER (PARTITION BY ref_id ORDER BY row) AS n FROM staged
              WHERE derived = 1 AND ref_id IN (SELECT ref_id FROM staged WHERE derived = 1 GROUP BY ref_id HAVING count(*) > 1)) AS o
        WHERE staged.row = o.row AND o.n > 1`)
        .run();
      // The rows as staged are the rows as read while no ref_id changed here.
      if (!counted.changes && this.staging) this.kept = this.staging;
      this.staging = undefined;
      return this.db
        .prepare(`SELECT s.row, s.ref_id, f.first FROM staged s
          JOIN (SELECT ref_id, min(row) AS first FROM staged WHERE ref_id IS NOT NULL GROUP BY ref_id HAVING count(*) > 1) f
          ON f.ref_id = s.ref_id WHERE s.row > f.first ORDER BY s.row`)
        .all() as { row: number; ref_id: string; first: number }[];
    });
  }

  /** Valid rows in file order, a page at a time (bounded memory, and no statement held open between pages). */
  *valid(): Generator<Readonly<StagedRow>> {
    if (this.kept) return yield* this.kept;
    const page = this.stmt(
      `SELECT row, line, ref_id, derived, body, ${FIELDS.join(', ')} FROM staged WHERE body IS NOT NULL AND row > ? ORDER BY row LIMIT ${PAGE}`,
    );
    // Kept while the rows read so far are few; a bigger batch is read a page at a time, every time.
    const version = this.version;
    let keep: Readonly<StagedRow>[] | undefined = [];
    for (let after = 0; ; ) {
      const rows = (page.all(after) as StagedRow[]).map((r) => Object.freeze(r));
      if (!rows.length) break;
      if (keep && keep.length + rows.length <= KEEP_ROWS) for (const r of rows) keep.push(r);
      else keep = undefined;
      yield* rows;
      after = rows[rows.length - 1].row;
    }
    // Read to the end with nothing written meanwhile: what the next reader gets without reading the file.
    if (keep && version === this.version) this.kept = keep;
  }

  /** Invalid rows (--skip-invalid) with their issues and what they gave. */
  *invalid(): Generator<InvalidRow> {
    if (this.held && !this.invalidBuffer.length) return;
    const page = this.stmt(
      `SELECT row, issues, given FROM staged WHERE issues IS NOT NULL AND row > ? ORDER BY row LIMIT ${PAGE}`,
    );
    for (let after = 0; ; ) {
      const rows = page.all(after) as { row: number; issues: string; given: string | null }[];
      if (!rows.length) return;
      for (const r of rows) yield { row: r.row, issues: r.issues, given: r.given ? JSON.parse(r.given) : {} };
      after = rows[rows.length - 1].row;
    }
  }

  /** Valid rows whose ref_id was derived, `size` at a time: the rows a guard looks up. */
  *derivedPages(size: number): Generator<{ row: number; ref_id: string; profile_id: string }[]> {
    if (this.kept) return yield* keptPages(this.kept, size);
    const page = this.stmt(
      `SELECT row, ref_id, profile_id FROM staged WHERE derived = 1 AND body IS NOT NULL AND row > ? ORDER BY row LIMIT ?`,
    );
    for (let after = 0; ; ) {
      const rows = page.all(after, size) as { row: number; ref_id: string; profile_id: string }[];
      if (!rows.length) return;
      yield rows;
      after = rows[rows.length - 1].row;
    }
  }

  /** The service holds a transfer with this ref_id. */
  markSeen(refId: string, transfer: { id: string; status?: string; created_at?: string }): void {
    this.write(() =>
      this.stmt(
        'UPDATE staged SET repeat = 1, seen_transfer = ?, seen_status = ?, seen_created = ? WHERE ref_id = ? AND derived = 1',
      ).run(transfer.id, transfer.status ?? null, transfer.created_at ?? null, refId),
    );
  }

  /** This machine sent the row's ref_id in another batch. */
  markRecorded(row: number, at: string, journal: string): void {
    this.write(() =>
      this.stmt('UPDATE staged SET repeat = 1, seen_at = ?, seen_journal = ? WHERE row = ?').run(at, journal, row),
    );
  }

  repeatCount(): number {
    // Marking a repeat writes the copy: while nothing is written, none is marked.
    if (this.held) return 0;
    return (this.stmt('SELECT count(*) AS n FROM staged WHERE repeat = 1').get() as { n: number }).n;
  }

  *repeats(): Generator<StagedRepeat> {
    if (this.held) return;
    const page = this.stmt(`SELECT * FROM staged WHERE repeat = 1 AND row > ? ORDER BY row LIMIT ${PAGE}`);
    for (let after = 0; ; ) {
      const rows = page.all(after) as StagedRepeat[];
      if (!rows.length) return;
      yield* rows;
      after = rows[rows.length - 1].row;
    }
  }

  /** --allow-repeat: the repeated rows take ref_ids of this batch alone, so the service really pays them again. */
  saltRepeats(batchId: string): void {
    this.changed();
    this.write(() => {
      this.db.function('salted_ref_id', { deterministic: true }, (id) => saltedRefId(String(id), batchId));
      this.db.exec('UPDATE staged SET ref_id = salted_ref_id(ref_id) WHERE repeat = 1');
    });
  }

  /**
   * Closes and deletes the staged copy, and lets go of the rows it held in memory: once the journal holds the rows
   * (planBatch), nothing reads the copy again, and its rows (several MB for 10,000) would otherwise live on through
   * the whole sending, the part of a batch where its memory peaks.
   */
  remove(): void {
    this.held = undefined;
    this.staging = undefined;
    this.changed();
    if (!this.closed) {
      this.closed = true;
      try {
        this.file.close();
      } catch {
        /* closing anyway */
      }
    }
    unlinkQuietly(this.path);
  }
}

/** The kept rows whose ref_id was derived, `size` at a time (what derivedPages reads of the staged copy). */
function* keptPages(
  kept: readonly Readonly<StagedRow>[],
  size: number,
): Generator<{ row: number; ref_id: string; profile_id: string }[]> {
  let page: { row: number; ref_id: string; profile_id: string }[] = [];
  for (const r of kept) {
    if (r.derived !== 1) continue;
    page.push({ row: r.row, ref_id: r.ref_id, profile_id: r.profile_id as string });
    if (page.length === size) {
      yield page;
      page = [];
    }
  }
  if (page.length) yield page;
}

/** No two rows share a ref_id (finish() has nothing to count or report). */
function distinctRefIds(rows: readonly Readonly<StagedRow>[]): boolean {
  const seen = new Set<string>();
  for (const r of rows) {
    if (seen.has(r.ref_id)) return false;
    seen.add(r.ref_id);
  }
  return true;
}

/** A kept row's values, in the INSERT's order (FIELDS' order after the first five). */
function valuesOf(kept: Readonly<StagedRow>): StagedValues {
  return [
    kept.row,
    kept.line,
    kept.derived,
    kept.ref_id,
    kept.body,
    kept.profile_id,
    kept.asset,
    kept.crypto_network,
    kept.destination_address,
    kept.amount,
    kept.total,
    kept.balance_asset,
  ];
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    /* gone already */
  }
}

/**
 * Removes what killed runs left in the batches directory: staged copies and the standard-input spools of older
 * versions (payout data, whose process is gone).
 */
export function removeStale(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^(?:staging-(\d+)-[0-9a-f]+\.db|stdin-(\d+)-\d+\.spool)$/.exec(name);
    if (!m) continue;
    const pid = Number(m[1] ?? m[2]);
    if (pid !== process.pid && !isAlive(pid)) unlinkQuietly(join(dir, name));
  }
}
