// Fuzzing the market data stream: seeded binary frames, huge frames, broken JSON, wrong shapes, unknown actions and
// channels, each answered with the right error code, while a second client keeps receiving heartbeats and book
// updates throughout. PROOF_SEED=N repeats a run.
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKETS } from '../../src/contract/index.js';
import { OrderBook } from '../../src/market-data/book.js';
import { startLocalService, type LocalService } from '../../src/local/service.js';
import { handshake, token } from '../stream/helpers.js';
import { seededRng as mulberry32 } from '../../src/market-data/rng.js';

const SEED = process.env.PROOF_SEED ? Number(process.env.PROOF_SEED) : Math.floor(Math.random() * 2 ** 31);
const FRAMES = Number(process.env.PROOF_STREAM_FRAMES ?? 5000);

/** A socket that keeps control answers (messages with `type`) apart from channel messages, and its close code. */
class Client {
  readonly answers: any[] = [];
  channelMessages = 0;
  heartbeats = 0;
  updates = 0;
  closeCode: number | null = null;
  readonly book = new OrderBook('BTCUSD');
  private wake: (() => void) | null = null;
  constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      const m = JSON.parse(data.toString());
      if (isBinary) throw new Error('the server sent a binary frame');
      if (typeof m.type === 'string') this.answers.push(m);
      else {
        this.channelMessages++;
        if (m.channel === 'heartbeat') this.heartbeats++;
        if (m.channel === 'market_data') {
          this.updates++;
          this.book.apply(m.payload);
        }
      }
      this.wake?.();
    });
    ws.on('close', (code) => {
      this.closeCode = code;
      this.wake?.();
    });
  }
  static async open(url: string, tok: string): Promise<Client> {
    const ws = new WebSocket(url, { headers: { Authorization: `Bearer ${tok}` }, maxPayload: 0 });
    const c = new Client(ws);
    await new Promise<void>((res, rej) => {
      ws.once('open', () => res());
      ws.once('error', rej);
    });
    return c;
  }
  async until(pred: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pred()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((res) => {
        const t = setTimeout(res, Math.min(left, 200));
        this.wake = () => {
          clearTimeout(t);
          res();
        };
      });
      this.wake = null;
    }
  }
  async answer(): Promise<any> {
    await this.until(() => this.answers.length > 0 || this.closeCode !== null, 'an answer');
    if (!this.answers.length) throw new Error(`closed (${this.closeCode}) instead of answering`);
    return this.answers.shift();
  }
}

type Expect = { error: string } | { acks: Array<string | null>; type: 'subscribe' | 'unsubscribe' } | { close: number };

