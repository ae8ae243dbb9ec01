// Forwarding events: `coinop events listen --forward-to` POSTing a full feed (5,000 events; 1,000 with --quick) to a
// receiver on loopback, in events per second between the receiver's first and last delivery, against a bare loop in
// this process POSTing the same events to the same receiver with the same concurrency (no feed reading, no signing,
// no checkpoint). The issue's target is at least 200 events a second; the ratio says what the listener's work costs.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accessToken } from '../bench-support/token.mjs';

const ROOT = process.cwd();
const BIN = join(ROOT, 'bin', 'coinop.js');
/** The listener's default concurrency, used by the baseline too. */
const CONCURRENCY = 8;

/** A receiver that answers 204 and notes when each event arrived (once per event id). */
async function receiver() {
  const seen = new Map();
  const server = createServer((req, res) => {
    const id = req.headers['coinop-event-id'] ?? req.headers['x-event-id'];
    req.resume();
    req.on('end', () => {
      if (!seen.has(id)) seen.set(id, performance.now());
      res.writeHead(204).end();
    });
  });
  await new Promise((r) => server.listen({ host: '127.0.0.1', port: 0 }, r));
  return {
    url: `http://127.0.0.1:${server.address().port}/in`,
    seen,
    /** Events a second between the first arrival and the last. */
    rate() {
      const times = [...seen.values()].sort((a, b) => a - b);
      return times.length > 1 ? (times.length - 1) / ((times[times.length - 1] - times[0]) / 1000) : 0;
    },
    reset: () => seen.clear(),
    close: () => new Promise((r) => server.close(r)),
  };
}

/** Every event of the feed, oldest first. */
async function allEvents(svc) {
  const auth = { authorization: `Bearer ${await accessToken(svc.authUrl)}` };
  const out = [];
  let cursor = '';
  for (;;) {
    const r = await fetch(
      `${svc.baseUrl}/v2/events?limit=100${cursor ? `&page_cursor=${encodeURIComponent(cursor)}` : ''}`,
      {
        headers: auth,
      },
    );
    const page = await r.json();
    out.push(...page.events);
    if (!page.next_page_cursor) return out;
    cursor = page.next_page_cursor;
  }
}

/** The baseline: the same events POSTed as JSON by a bare keep-alive loop, CONCURRENCY at a time. */
async function bareLoop(events, url) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let next = 0;
  const post = (e) =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify(e);
      const req = request(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'x-event-id': e.id,
          },
        },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < events.length) await post(events[next++]);
    }),
  );
  agent.destroy();
}

function listen(env, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'events', 'listen', ...args], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

export default async function run({ quick = false } = {}) {
  const { startLocalService } = await import('../../dist/local/service.js');
  const n = quick ? 1000 : 5000;
  const dir = mkdtempSync(join(tmpdir(), 'coinop-bench-events-'));
  // Deposits stay PENDING for the run: the feed holds exactly the events made here (and the demo's three).
  const svc = await startLocalService({
    dbFile: join(dir, 'bench.db'),
    port: 0,
    config: { rateLimits: { enabled: false }, cryptoDepositSettleSeconds: 86_400 },
  });
  const rx = await receiver();
  try {
    const since = new Date(Date.now() - 60_000).toISOString();
    // Many events fast: crypto deposits, 100 to a request (each one an event of its own object).
    for (let made = 0; made < n; made += 100) {
      const r = await fetch(`${svc.baseUrl}/_local/crypto-deposits`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ref_id: 'demo-btc', amount: '0.001', count: Math.min(100, n - made) }),
      });
      if (r.status !== 200) throw new Error(`crypto deposits: ${r.status} ${await r.text()}`);
    }
    const events = await allEvents(svc);
    const total = events.length;

    await bareLoop(events.slice(0, 200), rx.url);
    rx.reset();
    await bareLoop(events, rx.url);
    const baseline = rx.rate();
    if (rx.seen.size !== total) throw new Error(`the bare loop delivered ${rx.seen.size} of ${total}`);
    rx.reset();

    const env = {
      PATH: process.env.PATH,
      HOME: dir,
      COINOP_DATA_DIR: join(dir, 'data'),
      COINOP_CONFIG_DIR: join(dir, 'config'),
      COINOP_BASE_URL: svc.baseUrl,
      COINOP_AUTH_URL: svc.authUrl,
      NO_COLOR: '1',
    };
    const started = performance.now();
    const r = await listen(env, ['--forward-to', rx.url, '--since', since, '--count', String(total)]);
    const wall = (performance.now() - started) / 1000;
    if (r.code !== 0) throw new Error(`coinop events listen exited ${r.code}: ${r.stderr}`);
    if (rx.seen.size !== total) throw new Error(`coinop delivered ${rx.seen.size} of ${total}`);
    const rate = rx.rate();
    return [
      {
        name: `events listen --forward-to: ${total.toLocaleString('en-US')} events to a local receiver (${(total / wall).toFixed(0)}/s with start-up)`,
        value: rate,
        unit: 'events/s',
        baseline,
        baselineName: `bare POST loop, ${CONCURRENCY} at a time`,
        ratio: rate / baseline,
        target: '>= 200 events/s',
        met: rate >= 200,
        detail: { total, wallSeconds: wall },
      },
    ];
  } finally {
    await rx.close();
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run({ quick: process.argv.includes('--quick') }))
    console.log(
      `${r.name}: ${Math.round(r.value)} ${r.unit} (baseline ${Math.round(r.baseline)}, ratio ${r.ratio.toFixed(2)}, met ${r.met})`,
    );
}
