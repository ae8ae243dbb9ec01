// CLI latency: wall time of one coinop command as a child process (what an operator waits for), median of N runs,
// against bare `node -e 0` start-up as the baseline. Commands run against a local service in this process
// (token cached after the first run), and once with nothing listening (the embedded default starts a service).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = process.cwd();
const BIN = join(ROOT, 'bin', 'coinop.js');

// Asynchronous on purpose: the local service answering these commands runs in this very process.
function once(args, env) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`));
      else resolve(Number(process.hrtime.bigint() - t0) / 1e6);
    });
  });
}

async function timeRun(args, env, runs) {
  const times = [];
  for (let i = 0; i < runs; i++) times.push(await once(args, env));
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

export default async function run({ quick }) {
  const runs = quick ? 5 : 21;
  const dir = mkdtempSync(join(tmpdir(), 'coinop-bench-cli-'));
  const { startLocalService } = await import(pathToFileURL(join(ROOT, 'dist/local/service.js')).href);
  const svc = await startLocalService({ port: 0, memory: true, config: { rateLimits: { enabled: false } } });
  try {
    const base = { PATH: process.env.PATH, HOME: join(dir, 'home'), COINOP_CONFIG_DIR: join(dir, 'cfg'), COINOP_DATA_DIR: join(dir, 'data'), NO_COLOR: '1' };
    const env = { ...base, COINOP_BASE_URL: svc.baseUrl };
    const node = await timeRun(['-e', '0'], base, runs);
    await timeRun([BIN, 'prices', 'BTCUSD', '--limit', '1'], env, 1); // caches a token
    const rows = [];
    const add = (name, ms, limit) =>
      rows.push({ name, value: ms, unit: 'ms', baseline: node, baselineName: 'node -e 0', ratio: ms / node, target: `<= ${limit} ms`, met: ms <= limit });
    add('coinop --version', await timeRun([BIN, '--version'], base, runs), 150);
    add('coinop --help', await timeRun([BIN, '--help'], base, runs), 350);
    add('coinop prices BTCUSD (cached token)', await timeRun([BIN, 'prices', 'BTCUSD', '--limit', '1'], env, runs), 700);
    add(
      'coinop withdraw --yes (validate, POST)',
      await timeRun([BIN, 'withdraw', '--asset', 'BTC', '--network', 'BITCOIN', '--address', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', '--amount', '0.0001', '--yes'], env, runs),
      800,
    );
    // Nothing answers at the profile's address: coinop starts the local service inside itself over a database file.
    const embeddedEnv = { ...base, COINOP_DATA_DIR: join(dir, 'embedded') };
    add('coinop prices BTCUSD (embedded service start)', await timeRun([BIN, 'prices', 'BTCUSD', '--limit', '1'], embeddedEnv, quick ? 3 : 7), 1500);
    return rows;
  } finally {
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
