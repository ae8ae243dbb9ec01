// The gateway store's schema, as numbered migrations run in order, once each, in one transaction each; the version
// reached is kept in gw_meta. The statements are the SQL both engines take (TEXT, BIGINT, INTEGER; JSON as TEXT).
import type { Sql } from './sql.js';

export const MIGRATIONS: readonly (readonly string[])[] = [
  [
    `CREATE TABLE gw_operators (
       name TEXT PRIMARY KEY, client_id TEXT NOT NULL UNIQUE, secret_hash TEXT NOT NULL, role TEXT NOT NULL,
       disabled INTEGER NOT NULL DEFAULT 0, approver_key TEXT, created_at TEXT NOT NULL)`,
    `CREATE TABLE gw_policies (
       version INTEGER PRIMARY KEY, body TEXT NOT NULL, sha256 TEXT NOT NULL, set_by TEXT NOT NULL,
       set_at TEXT NOT NULL)`,
    `CREATE TABLE gw_pending (
       id TEXT PRIMARY KEY, operator TEXT NOT NULL, operation TEXT NOT NULL, body TEXT NOT NULL, ref_id TEXT,
       content TEXT NOT NULL, status TEXT NOT NULL, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL,
       result TEXT)`,
    `CREATE TABLE gw_approvals (
       pending_id TEXT NOT NULL, operator TEXT NOT NULL, text TEXT NOT NULL, at BIGINT NOT NULL,
       PRIMARY KEY (pending_id, operator))`,
    `CREATE TABLE gw_reservations (
       ref_id TEXT PRIMARY KEY, operator TEXT NOT NULL, asset TEXT NOT NULL, amount TEXT NOT NULL,
       at BIGINT NOT NULL)`,
    `CREATE TABLE gw_audit (
       seq BIGINT PRIMARY KEY, line TEXT NOT NULL, hash TEXT NOT NULL)`,
  ],
  // 2: a batch held for approvals as one (gw_pending's operation 'batch'): its rows, each sent once by its ref_id.
  [
    `CREATE TABLE gw_batch_rows (
       pending_id TEXT NOT NULL, idx INTEGER NOT NULL, ref_id TEXT NOT NULL, body TEXT NOT NULL,
       status TEXT NOT NULL, result TEXT, PRIMARY KEY (pending_id, idx))`,
    'CREATE INDEX gw_batch_rows_ref ON gw_batch_rows (ref_id)',
  ],
  // 3: the lease of a batch being sent: which instance sends it (lease_holder) and until when (lease_until, ms); a
  // batch whose lease ran out is taken over by another instance (batch-desk.ts).
  ['ALTER TABLE gw_pending ADD COLUMN lease_until BIGINT', 'ALTER TABLE gw_pending ADD COLUMN lease_holder TEXT'],
];

export const STORE_SCHEMA_VERSION = MIGRATIONS.length;

/** The version the store is at (0: empty). */
export async function storeSchemaVersion(sql: Sql): Promise<number> {
  try {
    const rows = await sql.query<{ value: string }>("SELECT value FROM gw_meta WHERE key = 'schema_version'");
    return rows.length ? Number(rows[0].value) : 0;
  } catch {
    return 0;
  }
}

/** Runs the migrations the store has not had, in one transaction; returns the version reached. */
export async function migrateStore(sql: Sql): Promise<number> {
  return sql.exclusive('gw_migrate', async (tx) => {
    // The version's own table first: on Postgres a failed statement would end the transaction.
    await tx.query('CREATE TABLE IF NOT EXISTS gw_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    let at = await storeSchemaVersion(tx);
    if (at > STORE_SCHEMA_VERSION)
      throw new Error(
        `the gateway store is at schema version ${at}, newer than this coinop knows (${STORE_SCHEMA_VERSION})`,
      );
    for (; at < STORE_SCHEMA_VERSION; at++) {
      for (const statement of MIGRATIONS[at]) await tx.query(statement);
      await tx.query("DELETE FROM gw_meta WHERE key = 'schema_version'");
      await tx.query("INSERT INTO gw_meta (key, value) VALUES ('schema_version', $1)", [String(at + 1)]);
    }
    return at;
  });
}
