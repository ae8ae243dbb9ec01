// The local service's database: schema, migrations and every query (the only module that speaks SQL).
// Correctness under several processes sharing one file comes from SQLite transactions (WAL, BEGIN IMMEDIATE).
import { existsSync } from 'node:fs';
import { privateDatabase } from '../config/private-files.js';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { randomUUID } from './lazy-crypto.js';
import BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);

// Set by scripts/build.mjs in the local service's bundle: the addon's path from the bundle's folder, as the build found it.
declare const __BETTER_SQLITE3_ADDON__: string | undefined;

/**
 * The addon's own path, so better-sqlite3 skips the `bindings` package's search of a dozen places (a few ms of the
 * embedded service's start); undefined when it is not where a normal install puts it. The built service knows it
 * from the build (resolving the package at run time, with its realpath calls, was about 1 ms of every start); when
 * that file is not there (the install moved), the package is resolved as before.
 */
let addonPath: string | null | undefined = null;
function nativeBinding(): string | undefined {
  if (addonPath === null) {
    if (typeof __BETTER_SQLITE3_ADDON__ === 'string') {
      const built = join(dirname(fileURLToPath(import.meta.url)), __BETTER_SQLITE3_ADDON__);
      if (existsSync(built)) return (addonPath = built);
    }
    try {
      const file = join(
        dirname(require.resolve('better-sqlite3/package.json')),
        'build',
        'Release',
        'better_sqlite3.node',
      );
      addonPath = existsSync(file) ? file : undefined;
    } catch {
      addonPath = undefined;
    }
  }
  return addonPath;
}

/**
 * 2: service profiles as the API shows them (a type, a description, a creation time).
 * 3: the address book, fiat deposit instructions (which now hold the memo_ids profiles held), transfer limit rules
 * and the usage they are measured against.
 * 4: the event feed (every state change of a transfer or deposit address, in the order it happened).
 * 5: fiat accounts (where fiat withdrawals go).
 * 6: stablecoin conversions.
 * 7: address verifications, and the monthly statements with their payments.
 * migrations.ts brings an older database up, a step at a time.
 */
export const SCHEMA_VERSION = 7;

