// coinop gateway: a read through it against the same read straight to its upstream (the local service), and what
// admitting a withdrawal costs there (the policy with a rolling cap, the reservation, the audit chain) over the same
// withdrawal sent straight to the upstream, at the median, on SQLite and on PostgreSQL. The gateway runs as
// `coinop gateway start` does, in a child process; requests go one at a time from this process.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accessToken } from '../bench-support/token.mjs';

const ROOT = process.cwd();
const BIN = join(ROOT, 'bin', 'coinop.js');
const PG_URL = process.env.COINOP_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

async function timed(n, fn) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const t = process.hrtime.bigint();
    await fn(i);
    out.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return out;
}

function coinop(args, env) {
  const r = spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`coinop ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** `coinop gateway start` on a free port; resolves with its address once it says so. */
function startGateway(env, store) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [BIN, 'gateway', 'start', '--upstream', 'local', '--store', store, '--port', '0', '--rate', '100000'],
      {
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      const m = /coinop gateway at (\S+)/.exec(err);
      const stop = () =>
        new Promise((r) => {
          child.once('close', r);
          child.kill('SIGTERM');
        });
      if (m) resolve({ url: m[1], stop });
    });
    child.once('close', (code) => reject(new Error(`gateway exited ${code}: ${err}`)));
  });
}

async function measure({ engine, store, env, svc, DEMO, quick }) {
  const policy = join(env.HOME, 'policy.yaml');
  writeFileSync(policy, 'max_per_24h:\n  ETH: "1000000"\n');
  coinop(['gateway', 'policy', 'set', policy, '--store', store], env);
  const op = JSON.parse(
    coinop(
      ['gateway', 'operators', 'add', `bench-${engine}`, '--role', 'initiator', '--store', store, '-o', 'json'],
      env,
    ),
  );
  const gw = await startGateway(env, store);
  try {
    const direct = await accessToken(svc.authUrl);
    const mine = await accessToken(gw.url, op.client_id, op.client_secret);
    const reads = quick ? 100 : 400;
    const get = (base, t) => () =>
      fetch(`${base}/v2/markets/BTCUSD/ticker`, { headers: { authorization: `Bearer ${t}` } }).then((r) =>
        r.arrayBuffer(),
      );
    await timed(20, get(svc.baseUrl, direct));
    await timed(20, get(gw.url, mine));
    const readDirect = median(await timed(reads, get(svc.baseUrl, direct)));
    const readGw = median(await timed(reads, get(gw.url, mine)));
    const writes = quick ? 40 : 150;
    const post = (base, t, prefix) => (i) =>
      fetch(`${base}/v2/transfer/crypto-withdrawals`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          profile_id: DEMO.profileId,
          asset: 'ETH',
          crypto_network: 'ETHEREUM',
          destination_address: '0xF0Aa84466e353E5390be37FE2934301c07c19a55',
          amount: '0.001',
          ref_id: `${prefix}-${engine}-${i}`,
        }),
      }).then(async (r) => {
        if (r.status >= 300) throw new Error(`withdrawal answered ${r.status}: ${await r.text()}`);
      });
    const writeDirect = median(await timed(writes, post(svc.baseUrl, direct, `bench-direct-${Date.now()}`)));
    const writeGw = median(await timed(writes, post(gw.url, mine, `bench-gw-${Date.now()}`)));
    return { readDirect, readGw, writeDirect, writeGw };
  } finally {
    await gw.stop();
  }
}

export default async function run({ quick }) {
  const { startLocalService } = await import(join(ROOT, 'dist/local/service.js'));
  const { DEMO } = await import(join(ROOT, 'dist/embedded/demo.js'));
  const dir = mkdtempSync(join(tmpdir(), 'coinop-bench-gw-'));
  const svc = await startLocalService({
    port: 0,
    dbFile: join(dir, 'service.db'),
    config: { rateLimits: { enabled: false } },
  });
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    NO_COLOR: '1',
    COINOP_CONFIG_DIR: join(dir, 'config'),
    COINOP_DATA_DIR: join(dir, 'data'),
    COINOP_BASE_URL: svc.baseUrl,
    COINOP_AUTH_URL: svc.authUrl,
  };
  const rows = [];
  const schema = `gw_bench_${randomBytes(4).toString('hex')}`;
  const pg = (await import('pg')).default;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  try {
    for (const [engine, store] of [
      ['SQLite', join(dir, 'gateway.db')],
      ['Postgres', `${PG_URL}?schema=${schema}`],
    ]) {
      const m = await measure({ engine, store, env, svc, DEMO, quick });
      rows.push({
        name: `gateway (${engine}): GET ticker through the gateway, median`,
        value: m.readGw,
        unit: 'ms',
        baseline: m.readDirect,
        baselineName: 'the same GET straight to the upstream',
        ratio: m.readGw / m.readDirect,
        target: '<= 1.5x',
        met: m.readGw / m.readDirect <= 1.5,
      });
      const added = m.writeGw - m.writeDirect;
      const limit = engine === 'SQLite' ? 5 : 10;
      rows.push({
        name: `gateway (${engine}): a withdrawal admitted (policy with a cap, reservation, audit), added at the median`,
        value: added,
        unit: 'ms',
        baseline: m.writeDirect,
        baselineName: 'the same withdrawal straight to the upstream',
        ratio: m.writeGw / m.writeDirect,
        target: `<= ${limit} ms added`,
        met: added <= limit,
      });
    }
  } finally {
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
