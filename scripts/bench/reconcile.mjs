// `coinop reconcile` over one month of 1,000,000 completed withdrawals on the local service (100,000 with --quick,
// N with --size N when run alone), every one intended by a row of a batch journal, then `coinop statement` of the
// same month: wall time of each command (a child process, as an operator runs it) and its peak memory, against the
// same commands over a tenth as many transfers. The targets: under 5
// minutes on 2 cores, and memory flat (the larger run's peak under 1.5 times the smaller one's). The month is seeded
// through the control API (POST /_local/transfers/seed, 100,000 a request); the journal is written with the batch's
// own Journal class.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = process.cwd();
const BIN = join(ROOT, 'bin', 'coinop.js');
const FROM = '2026-10-01T00:00:00Z';
const TO = '2026-11-01T00:00:00Z';
const ADDRESS = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
const SEED = 100_000;

async function seed(svc, profileId, n) {
  for (let start = 0; start < n; start += SEED) {
    const r = await fetch(`${svc.baseUrl}/_local/transfers/seed`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        count: Math.min(SEED, n - start),
        ref_prefix: 'bench',
        start,
        profile_id: profileId,
        asset: 'BTC',
        crypto_network: 'BITCOIN',
        destination_address: ADDRESS,
        amount: '0.001',
        fee: '0.00002',
        from: FROM,
        to: TO,
      }),
    });
    if (r.status !== 200) throw new Error(`seed: ${r.status} ${await r.text()}`);
  }
}

/** A batch journal whose rows intend the n seeded transfers. */
async function journal(dir, profileId, n) {
  const { Journal } = await import(join(ROOT, 'dist/batch/journal.js'));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const j = Journal.open(join(dir, 'bench.journal'), 'bench');
  j.setMeta({ file_hash: 'bench', file_name: 'bench.csv', format: 'csv', rows: String(n), created_at: FROM });
  function* rows() {
    for (let i = 0; i < n; i++) {
      const body = { profile_id: profileId, asset: 'BTC', crypto_network: 'BITCOIN', destination_address: ADDRESS };
      yield {
        row: i + 1,
        ref_id: `bench-${i}`,
        asset: 'BTC',
        crypto_network: 'BITCOIN',
        destination_address: ADDRESS,
        amount: '0.001',
        body: JSON.stringify({ ...body, amount: '0.001', ref_id: `bench-${i}` }),
      };
    }
  }
  j.plan(rows());
  j.close();
}

/** One coinop command as a child process: its exit code, wall seconds, peak resident memory (MiB), lines out. */
function timed(env, args, lines = 0) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('/usr/bin/time', ['-f', 'rss_kb=%M cpu=%U+%S', process.execPath, BIN, ...args], {
      env: { ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let out = 0;
    child.stdout.on('data', (d) => {
      for (const b of d) if (b === 10) out++;
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const kb = Number(/rss_kb=(\d+)/.exec(stderr)?.[1] ?? Number.NaN);
      const cpu = /cpu=([\d.]+)\+([\d.]+)/.exec(stderr);
      const cpuSeconds = cpu ? Number(cpu[1]) + Number(cpu[2]) : Number.NaN;
      resolve({
        code,
        seconds: (performance.now() - started) / 1000,
        cpuSeconds,
        rssMiB: kb / 1024,
        stderr,
        lines: out - lines,
      });
    });
  });
}

