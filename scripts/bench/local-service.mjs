// Throughput of the local service on loopback: token-authenticated GET of historical prices and POST of crypto
// withdrawals (unique ref_ids, file database in WAL mode), in requests per second. The load generator runs in a
// worker thread over raw keep-alive sockets with a fixed number of requests in flight; the baseline is a bare
// node:http route answering a small JSON object to the same load generator.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { accessToken } from '../bench-support/token.mjs';

const LOADGEN = `
const net = require('node:net');
const { workerData, parentPort } = require('node:worker_threads');
const { host, port, connections, durationMs, kind, path, token, bodyTemplate } = workerData;
let seq = 0;
const counts = {};
let done = 0;
let stopAt = 0;
function request() {
  if (kind === 'get') return 'GET ' + path + ' HTTP/1.1\\r\\nHost: ' + host + '\\r\\nAuthorization: Bearer ' + token + '\\r\\n\\r\\n';
  const body = bodyTemplate.replace('__REF__', 'bench-' + process.pid + '-' + Date.now() + '-' + (seq++));
  return 'POST ' + path + ' HTTP/1.1\\r\\nHost: ' + host + '\\r\\nAuthorization: Bearer ' + token +
    '\\r\\nContent-Type: application/json\\r\\nContent-Length: ' + Buffer.byteLength(body) + '\\r\\n\\r\\n' + body;
}
function connection() {
  return new Promise((resolve) => {
    const s = net.connect(port, host);
    s.setNoDelay(true);
    // Streaming response parser: headers are gathered until the blank line, body bytes are only counted.
    let head = null;
    let remaining = -1;
    const send = () => { if (Date.now() >= stopAt) { s.end(); return resolve(); } s.write(request()); };
    s.on('connect', send);
    s.on('error', () => resolve());
    s.on('close', () => resolve());
    s.on('data', (chunk) => {
      let at = 0;
      while (at < chunk.length) {
        if (remaining < 0) {
          head = head ? Buffer.concat([head, chunk.subarray(at)]) : chunk.subarray(at);
          const end = head.indexOf('\\r\\n\\r\\n');
          if (end < 0) return;
          const text = head.subarray(0, end).toString('latin1');
          const status = Number(text.slice(9, 12));
          const m = /content-length:\\s*(\\d+)/i.exec(text);
          counts[status] = (counts[status] || 0) + 1;
          const consumedFromChunk = end + 4 - (head.length - (chunk.length - at));
          at += consumedFromChunk;
          head = null;
          remaining = m ? Number(m[1]) : 0;
        }
        const take = Math.min(remaining, chunk.length - at);
        at += take;
        remaining -= take;
        if (remaining === 0) {
          remaining = -1;
          done++;
          send();
        }
      }
    });
  });
}
(async () => {
  const started = Date.now();
  stopAt = started + durationMs;
  await Promise.all(Array.from({ length: connections }, connection));
  parentPort.postMessage({ done, counts, seconds: (Date.now() - started) / 1000 });
})();
`;

function load(opts) {
  return new Promise((resolve, reject) => {
    const w = new Worker(LOADGEN, { eval: true, workerData: opts });
    w.once('message', resolve);
    w.once('error', reject);
  });
}

function rate(result, okStatus = 200) {
  const ok = result.counts[okStatus] ?? 0;
  return { rps: ok / result.seconds, ok, other: result.done - ok, counts: result.counts };
}

export default async function run({ quick = false } = {}) {
  const { startLocalService } = await import('../../dist/local/service.js');
  const { DEMO } = await import('../../dist/embedded/demo.js');
  const durationMs = quick ? 2000 : 8000;
  const connections = 32;
  const rows = [];

  // Baseline: the same load generator against a bare node:http server answering a small JSON object, the floor any
  // HTTP service on node stands on.
  const { createServer } = await import('node:http');
  const bare = createServer((req, res) => {
    const body = JSON.stringify({ hello: 'world' });
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  });
  await new Promise((resolve) => bare.listen({ host: '127.0.0.1', port: 0 }, resolve));
  const barePort = bare.address().port;
  await load({
    host: '127.0.0.1',
    port: barePort,
    connections,
    durationMs: 500,
    kind: 'get',
    path: '/hello',
    token: '',
  });
  const baseline = rate(
    await load({ host: '127.0.0.1', port: barePort, connections, durationMs, kind: 'get', path: '/hello', token: '' }),
  );
  bare.closeAllConnections();
  await new Promise((resolve) => bare.close(resolve));

  const dir = mkdtempSync(join(tmpdir(), 'coinop-bench-'));
  const svc = await startLocalService({
    dbFile: join(dir, 'bench.db'),
    port: 0,
    config: { rateLimits: { enabled: false } },
  });
  try {
    const tok = await accessToken(svc.authUrl);
    const base = { host: '127.0.0.1', port: svc.port, connections, token: tok };

    const pricePath =
      '/v2/markets/BTCUSD/historical-prices?increment=ONE_HOUR&range.begin=2025-01-01T00:00:00Z&range.end=2025-01-02T00:00:00Z';
    await load({ ...base, durationMs: 500, kind: 'get', path: pricePath });
    const gets = rate(await load({ ...base, durationMs, kind: 'get', path: pricePath }));
    rows.push({
      name: 'local service: GET historical prices (token, 23 points)',
      value: gets.rps,
      unit: 'req/s',
      baseline: baseline.rps,
      baselineName: 'bare node:http route, same load',
      ratio: gets.rps / baseline.rps,
      target: '>= 10000 req/s',
      met: gets.rps >= 10000 && gets.other === 0,
      detail: gets.counts,
    });

    const body = JSON.stringify({
      profile_id: DEMO.profileId,
      asset: 'BTC',
      crypto_network: 'BITCOIN',
      destination_address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
      amount: '0.0001',
      ref_id: '__REF__',
    });
    const posts = rate(
      await load({ ...base, durationMs, kind: 'post', path: '/v2/transfer/crypto-withdrawals', bodyTemplate: body }),
    );
    rows.push({
      name: 'local service: POST crypto withdrawals (token, file DB, unique ref_ids)',
      value: posts.rps,
      unit: 'req/s',
      baseline: baseline.rps,
      baselineName: 'bare node:http route, same load',
      ratio: posts.rps / baseline.rps,
      target: '>= 2000 req/s',
      met: posts.rps >= 2000 && posts.other === 0,
      detail: posts.counts,
    });
  } finally {
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await run({ quick: process.argv.includes('--quick') });
  for (const r of rows)
    console.log(
      `${r.name}: ${Math.round(r.value)} ${r.unit} (baseline ${Math.round(r.baseline)}, target ${r.target}, met ${r.met}) ${JSON.stringify(r.detail)}`,
    );
}
