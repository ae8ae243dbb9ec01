#!/usr/bin/env node
// Stream soak: the real CLI, `coinop stream book BTCUSD --book -o ndjson`, runs as a child process against a local
// service (own process) whose stream drops every connection every 10 seconds and sends UPDATEs before SNAPSHOTs.
// Its RSS (/proc/PID/status VmRSS) is sampled every few seconds. At the end the market is frozen and the CLI's last
// maintained book must equal GET /_local/books/BTCUSD level for level, and the RSS must not have grown past the
// bound: the last sample at most --rss-bound-mb (default 30) above the sample taken once warm (after a tenth of the
// run, at least 10 s in). Exits 1 on a violation.
//
//   node scripts/proof/soak.mjs [--seconds 600] [--rate 200] [--drop-every-s 10] [--rss-bound-mb 30] [--max-old-space-mb N] [--json]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = join(here, '..', '..');

function parseArgs(argv) {
  const o = {
    seconds: 600,
    rate: 200,
    'rss-bound-mb': 30,
    'drop-every-s': 10,
    'max-old-space-mb': 0,
    json: false,
    market: 'BTCUSD',
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') o.json = true;
    else if (
      a === '--seconds' ||
      a === '--rate' ||
      a === '--rss-bound-mb' ||
      a === '--drop-every-s' ||
      a === '--max-old-space-mb'
    ) {
      const v = Number(argv[++i]);
      if (!Number.isFinite(v) || v <= 0) throw new Error(`${a}: must be a number > 0`);
      o[a.slice(2)] = v;
    } else if (a === '--help' || a === '-h') {
      process.stdout.write(
        'usage: node scripts/proof/soak.mjs [--seconds 600] [--rate 200] [--drop-every-s 10] [--rss-bound-mb 30] [--max-old-space-mb N] [--json]\n',
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  return o;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
function rssKb(pid) {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}
const mb = (kb) => Math.round((kb / 1024) * 10) / 10;

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const log = (s) => process.stderr.write(`${s}\n`);
  const dir = mkdtempSync(join(tmpdir(), 'coinop-soak-'));
  const violations = [];
  const service = spawn(
    process.execPath,
    [
      join(here, 'service-child.mjs'),
      JSON.stringify({
        memory: true,
        seed: 11,
        config: {
          stream: {
            messagesPerSecond: o.rate,
            faults: { dropConnectionsEveryMs: o['drop-every-s'] * 1000, updatesBeforeSnapshot: true },
          },
        },
      }),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let cli;
  try {
    const { baseUrl } = await new Promise((resolve, reject) => {
      createInterface({ input: service.stdout }).once('line', (l) => resolve(JSON.parse(l)));
      service.once('exit', (code) => reject(new Error(`the service exited (${code}) before it started`)));
    });
    // A small old space (--max-old-space-mb) turns a slow leak into a crash, telling it apart from a lazy collector.
    const heap = o['max-old-space-mb'] ? [`--max-old-space-size=${o['max-old-space-mb']}`] : [];
    cli = spawn(
      process.execPath,
      [...heap, join(ROOT, 'bin/coinop.js'), 'stream', 'book', o.market, '--book', '-o', 'ndjson', '--interval', '250'],
      {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: dir,
          COINOP_CONFIG_DIR: join(dir, 'config'),
          COINOP_DATA_DIR: join(dir, 'data'),
          COINOP_BASE_URL: baseUrl,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let last = null;
    let lines = 0;
    let lastLineAt = Date.now();
    let maxGapMs = 0;
    let badLines = 0;
    createInterface({ input: cli.stdout }).on('line', (l) => {
      try {
        last = JSON.parse(l);
      } catch {
        badLines++;
        return;
      }
      lines++;
      const now = Date.now();
      if (lines > 1) maxGapMs = Math.max(maxGapMs, now - lastLineAt);
      lastLineAt = now;
    });
    let reconnectNotes = 0;
    let stderrTail = '';
    createInterface({ input: cli.stderr }).on('line', (l) => {
      if (/reconnecting/.test(l)) reconnectNotes++;
      stderrTail = `${stderrTail + l}\n`.slice(-2000);
    });
    let cliExit = null;
    cli.once('exit', (code, signal) => (cliExit = { code, signal }));

    // RSS every 3 seconds; the warm reference once a tenth of the run (at least 10 s) has passed.
    const started = Date.now();
    const end = started + o.seconds * 1000;
    const warmAt = started + Math.max(10_000, (o.seconds * 1000) / 10);
    const samples = [];
    let warm = null;
    while (Date.now() < end && cliExit === null) {
      // Sampled from the first book on (before it, the process is still loading).
      const kb = lines > 0 ? rssKb(cli.pid) : null;
      if (kb !== null) {
        samples.push({ t: Math.round((Date.now() - started) / 1000), kb });
        if (warm === null && Date.now() >= warmAt) warm = kb;
      }
      if (!o.json && kb !== null && samples.length % 20 === 0)
        log(
          `soak: ${Math.round((Date.now() - started) / 1000)} s, ${lines} books, RSS ${mb(kb ?? 0)} MB, ${reconnectNotes} reconnects`,
        );
      await sleep(Math.min(lines > 0 ? 3000 : 100, Math.max(0, end - Date.now())));
    }
    if (cliExit !== null) violations.push(`the CLI exited during the run (${JSON.stringify(cliExit)}): ${stderrTail}`);

    // Freeze the market and stop the drops, then the CLI's book must come to equal the service's.
    const put = await fetch(`${baseUrl}/_local/stream`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ paused: true, faults: { dropConnectionsEveryMs: 0 } }),
    });
    if (put.status !== 200) violations.push(`freezing the market: ${put.status} ${await put.text()}`);
    const theirs = await (await fetch(`${baseUrl}/_local/books/${o.market}`)).json();
    const same = (b) =>
      b &&
      JSON.stringify(b.bids) === JSON.stringify(theirs.bids) &&
      JSON.stringify(b.asks) === JSON.stringify(theirs.asks);
    const freezeAt = Date.now();
    const linesAtFreeze = lines;
    // After any reconnect in progress the CLI writes its book every 250 ms; give it 20 s.
    while (Date.now() - freezeAt < 20_000 && !(lines >= linesAtFreeze + 2 && same(last))) await sleep(250);
    const matched = same(last);
    if (!matched) {
      const diff = (a = [], b = []) => {
        const out = [];
        for (let i = 0; i < Math.max(a.length, b.length); i++)
          if (JSON.stringify(a[i]) !== JSON.stringify(b[i]))
            out.push(`#${i}: cli ${JSON.stringify(a[i])} service ${JSON.stringify(b[i])}`);
        return out.slice(0, 5).join('; ');
      };
      violations.push(
        `the CLI's last book differs from the service's: bids ${diff(last?.bids, theirs.bids)} asks ${diff(last?.asks, theirs.asks)}`,
      );
    }
    if (badLines) violations.push(`${badLines} stdout lines were not JSON`);

    const kbs = samples.map((s) => s.kb);
    const first = kbs[0] ?? 0;
    const max = Math.max(...kbs, 0);
    const lastKb = kbs[kbs.length - 1] ?? 0;
    const boundKb = o['rss-bound-mb'] * 1024;
    if (warm !== null && lastKb - warm > boundKb)
      violations.push(`RSS grew from ${mb(warm)} MB (warm) to ${mb(lastKb)} MB, more than ${o['rss-bound-mb']} MB`);
    if (warm === null) violations.push('the run was too short to take a warm RSS sample');

    const report = {
      seconds: o.seconds,
      market: o.market,
      messages_per_second: o.rate,
      drop_every_s: o['drop-every-s'],
      books_written: lines,
      reconnects: reconnectNotes,
      max_gap_between_books_ms: maxGapMs,
      book_levels: { bids: theirs.bids.length, asks: theirs.asks.length },
      book_matched: matched,
      rss_mb: {
        first: mb(first),
        warm: warm === null ? null : mb(warm),
        max: mb(max),
        last: mb(lastKb),
        bound_over_warm: o['rss-bound-mb'],
        samples: samples.length,
      },
      violations,
    };
    if (o.json) process.stdout.write(`${JSON.stringify(report)}\n`);
    else {
      log(
        `stream soak: coinop stream book ${o.market} --book -o ndjson for ${o.seconds} s, ${o.rate} messages/s, connections dropped every ${o['drop-every-s']} s`,
      );
      log(`  ${lines} books written, ${reconnectNotes} reconnects, longest gap between books ${maxGapMs} ms`);
      log(
        `  final book ${matched ? 'equals' : 'DIFFERS FROM'} GET /_local/books/${o.market} (${theirs.bids.length} bids, ${theirs.asks.length} asks)`,
      );
      log(
        `  RSS first ${mb(first)} MB, warm ${warm === null ? '-' : mb(warm)} MB, max ${mb(max)} MB, last ${mb(lastKb)} MB (bound: last <= warm + ${o['rss-bound-mb']} MB)`,
      );
      log(violations.length ? `VIOLATIONS:\n  ${violations.join('\n  ')}` : '  no violations');
    }
  } finally {
    if (cli && cli.exitCode === null) {
      cli.kill('SIGINT');
      await Promise.race([new Promise((r) => cli.once('exit', r)), sleep(3000)]);
      if (cli.exitCode === null) cli.kill('SIGKILL');
    }
    service.kill('SIGTERM');
    await new Promise((r) => (service.exitCode !== null ? r() : service.once('exit', r)));
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(violations.length ? 1 : 0);
}

main().catch((e) => {
  process.stderr.write(`soak: ${e.stack ?? e}\n`);
  process.exit(2);
});
