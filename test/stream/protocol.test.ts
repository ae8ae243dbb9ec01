import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalService } from '../../src/local/service.js';
import { DEMO } from '../../src/embedded/demo.js';
import { OrderBook, parseTimeKey, compareTime } from '../../src/market-data/book.js';
import { midPriceFloat } from '../../src/market-data/price-model.js';
import { TradeTape } from '../../src/market-data/trades.js';
import { defaultConfig } from '../../src/local/config.js';
import { handshake, startService, token, TestSocket } from './helpers.js';
import { until } from '../support/wait.js';

let svc: LocalService;
let admin: string;

beforeAll(async () => {
  svc = await startService({ messagesPerSecond: 200, heartbeatIntervalMs: 100 });
  admin = await token(svc);
});
afterAll(async () => {
  await svc?.close();
});

const md = (market: string) => ({ type: 'market_data', params: { market } });

describe('handshake', () => {
  it('answers 401 without a token or with a bad one', async () => {
    expect((await handshake(svc.wsUrl, {})).status).toBe(401);
    const bad = await handshake(svc.wsUrl, { Authorization: 'Bearer not-a-token' });
    expect(bad.status).toBe(401);
    expect(JSON.parse(bad.body)).toMatchObject({ status: 401, title: 'Unauthorized' });
  });
  it('answers 403 without the stream scope or off the allow list', async () => {
    const noScope = await handshake(svc.wsUrl, {
      Authorization: `Bearer ${await token(svc, DEMO.adminClientId, 'exchange:historical_prices')}`,
    });
    expect(noScope.status).toBe(403);
    expect(JSON.parse(noScope.body).detail).toMatch(/insufficient scopes.*exchange:read_aggregated_marketdata_stream/);
    const readonly = await handshake(svc.wsUrl, { Authorization: `Bearer ${await token(svc, DEMO.readonlyClientId)}` });
    expect(readonly.status).toBe(403);
  });
  it('records each handshake, accepted or refused with its reason, in the request journal', async () => {
    await handshake(svc.wsUrl, { Authorization: 'Bearer journal-probe-bad-token' });
    await handshake(svc.wsUrl, { Authorization: `Bearer ${admin}` });
    const entries = (await (await fetch(`${svc.baseUrl}/_local/journal`)).json()) as { items?: unknown[] } | unknown[];
    const list = (Array.isArray(entries) ? entries : (entries.items ?? [])) as Array<{
      url: string;
      status: number;
      reason?: string;
    }>;
    const ws = list.filter((e) => e.url.startsWith('/ws'));
    expect(ws.some((e) => e.status === 401 && /token/i.test(e.reason ?? ''))).toBe(true);
    expect(ws.some((e) => e.status === 101)).toBe(true);
  });
  it('accepts a token with the scope at the root, as the hosted stream, and at /ws; nowhere else', async () => {
    const auth = { Authorization: `Bearer ${admin}` };
    expect((await handshake(svc.wsUrl, auth)).status).toBe(101);
    const root = svc.wsUrl.replace(/\/ws$/, '/');
    expect((await handshake(root, auth)).status).toBe(101);
    const s = await TestSocket.open(root, admin);
    s.send({ type: 'subscribe', channels: [{ type: 'heartbeat' }] });
    expect((await s.next((m) => m.type === 'subscribe')).channels).toEqual([{ type: 'heartbeat', success: true }]);
    s.close();
    expect((await handshake(svc.wsUrl.replace('/ws', '/other'), auth)).status).toBe(404);
  });
});