describe('fuzzing the stream', () => {
  let svc: LocalService;
  let tok: string;
  beforeAll(async () => {
    svc = await startLocalService({
      memory: true,
      seed: 5,
      config: {
        rateLimits: { enabled: false },
        stream: { subscriptionRequestsPerSecond: 0, heartbeatIntervalMs: 100, messagesPerSecond: 50 },
      },
    });
    tok = await token(svc);
  });
  afterAll(() => svc?.close());

  it('refuses bad handshakes with 401, 403 or 404 problems and keeps accepting good ones', async () => {
    const rng = mulberry32(SEED ^ 0x4a4d);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)];
    const readonly = await token(svc, 'local-readonly');
    const limited = await token(svc, 'local-admin', 'exchange:historical_prices');
    const cases: Array<[string, Record<string, string>, number]> = [
      ['', {}, 401],
      ['', { Authorization: '' }, 401],
      ['', { Authorization: 'Bearer' }, 401],
      ['', { Authorization: `Bearer ${tok}x` }, 401],
      ['', { Authorization: `Basic ${tok}` }, 401],
      ['', { Authorization: `Bearer ${tok} ${tok}` }, 401],
      ['', { Authorization: `Bearer ${'a'.repeat(4000)}` }, 401],
      ['', { Authorization: `Bearer ${readonly}` }, 403],
      ['', { Authorization: `Bearer ${limited}` }, 403],
      ['/../ws', { Authorization: `Bearer ${tok}` }, 101],
      ['x', { Authorization: `Bearer ${tok}` }, 404],
      ['/ws2', { Authorization: `Bearer ${tok}` }, 404],
    ];
    for (let i = 0; i < 60; i++) {
      const [suffix, headers, status] = pick(cases);
      const url = suffix.startsWith('/') ? svc.wsUrl.replace(/\/ws$/, suffix) : svc.wsUrl + suffix;
      const r = await handshake(url, headers);
      expect(r.status, `${url} ${JSON.stringify(headers).slice(0, 80)}`).toBe(status);
      if (status !== 101) expect(JSON.parse(r.body)).toMatchObject({ status, title: expect.any(String) });
    }
  });

  it(`${FRAMES} bad frames get the right error code; another client keeps being served (seed ${SEED})`, async () => {
    const rng = mulberry32(SEED);
    const int = (lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)];
    const odd = () =>
      pick([
        '',
        ' ',
        'é',
        '\u0000',
        '🚀',
        'BTCUSD ',
        'btcusd',
        'BTC-USD',
        'x'.repeat(int(1, 5000)),
        '__proto__',
        'constructor',
      ]);

    // The bystander: heartbeats and BTCUSD book updates all along.
    const bystander = await Client.open(svc.wsUrl, tok);
    bystander.ws.send(
      JSON.stringify({
        type: 'subscribe',
        channels: [{ type: 'heartbeat' }, { type: 'market_data', params: { market: 'BTCUSD' } }],
      }),
    );
    expect((await bystander.answer()).channels.every((c: any) => c.success)).toBe(true);

    let fuzzer = await Client.open(svc.wsUrl, tok);
    const subscribeHeartbeat = async () => {
      fuzzer.ws.send(JSON.stringify({ type: 'subscribe', channels: [{ type: 'heartbeat' }] }));
      expect((await fuzzer.answer()).channels[0].success).toBe(true);
    };
    await subscribeHeartbeat();

    /** One channel entry that cannot change the fuzzer's subscriptions, and the error it must get. */
    const entry = (action: 'subscribe' | 'unsubscribe'): [unknown, string] =>
      pick<() => [unknown, string]>([
        () => [pick([null, 1, 'market_data', [], true]), 'MALFORMED_REQUEST'],
        () => [{ type: pick([1, null, true, {}, []]), params: { market: 'BTCUSD' } }, 'MALFORMED_REQUEST'],
        () => [
          {
            type: pick(['trades', 'MARKET_DATA', 'market-data', 'book', '', '__proto__', 'constructor', odd()]),
            params: { market: 'BTCUSD' },
          },
          'UNKNOWN_CHANNEL',
        ],
        () => [
          {
            type: pick(['market_data', 'execution_data', 'market_data.top_of_book']),
            params: pick<unknown>([
              {},
              { market: odd() },
              { market: 1 },
              'BTCUSD',
              [],
              null,
              { market: 'BTCUSD', depth: 10 },
              { Market: 'BTCUSD' },
            ]),
          },
          'UNKNOWN_CHANNEL_PARAMS_CONFIGURATION',
        ],
        () => [{ type: pick(['market_data', 'execution_data']) }, 'UNKNOWN_CHANNEL_PARAMS_CONFIGURATION'],
        () => [
          { type: 'heartbeat', params: pick<unknown>([{ market: 'BTCUSD' }, 'x', 1, []]) },
          'UNKNOWN_CHANNEL_PARAMS_CONFIGURATION',
        ],
        // Already subscribed to the heartbeat; never subscribed to any market channel.
        () =>
          action === 'subscribe'
            ? [{ type: 'heartbeat' }, 'NO_EFFECT_ACTION']
            : [
                {
                  type: pick(['market_data', 'execution_data', 'market_data.top_of_book']),
                  params: { market: pick(MARKETS) },
                },
                'NO_EFFECT_ACTION',
              ],
      ])();

    const frame = (): { data: string | Buffer; binary?: boolean; expect: Expect; what: string } =>
      pick<() => { data: string | Buffer; binary?: boolean; expect: Expect; what: string }>([
        () => ({
          data: Buffer.from(JSON.stringify({ type: 'subscription_list' })),
          binary: true,
          expect: { error: 'MALFORMED_REQUEST' },
          what: 'binary frame',
        }),
        () => ({
          data: Buffer.from(Array.from({ length: int(0, 300) }, () => int(0, 255))),
          binary: true,
          expect: { error: 'MALFORMED_REQUEST' },
          what: 'binary noise',
        }),
        () => ({
          data: pick([
            '{',
            '{"type":',
            '{"type":"subscribe",}',
            "{'type':'subscribe'}",
            'subscribe',
            '',
            '\u0000',
            '{"type":"subscribe"',
          ]),
          expect: { error: 'MALFORMED_REQUEST' },
          what: 'broken JSON',
        }),
        () => ({
          data: pick([
            'null',
            '[]',
            '1',
            '"subscribe"',
            'true',
            '[{"type":"subscribe"}]',
            '['.repeat(int(10, 3000)) + ']'.repeat(int(0, 3000)),
          ]),
          expect: { error: 'MALFORMED_REQUEST' },
          what: 'not an object',
        }),
        () => ({
          data: JSON.stringify(
            pick<unknown>([{}, { type: 1 }, { type: null }, { channels: [] }, { type: ['subscribe'] }]),
          ),
          expect: { error: 'MALFORMED_REQUEST' },
          what: 'no type',
        }),
        () => ({
          data: JSON.stringify({
            type: pick(['SUBSCRIBE', 'sub', 'ping', 'list', '', 'constructor', '__proto__', 'toString', odd()]),
          }),
          expect: { error: 'UNKNOWN_ACTION' },
          what: 'unknown action',
        }),
        () => ({
          data: JSON.stringify({
            type: pick(['subscribe', 'unsubscribe']),
            ...pick<object>([{}, { channels: [] }, { channels: 'heartbeat' }, { channels: {} }, { channels: null }]),
          }),
          expect: { error: 'MALFORMED_REQUEST' },
          what: 'bad channels',
        }),
        () => {
          const action = pick(['subscribe', 'unsubscribe'] as const);
          const entries = Array.from({ length: int(1, 6) }, () => entry(action));
          return {
            data: JSON.stringify({ type: action, channels: entries.map((e) => e[0]) }),
            expect: { type: action, acks: entries.map((e) => e[1]) },
            what: `${action} with bad channels`,
          };
        },
        () => ({
          data: JSON.stringify({ type: 'subscription_list', extra: odd() }),
          expect: { acks: [null], type: 'subscribe' },
          what: 'subscription list',
        }),
        () => ({
          data: pick(['x', '{"type":"subscribe","channels":[]}', '\u0000']).padEnd(int(65 * 1024, 200 * 1024), ' '),
          expect: { close: 1009 },
          what: 'huge frame',
        }),
      ])();

    let bystanderHeartbeats = bystander.heartbeats;
    let bystanderUpdates = bystander.updates;
    const counts: Record<string, number> = {};
    for (let i = 0; i < FRAMES; i++) {
      // Rarely a huge frame (each costs a reconnect).
      let f = frame();
      while ('close' in f.expect && rng() > 0.05) f = frame();
      counts[f.what] = (counts[f.what] ?? 0) + 1;
      const where = `frame ${i} (${f.what}: ${String(f.data).slice(0, 120)}), seed ${SEED}`;
      fuzzer.ws.send(f.data, { binary: !!f.binary });
      const e = f.expect;
      if ('close' in e) {
        await fuzzer.until(() => fuzzer.closeCode !== null, `the close after ${where}`);
        expect(fuzzer.closeCode, where).toBe(e.close);
        fuzzer = await Client.open(svc.wsUrl, tok);
        await subscribeHeartbeat();
        continue;
      }
      const a = await fuzzer.answer();
      if ('error' in e) {
        expect(a, where).toEqual({ type: 'error', error: e.error });
      } else if (e.acks[0] === null) {
        expect(a, where).toEqual({ type: 'subscription_list', channels: [{ type: 'heartbeat' }] });
      } else {
        expect(a.type, where).toBe(e.type);
        expect(
          a.channels.map((c: any) => (c.success ? 'success' : c.error)),
          where,
        ).toEqual(e.acks);
      }
      // Every few hundred frames, the bystander must have had new heartbeats and book updates.
      if (i % 250 === 249) {
        await bystander.until(
          () => bystander.heartbeats > bystanderHeartbeats && bystander.updates > bystanderUpdates,
          `the bystander's messages by ${where}`,
        );
        bystanderHeartbeats = bystander.heartbeats;
        bystanderUpdates = bystander.updates;
      }
    }
    // A flood without waiting: every frame still gets its answer, in order.
    const flood = 500;
    for (let i = 0; i < flood; i++) fuzzer.ws.send(i % 2 ? '{' : JSON.stringify({ type: 'nope' }));
    for (let i = 0; i < flood; i++)
      expect(await fuzzer.answer()).toEqual({ type: 'error', error: i % 2 ? 'MALFORMED_REQUEST' : 'UNKNOWN_ACTION' });

    // The bystander's book is intact: freeze the market and compare it level for level with the service's.
    expect(bystander.closeCode).toBeNull();
    await fetch(`${svc.baseUrl}/_local/stream`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ paused: true }),
    });
    // Paused, the service's book stays put; the bystander's reaches it once the updates in flight have arrived.
    const theirs = (await (await fetch(`${svc.baseUrl}/_local/books/BTCUSD`)).json()) as any;
    await expect.poll(() => bystander.book.toSnapshot().bids, { timeout: 10_000 }).toEqual(theirs.bids);
    await expect.poll(() => bystander.book.toSnapshot().asks, { timeout: 10_000 }).toEqual(theirs.asks);
    process.stderr.write(
      `fuzz-stream: ${FRAMES + flood} frames, seed ${SEED}, ${JSON.stringify(counts)}; bystander got ${bystander.heartbeats} heartbeats, ${bystander.updates} book messages\n`,
    );
    fuzzer.ws.terminate();
    bystander.ws.terminate();
  });
});
