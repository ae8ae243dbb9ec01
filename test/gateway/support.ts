// The gateway's stores for tests: a SQLite file in a temporary folder, or a schema of its own on the machine's
// PostgreSQL (127.0.0.1:5432, database test, trust authentication), dropped afterwards.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openSql, type Sql } from '../../src/gateway/sql.js';

export const PG_URL = process.env.COINOP_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestStore {
  sql: Sql;
  /** The URL a gateway process would be given (--store), with the schema where the engine has one. */
  url: string;
  schema?: string;
  drop(): Promise<void>;
}

export async function sqliteStore(): Promise<TestStore> {
  const dir = mkdtempSync(join(tmpdir(), 'coinop-gw-'));
  const url = join(dir, 'gateway.db');
  const sql = await openSql(url);
  return {
    sql,
    url,
    drop: async () => {
      await sql.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function postgresStore(): Promise<TestStore> {
  const schema = `gw_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const sql = await openSql(PG_URL, { schema });
  return {
    sql,
    url: `${PG_URL}?schema=${schema}`,
    schema,
    drop: async () => {
      await sql.close();
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}

export const ENGINES = [
  ['sqlite', sqliteStore],
  ['postgres', postgresStore],
] as const;