describe('requests', () => {
  it('acknowledges each channel with success or its error', async () => {
    const s = await TestSocket.open(svc.wsUrl, admin);
    s.send({
      type: 'subscribe',
      channels: [
        md('BTCUSD'),
        { type: 'heartbeat' },
        { type: 'trades', params: { market: 'BTCUSD' } },
        md('BADBAD'),
        { type: 'market_data' },
        { type: 'execution_data', params: { market: 'ETHUSD', depth: 5 } },
        { type: 'heartbeat', params: { market: 'BTCUSD' } },
        42,
        { type: 'market_data.top_of_book', params: { market: 'ETHEUR' } },
      ],
    });
    const ack = await s.next((m) => m.type === 'subscribe');
    expect(ack.channels).toEqual([
      { type: 'market_data', params: { market: 'BTCUSD' }, success: true },
      { type: 'heartbeat', success: true },
      { type: 'trades', params: { market: 'BTCUSD' }, success: false, error: 'UNKNOWN_CHANNEL' },
      {
        type: 'market_data',
        params: { market: 'BADBAD' },
        success: false,
        error: 'UNKNOWN_CHANNEL_PARAMS_CONFIGURATION',
      },
      { type: 'market_data', success: false, error: 'UNKNOWN_CHANNEL_PARAMS_CONFIGURATION' },
      {
        type: 'execution_data',
        params: { market: 'ETHUSD', depth: 5 },
        success: false,
        error: 'UNKNOWN_CHANNEL_PARAMS_CONFIGURATION',
      },
      {
        type: 'heartbeat',
        params: { market: 'BTCUSD' },
        success: false,
        error: 'UNKNOWN_CHANNEL_PARAMS_CONFIGURATION',
      },
      { type: '42', success: false, error: 'MALFORMED_REQUEST' },
      { type: 'market_data.top_of_book', params: { market: 'ETHEUR' }, success: true },
    ]);
    s.send({ type: 'subscription_list' });
    const list = await s.next((m) => m.type === 'subscription_list');
    expect(list.channels).toEqual([
      md('BTCUSD'),
      { type: 'heartbeat' },
      { type: 'market_data.top_of_book', params: { market: 'ETHEUR' } },
    ]);
    s.close();
  });

  it('each acknowledgement echoes the type and params as sent, whatever the outcome', async () => {
    const s = await TestSocket.open(svc.wsUrl, admin);
    const sent = [{ type: 'heartbeat', params: {} }, md('SOLEUR'), md('SOLEUR'), { type: 'nope', params: { x: 1 } }];
    s.send({ type: 'subscribe', channels: sent });
    const ack = await s.next((m) => m.type === 'subscribe');
    expect(ack.channels.map(({ type, params }: any) => ({ type, params }))).toEqual(sent);
    s.send({ type: 'unsubscribe', channels: [{ type: 'heartbeat', params: {} }, md('SOLEUR'), md('SOLEUR')] });
    const un = await s.next((m) => m.type === 'unsubscribe');
    expect(un.channels).toEqual([
      { type: 'heartbeat', params: {}, success: true },
      { ...md('SOLEUR'), success: true },
      { ...md('SOLEUR'), success: false, error: 'NO_EFFECT_ACTION' },
    ]);
    s.close();
  });

  it('sends no top of book unasked on subscribing: the first comes with a change of the best price', async () => {
    svc.config.stream.paused = true;
    try {
      const s = await TestSocket.open(svc.wsUrl, admin);
      s.send({ type: 'subscribe', channels: [{ type: 'market_data.top_of_book', params: { market: 'LTCEUR' } }] });
      await s.next((m) => m.type === 'subscribe');
      // Requests are answered in order: by the time the list comes, anything sent on subscribing has arrived.
      s.send({ type: 'subscription_list' });
      const seen: unknown[] = [];
      await s.next((m) => seen.push(m) > 0 && m.type === 'subscription_list');
      expect(seen).toEqual([{ type: 'subscription_list', channels: [expect.anything()] }]);
      s.close();
    } finally {
      svc.config.stream.paused = false;
    }
  });

  it('answers NO_EFFECT_ACTION for a duplicate subscription and for unsubscribing what is not subscribed', async () => {
    const s = await TestSocket.open(svc.wsUrl, admin);
    s.send({ type: 'subscribe', channels: [{ type: 'heartbeat' }] });
    expect((await s.next((m) => m.type === 'subscribe')).channels).toEqual([{ type: 'heartbeat', success: true }]);
    s.send({ type: 'subscribe', channels: [{ type: 'heartbeat' }, md('LTCUSD')] });
    expect((await s.next((m) => m.type === 'subscribe')).channels).toEqual([
      { type: 'heartbeat', success: false, error: 'NO_EFFECT_ACTION' },
      { ...md('LTCUSD'), success: true },
    ]);
    s.send({ type: 'unsubscribe', channels: [md('LTCUSD'), md('ETHUSD'), { type: 'nope' }] });
    expect((await s.next((m) => m.type === 'unsubscribe')).channels).toEqual([
      { ...md('LTCUSD'), success: true },
      { ...md('ETHUSD'), success: false, error: 'NO_EFFECT_ACTION' },
      { type: 'nope', success: false, error: 'UNKNOWN_CHANNEL' },
    ]);
    s.send({ type: 'subscription_list' });
    expect((await s.next((m) => m.type === 'subscription_list')).channels).toEqual([{ type: 'heartbeat' }]);
    // No more LTCUSD data after the acknowledgement: three heartbeats later (the service's stream ran on, at 200
    // messages a second a market), none came.
    s.messages.length = 0;
    await until('three heartbeats', () => s.messages.filter((m: any) => m.channel === 'heartbeat').length >= 3);
    expect(s.messages.some((m: any) => m.channel === 'market_data')).toBe(false);
    s.close();
  });

  it('answers request-level errors for malformed requests and unknown actions', async () => {
    const s = await TestSocket.open(svc.wsUrl, admin);
    const err = async () => (await s.next((m) => m.type === 'error')).error;
    for (const bad of [
      '{not json',
      '[1,2]',
      '"subscribe"',
      '{"channels":[]}',
      '{"type":7}',
      '{"type":"subscribe"}',
      '{"type":"subscribe","channels":{}}',
      '{"type":"unsubscribe","channels":[]}',
    ]) {
      s.send(bad);
      expect(await err(), bad).toBe('MALFORMED_REQUEST');
    }
    s.ws.send(Buffer.from('{"type":"subscription_list"}'), { binary: true });
    expect(await err()).toBe('MALFORMED_REQUEST');
    s.send({ type: 'ping' });
    expect(await err()).toBe('UNKNOWN_ACTION');
    s.send({ type: 'SUBSCRIBE', channels: [{ type: 'heartbeat' }] });
    expect(await err()).toBe('UNKNOWN_ACTION');
    // The connection stays usable.
    s.send({ type: 'subscription_list' });
    expect(await s.next((m) => m.type === 'subscription_list')).toEqual({ type: 'subscription_list', channels: [] });
    s.close();
  });

  it('answers WebSocket pings with pongs', async () => {
    const s = await TestSocket.open(svc.wsUrl, admin);
    const pong = new Promise<string>((res) => s.ws.once('pong', (d) => res(d.toString())));
    s.ws.ping('hello');
    expect(await pong).toBe('hello');
    s.close();
  });
});