async function month(n) {
  const { startLocalService } = await import(join(ROOT, 'dist/local/service.js'));
  const { DEMO } = await import(join(ROOT, 'dist/embedded/demo.js'));
  const dir = mkdtempSync(join(tmpdir(), 'coinop-bench-reconcile-'));
  const svc = await startLocalService({
    dbFile: join(dir, 'bench.db'),
    port: 0,
    config: { rateLimits: { enabled: false } },
  });
  try {
    const seeded = performance.now();
    await seed(svc, DEMO.profileId, n);
    const journals = join(dir, 'journals');
    await journal(journals, DEMO.profileId, n);
    const setup = (performance.now() - seeded) / 1000;
    const env = {
      PATH: process.env.PATH,
      HOME: dir,
      COINOP_DATA_DIR: join(dir, 'data'),
      COINOP_CONFIG_DIR: join(dir, 'config'),
      COINOP_BASE_URL: svc.baseUrl,
      COINOP_AUTH_URL: svc.authUrl,
      NO_COLOR: '1',
      COINOP_OUTPUT: 'ndjson',
    };
    const r = await timed(env, ['reconcile', '--from', FROM, '--to', TO, '--journals', journals]);
    if (r.code !== 0) throw new Error(`coinop reconcile exited ${r.code}: ${r.stderr.slice(0, 2000)}`);
    // The profile's statement of the same month, as CSV: the movements streamed out of a scratch file, not memory.
    const args = ['statement', '--profile-id', DEMO.profileId, '--from', FROM, '--to', TO, '-o', 'csv'];
    const statement = await timed(env, args);
    if (statement.code !== 0) throw new Error(`coinop statement exited ${statement.code}: ${statement.stderr}`);
    return { ...r, setup, statement };
  } finally {
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export default async function run({ quick = false, size } = {}) {
  const n = size ?? (quick ? 100_000 : 1_000_000);
  const small = await month(n / 10);
  const large = await month(n);
  const flat = large.rssMiB / small.rssMiB;
  return [
    {
      name: `reconcile: a month of ${n.toLocaleString('en-US')} transfers, each intended by a journal row (exit 0; ${large.cpuSeconds.toFixed(0)} s of CPU)`,
      value: large.seconds,
      unit: 's',
      baseline: small.seconds,
      baselineName: `${(n / 10).toLocaleString('en-US')} transfers`,
      ratio: large.seconds / small.seconds,
      target: '< 300 s',
      met: large.seconds < 300,
      detail: { large, small },
    },
    {
      name: `reconcile: peak memory, ${n.toLocaleString('en-US')} transfers (${large.rssMiB.toFixed(0)} MiB) against ${(n / 10).toLocaleString('en-US')}`,
      value: large.rssMiB,
      unit: 'MiB',
      baseline: small.rssMiB,
      baselineName: `${(n / 10).toLocaleString('en-US')} transfers`,
      ratio: flat,
      target: 'flat: < 1.5x',
      met: flat < 1.5,
    },
    ...statementRows(n, large.statement, small.statement),
  ];
}

/** The statement's lines: its time, and its peak memory against the tenth's. */
function statementRows(n, large, small) {
  const flat = large.rssMiB / small.rssMiB;
  const baselineName = `${(n / 10).toLocaleString('en-US')} transfers`;
  return [
    {
      name: `statement: the month of ${n.toLocaleString('en-US')} transfers as CSV (${large.lines.toLocaleString('en-US')} lines; ${large.cpuSeconds.toFixed(0)} s of CPU)`,
      value: large.seconds,
      unit: 's',
      baseline: small.seconds,
      baselineName,
      ratio: large.seconds / small.seconds,
      target: '< 300 s',
      met: large.seconds < 300,
    },
    {
      name: `statement: peak memory, ${n.toLocaleString('en-US')} transfers (${large.rssMiB.toFixed(0)} MiB) against ${(n / 10).toLocaleString('en-US')}`,
      value: large.rssMiB,
      unit: 'MiB',
      baseline: small.rssMiB,
      baselineName,
      ratio: flat,
      target: 'flat: < 1.5x',
      met: flat < 1.5,
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // --size N: a month of N transfers (against N/10), for a try on a busy machine.
  const at = process.argv.indexOf('--size');
  const size = at > 0 ? Number(process.argv[at + 1]) : undefined;
  for (const r of await run({ quick: process.argv.includes('--quick'), size }))
    console.log(
      `${r.name}: ${r.value.toFixed(1)} ${r.unit} (baseline ${r.baseline.toFixed(1)}, ratio ${r.ratio.toFixed(2)}, met ${r.met})`,
      r.detail ? JSON.stringify({ setup: r.detail.large.setup }) : '',
    );
}