/** The columns of a profile (a profile's memo_ids are held by its fiat deposit instructions). */
const PROFILE_COLUMNS = `id TEXT PRIMARY KEY, customer_id TEXT NOT NULL, nickname TEXT,
  type TEXT NOT NULL DEFAULT 'NORMAL', description TEXT, created_ms INTEGER NOT NULL DEFAULT 0`;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS clients (
  id TEXT PRIMARY KEY, secret TEXT NOT NULL, scopes TEXT NOT NULL, allow_stream INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS tokens (
  token TEXT PRIMARY KEY, client_id TEXT NOT NULL, scopes TEXT NOT NULL, expires_ms INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS profiles (${PROFILE_COLUMNS});
CREATE TABLE IF NOT EXISTS balances (
  profile_id TEXT NOT NULL, asset TEXT NOT NULL, amount TEXT NOT NULL, PRIMARY KEY (profile_id, asset)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS fee_quotes (
  id TEXT PRIMARY KEY, asset TEXT NOT NULL, crypto_network TEXT NOT NULL, destination_address TEXT NOT NULL,
  amount TEXT NOT NULL, total TEXT NOT NULL, fee TEXT NOT NULL, quoted_by TEXT NOT NULL,
  created_ms INTEGER NOT NULL, expires_ms INTEGER NOT NULL, used_by TEXT);
CREATE TABLE IF NOT EXISTS transfers (
  seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, ref_id TEXT, profile_id TEXT NOT NULL,
  identity_id TEXT, type TEXT NOT NULL, status TEXT NOT NULL, crypto_tx_hash TEXT, group_id TEXT,
  balance_asset TEXT NOT NULL, total TEXT NOT NULL,
  created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL, settle_ms INTEGER, fails INTEGER NOT NULL DEFAULT 0,
  body TEXT NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS transfers_ref_id ON transfers(ref_id) WHERE ref_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS transfers_created ON transfers(created_ms, seq);
CREATE INDEX IF NOT EXISTS transfers_updated ON transfers(updated_ms, seq);
CREATE INDEX IF NOT EXISTS transfers_pending ON transfers(settle_ms) WHERE status = 'PENDING';
CREATE TABLE IF NOT EXISTS deposit_addresses (
  seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, ref_id TEXT, profile_id TEXT NOT NULL,
  identity_id TEXT, account_id TEXT, crypto_network TEXT NOT NULL, created_ms INTEGER NOT NULL, body TEXT NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS deposit_addresses_ref_id ON deposit_addresses(ref_id) WHERE ref_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS deposit_addresses_created ON deposit_addresses(created_ms, seq);
CREATE TABLE IF NOT EXISTS crypto_destination_addresses (
  seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, identity_id TEXT, crypto_network TEXT NOT NULL, address TEXT NOT NULL,
  nickname TEXT NOT NULL, bookmarked INTEGER NOT NULL, status TEXT NOT NULL, travelrule_json TEXT, created_ms INTEGER NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS crypto_destination_addresses_key
  ON crypto_destination_addresses(crypto_network, address, COALESCE(identity_id, ''));
CREATE UNIQUE INDEX IF NOT EXISTS crypto_destination_addresses_nickname
  ON crypto_destination_addresses(COALESCE(identity_id, ''), nickname);
CREATE INDEX IF NOT EXISTS crypto_destination_addresses_created ON crypto_destination_addresses(created_ms, seq);
CREATE TABLE IF NOT EXISTS fiat_deposit_instructions (
  seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, ref_id TEXT, profile_id TEXT NOT NULL, identity_id TEXT, account_id TEXT,
  fiat_network TEXT NOT NULL, routing_number_type TEXT, memo_id TEXT NOT NULL UNIQUE, status TEXT NOT NULL,
  metadata_json TEXT, created_ms INTEGER NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS fiat_deposit_instructions_ref_id ON fiat_deposit_instructions(ref_id) WHERE ref_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS fiat_deposit_instructions_created ON fiat_deposit_instructions(created_ms, seq);
CREATE INDEX IF NOT EXISTS fiat_deposit_instructions_profile ON fiat_deposit_instructions(profile_id, seq);
CREATE TABLE IF NOT EXISTS transfer_limit_rules (
  seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, limit_id TEXT, transfer_types TEXT NOT NULL,
  period_seconds INTEGER NOT NULL, amount TEXT NOT NULL, limit_asset TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS transfer_usage (
  type TEXT NOT NULL, asset TEXT NOT NULL, minute INTEGER NOT NULL, total TEXT NOT NULL, usd TEXT NOT NULL,
  PRIMARY KEY (type, asset, minute)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, object_type TEXT NOT NULL,
  object_id TEXT NOT NULL, created_ms INTEGER NOT NULL, object TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS events_created ON events(created_ms, seq);
CREATE INDEX IF NOT EXISTS events_type ON events(type, created_ms, seq);
CREATE TABLE IF NOT EXISTS fiat_accounts (
  seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, ref_id TEXT, identity_id TEXT, status TEXT NOT NULL,
  review_ms INTEGER, deleted INTEGER NOT NULL DEFAULT 0, created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL,
  body TEXT NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS fiat_accounts_ref_id ON fiat_accounts(ref_id) WHERE ref_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS fiat_accounts_created ON fiat_accounts(created_ms, seq);
CREATE TABLE IF NOT EXISTS conversions (
  seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, ref_id TEXT, profile_id TEXT NOT NULL, status TEXT NOT NULL,
  created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL, settle_ms INTEGER, fails INTEGER NOT NULL DEFAULT 0,
  body TEXT NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS conversions_ref_id ON conversions(ref_id) WHERE ref_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS conversions_created ON conversions(created_ms, seq);
CREATE INDEX IF NOT EXISTS conversions_due ON conversions(status, settle_ms);
CREATE TABLE IF NOT EXISTS address_verifications (
  seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, ref_id TEXT, network TEXT NOT NULL, address TEXT NOT NULL,
  method TEXT NOT NULL, status TEXT NOT NULL, nonce TEXT NOT NULL, message TEXT NOT NULL, signature TEXT,
  created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL, expires_ms INTEGER NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS address_verifications_ref_id ON address_verifications(ref_id) WHERE ref_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS address_verifications_created ON address_verifications(created_ms, seq);
CREATE TABLE IF NOT EXISTS statements (
  seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, ref_id TEXT NOT NULL UNIQUE, customer_id TEXT NOT NULL,
  status TEXT NOT NULL, period_start_ms INTEGER NOT NULL, period_end_ms INTEGER NOT NULL, created_ms INTEGER NOT NULL,
  paid_ms INTEGER, body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS statements_created ON statements(created_ms, seq);
CREATE TABLE IF NOT EXISTS statement_payments (
  seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, ref_id TEXT NOT NULL UNIQUE, statement_id TEXT NOT NULL,
  customer_id TEXT NOT NULL, product TEXT NOT NULL, status TEXT NOT NULL, created_ms INTEGER NOT NULL,
  processed_ms INTEGER NOT NULL, body TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS statement_payments_created ON statement_payments(created_ms, seq);
CREATE TABLE IF NOT EXISTS price_averages (
  seed INTEGER NOT NULL, market TEXT NOT NULL, step INTEGER NOT NULL, k INTEGER NOT NULL, average TEXT NOT NULL,
  PRIMARY KEY (seed, market, step, k)) WITHOUT ROWID;
`;

/** The meta key holding the schema SQL the database last took (Store's constructor). */
export const SCHEMA_SQL_KEY = 'schema_sql';

/** Each customer's first profile is its DEFAULT one (the service made it with the customer). */
const MARK_DEFAULT_PROFILES = `UPDATE profiles SET type = 'DEFAULT'
  WHERE rowid IN (SELECT MIN(rowid) FROM profiles GROUP BY customer_id)
  AND NOT EXISTS (SELECT 1 FROM profiles d WHERE d.customer_id = profiles.customer_id AND d.type = 'DEFAULT')`;

/** Tables that make up the exported state, in an order that import can insert. */
const STATE_TABLES = [
  'clients',
  'profiles',
  'balances',
  'fee_quotes',
  'transfers',
  'deposit_addresses',
  'crypto_destination_addresses',
  'fiat_deposit_instructions',
  'transfer_limit_rules',
  'events',
  'fiat_accounts',
  'conversions',
  'address_verifications',
  'statements',
  'statement_payments',
] as const;
type StateTable = (typeof STATE_TABLES)[number];
/** Tables worked out from the state (limits.ts rebuilds them after an import): cleared with it, never exported. */
const DERIVED_TABLES = ['transfer_usage'] as const;

export interface ClientRow {
  id: string;
  secret: string;
  scopes: string;
  allow_stream: number;
}
export interface TokenRow {
  token: string;
  client_id: string;
  scopes: string;
  expires_ms: number;
}
export interface ProfileRow {
  id: string;
  customer_id: string;
  nickname: string | null;
  /** NORMAL or DEFAULT. */
  type: string;
  description: string | null;
  created_ms: number;
}
/** A new profile: without a type, it is DEFAULT when it is its customer's first, NORMAL otherwise. */
export type NewProfile = Omit<ProfileRow, 'type' | 'description'> & { type?: string; description?: string | null };
export interface BalanceRow {
  profile_id: string;
  asset: string;
  amount: string;
}
export interface FeeQuoteRow {
  id: string;
  asset: string;
  crypto_network: string;
  destination_address: string;
  amount: string;
  total: string;
  fee: string;
  quoted_by: string;
  created_ms: number;
  expires_ms: number;
  used_by: string | null;
}
export interface TransferRow {
  seq: number;
  id: string;
  ref_id: string | null;
  profile_id: string;
  identity_id: string | null;
  type: string;
  status: string;
  crypto_tx_hash: string | null;
  group_id: string | null;
  balance_asset: string;
  total: string;
  created_ms: number;
  updated_ms: number;
  settle_ms: number | null;
  fails: number;
  body: string;
}
/** The columns deposit addresses and deposit instructions share. */
interface DepositRowBase {
  seq: number;
  id: string;
  ref_id: string | null;
  profile_id: string;
  identity_id: string | null;
  account_id: string | null;
}
export interface DepositAddressRow extends DepositRowBase {
  crypto_network: string;
  created_ms: number;
  body: string;
}

export interface DestinationRow {
  seq: number;
  id: string;
  identity_id: string | null;
  crypto_network: string;
  address: string;
  nickname: string;
  /** 1 or 0. */
  bookmarked: number;
  status: string;
  travelrule_json: string | null;
  created_ms: number;
}
export interface DepositInstructionsRow extends DepositRowBase {
  fiat_network: string;
  routing_number_type: string | null;
  memo_id: string;
  status: string;
  metadata_json: string | null;
  created_ms: number;
}
/**
 * A fiat account: `body` holds what its owner gave (owner, network instructions, metadata, identity and account ids);
 * PENDING until `review_ms` by the service clock, then APPROVED; `deleted` 1 once deleted (kept, as the hosted
 * service lists deleted ones on request).
 */
export interface FiatAccountRow {
  seq: number;
  id: string;
  ref_id: string | null;
  identity_id: string | null;
  status: string;
  review_ms: number | null;
  deleted: number;
  created_ms: number;
  updated_ms: number;
  body: string;
}
/**
 * A stablecoin conversion: `body` holds what was asked (the resource's fields that never change); CREATED until
 * `settle_ms` by the service clock, then SETTLED (or FAILED when `fails`), or CANCELLED before that.
 */
export interface ConversionRow {
  seq: number;
  id: string;
  ref_id: string | null;
  profile_id: string;
  status: string;
  created_ms: number;
  updated_ms: number;
  settle_ms: number | null;
  fails: number;
  body: string;
}
/** An address verification: PENDING until its signature proves the address (APPROVED) or `expires_ms` passes (EXPIRED). */
export interface VerificationRow {
  seq: number;
  id: string;
  ref_id: string | null;
  network: string;
  address: string;
  method: string;
  status: string;
  nonce: string;
  message: string;
  signature: string | null;
  created_ms: number;
  updated_ms: number;
  expires_ms: number;
}
/**
 * A monthly statement, made once its month is over (created_ms: when it was generated); `body` holds its balances and
 * metadata. GENERATED, then PAID at `paid_ms` by the service clock when something was owed (its payment settles then).
 */
export interface StatementRow {
  seq: number;
  id: string;
  ref_id: string;
  customer_id: string;
  status: string;
  period_start_ms: number;
  period_end_ms: number;
  created_ms: number;
  paid_ms: number | null;
  body: string;
}
/** The payment of a statement: PAYMENT_STATUS_PENDING until `processed_ms`, then PAYMENT_STATUS_COMPLETED. */
export interface StatementPaymentRow {
  seq: number;
  id: string;
  ref_id: string;
  statement_id: string;
  customer_id: string;
  product: string;
  status: string;
  created_ms: number;
  processed_ms: number;
  body: string;
}
/** A transfer's effect on a balance, as statements reconstruct past balances: its direction, total, status, times. */
export interface BalanceMoveRow {
  profile_id: string;
  balance_asset: string;
  total: string;
  status: string;
  direction: string;
  created_ms: number;
  updated_ms: number;
}
export interface LimitRuleRow {
  id: string;
  /** The id of the limit a period rule measures; null for a rule on each single transfer. */
  limit_id: string | null;
  /** Space separated, in alphabetical order. */
  transfer_types: string;
  period_seconds: number;
  amount: string;
  limit_asset: string;
}
/** An event of the feed: `object` is the resource's JSON as GET answered it when the event happened. */
export interface EventRow {
  seq: number;
  id: string;
  type: string;
  object_type: string;
  object_id: string;
  created_ms: number;
  object: string;
}

export interface UsageRow {
  type: string;
  asset: string;
  /** Whole minutes since the epoch (service clock). */
  minute: number;
  total: string;
  usd: string;
}

export type TimeComparison = Partial<Record<'lt' | 'lte' | 'eq' | 'gte' | 'gt', number>>;

export interface ListQuery {
  /**
   * A field to its accepted values: a column, or a field the table keeps in its rows' JSON body only (BODY_FIELDS).
   */
  inFilters: Record<string, (string | number)[] | undefined>;
  /** Column name (created_ms, updated_ms) to comparisons. */
  timeFilters: Record<string, TimeComparison | undefined>;
  sortColumn: 'created_ms' | 'updated_ms';
  order: 'ASC' | 'DESC';
  /** Keyset position: only rows strictly after (sortValue, seq) in the list order. */
  after?: [number, number];
  limit: number;
  /** Column name to a prefix its value starts with, ignoring ASCII case. */
  prefixFilters?: Record<string, string | undefined>;
}

export interface StateExport {
  version: number;
  clock_offset_ms: number;
  tables: Record<StateTable, Record<string, unknown>[]>;
}

const CMP_SQL = { lt: '<', lte: '<=', eq: '=', gte: '>=', gt: '>' } as const;

/**
 * Whether a time filter `op bound` on the sort column holds for every row after a keyset position at `position` in the
 * direction `dir` (such rows have the column at or past the position): a lower bound at or before it (ascending), an
 * upper bound at or after it (descending).
 */
function impliedByPosition(op: string, bound: number, position: number, dir: '>' | '<'): boolean {
  if (dir === '>') return (op === 'gte' && bound <= position) || (op === 'gt' && bound < position);
  return (op === 'lte' && bound >= position) || (op === 'lt' && bound > position);
}

type ListTable =
  | 'transfers'
  | 'deposit_addresses'
  | 'profiles'
  | 'crypto_destination_addresses'
  | 'fiat_deposit_instructions'
  | 'fiat_accounts'
  | 'conversions'
  | 'address_verifications'
  | 'statements'
  | 'statement_payments'
  | 'events';

/** The list filters on a field kept only in a row's JSON body (no column of its own), per table: the SQL that reads it. */
const BODY_FIELDS: Partial<Record<ListTable, Record<string, string>>> = {
  transfers: {
    account_id: "json_extract(body, '$.account_id')",
    secondary_status: "json_extract(body, '$.secondary_status.name')",
  },
};

/** The SQL of a list filter's field: its body field's, else the column of that name (nothing else is taken). */
function fieldSql(table: ListTable, field: string): string {
  const sql = BODY_FIELDS[table]?.[field];
  if (sql) return sql;
  if (!/^[a-z_]+$/.test(field)) throw new Error(`internal: ${field} is not a field of ${table}`);
  return field;
}

export class Store {
  readonly db: BetterSqlite3.Database;
  readonly file: string;
  private readonly stmts = new Map<string, BetterSqlite3.Statement>();
  /** Changes whenever a transaction begins or meta is written: lets readers cache a value within one transaction. */
  txSerial = 0;

  constructor(file: string | null, busyTimeoutMs = 10_000) {
    this.file = file ?? ':memory:';
    // The database holds credentials and payouts: 0600 in a 0700 folder (SQLite gives its WAL and SHM that mode).
    if (file) privateDatabase(file);
    const addon = nativeBinding();
    this.db = addon ? new BetterSqlite3(this.file, { nativeBinding: addon }) : new BetterSqlite3(this.file);
    this.db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
    if (file) this.db.pragma('journal_mode = WAL');
    // NORMAL is durable across application crashes in WAL mode; only an OS crash can lose the last commits.
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('foreign_keys = OFF');
    this.immediate(() => {
      // The schema's SQL (CREATE ... IF NOT EXISTS only) runs once per text of it: a database that already took this
      // very text is not made to parse it again at every open (about 1.7 ms of each embedded start).
      if (!this.schemaApplied()) {
        this.db.exec(SCHEMA);
        this.setMeta(SCHEMA_SQL_KEY, SCHEMA);
      }
      const v = this.getMeta('schema_version');
      if (v === undefined) this.setMeta('schema_version', String(SCHEMA_VERSION));
      else if (Number(v) > SCHEMA_VERSION)
        throw new Error(`database ${this.file} has schema ${v}, newer than this coinop (${SCHEMA_VERSION})`);
      // An older schema is brought up by migrations.ts, which needs more than SQL.
      // Made once per database (inside the same transaction, so processes opening a new file at once agree).
      if (this.getMeta('instance_id') === undefined) this.setMeta('instance_id', randomUUID());
    });
  }

  /**
   * Whether this database took the schema's SQL as this build has it, at this build's schema version (no meta table
   * yet: it did not; an older version: the migrations may need what the SQL makes, so it runs again).
   */
  private schemaApplied(): boolean {
    if (!this.hasTable('meta')) return false;
    return this.getMeta(SCHEMA_SQL_KEY) === SCHEMA && this.getMeta('schema_version') === String(SCHEMA_VERSION);
  }

  /**
   * Which service this database is: a UUID made with the database and kept across restarts, replaced when the
   * ledger is replaced (reset, state import), so clients never mix up tokens or journals of two ledgers.
   */
  instanceId(): string {
    return this.getMeta('instance_id')!;
  }

  /** Commits queued group work first, so nothing accepted is lost on shutdown. */
  close(): void {
    if (!this.db.open) return;
    this.flushGroup();
    this.db.close();
  }

  /** A cached prepared statement. */
  stmt(sql: string): BetterSqlite3.Statement {
    let s = this.stmts.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.stmts.set(sql, s);
    }
    return s;
  }

  /**
   * Runs fn in a BEGIN IMMEDIATE transaction (the write lock is taken first, so read-then-write is safe across
   * processes); nested calls join the open transaction. Rolled back when fn throws.
   */
  immediate<T>(fn: () => T): T {
    if (this.db.inTransaction) return fn();
    this.stmt('BEGIN IMMEDIATE').run();
    this.txSerial++;
    try {
      const out = fn();
      this.stmt('COMMIT').run();
      return out;
    } catch (e) {
      if (this.db.inTransaction) this.stmt('ROLLBACK').run();
      throw e;
    }
  }

  private groupQueue: { fn: () => unknown; resolve: (v: unknown) => void; reject: (e: unknown) => void }[] = [];

  /**
   * Group commit: fn runs in a transaction shared with the other writes queued in the same turn of the event loop,
   * each inside its own savepoint (a job that throws rolls back only its own changes). The promise settles after
   * COMMIT, so nothing is answered before it is durable. One commit for many requests is what lets a file
   * database take thousands of withdrawals a second.
   */
  grouped<T>(fn: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.groupQueue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      if (this.groupQueue.length === 1) setImmediate(() => this.flushGroup());
    });
  }

  private flushGroup(): void {
    const jobs = this.groupQueue;
    this.groupQueue = [];
    if (!jobs.length) return;
    if (!this.db.open) {
      for (const job of jobs) job.reject(new Error('the local service database is closed'));
      return;
    }
    const outcomes: { ok: boolean; value: unknown }[] = [];
    try {
      this.stmt('BEGIN IMMEDIATE').run();
      this.txSerial++;
      for (const job of jobs) {
        this.stmt('SAVEPOINT job').run();
        try {
          const value = job.fn();
          this.stmt('RELEASE job').run();
          outcomes.push({ ok: true, value });
        } catch (e) {
          this.stmt('ROLLBACK TO job').run();
          this.stmt('RELEASE job').run();
          outcomes.push({ ok: false, value: e });
        }
      }
      this.stmt('COMMIT').run();
    } catch (e) {
      if (this.db.inTransaction) this.stmt('ROLLBACK').run();
      for (const job of jobs) job.reject(e);
      return;
    }
    jobs.forEach((job, index) => {
      if (outcomes[index].ok) job.resolve(outcomes[index].value);
      else job.reject(outcomes[index].value);
    });
  }

  // ---- the price model's averages -----------------------------------------------------------------------------
  // A completed period's average price is a function of the seed, the market and the period only; working one out
  // takes the price model 60 samples, which in a process that has just started (the embedded default) cost a page of
  // 100 points about 10 ms. The averages worked out are kept here for the next process. Not part of the exported
  // state (nothing a client did), and never trusted blindly: prices.ts checks one kept value against the model.

  /** Kept averages of periods firstK..lastK (k: the period's start / step), by k. */
  keptAverages(seed: number, market: string, step: number, firstK: number, lastK: number): Map<number, string> {
    const rows = this.stmt(
      'SELECT k, average FROM price_averages WHERE seed = ? AND market = ? AND step = ? AND k BETWEEN ? AND ?',
    ).all(seed, market, step, firstK, lastK) as { k: number; average: string }[];
    return new Map(rows.map((r) => [r.k, r.average]));
  }

  /**
   * Keeps averages (replacing what is kept for the same periods). Only when the database's write lock is free at
   * once: a read never waits for another process's writes for this; otherwise they are worked out again next time.
   */
  keepAverages(seed: number, market: string, step: number, averages: [k: number, average: string][]): void {
    if (!averages.length || this.db.inTransaction) return;
    const busy = this.db.pragma('busy_timeout', { simple: true }) as number;
    this.db.pragma('busy_timeout = 0');
    try {
      const insert = this.stmt(
        'INSERT OR REPLACE INTO price_averages (seed, market, step, k, average) VALUES (?, ?, ?, ?, ?)',
      );
      this.immediate(() => {
        for (const [k, average] of averages) insert.run(seed, market, step, k, average);
      });
    } catch (e) {
      if ((e as { code?: unknown }).code !== 'SQLITE_BUSY') throw e;
    } finally {
      this.db.pragma(`busy_timeout = ${busy}`);
    }
  }

  // ---- meta -------------------------------------------------------------------------------------------------
  /** Whether the database has a table of this name. */
  hasTable(name: string): boolean {
    return !!this.stmt("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name);
  }
  getMeta(key: string): string | undefined {
    return (this.stmt('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  }
  setMeta(key: string, value: string): void {
    this.txSerial++;
    this.stmt('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(
      key,
      value,
    );
  }

  // ---- clients and tokens -------------------------------------------------------------------------------------
  client(id: string): ClientRow | undefined {
    return this.stmt('SELECT * FROM clients WHERE id = ?').get(id) as ClientRow | undefined;
  }
  insertClient(row: ClientRow): void {
    this.stmt(
      'INSERT OR REPLACE INTO clients (id, secret, scopes, allow_stream) VALUES (@id, @secret, @scopes, @allow_stream)',
    ).run(row);
  }
  insertToken(row: TokenRow): void {
    this.stmt(
      'INSERT INTO tokens (token, client_id, scopes, expires_ms) VALUES (@token, @client_id, @scopes, @expires_ms)',
    ).run(row);
  }
  token(token: string): TokenRow | undefined {
    return this.stmt('SELECT * FROM tokens WHERE token = ?').get(token) as TokenRow | undefined;
  }
  deleteExpiredTokens(beforeMs: number): void {
    this.stmt('DELETE FROM tokens WHERE expires_ms < ?').run(beforeMs);
  }

  // ---- profiles and balances ----------------------------------------------------------------------------------
  profile(id: string): ProfileRow | undefined {
    return this.stmt('SELECT * FROM profiles WHERE id = ?').get(id) as ProfileRow | undefined;
  }
  profiles(): ProfileRow[] {
    return this.stmt('SELECT * FROM profiles ORDER BY rowid').all() as ProfileRow[];
  }
  insertProfile(profile: NewProfile): void {
    const type =
      profile.type ??
      (this.stmt('SELECT 1 FROM profiles WHERE customer_id = ? LIMIT 1').get(profile.customer_id)
        ? 'NORMAL'
        : 'DEFAULT');
    this.stmt(
      `INSERT INTO profiles (id, customer_id, nickname, type, description, created_ms)
      VALUES (@id, @customer_id, @nickname, @type, @description, @created_ms)`,
    ).run({ ...profile, type, description: profile.description ?? null });
  }
  /** The first DEFAULT profile: what the alias "default" names, and whose customer new profiles belong to. */
  defaultProfile(): ProfileRow | undefined {
    return this.stmt("SELECT * FROM profiles WHERE type = 'DEFAULT' ORDER BY rowid LIMIT 1").get() as
      | ProfileRow
      | undefined;
  }
  profileByNickname(customerId: string, nickname: string): ProfileRow | undefined {
    return this.stmt('SELECT * FROM profiles WHERE customer_id = ? AND nickname = ? ORDER BY rowid LIMIT 1').get(
      customerId,
      nickname,
    ) as ProfileRow | undefined;
  }
  /** Profiles as the API lists them; `seq` is the row's insertion order. */
  listProfiles(query: ListQuery): (ProfileRow & { seq: number })[] {
    return this.list('profiles', query) as (ProfileRow & { seq: number })[];
  }
  balance(profileId: string, asset: string): string | undefined {
    return (
      this.stmt('SELECT amount FROM balances WHERE profile_id = ? AND asset = ?').get(profileId, asset) as
        | { amount: string }
        | undefined
    )?.amount;
  }
  balances(profileId: string): BalanceRow[] {
    return this.stmt('SELECT * FROM balances WHERE profile_id = ? ORDER BY asset').all(profileId) as BalanceRow[];
  }
  setBalance(profileId: string, asset: string, amount: string): void {
    this.stmt(
      'INSERT INTO balances (profile_id, asset, amount) VALUES (?, ?, ?) ON CONFLICT(profile_id, asset) DO UPDATE SET amount = excluded.amount',
    ).run(profileId, asset, amount);
  }

  // ---- fee quotes -----------------------------------------------------------------------------------------------
  insertFeeQuote(row: FeeQuoteRow): void {
    this.stmt(`INSERT INTO fee_quotes (id, asset, crypto_network, destination_address, amount, total, fee, quoted_by, created_ms, expires_ms, used_by)
      VALUES (@id, @asset, @crypto_network, @destination_address, @amount, @total, @fee, @quoted_by, @created_ms, @expires_ms, @used_by)`).run(
      row,
    );
  }
  feeQuote(id: string): FeeQuoteRow | undefined {
    return this.stmt('SELECT * FROM fee_quotes WHERE id = ?').get(id) as FeeQuoteRow | undefined;
  }
  useFeeQuote(id: string, transferId: string): boolean {
    return (
      this.stmt('UPDATE fee_quotes SET used_by = ? WHERE id = ? AND used_by IS NULL').run(transferId, id).changes === 1
    );
  }

  // ---- transfers -------------------------------------------------------------------------------------------------
  insertTransfer(transfer: Omit<TransferRow, 'seq'>): void {
    this.stmt(`INSERT INTO transfers (id, ref_id, profile_id, identity_id, type, status, crypto_tx_hash, group_id, balance_asset, total,
      created_ms, updated_ms, settle_ms, fails, body) VALUES (@id, @ref_id, @profile_id, @identity_id, @type, @status, @crypto_tx_hash,
      @group_id, @balance_asset, @total, @created_ms, @updated_ms, @settle_ms, @fails, @body)`).run(transfer);
  }
  transfer(id: string): TransferRow | undefined {
    return this.stmt('SELECT * FROM transfers WHERE id = ?').get(id) as TransferRow | undefined;
  }
  transferByRef(refId: string): TransferRow | undefined {
    return this.stmt('SELECT * FROM transfers WHERE ref_id = ?').get(refId) as TransferRow | undefined;
  }
  /** The earliest time a PENDING transfer is due to settle, if any. */
  nextSettle(): number | undefined {
    const r = this.stmt(
      `SELECT MIN(t) AS t FROM (SELECT MIN(settle_ms) AS t FROM transfers WHERE status = 'PENDING'
        UNION ALL SELECT MIN(settle_ms) AS t FROM conversions WHERE status = 'CREATED')`,
    ).get() as { t: number | null };
    return r.t ?? undefined;
  }
  dueTransfers(nowMs: number): TransferRow[] {
    return this.stmt("SELECT * FROM transfers WHERE status = 'PENDING' AND settle_ms <= ? ORDER BY settle_ms, seq").all(
      nowMs,
    ) as TransferRow[];
  }
  settleTransfer(id: string, status: string, updatedMs: number, hash: string | null): void {
    this.stmt(
      "UPDATE transfers SET status = ?, updated_ms = ?, crypto_tx_hash = ? WHERE id = ? AND status = 'PENDING'",
    ).run(status, updatedMs, hash, id);
  }
  /** Rewrites a stored transfer (the control API's amendments): its status, total, hash, fails flag and body. */
  amendTransfer(
    row: Pick<TransferRow, 'id' | 'status' | 'total' | 'crypto_tx_hash' | 'fails' | 'updated_ms' | 'body'>,
  ): void {
    this.stmt(
      'UPDATE transfers SET status = @status, total = @total, crypto_tx_hash = @crypto_tx_hash, fails = @fails, updated_ms = @updated_ms, body = @body WHERE id = @id',
    ).run(row);
  }
  /** A PENDING transfer's resource, settle time and update time changed (a travel rule hold taken off or ended). */
  reviseTransfer(id: string, body: string, settleMs: number | null, updatedMs: number): void {
    this.stmt("UPDATE transfers SET body = ?, settle_ms = ?, updated_ms = ? WHERE id = ? AND status = 'PENDING'").run(
      body,
      settleMs,
      updatedMs,
      id,
    );
  }
  /** The PENDING withdrawals to an address held for travel rule information. */
  heldWithdrawalsTo(network: string, address: string): TransferRow[] {
    return this.stmt(
      `SELECT * FROM transfers WHERE status = 'PENDING' AND type = 'CRYPTO_WITHDRAWAL'
        AND json_extract(body, '$.crypto_network') = ? AND json_extract(body, '$.destination_address') = ?
        AND json_extract(body, '$.secondary_status.name') = 'TRAVEL_RULE_INFO_REQUESTED' ORDER BY seq`,
    ).all(network, address) as TransferRow[];
  }
  listTransfers(query: ListQuery): TransferRow[] {
    return this.list('transfers', query) as TransferRow[];
  }

  // ---- deposit addresses --------------------------------------------------------------------------------------
  insertDepositAddress(address: Omit<DepositAddressRow, 'seq'>): void {
    this.stmt(`INSERT INTO deposit_addresses (id, ref_id, profile_id, identity_id, account_id, crypto_network, created_ms, body)
      VALUES (@id, @ref_id, @profile_id, @identity_id, @account_id, @crypto_network, @created_ms, @body)`).run(address);
  }
  depositAddressByRef(refId: string): DepositAddressRow | undefined {
    return this.stmt('SELECT * FROM deposit_addresses WHERE ref_id = ?').get(refId) as DepositAddressRow | undefined;
  }
  /** The deposit address with this address, the oldest if several; an EVM one (0x...) compared regardless of case. */
  depositAddressByAddress(address: string): DepositAddressRow | undefined {
    const match = /^0x/i.test(address)
      ? "lower(json_extract(body, '$.address')) = lower(?)"
      : "json_extract(body, '$.address') = ?";
    return this.stmt(`SELECT * FROM deposit_addresses WHERE ${match} ORDER BY seq LIMIT 1`).get(address) as
      | DepositAddressRow
      | undefined;
  }
  listDepositAddresses(query: ListQuery): DepositAddressRow[] {
    return this.list('deposit_addresses', query) as DepositAddressRow[];
  }

  // ---- the address book -----------------------------------------------------------------------------------------
  destination(id: string): DestinationRow | undefined {
    return this.stmt('SELECT * FROM crypto_destination_addresses WHERE id = ?').get(id) as DestinationRow | undefined;
  }
  /** The address of the book with this (network, address, identity); identity null is the first party's. */
  destinationByKey(network: string, address: string, identityId: string | null): DestinationRow | undefined {
    return this.stmt(
      "SELECT * FROM crypto_destination_addresses WHERE crypto_network = ? AND address = ? AND COALESCE(identity_id, '') = ?",
    ).get(network, address, identityId ?? '') as DestinationRow | undefined;
  }
  destinationByNickname(nickname: string, identityId: string | null): DestinationRow | undefined {
    return this.stmt(
      "SELECT * FROM crypto_destination_addresses WHERE nickname = ? AND COALESCE(identity_id, '') = ?",
    ).get(nickname, identityId ?? '') as DestinationRow | undefined;
  }
  insertDestination(destination: Omit<DestinationRow, 'seq'>): void {
    this.stmt(`INSERT INTO crypto_destination_addresses (id, identity_id, crypto_network, address, nickname, bookmarked, status,
      travelrule_json, created_ms) VALUES (@id, @identity_id, @crypto_network, @address, @nickname, @bookmarked, @status,
      @travelrule_json, @created_ms)`).run(destination);
  }
  updateDestination(destination: Pick<DestinationRow, 'id' | 'nickname' | 'bookmarked' | 'travelrule_json'>): void {
    this.stmt(
      'UPDATE crypto_destination_addresses SET nickname = @nickname, bookmarked = @bookmarked, travelrule_json = @travelrule_json WHERE id = @id',
    ).run(destination);
  }
  listDestinations(query: ListQuery): DestinationRow[] {
    return this.list('crypto_destination_addresses', query) as DestinationRow[];
  }

  // ---- fiat deposit instructions ------------------------------------------------------------------------------
  insertDepositInstructions(instructions: Omit<DepositInstructionsRow, 'seq'>): void {
    this.stmt(`INSERT INTO fiat_deposit_instructions (id, ref_id, profile_id, identity_id, account_id, fiat_network,
      routing_number_type, memo_id, status, metadata_json, created_ms) VALUES (@id, @ref_id, @profile_id, @identity_id,
      @account_id, @fiat_network, @routing_number_type, @memo_id, @status, @metadata_json, @created_ms)`).run(
      instructions,
    );
  }
  depositInstructions(id: string): DepositInstructionsRow | undefined {
    return this.stmt('SELECT * FROM fiat_deposit_instructions WHERE id = ?').get(id) as
      | DepositInstructionsRow
      | undefined;
  }
  depositInstructionsByRef(refId: string): DepositInstructionsRow | undefined {
    return this.stmt('SELECT * FROM fiat_deposit_instructions WHERE ref_id = ?').get(refId) as
      | DepositInstructionsRow
      | undefined;
  }
  depositInstructionsByMemo(memoId: string): DepositInstructionsRow | undefined {
    return this.stmt('SELECT * FROM fiat_deposit_instructions WHERE memo_id = ?').get(memoId) as
      | DepositInstructionsRow
      | undefined;
  }
  /** The memo_id of a profile's first deposit instructions, if it has any. */
  firstMemoId(profileId: string): string | undefined {
    return (
      this.stmt('SELECT memo_id FROM fiat_deposit_instructions WHERE profile_id = ? ORDER BY seq LIMIT 1').get(
        profileId,
      ) as { memo_id: string } | undefined
    )?.memo_id;
  }
  listDepositInstructions(query: ListQuery): DepositInstructionsRow[] {
    return this.list('fiat_deposit_instructions', query) as DepositInstructionsRow[];
  }

  // ---- fiat accounts --------------------------------------------------------------------------------------------
  insertFiatAccount(account: Omit<FiatAccountRow, 'seq'>): void {
    this.stmt(`INSERT INTO fiat_accounts (id, ref_id, identity_id, status, review_ms, deleted, created_ms, updated_ms, body)
      VALUES (@id, @ref_id, @identity_id, @status, @review_ms, @deleted, @created_ms, @updated_ms, @body)`).run(
      account,
    );
  }
  fiatAccount(id: string): FiatAccountRow | undefined {
    return this.stmt('SELECT * FROM fiat_accounts WHERE id = ?').get(id) as FiatAccountRow | undefined;
  }
  fiatAccountByRef(refId: string): FiatAccountRow | undefined {
    return this.stmt('SELECT * FROM fiat_accounts WHERE ref_id = ?').get(refId) as FiatAccountRow | undefined;
  }
  updateFiatAccount(account: Pick<FiatAccountRow, 'id' | 'status' | 'review_ms' | 'updated_ms' | 'body'>): void {
    this.stmt(
      'UPDATE fiat_accounts SET status = @status, review_ms = @review_ms, updated_ms = @updated_ms, body = @body WHERE id = @id',
    ).run(account);
  }
  deleteFiatAccount(id: string, atMs: number): void {
    this.stmt('UPDATE fiat_accounts SET deleted = 1, updated_ms = ? WHERE id = ?').run(atMs, id);
  }
  listFiatAccounts(query: ListQuery): FiatAccountRow[] {
    return this.list('fiat_accounts', query) as FiatAccountRow[];
  }

  // ---- stablecoin conversions -----------------------------------------------------------------------------------
  insertConversion(row: Omit<ConversionRow, 'seq'>): void {
    this.stmt(`INSERT INTO conversions (id, ref_id, profile_id, status, created_ms, updated_ms, settle_ms, fails, body)
      VALUES (@id, @ref_id, @profile_id, @status, @created_ms, @updated_ms, @settle_ms, @fails, @body)`).run(row);
  }
  conversion(id: string): ConversionRow | undefined {
    return this.stmt('SELECT * FROM conversions WHERE id = ?').get(id) as ConversionRow | undefined;
  }
  conversionByRef(refId: string): ConversionRow | undefined {
    return this.stmt('SELECT * FROM conversions WHERE ref_id = ?').get(refId) as ConversionRow | undefined;
  }
  /** The CREATED conversions whose settle time has come, oldest first. */
  dueConversions(nowMs: number): ConversionRow[] {
    return this.stmt(
      "SELECT * FROM conversions WHERE status = 'CREATED' AND settle_ms <= ? ORDER BY settle_ms, seq",
    ).all(nowMs) as ConversionRow[];
  }
  /** Moves a CREATED conversion to `status`; false when it was not CREATED any more. */
  endConversion(id: string, status: string, atMs: number): boolean {
    return (
      this.stmt("UPDATE conversions SET status = ?, updated_ms = ? WHERE id = ? AND status = 'CREATED'").run(
        status,
        atMs,
        id,
      ).changes === 1
    );
  }
  listConversions(query: ListQuery): ConversionRow[] {
    return this.list('conversions', query) as ConversionRow[];
  }

  // ---- address verifications ---------------------------------------------------------------------------------------
  insertVerification(row: Omit<VerificationRow, 'seq'>): void {
    this.stmt(`INSERT INTO address_verifications
      (id, ref_id, network, address, method, status, nonce, message, signature, created_ms, updated_ms, expires_ms)
      VALUES (@id, @ref_id, @network, @address, @method, @status, @nonce, @message, @signature, @created_ms,
      @updated_ms, @expires_ms)`).run(row);
  }
  verification(id: string): VerificationRow | undefined {
    return this.stmt('SELECT * FROM address_verifications WHERE id = ?').get(id) as VerificationRow | undefined;
  }
  verificationByRef(refId: string): VerificationRow | undefined {
    return this.stmt('SELECT * FROM address_verifications WHERE ref_id = ?').get(refId) as VerificationRow | undefined;
  }
  approveVerification(id: string, signature: string, atMs: number): void {
    this.stmt("UPDATE address_verifications SET status = 'APPROVED', signature = ?, updated_ms = ? WHERE id = ?").run(
      signature,
      atMs,
      id,
    );
  }
  /** Every PENDING verification whose time is up becomes EXPIRED (at its expiry time). */
  expireVerifications(nowMs: number): void {
    this.stmt(
      "UPDATE address_verifications SET status = 'EXPIRED', updated_ms = expires_ms WHERE status = 'PENDING' AND expires_ms <= ?",
    ).run(nowMs);
  }
  listVerifications(query: ListQuery): VerificationRow[] {
    return this.list('address_verifications', query) as VerificationRow[];
  }

  // ---- statements and their payments -------------------------------------------------------------------------------
  /** Each customer and when its first profile was made: the months its statements cover start there. */
  customersSince(): { customer_id: string; since_ms: number }[] {
    return this.stmt(
      'SELECT customer_id, MIN(created_ms) AS since_ms FROM profiles GROUP BY customer_id ORDER BY customer_id',
    ).all() as { customer_id: string; since_ms: number }[];
  }
  /** The customer's DEFAULT profile (its first), which statements' payments name. */
  defaultProfileOf(customerId: string): string | undefined {
    return (
      this.stmt("SELECT id FROM profiles WHERE customer_id = ? ORDER BY type = 'DEFAULT' DESC, rowid LIMIT 1").get(
        customerId,
      ) as { id: string } | undefined
    )?.id;
  }
  /** What the customer's profiles hold now of these assets, summed per asset. */
  customerBalances(customerId: string, assets: readonly string[]): { asset: string; amount: string }[] {
    return this.stmt(
      `SELECT b.asset AS asset, b.amount AS amount FROM balances b JOIN profiles p ON p.id = b.profile_id
       WHERE p.customer_id = ? AND b.asset IN (${assets.map(() => '?').join(', ')})`,
    ).all(customerId, ...assets) as { asset: string; amount: string }[];
  }
  /** The transfers of the customer's profiles that moved a balance of these assets, for past balances. */
  customerBalanceMoves(customerId: string, assets: readonly string[]): BalanceMoveRow[] {
    return this.stmt(
      `SELECT t.profile_id, t.balance_asset, t.total, t.status, json_extract(t.body, '$.direction') AS direction,
       t.created_ms, t.updated_ms FROM transfers t JOIN profiles p ON p.id = t.profile_id
       WHERE p.customer_id = ? AND t.balance_asset IN (${assets.map(() => '?').join(', ')})`,
    ).all(customerId, ...assets) as BalanceMoveRow[];
  }
  statementByRef(refId: string): StatementRow | undefined {
    return this.stmt('SELECT * FROM statements WHERE ref_id = ?').get(refId) as StatementRow | undefined;
  }
  insertStatement(row: Omit<StatementRow, 'seq'>): void {
    this.stmt(`INSERT INTO statements (id, ref_id, customer_id, status, period_start_ms, period_end_ms, created_ms,
      paid_ms, body) VALUES (@id, @ref_id, @customer_id, @status, @period_start_ms, @period_end_ms, @created_ms,
      @paid_ms, @body)`).run(row);
  }
  insertStatementPayment(row: Omit<StatementPaymentRow, 'seq'>): void {
    this.stmt(`INSERT INTO statement_payments (id, ref_id, statement_id, customer_id, product, status, created_ms,
      processed_ms, body) VALUES (@id, @ref_id, @statement_id, @customer_id, @product, @status, @created_ms,
      @processed_ms, @body)`).run(row);
  }
  /** Payments whose time has come are COMPLETED, and their statements PAID. */
  settleStatementPayments(nowMs: number): void {
    this.stmt(
      "UPDATE statements SET status = 'STATEMENT_STATUS_PAID' WHERE status = 'STATEMENT_STATUS_GENERATED' AND paid_ms <= ?",
    ).run(nowMs);
    this.stmt(
      "UPDATE statement_payments SET status = 'PAYMENT_STATUS_COMPLETED' WHERE status = 'PAYMENT_STATUS_PENDING' AND processed_ms <= ?",
    ).run(nowMs);
  }
  listStatements(query: ListQuery): StatementRow[] {
    return this.list('statements', query) as StatementRow[];
  }
  listStatementPayments(query: ListQuery): StatementPaymentRow[] {
    return this.list('statement_payments', query) as StatementPaymentRow[];
  }

  // ---- transfer limits -------------------------------------------------------------------------------------------
  limitRules(): LimitRuleRow[] {
    return this.stmt(
      'SELECT id, limit_id, transfer_types, period_seconds, amount, limit_asset FROM transfer_limit_rules ORDER BY seq',
    ).all() as LimitRuleRow[];
  }
  replaceLimitRules(rules: LimitRuleRow[]): void {
    this.immediate(() => {
      this.stmt('DELETE FROM transfer_limit_rules').run();
      for (const r of rules)
        this.stmt(`INSERT INTO transfer_limit_rules (id, limit_id, transfer_types, period_seconds, amount, limit_asset)
          VALUES (@id, @limit_id, @transfer_types, @period_seconds, @amount, @limit_asset)`).run(r);
    });
  }
  usage(type: string, asset: string, minute: number): UsageRow | undefined {
    return this.stmt('SELECT * FROM transfer_usage WHERE type = ? AND asset = ? AND minute = ?').get(
      type,
      asset,
      minute,
    ) as UsageRow | undefined;
  }
  setUsage(row: UsageRow): void {
    this.stmt(`INSERT INTO transfer_usage (type, asset, minute, total, usd) VALUES (@type, @asset, @minute, @total, @usd)
      ON CONFLICT(type, asset, minute) DO UPDATE SET total = excluded.total, usd = excluded.usd`).run(row);
  }
  /** Usage of one transfer type from a minute on (of one asset, or of every asset). */
  usageSince(type: string, fromMinute: number, asset?: string): UsageRow[] {
    return (
      asset === undefined
        ? this.stmt('SELECT * FROM transfer_usage WHERE type = ? AND minute >= ?').all(type, fromMinute)
        : this.stmt('SELECT * FROM transfer_usage WHERE type = ? AND minute >= ? AND asset = ?').all(
            type,
            fromMinute,
            asset,
          )
    ) as UsageRow[];
  }
  clearUsage(): void {
    this.stmt('DELETE FROM transfer_usage').run();
  }
  /** Every transfer, oldest first, read as needed (rebuilding what is worked out from them). */
  eachTransfer(): IterableIterator<TransferRow> {
    return this.stmt('SELECT * FROM transfers ORDER BY seq').iterate() as IterableIterator<TransferRow>;
  }

  // ---- the event feed -------------------------------------------------------------------------------------------
  insertEvent(event: Omit<EventRow, 'seq'>): void {
    this.stmt(`INSERT INTO events (id, type, object_type, object_id, created_ms, object)
      VALUES (@id, @type, @object_type, @object_id, @created_ms, @object)`).run(event);
  }
  event(id: string): EventRow | undefined {
    return this.stmt('SELECT * FROM events WHERE id = ?').get(id) as EventRow | undefined;
  }
  /** The time of the newest event, if any (events are stored in the order of their times). */
  lastEventMs(): number | undefined {
    const r = this.stmt('SELECT created_ms FROM events ORDER BY seq DESC LIMIT 1').get() as
      | { created_ms: number }
      | undefined;
    return r?.created_ms;
  }
  listEvents(query: ListQuery): EventRow[] {
    return this.list('events', query) as EventRow[];
  }

  // ---- migrations (migrations.ts) ------------------------------------------------------------------------------
  schemaVersion(): number {
    return Number(this.getMeta('schema_version'));
  }
  private profileColumns(): string[] {
    return (this.db.pragma('table_info(profiles)') as { name: string }[]).map((c) => c.name);
  }
  /** Schema 2 gave profiles a type (each customer's first is its DEFAULT), a description and a creation time. */
  addProfileTypes(): void {
    const columns = this.profileColumns();
    if (!columns.includes('type')) this.db.exec("ALTER TABLE profiles ADD COLUMN type TEXT NOT NULL DEFAULT 'NORMAL'");
    if (!columns.includes('description')) this.db.exec('ALTER TABLE profiles ADD COLUMN description TEXT');
    if (!columns.includes('created_ms'))
      this.db.exec('ALTER TABLE profiles ADD COLUMN created_ms INTEGER NOT NULL DEFAULT 0');
    this.db.exec(MARK_DEFAULT_PROFILES);
    this.stmts.clear();
  }
  /** Schemas 1 and 2 kept one memo_id on a profile: those that are set, and the table rebuilt without the column. */
  takeProfileMemoIds(): { id: string; memo_id: string }[] {
    if (!this.profileColumns().includes('memo_id')) return [];
    const memos = this.db
      .prepare('SELECT id, memo_id FROM profiles WHERE memo_id IS NOT NULL ORDER BY rowid')
      .all() as { id: string; memo_id: string }[];
    const kept = 'rowid, id, customer_id, nickname, type, description, created_ms';
    this.db.exec(`CREATE TABLE profiles_v3 (${PROFILE_COLUMNS});
      INSERT INTO profiles_v3 (${kept}) SELECT ${kept} FROM profiles;
      DROP TABLE profiles;
      ALTER TABLE profiles_v3 RENAME TO profiles;`);
    this.stmts.clear();
    return memos;
  }

  /**
   * Keyset-paged listing: rows strictly after the cursor position in (sort column, seq) order, then the filters. The
   * position is the only bound on the sort column in its direction that a time filter does not go past: SQLite seeks
   * the index by one such bound, and by the filter's (the period's start) every page scanned the pages before it
   * again (a statement of a month of 1,000,000 transfers took 6 minutes, 56 times the tenth's).
   */
  private list(table: ListTable, query: ListQuery): unknown[] {
    const where: string[] = [];
    const args: unknown[] = [];
    const c = query.sortColumn;
    const dir = query.order === 'ASC' ? '>' : '<';
    const after = query.after;
    if (after) {
      where.push(`(${c}, seq) ${dir} (?, ?)`);
      args.push(after[0], after[1]);
    }
    for (const [col, values] of Object.entries(query.inFilters)) {
      if (!values) continue;
      if (!values.length) return [];
      where.push(`${fieldSql(table, col)} IN (${values.map(() => '?').join(', ')})`);
      args.push(...values);
    }
    for (const [col, cmp] of Object.entries(query.timeFilters)) {
      if (!cmp) continue;
      for (const [op, v] of Object.entries(cmp)) {
        if (col === c && after && impliedByPosition(op, v as number, after[0], dir)) continue;
        where.push(`${fieldSql(table, col)} ${CMP_SQL[op as keyof typeof CMP_SQL]} ?`);
        args.push(v);
      }
    }
    for (const [col, prefix] of Object.entries(query.prefixFilters ?? {})) {
      if (prefix === undefined) continue;
      where.push(`substr(lower(${fieldSql(table, col)}), 1, length(?)) = lower(?)`);
      args.push(prefix, prefix);
    }
    // Profiles have no seq column: their rowid is their insertion order.
    const from = table === 'profiles' ? '(SELECT rowid AS seq, * FROM profiles)' : table;
    const sql = `SELECT * FROM ${from}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ${c} ${query.order}, seq ${query.order} LIMIT ?`;
    args.push(query.limit);
    return this.stmt(sql).all(...args);
  }

  // ---- whole state --------------------------------------------------------------------------------------------
  exportState(): StateExport {
    const tables = {} as StateExport['tables'];
    for (const t of STATE_TABLES) {
      const order = t === 'balances' ? 'profile_id, asset' : 'rowid';
      tables[t] = this.stmt(`SELECT * FROM ${t} ORDER BY ${order}`).all() as Record<string, unknown>[];
    }
    return { version: SCHEMA_VERSION, clock_offset_ms: Number(this.getMeta('clock_offset_ms') ?? 0), tables };
  }

  /** Replaces the whole state (not the tokens) with an export; throws an Error naming the bad part. */
  importState(state: StateExport): void {
    this.immediate(() => {
      this.clearState();
      for (const t of STATE_TABLES) {
        const rows = state.tables[t];
        const columns = this.db.pragma(`table_info(${t})`) as {
          name: string;
          type: string;
          notnull: number;
          pk: number;
          dflt_value: string | null;
        }[];
        const byName = new Map(columns.map((c) => [c.name, c]));
        for (const [i, row] of rows.entries()) {
          const cols = Object.keys(row);
          const where = `tables.${t}[${i}]`;
          for (const c of cols) if (!byName.has(c)) throw new Error(`${where}.${c}: is not a column of ${t}`);
          for (const c of columns) {
            const v = row[c.name];
            if (v === undefined || v === null) {
              // A column with a default (added by a migration) may be missing from an older export.
              if (c.notnull && !c.pk && c.dflt_value === null) throw new Error(`${where}.${c.name}: is required`);
              continue;
            }
            if (c.type === 'TEXT' && typeof v !== 'string') throw new Error(`${where}.${c.name}: must be a string`);
            if (c.type === 'INTEGER' && !Number.isSafeInteger(v))
              throw new Error(`${where}.${c.name}: must be a whole number`);
            if (
              (c.name === 'amount' || c.name === 'total' || c.name === 'fee') &&
              !/^[0-9]*\.?[0-9]+$/.test(v as string)
            ) {
              throw new Error(`${where}.${c.name}: must be a decimal string`);
            }
            if (c.name === 'body' || c.name.endsWith('_json') || (t === 'events' && c.name === 'object')) {
              let parsed: unknown;
              try {
                parsed = JSON.parse(v as string);
              } catch {
                /* reported below */
              }
              if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
                throw new Error(`${where}.${c.name}: must be a JSON object in a string`);
            }
          }
          try {
            this.stmt(`INSERT INTO ${t} (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`).run(row);
          } catch (e) {
            throw new Error(`tables.${t}[${i}]: ${(e as Error).message}`);
          }
        }
      }
      // An export of schema 1 knew no profile types.
      if (state.version < 2) this.db.exec(MARK_DEFAULT_PROFILES);
      this.setMeta('clock_offset_ms', String(state.clock_offset_ms));
    });
  }

  /**
   * Deletes every state row (tokens survive, so clients holding one keep working after a reset). The ledger that
   * follows (the demo data, or an import) is another one, so the instance id is new.
   */
  clearState(): void {
    this.immediate(() => {
      for (const t of [...STATE_TABLES, ...DERIVED_TABLES]) this.db.exec(`DELETE FROM ${t}`);
      this.setMeta('clock_offset_ms', '0');
      this.setMeta('instance_id', randomUUID());
      // Fees set through the control API (fees.ts) go back to the catalogue's.
      this.setMeta('network_fees', '{}');
    });
  }
}

export { STATE_TABLES };
export type { StateTable };