describe('channels', () => {
  it('market_data: acknowledgement, one SNAPSHOT, then newer UPDATEs that rebuild the service book exactly', async () => {
    const s = await TestSocket.open(svc.wsUrl, admin);
    s.send({ type: 'subscribe', channels: [md('ETHUSD')] });
    const first = await s.next();
    expect(first.type).toBe('subscribe');
    const snap = await s.next();
    expect(snap.channel).toBe('market_data');
    expect(snap.payload.type).toBe('SNAPSHOT');
    // A real book on both sides. Its depth is not fixed: a fast move of the mid (a slow, loaded machine steps the
    // market in bigger jumps) can sweep many levels at once; the level-for-level comparison below is the proof.
    expect(snap.payload.bids.length).toBeGreaterThan(0);
    expect(snap.payload.asks.length).toBeGreaterThan(0);
    const book = new OrderBook('ETHUSD');
    book.apply(snap.payload);
    let updates = 0;
    while (updates < 100) {
      const m = await s.next((x) => x.channel === 'market_data');
      expect(m.payload.type).toBe('UPDATE');
      expect(compareTime(parseTimeKey(m.payload.time)!, parseTimeKey(snap.payload.time)!)).toBeGreaterThan(0);
      for (const l of [...m.payload.bids, ...m.payload.asks]) expect(l.amount).toMatch(/^[0-9]+(\.[0-9]+)?$/);
      book.apply(m.payload);
      updates++;
    }
    expect(book.updatesDropped).toBe(0);
    // Freeze the market, take in what is in flight, and compare level for level.
    svc.config.stream.paused = true;
    try {
      const server = await (await fetch(`${svc.baseUrl}/_local/books/ETHUSD`)).json();
      while (book.time !== server.time) book.apply((await s.next((x) => x.channel === 'market_data')).payload);
      expect(book.toSnapshot()).toEqual(server);
      // Best bid below best ask, and the book's mid follows the price model.
      const bid = Number(server.bids[0].price);
      const ask = Number(server.asks[0].price);
      expect(bid).toBeLessThan(ask);
      const model = midPriceFloat(svc.seed, 'ETHUSD', Date.now());
      expect(Math.abs((bid + ask) / 2 / model - 1)).toBeLessThan(0.002);
    } finally {
      svc.config.stream.paused = false;
    }
    s.close();
  });

  it('top of book on best-price changes, trades from the book, heartbeats at the interval', async () => {
    const s = await TestSocket.open(svc.wsUrl, admin);
    s.send({
      type: 'subscribe',
      channels: [
        { type: 'market_data.top_of_book', params: { market: 'BTCEUR' } },
        { type: 'execution_data', params: { market: 'BTCEUR' } },
        { type: 'heartbeat' },
        md('BTCEUR'),
      ],
    });
    await s.next((m) => m.type === 'subscribe');
    const tops: any[] = [];
    const trades: any[] = [];
    const beats: any[] = [];
    const book = new OrderBook('BTCEUR');
    while (tops.length < 4 || trades.length < 3 || beats.length < 3) {
      const m = await s.next((x) => !!x.channel, 10_000);
      if (m.channel === 'market_data') book.apply(m.payload);
      if (m.channel === 'market_data.top_of_book') {
        expect(m.payload).toMatchObject({ market: 'BTCEUR', type: 'TOP_OF_BOOK' });
        expect(m.payload.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
        expect(m.payload.bids).toHaveLength(1);
        expect(m.payload.asks).toHaveLength(1);
        // Each follows a change of a best price (none is sent on subscribing), and from the second on matches our book.
        if (tops.length > 0 && book.state === 'live') {
          const prev = tops[tops.length - 1];
          expect(prev.bids[0].price !== m.payload.bids[0].price || prev.asks[0].price !== m.payload.asks[0].price).toBe(
            true,
          );
          expect(m.payload.bids[0]).toEqual(book.bestBid());
          expect(m.payload.asks[0]).toEqual(book.bestAsk());
        }
        tops.push(m.payload);
      }
      if (m.channel === 'execution_data') {
        expect(Object.keys(m.payload).sort()).toEqual(['amount', 'executed_at', 'market', 'price']);
        expect(Number(m.payload.amount)).toBeGreaterThan(0);
        trades.push(m.payload);
      }
      if (m.channel === 'heartbeat') {
        expect(Object.keys(m.payload)).toEqual(['timestamp']);
        expect(m.payload.timestamp).toMatch(/\.\d{9}Z$/);
        beats.push(m.payload);
      }
    }
    const gap = Date.parse(beats[2].timestamp) - Date.parse(beats[1].timestamp);
    expect(gap).toBeGreaterThanOrEqual(90);
    expect(defaultConfig().stream.heartbeatIntervalMs).toBe(1000);
    s.close();
  });
});

describe('service clock', () => {
  it('a clock jump rebuilds the book at the new price and sends subscribers a fresh SNAPSHOT', async () => {
    const s = await TestSocket.open(svc.wsUrl, admin);
    s.send({ type: 'subscribe', channels: [md('BCHUSD')] });
    const book = new OrderBook('BCHUSD');
    book.apply((await s.next((m) => m.payload?.type === 'SNAPSHOT')).payload);
    const r = await fetch(`${svc.baseUrl}/_local/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: 86_400 * 3 }),
    });
    expect(r.status).toBeLessThan(300);
    const fresh = await s.next((m) => m.payload?.type === 'SNAPSHOT', 10_000);
    book.apply(fresh.payload);
    const model = midPriceFloat(svc.seed, 'BCHUSD', Date.parse(fresh.payload.time));
    const mid = (Number(fresh.payload.bids[0].price) + Number(fresh.payload.asks[0].price)) / 2;
    expect(Math.abs(mid / model - 1)).toBeLessThan(0.002);
    svc.config.stream.paused = true;
    try {
      const server = await (await fetch(`${svc.baseUrl}/_local/books/BCHUSD`)).json();
      while (book.time !== server.time) book.apply((await s.next((x) => x.channel === 'market_data')).payload);
      expect(book.toSnapshot()).toEqual(server);
    } finally {
      svc.config.stream.paused = false;
    }
    s.close();
    // Tokens live by the service clock: the jump expired ours.
    admin = await token(svc);
  });
});

describe('limits and faults', () => {
  it('disconnects a subscriber whose buffer passes the cap', async () => {
    const cap = svc.config.stream.subscriberBufferCap;
    const rate = svc.config.stream.messagesPerSecond;
    svc.config.stream.subscriberBufferCap = 100;
    svc.config.stream.messagesPerSecond = 20_000;
    try {
      const s = await TestSocket.open(svc.wsUrl, admin);
      s.send({ type: 'subscribe', channels: [md('SOLEUR'), { type: 'execution_data', params: { market: 'SOLEUR' } }] });
      await s.next((m) => m.type === 'subscribe');
      const stats = async () =>
        (await (await fetch(`${svc.baseUrl}/_local/stream`)).json()) as {
          slow_consumers_dropped: number;
          connections: number;
        };
      const before = (await stats()).slow_consumers_dropped;
      // A reader that keeps up is not dropped by a burst.
      await s.next((m) => m.channel === 'execution_data');
      expect((await stats()).slow_consumers_dropped).toBe(before);
      // Stop reading: the kernel buffers fill, then the service's queue for us, and it lets us go.
      (s.ws as any)._socket.pause();
      await until('the slow reader dropped', async () => (await stats()).slow_consumers_dropped !== before, {
        timeoutMs: 30_000,
      });
      expect((await stats()).slow_consumers_dropped).toBe(before + 1);
      (s.ws as any)._socket.resume();
      await new Promise<void>((res) => (s.closed ? res() : s.ws.once('close', () => res())));
    } finally {
      svc.config.stream.subscriberBufferCap = cap;
      svc.config.stream.messagesPerSecond = rate;
    }
  });

  it('stalls heartbeats and drops connections on request', async () => {
    const s = await TestSocket.open(svc.wsUrl, admin);
    s.send({ type: 'subscribe', channels: [{ type: 'heartbeat' }, md('LTCEUR')] });
    await s.next((m) => m.channel === 'heartbeat');
    svc.config.stream.faults.stallHeartbeats = true;
    try {
      // A heartbeat sent before the stall arrives before the answer to a request sent after it (one connection, in
      // order): past that answer, none may come. The market's data runs on beside it (200 messages a second): 100 of
      // them, five heartbeat intervals' worth, without a heartbeat show the stall.
      s.send({ type: 'subscription_list' });
      await s.next((m) => m.type === 'subscription_list');
      s.messages.length = 0;
      await until('100 market data messages', () => s.messages.length >= 100);
      expect(s.messages.filter((m: any) => m.channel !== 'market_data')).toEqual([]);
    } finally {
      svc.config.stream.faults.stallHeartbeats = false;
    }
    await s.next((m) => m.channel === 'heartbeat');
    svc.config.stream.faults.dropConnectionsEveryMs = 200;
    try {
      await s.next(() => false, 3000).catch((e) => expect(String(e)).toMatch(/closed/));
      expect(s.closed).toBe(true);
    } finally {
      svc.config.stream.faults.dropConnectionsEveryMs = 0;
    }
  });

  it('sends UPDATEs before the SNAPSHOT when asked, old and new', async () => {
    svc.config.stream.faults.updatesBeforeSnapshot = true;
    try {
      // Someone watches first, so the market has recent UPDATEs to replay.
      const w = await TestSocket.open(svc.wsUrl, admin);
      w.send({ type: 'subscribe', channels: [md('LTCEUR')] });
      for (let i = 0; i < 5; i++) await w.next((m) => m.payload?.type === 'UPDATE');
      const s = await TestSocket.open(svc.wsUrl, admin);
      s.send({ type: 'subscribe', channels: [md('LTCEUR')] });
      await s.next((m) => m.type === 'subscribe');
      const before: any[] = [];
      let snap: any;
      for (;;) {
        const m = await s.next((x) => x.channel === 'market_data');
        if (m.payload.type === 'SNAPSHOT') {
          snap = m.payload;
          break;
        }
        before.push(m.payload);
      }
      const t = parseTimeKey(snap.time)!;
      expect(before.some((u) => compareTime(parseTimeKey(u.time)!, t) <= 0)).toBe(true);
      expect(before.some((u) => compareTime(parseTimeKey(u.time)!, t) > 0)).toBe(true);
      w.close();
      s.close();
    } finally {
      svc.config.stream.faults.updatesBeforeSnapshot = false;
    }
  });

  it('sends execution_data out of order when asked (in order otherwise); the trade tape keeps the latest trade as the last', async () => {
    const trades = async (count: number) => {
      const s = await TestSocket.open(svc.wsUrl, admin);
      try {
        s.send({ type: 'subscribe', channels: [{ type: 'execution_data', params: { market: 'LTCUSD' } }] });
        await s.next((m) => m.type === 'subscribe');
        const out: Array<{ market: string; price: string; amount: string; executed_at: string }> = [];
        while (out.length < count) out.push((await s.next((m) => m.channel === 'execution_data', 10_000)).payload);
        return out;
      } finally {
        s.close();
      }
    };
    const backwards = (ts: Array<{ executed_at: string }>) =>
      ts.filter((t, i) => i > 0 && t.executed_at < ts[i - 1].executed_at).length;
    expect(backwards(await trades(20))).toBe(0);
    svc.config.stream.faults.executionsOutOfOrder = true;
    try {
      const got = await trades(40);
      expect(backwards(got)).toBeGreaterThan(0);
      const tape = new TradeTape();
      for (const t of got) tape.add(t, 0);
      const latest = got
        .map((t) => t.executed_at)
        .sort()
        .at(-1);
      expect(tape.stats.get('LTCUSD')!.last!.executed_at).toBe(latest);
    } finally {
      svc.config.stream.faults.executionsOutOfOrder = false;
    }
  });

  it('PUT /_local/stream changes the settings, and names the field of a bad one', async () => {
    const put = (body: unknown) =>
      fetch(`${svc.baseUrl}/_local/stream`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const ok = await put({ paused: true, faults: { stallHeartbeats: false } });
    expect(ok.status).toBe(200);
    expect((await ok.json()).settings.paused).toBe(true);
    expect(svc.config.stream.paused).toBe(true);
    expect((await put({ paused: false })).status).toBe(200);
    expect(svc.config.stream.paused).toBe(false);
    const bad = await put({ messagesPerSecond: -5, colour: 'red' });
    expect(bad.status).toBe(400);
    const detail = (await bad.json()).detail;
    expect(detail).toMatch(/messagesPerSecond: must be a number >= 0/);
    expect(detail).toMatch(/colour: is not a known setting/);
    expect(svc.config.stream.messagesPerSecond).toBe(200);
  });

  it('GET /_local/books/{market} answers a snapshot, and 404 for an unknown market', async () => {
    const b = await (await fetch(`${svc.baseUrl}/_local/books/PAXGUSD`)).json();
    expect(b).toMatchObject({ market: 'PAXGUSD', type: 'SNAPSHOT' });
    expect(b.bids.length).toBeGreaterThan(0);
    const r = await fetch(`${svc.baseUrl}/_local/books/NOPE`);
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toMatch(/problem\+json/);
  });
});
