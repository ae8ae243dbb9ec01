// Waits until the PostgreSQL server the gateway's tests use answers (COINOP_TEST_PG_URL, else 127.0.0.1:5432, database
// test, trust authentication), polling with a deadline; exits 1 naming the address when it never does.
import pg from 'pg';

const url = process.env.COINOP_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const deadline = Date.now() + Number(process.env.COINOP_PG_WAIT_MS ?? 60_000);
let last = '';
while (Date.now() < deadline) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    await client.end();
    process.stderr.write(`postgres: ${url.replace(/\/\/[^@]*@/, '//')} answers\n`);
    process.exit(0);
  } catch (e) {
    last = e.message;
    await client.end().catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
process.stderr.write(
  `postgres: ${url.replace(/\/\/[^@]*@/, '//')} did not answer (${last}); the gateway's tests need it\n`,
);
process.exit(1);
