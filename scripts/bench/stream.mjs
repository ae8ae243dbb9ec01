// Live market data: order book level changes applied per second (a simulator-made feed), stream ingest of
// `coinop stream ... -o ndjson > /dev/null` against a minimal ws + JSON.parse reader of the same feed, and the CPU the
// live book view uses at 10,000 updates per second on a pseudo-terminal.
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { accessToken } from '../bench-support/token.mjs';

const ROOT = process.cwd();
const BIN = join(ROOT, 'bin', 'coinop.js');
const dist = (p) => import(join(ROOT, 'dist', p));

/** A feed of market_data payloads made by the service's own simulator (realistic flow near the top of the book). */
async function simulatorFeed(market, steps) {
  const { SimulatedMarket } = await dist('local/stream/market.js');
  const sim = new SimulatedMarket(market, 1);
  const t0 = Date.UTC(2026, 0, 1);
  sim.rebuild(t0);
  const snapshot = sim.snapshot();
  const updates = [];
  const out = { update: (p) => updates.push(p), execution() {}, topOfBook() {}, rebuilt() {} };
  // 0.1 ms of service time per step: the mid moves as it would at 10,000 steps per second.
  for (let i = 0; i < steps; i++) sim.step(t0 + i * 0.1, out);
  // Through JSON, as a client receives them (the simulator's strings are concatenations; parsed ones are flat).
  return { snapshot: JSON.parse(JSON.stringify(snapshot)), updates: updates.map((u) => JSON.parse(JSON.stringify(u))) };
}

async function bookBench(quick) {
  const { OrderBook } = await dist('market-data/book.js');
  const { snapshot, updates } = await simulatorFeed('BTCUSD', quick ? 100_000 : 400_000);
  let best = 0;
  let bestCpu = 0;
  let changes = 0;
  // Two untimed rounds first: the optimiser settles and the feed's garbage is collected.
  for (let round = 0; round < 2; round++) {
    const book = new OrderBook('BTCUSD');
    book.apply(snapshot);
    for (let i = 0; i < updates.length; i++) book.apply(updates[i]);
  }
  globalThis.gc?.();
  for (let round = 0; round < 8; round++) {
    const book = new OrderBook('BTCUSD');
    book.apply(snapshot);
    const before = book.levelChanges;
    const cpu = process.cpuUsage();
    const t = process.hrtime.bigint();
    for (let i = 0; i < updates.length; i++) book.apply(updates[i]);
    const s = Number(process.hrtime.bigint() - t) / 1e9;
    const used = process.cpuUsage(cpu);
    changes = book.levelChanges - before;
    best = Math.max(best, changes / s);
    bestCpu = Math.max(bestCpu, changes / ((used.user + used.system) / 1e6));
  }
  return [
    {
      name: `stream: order book level changes applied (${changes.toLocaleString('en-US')} per round, best of rounds; ${(bestCpu / 1e6).toFixed(2)} M per CPU second)`,
      value: best,
      unit: 'changes/s',
      baseline: null,
      baselineName: '',
      ratio: null,
      target: '>= 2,000,000 changes/s',
      met: best >= 2_000_000,
    },
  ];
}

const READER = `
const WebSocket = require(${JSON.stringify(join(ROOT, 'node_modules', 'ws'))});
const [url, n, market] = process.argv.slice(1);
const ws = new WebSocket(url, { headers: { Authorization: 'Bearer bench' }, perMessageDeflate: false });
let count = 0;
ws.on('open', () => ws.send(JSON.stringify({ type: 'subscribe', channels: [{ type: 'market_data', params: { market } }] })));
ws.on('message', (d) => {
  const m = JSON.parse(d.toString());
  if (m.channel && ++count >= Number(n)) { ws.terminate(); process.exit(0); }
});
`;

/**
 * Serves one recorded feed to each connection as fast as the reader takes it (honouring backpressure) and reports
 * messages per second from the first message sent to the reader's close.
 */
