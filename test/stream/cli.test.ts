// `coinop stream` piped: one JSON object per line on stdout and nothing else, --count, --duration, --book, exit codes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalService } from '../../src/local/service.js';
import { DEMO } from '../../src/embedded/demo.js';
import { OrderBook } from '../../src/market-data/book.js';
import { startService, token } from './helpers.js';
import { BIN } from '../support/paths.js';

let svc: LocalService;
let dir: string;

beforeAll(async () => {
  svc = await startService({ messagesPerSecond: 200, heartbeatIntervalMs: 100 });
  dir = mkdtempSync(join(tmpdir(), 'coinop-stream-cli-'));
});
afterAll(async () => {
  await svc?.close();
  rmSync(dir, { recursive: true, force: true });
});

function coinop(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [BIN, ...args], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        COINOP_CONFIG_DIR: join(dir, 'config'),
        COINOP_DATA_DIR: join(dir, 'data'),
        COINOP_BASE_URL: svc.baseUrl,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr, ms: Date.now() - started }));
  });
}

const lines = (s: string) =>
  s
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));

describe('coinop stream, piped', () => {
  it('writes the messages as received, one per line, and stops after --count', async () => {
    const r = await coinop(['stream', 'book', 'BTCUSD', '--count', '50']);
    expect(r.code).toBe(0);
    const msgs = lines(r.stdout);
    expect(msgs).toHaveLength(50);
    expect(msgs[0]).toMatchObject({ channel: 'market_data', payload: { market: 'BTCUSD', type: 'SNAPSHOT' } });
    expect(msgs.slice(1).every((m) => m.channel === 'market_data' && m.payload.type === 'UPDATE')).toBe(true);
    // The messages rebuild a book: a faithful pass-through.
    const book = new OrderBook('BTCUSD');
    for (const m of msgs) book.apply(m.payload);
    expect(book.updatesApplied).toBe(49);
  });

  it('mixes channels with --channel and ends after --duration; heartbeats only when asked for', async () => {
    const r = await coinop([
      'stream',
      '-c',
      'execution_data:ETHUSD',
      '-c',
      'market_data.top_of_book:ETHUSD',
      '--duration',
      '1.5s',
      '-o',
      'ndjson',
    ]);
    expect(r.code).toBe(0);
    const msgs = lines(r.stdout);
    const channels = new Set(msgs.map((m) => m.channel));
    expect(channels).toEqual(new Set(['execution_data', 'market_data.top_of_book']));
    const hb = await coinop(['stream', 'heartbeat', '--count', '3']);
    expect(lines(hb.stdout).map((m) => m.channel)).toEqual(['heartbeat', 'heartbeat', 'heartbeat']);
  });

  it('--book writes the maintained book at the interval', async () => {
    const r = await coinop(['stream', 'book', 'ETHEUR', '--book', '--interval', '100', '--depth', '3', '--count', '4']);
    expect(r.code).toBe(0);
    const books = lines(r.stdout);
    expect(books).toHaveLength(4);
    for (const b of books) {
      expect(b.market).toBe('ETHEUR');
      expect(b.bids).toHaveLength(3);
      expect(b.asks).toHaveLength(3);
      expect(Number(b.bids[0].price)).toBeLessThan(Number(b.asks[0].price));
      expect(Number(b.bids[0].price)).toBeGreaterThan(Number(b.bids[1].price));
    }
    expect(books.map((b) => b.time)).toEqual([...books.map((b) => b.time)].sort());
  });

  it('exits 4 with one clear line when the handshake is refused, and 2 on bad flags', async () => {
    const forbidden = await coinop(['stream', 'heartbeat', '--count', '1'], {
      COINOP_TOKEN: await token(svc, DEMO.readonlyClientId),
    });
    expect(forbidden.code).toBe(4);
    expect(forbidden.stdout).toBe('');
    expect(forbidden.stderr).toMatch(/refused this client \(403\)/);
    expect(forbidden.stderr).not.toMatch(/at .*\.js/);
    const bad = await coinop(['stream', 'heartbeat', '--count', '1'], { COINOP_TOKEN: 'expired-or-wrong' });
    expect(bad.code).toBe(4);
    expect(bad.stderr).toMatch(/refused the token \(401\)/);
    for (const [args, msg] of [
      [['stream', 'book', 'NOPE'], /MARKET: "NOPE" is not a market/],
      [['stream', '-c', 'market_data'], /--channel: market_data needs a market/],
      [['stream', '-c', 'candles:BTCUSD'], /--channel: "candles" is not a channel/],
      [['stream', 'heartbeat', '--duration', 'soon'], /--duration: must be a positive time/],
      [['stream', 'top', 'BTCUSD', '--count', '0'], /--count: must be from 1/],
      [['stream', 'trades', 'BTCUSD', '--book'], /--book: needs a market_data channel/],
      [['stream', 'book', 'BTCUSD', '-c', 'heartbeat'], /--channel: not with stream book/],
    ] as const) {
      const r = await coinop([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(msg);
      expect(r.stdout).toBe('');
    }
  });

  it('exits 5 when nothing answers at the stream address', async () => {
    const r = await coinop(['stream', 'heartbeat', '--count', '1'], {
      COINOP_TOKEN: 't',
      COINOP_WS_URL: 'ws://127.0.0.1:1/ws',
      COINOP_RETRY_BASE_MS: '5',
    });
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toMatch(/cannot connect to ws:\/\/127\.0\.0\.1:1\/ws/);
  });
});
