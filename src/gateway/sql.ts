// The gateway's store speaks SQL to one of two engines through this one small interface: an embedded SQLite file
// (better-sqlite3; one gateway instance) or PostgreSQL (the `pg` library; a team's instances sharing one database).
// Statements are written once, with $1, $2 ... placeholders, in the SQL both engines take; `exclusive` runs a
// transaction that no other gateway instance's `exclusive` on the same key can interleave with (Postgres: an
// advisory lock held to the transaction's end; SQLite: BEGIN IMMEDIATE, one writer per file).

export type Dialect = 'sqlite' | 'postgres';
export type Row = Record<string, unknown>;

export interface Sql {
  readonly dialect: Dialect;
  /** Runs one statement; the rows it returns (none for a write without RETURNING). */
  query<T extends Row = Row>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs `fn` in one transaction, serialised with every other `exclusive` of the same key on the same store. */
  exclusive<T>(key: string, fn: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Where a store lives: a postgres:// URL, or a SQLite file path (sqlite:PATH or a plain path). */
export function storeKind(url: string): { dialect: Dialect; target: string } {
  if (/^postgres(ql)?:\/\//i.test(url)) return { dialect: 'postgres', target: url };
  return { dialect: 'sqlite', target: url.replace(/^sqlite:/i, '') };
}

/**
 * Opens a store. `schema` (Postgres only; or `?schema=NAME` in the URL) sets the search path: the gateway's tables
 * live in that schema (tests use one each).
 */
export async function openSql(url: string, options: { schema?: string } = {}): Promise<Sql> {
  const { dialect, target } = storeKind(url);
  if (dialect === 'sqlite') return openSqlite(target);
  const u = new URL(target);
  const schema = options.schema ?? u.searchParams.get('schema') ?? undefined;
  u.searchParams.delete('schema');
  if (schema !== undefined && !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema))
    throw new Error(`schema: "${schema}" is not a plain identifier`);
  return openPostgres(u.toString(), schema);
}

/** A promise chain: one turn at a time, in order of asking. */
export class Turns {
  private tail: Promise<unknown> = Promise.resolve();
  /** Turns asked for and not finished. */
  waiting = 0;
  run<T>(fn: () => Promise<T>): Promise<T> {
    this.waiting++;
    const next = this.tail.then(fn, fn).finally(() => this.waiting--);
    this.tail = next.catch(() => {});
    return next;
  }
}

/** `$1`-style placeholders as SQLite's positional `?`, with the values in the order they appear. */
function positional(text: string, params: readonly unknown[]): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const out = text.replace(/\$(\d+)/g, (_m, digits: string) => {
    values.push(sqliteValue(params[Number(digits) - 1]));
    return '?';
  });
  return { text: out, values };
}

const sqliteValue = (v: unknown): unknown => (typeof v === 'boolean' ? (v ? 1 : 0) : v === undefined ? null : v);

async function openSqlite(file: string): Promise<Sql> {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  // One connection: every statement takes its turn, so a statement never lands inside another caller's transaction.
  const turns = new Turns();
  // Each statement is prepared once: the gateway speaks a fixed set of them.
  const prepared = new Map<string, import('better-sqlite3').Statement<unknown[]>>();
  const run = <T extends Row>(text: string, params: readonly unknown[] = []): T[] => {
    const q = positional(text, params);
    let stmt = prepared.get(q.text);
    if (!stmt) prepared.set(q.text, (stmt = db.prepare(q.text)));
    if (stmt.reader) return stmt.all(...q.values) as T[];
    stmt.run(...q.values);
    return [];
  };
  const inTx: Sql = {
    dialect: 'sqlite',
    query: async (text, params) => run(text, params),
    exclusive: (_key, fn) => fn(inTx),
    close: async () => {},
  };
  return {
    dialect: 'sqlite',
    query: (text, params) => turns.run(async () => run(text, params)),
    exclusive: (_key, fn) =>
      turns.run(async () => {
        db.exec('BEGIN IMMEDIATE');
        try {
          const out = await fn(inTx);
          db.exec('COMMIT');
          return out;
        } catch (e) {
          if (db.inTransaction) db.exec('ROLLBACK');
          throw e;
        }
      }),
    close: async () => {
      await turns.run(async () => db.close());
    },
  };
}

async function openPostgres(url: string, schema?: string): Promise<Sql> {
  const { default: pg } = await import('pg');
  // BIGINT columns come back as numbers where they fit (sequence numbers, milliseconds); amounts are TEXT.
  pg.types.setTypeParser(20, (v: string) => Number(v));
  const pool = new pg.Pool({
    connectionString: url,
    max: 8,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  const over = (client: { query: (t: string, p?: unknown[]) => Promise<{ rows: Row[] }> }): Sql['query'] =>
    (async (text: string, params: readonly unknown[] = []) =>
      (await client.query(text, [...params])).rows) as Sql['query'];
  // One section per key at a time in this process: the others wait here, not on the database holding a pooled
  // connection each (so the pool never runs dry while one section needs a connection for another key).
  const turns = new Map<string, Turns>();
  return {
    dialect: 'postgres',
    query: over(pool),
    exclusive: (key, fn) => {
      let t = turns.get(key);
      if (!t) turns.set(key, (t = new Turns()));
      const turn = t;
      return turn
        .run(() => pgSection(pool, key, fn, over))
        .finally(() => {
          if (!turn.waiting && turns.get(key) === turn) turns.delete(key);
        });
    },
    close: () => pool.end(),
  };
}

async function pgSection<T>(
  pool: import('pg').Pool,
  key: string,
  fn: (tx: Sql) => Promise<T>,
  over: (client: { query: (t: string, p?: unknown[]) => Promise<{ rows: Row[] }> }) => Sql['query'],
): Promise<T> {
  const client = await pool.connect();
  try {
    // The transaction begun and its lock taken in one round trip (a simple query of two statements; the key is the
    // gateway's own name for the section, quoted as a literal).
    await client.query(`BEGIN; SELECT pg_advisory_xact_lock(hashtext(${client.escapeLiteral(key)}))`);
    const tx: Sql = {
      dialect: 'postgres',
      query: over(client),
      exclusive: (_k, inner) => inner(tx),
      close: async () => {},
    };
    const out = await fn(tx);
    await client.query('COMMIT');
    return out;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}