async function feedServer(frames) {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  await new Promise((r) => wss.once('listening', r));
  let onResult = () => {};
  wss.on('connection', (ws) => {
    let started = 0;
    let sent = 0;
    ws.on('message', () => {
      ws.send(
        JSON.stringify({
          type: 'subscribe',
          channels: [{ type: 'market_data', params: { market: 'BTCUSD' }, success: true }],
        }),
      );
      started = performance.now();
      const pump = () => {
        while (sent < frames.length && ws.readyState === 1) {
          ws.send(frames[sent++]);
          if (ws.bufferedAmount > 1 << 20) return void setImmediate(waitDrain);
        }
      };
      const waitDrain = () => (ws.bufferedAmount > 1 << 18 ? setImmediate(waitDrain) : pump());
      pump();
    });
    ws.on('close', () => onResult({ seconds: (performance.now() - started) / 1000, sent }));
  });
  return {
    url: `ws://127.0.0.1:${wss.address().port}/`,
    result: () => new Promise((r) => (onResult = r)),
    close: () => new Promise((r) => wss.close(r)),
  };
}

function runChild(cmd, args, env, stdoutFile) {
  return new Promise((resolve, reject) => {
    const out = openSync(stdoutFile, 'w');
    const child = spawn(cmd, args, { env, stdio: ['ignore', out, 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      closeSync(out);
      resolve({ code, stderr });
    });
  });
}

async function ingestBench(quick) {
  const n = quick ? 60_000 : 300_000;
  const { snapshot, updates } = await simulatorFeed('BTCUSD', n);
  const frames = [
    JSON.stringify({ channel: 'market_data', payload: snapshot }),
    ...updates.map((p) => JSON.stringify({ channel: 'market_data', payload: p })),
  ];
  const count = frames.length;
  const srv = await feedServer(frames);
  const dir = mkdtempSync(join(tmpdir(), 'coinop-bench-stream-'));
  const env = {
    ...process.env,
    COINOP_CONFIG_DIR: join(dir, 'config'),
    COINOP_DATA_DIR: join(dir, 'data'),
    COINOP_TOKEN: 'bench',
    COINOP_BASE_URL: 'http://127.0.0.1:9',
    COINOP_WS_URL: srv.url,
  };
  const rates = { cli: 0, reader: 0 };
  try {
    // Best of five rounds each, taken in turns: on a shared 2-core machine one busy moment can halve a round.
    for (let round = 0; round < (quick ? 1 : 5); round++) {
      for (const who of ['reader', 'cli']) {
        const result = srv.result();
        const args =
          who === 'reader'
            ? ['-e', READER, srv.url, String(count), 'BTCUSD']
            : [BIN, 'stream', 'book', 'BTCUSD', '-o', 'ndjson', '--count', String(count)];
        const r = await runChild(process.execPath, args, env, '/dev/null');
        if (r.code !== 0) throw new Error(`${who} exited ${r.code}: ${r.stderr.slice(0, 300)}`);
        const { seconds, sent } = await result;
        rates[who] = Math.max(rates[who], sent / seconds);
      }
    }
  } finally {
    await srv.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const ratio = rates.cli / rates.reader;
  return [
    {
      name: `stream: ingest, coinop stream book -o ndjson > /dev/null (${count.toLocaleString('en-US')} messages)`,
      value: rates.cli,
      unit: 'msg/s',
      baseline: rates.reader,
      baselineName: 'ws + JSON.parse reader',
      ratio,
      target: '>= 0.7x reader',
      met: ratio >= 0.7,
    },
  ];
}

function cpuSeconds(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = f.slice(f.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line (11 and 12 after the command name), in clock ticks.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function liveViewBench(quick) {
  const pty = await import('node-pty');
  const { startLocalService } = await dist('local/service.js');
  const svc = await startLocalService({
    memory: true,
    config: { rateLimits: { enabled: false }, stream: { messagesPerSecond: 10_000, subscriptionRequestsPerSecond: 0 } },
  });
  const dir = mkdtempSync(join(tmpdir(), 'coinop-bench-live-'));
  try {
    const p = pty.spawn(process.execPath, [BIN, 'stream', 'book', 'BTCUSD'], {
      cols: 120,
      rows: 40,
      name: 'xterm-256color',
      env: {
        ...process.env,
        COINOP_CONFIG_DIR: join(dir, 'config'),
        COINOP_DATA_DIR: join(dir, 'data'),
        COINOP_BASE_URL: svc.baseUrl,
      },
    });
    let bytes = 0;
    p.onData((d) => (bytes += d.length));
    const exited = new Promise((r) => p.onExit(r));
    const stats = async () => (await fetch(`${svc.baseUrl}/_local/stream`)).json();
    await new Promise((r) => setTimeout(r, quick ? 1500 : 3000));
    const c0 = cpuSeconds(p.pid);
    const s0 = await stats();
    const t0 = performance.now();
    const b0 = bytes;
    await new Promise((r) => setTimeout(r, quick ? 3000 : 8000));
    const c1 = cpuSeconds(p.pid);
    const s1 = await stats();
    const wall = (performance.now() - t0) / 1000;
    const rate = (s1.messages_sent - s0.messages_sent) / wall;
    const cpu = (c1 - c0) / wall;
    const frameBytes = (bytes - b0) / wall;
    p.write('q');
    await exited;
    return [
      {
        name: `stream: live book view CPU at ${Math.round(rate).toLocaleString('en-US')} msg/s (terminal output ${Math.round(frameBytes / 1024)} KiB/s)`,
        value: cpu,
        unit: 'CPU (cores)',
        baseline: null,
        baselineName: '',
        ratio: null,
        target: '<= 0.5 cores at >= 9,000 msg/s',
        met: cpu <= 0.5 && rate >= 9000,
      },
    ];
  } finally {
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The local service's stream at 50,000 messages/s in total (5 markets x 10,000), read by one subscriber. */
async function fanOutBench(quick) {
  const { startLocalService } = await dist('local/service.js');
  const svc = await startLocalService({
    memory: true,
    config: { rateLimits: { enabled: false }, stream: { messagesPerSecond: 10_000, subscriptionRequestsPerSecond: 0 } },
  });
  try {
    const tok = await accessToken(svc.authUrl);
    const reader = spawn(
      process.execPath,
      [
        '-e',
        `
const WebSocket = require(${JSON.stringify(join(ROOT, 'node_modules', 'ws'))});
const ws = new WebSocket(process.argv[1], { headers: { Authorization: 'Bearer ' + process.argv[2] }, perMessageDeflate: false });
let n = 0;
ws.on('open', () => ws.send(JSON.stringify({ type: 'subscribe', channels: ['BTCUSD', 'ETHUSD', 'SOLEUR', 'LTCUSD', 'BCHUSD'].map((market) => ({ type: 'market_data', params: { market } })) })));
ws.on('message', (d) => { JSON.parse(d.toString()); n++; });
setInterval(() => process.stdout.write(n + '\\n'), 250);
`,
        svc.wsUrl,
        tok,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let latest = 0;
    reader.stdout.on('data', (d) => (latest = Number(String(d).trim().split('\n').pop())));
    await new Promise((r) => setTimeout(r, 1500));
    const n0 = latest;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, quick ? 3000 : 8000));
    const n1 = latest;
    const wall = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(c0);
    const stats = await (await fetch(`${svc.baseUrl}/_local/stream`)).json();
    reader.kill();
    const rate = (n1 - n0) / wall;
    return [
      {
        name: `stream: local service fan-out, 5 markets x 10,000 msg/s configured (service CPU ${((cpu.user + cpu.system) / 1e6 / wall).toFixed(2)} cores, slow-consumer drops ${stats.slow_consumers_dropped})`,
        value: rate,
        unit: 'msg/s received',
        baseline: null,
        baselineName: '',
        ratio: null,
        target: '>= 45,000 msg/s',
        met: rate >= 45_000 && stats.slow_consumers_dropped === 0,
      },
    ];
  } finally {
    await svc.close();
  }
}

export default async function run({ quick }) {
  // STREAM_BENCH_ONLY=fanout (or book, ingest, live) runs one part, for working on it.
  const only = process.env.STREAM_BENCH_ONLY;
  if (only) return { book: bookBench, ingest: ingestBench, live: liveViewBench, fanout: fanOutBench }[only](quick);
  return [
    ...(await bookBench(quick)),
    ...(await ingestBench(quick)),
    ...(await liveViewBench(quick)),
    ...(await fanOutBench(quick)),
  ];
}
