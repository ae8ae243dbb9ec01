// Market data over HTTP (GET /v2/markets, ticker, order-book, recent-executions, all-markets/prices): public, and
// answered from the very markets the stream serves, so a snapshot and the stream agree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKETS } from '../../src/contract/enums.js';
import { DEMO } from '../../src/embedded/demo.js';
import type { LocalService } from '../../src/local/service.js';
import { RECENT_EXECUTIONS } from '../../src/local/stream/market.js';
import { OrderBook } from '../../src/market-data/book.js';
import { midPriceFloat } from '../../src/market-data/price-model.js';
import { startService, TestSocket, token } from '../stream/helpers.js';

let svc: LocalService;
let admin: string;

beforeAll(async () => {
  svc = await startService({ messagesPerSecond: 200 });
  admin = await token(svc);
});
afterAll(async () => {
  await svc?.close();
});

async function get(path: string, tok?: string): Promise<{ status: number; body: any }> {
  const r = await fetch(svc.baseUrl + path, { headers: tok ? { authorization: `Bearer ${tok}` } : {} });
  return { status: r.status, body: await r.json() };
}

const md = (market: string) => ({ type: 'market_data', params: { market } });
const ex = (market: string) => ({ type: 'execution_data', params: { market } });

describe('market data snapshots and the stream', () => {
  it("the order book over HTTP is the stream's book at the same moment; the ticker's last price is the last execution", async () => {
    const s = await TestSocket.open(svc.wsUrl, admin);
    s.send({ type: 'subscribe', channels: [md('ETHUSD'), ex('ETHUSD')] });
    const book = new OrderBook('ETHUSD');
    const trades: { price: string; amount: string; executed_at: string }[] = [];
    const take = async () => {
      const m = await s.next((x) => !!x.channel);
      if (m.channel === 'market_data') book.apply(m.payload);
      else trades.push(m.payload);
    };
    while (trades.length < 5 || book.state !== 'live') await take();
    svc.config.stream.paused = true;
    try {
      const http = await get('/v2/markets/ETHUSD/order-book');
      const server = (await get('/_local/books/ETHUSD')).body;
      const ticker = (await get('/v2/markets/ETHUSD/ticker')).body;
      const recent = (await get('/v2/markets/ETHUSD/recent-executions')).body.items;
      // Take in what was in flight when the market stopped: the book to the server's time, the trades to its last.
      while (book.time !== server.time) await take();
      const last = recent[recent.length - 1];
      while (!trades.some((t) => t.executed_at === last.executed_at && t.price === last.price)) await take();

      expect(http.status).toBe(200);
      const streamBook = book.toSnapshot();
      expect(http.body).toEqual({ market: 'ETHUSD', bids: streamBook.bids, asks: streamBook.asks });
      expect(ticker.best_bid).toEqual(book.bestBid());
      expect(ticker.best_ask).toEqual(book.bestAsk());
      // Every trade the stream sent since subscribing is the tail of recent-executions, in order.
      const tail = recent.slice(-trades.length).map(({ price, amount, executed_at }: any) => ({
        price,
        amount,
        executed_at,
      }));
      expect(tail).toEqual(trades.map(({ price, amount, executed_at }) => ({ price, amount, executed_at })));
      const latest = trades[trades.length - 1];
      expect(ticker.last_execution).toEqual({ price: latest.price, amount: latest.amount });
      const prices = (await get('/v2/all-markets/prices?markets=ETHUSD')).body.items;
      expect(prices).toEqual([expect.objectContaining({ market: 'ETHUSD', current_price: latest.price })]);
    } finally {
      svc.config.stream.paused = false;
    }
    s.close();
  });

  it('a market nobody watches is brought to now: a fresh book at the model price, with recent trades behind it', async () => {
    const t0 = Date.now();
    const book = (await get('/v2/markets/LTCEUR/order-book')).body;
    const bid = Number(book.bids[0].price);
    const ask = Number(book.asks[0].price);
    expect(bid).toBeLessThan(ask);
    expect(Math.abs((bid + ask) / 2 / midPriceFloat(svc.seed, 'LTCEUR', t0) - 1)).toBeLessThan(0.003);
    for (let i = 1; i < book.bids.length; i++)
      expect(Number(book.bids[i].price)).toBeLessThan(Number(book.bids[i - 1].price));
    for (let i = 1; i < book.asks.length; i++)
      expect(Number(book.asks[i].price)).toBeGreaterThan(Number(book.asks[i - 1].price));
    const items = (await get('/v2/markets/LTCEUR/recent-executions')).body.items;
    expect(items.length).toBeGreaterThan(10);
    expect(items.length).toBeLessThanOrEqual(RECENT_EXECUTIONS);
    expect(new Set(items.map((i: any) => i.match_number)).size).toBe(items.length);
    for (let i = 1; i < items.length; i++) expect(items[i].executed_at >= items[i - 1].executed_at).toBe(true);
    for (const i of items) {
      expect(i.price).toMatch(/^\d+\.\d{2}$/);
      expect(Date.parse(i.executed_at)).toBeLessThanOrEqual(Date.now());
    }
  });

  it('the ticker: best prices, last trade, last day and today with open, high, low, volume and their ranges', async () => {
    const t = (await get('/v2/markets/BTCGBP/ticker')).body;
    expect(t.market).toBe('BTCGBP');
    expect(Number(t.best_bid.price)).toBeLessThan(Number(t.best_ask.price));
    const now = Date.parse(t.snapshot_at);
    for (const [stats, begin] of [
      [t.last_day, now - 86_400_000],
      [t.today, Math.floor(now / 86_400_000) * 86_400_000],
    ] as const) {
      expect(stats.range).toEqual({ begin: new Date(begin).toISOString(), end: t.snapshot_at });
      const [high, low, open, last] = [stats.high, stats.low, stats.open, t.last_execution.price].map(Number);
      expect(low).toBeLessThanOrEqual(open);
      expect(open).toBeLessThanOrEqual(high);
      expect(low).toBeLessThanOrEqual(last);
      expect(last).toBeLessThanOrEqual(high);
      // Today's window may have just begun (past midnight UTC) and hold no trade yet; the last day's holds them all.
      if (stats === t.last_day) expect(Number(stats.volume)).toBeGreaterThan(0);
      if (Number(stats.volume) > 0) {
        expect(Number(stats.volume_weighted_average_price)).toBeGreaterThanOrEqual(low);
        expect(Number(stats.volume_weighted_average_price)).toBeLessThanOrEqual(high);
      }
    }
    // The price model's mid at the start of the window is its open.
    const open = midPriceFloat(svc.seed, 'BTCGBP', now - 86_400_000);
    expect(Math.abs(Number(t.last_day.open) - open)).toBeLessThan(0.01);
  });

  it("prices: the last trade's price, and yesterday's price as historical prices has that minute", async () => {
    const { body } = await get('/v2/all-markets/prices?markets=BTCUSD&markets=SOLEUR&markets=BTCUSD');
    expect(body.items.map((p: any) => p.market)).toEqual(['BTCUSD', 'SOLEUR']);
    for (const p of body.items) {
      const minute = Math.floor((Date.parse(p.snapshot_at) - 86_400_000) / 60_000) * 60_000;
      const q = `increment=ONE_MINUTE&range.begin=${new Date(minute - 1000).toISOString()}&range.end=${new Date(minute + 1000).toISOString()}`;
      const hist = (await get(`/v2/markets/${p.market}/historical-prices?${q}`, admin)).body.items;
      expect(hist).toEqual([{ average_price: p.yesterday_price, timestamp: new Date(minute).toISOString() }]);
      expect(Number(p.current_price)).toBeGreaterThan(0);
    }
  });

  it('a clock jump moves an idle market to the new price, and its trades stay in the past', async () => {
    await get('/v2/markets/BCHEUR/ticker');
    const r = await fetch(`${svc.baseUrl}/_local/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: 86_400 * 2 }),
    });
    expect(r.status).toBe(200);
    const t = (await get('/v2/markets/BCHEUR/ticker')).body;
    const now = Date.parse(t.snapshot_at);
    const mid = (Number(t.best_bid.price) + Number(t.best_ask.price)) / 2;
    expect(Math.abs(mid / midPriceFloat(svc.seed, 'BCHEUR', now) - 1)).toBeLessThan(0.003);
    admin = await token(svc); // the old token expired in the jump; the next tests need a fresh one
    const items = (await get('/v2/markets/BCHEUR/recent-executions')).body.items;
    // The market goes on trading between the two requests (by the service's clock, which a loaded machine moves on
    // by a second or more): the last trade lies before the next snapshot, not necessarily before this one.
    const after = Date.parse((await get('/v2/markets/BCHEUR/ticker')).body.snapshot_at);
    expect(Date.parse(items[items.length - 1].executed_at)).toBeLessThanOrEqual(after);
    expect(Date.parse(items[items.length - 1].executed_at)).toBeGreaterThan(now - 120_000);
  });
});

describe('market data requests', () => {
  it('are public: answered without a token, with a bad one or a read-only one, all the same', async () => {
    const readonly = await token(svc, DEMO.readonlyClientId);
    for (const tok of [undefined, 'not-a-token', readonly, admin]) {
      const r = await get('/v2/markets', tok);
      expect(r.status, String(tok)).toBe(200);
      expect(r.body.markets.map((m: any) => m.market)).toEqual([...MARKETS]);
      expect((await get('/v2/markets/BTCUSD/ticker', tok)).status).toBe(200);
      expect((await get('/v2/all-markets/prices?markets=ETHUSD', tok)).status).toBe(200);
    }
    const btc = (await get('/v2/markets')).body.markets.find((m: any) => m.market === 'BTCUSD');
    expect(btc).toMatchObject({
      base_asset: 'BTC',
      quote_asset: 'USD',
      tick_rate: '0.01',
      min_base_amount: '0.00000001',
    });
    expect(btc.market_status).toMatchObject({ buy_status: 'AVAILABLE', sell_status: 'AVAILABLE' });
    // A valid token still names the caller in the journal.
    const journal = (await get('/_local/journal?limit=20')).body.items as any[];
    expect(journal.some((e) => e.url === '/v2/markets' && e.client_id === DEMO.adminClientId)).toBe(true);
    expect(journal.some((e) => e.url === '/v2/markets' && e.client_id === undefined)).toBe(true);
  });

  it('answer 400 naming the field for an unknown market, a malformed one, a missing or unknown parameter', async () => {
    const cases: [string, RegExp][] = [
      ['/v2/markets/MOONUSD/ticker', /^market: MOONUSD is not a market of this service \(one of ETHEUR, /],
      ['/v2/markets/btcusd/order-book', /^market: must be a market symbol in capitals such as BTCUSD$/],
      ['/v2/markets/BTC-USD/recent-executions', /^market: must be a market symbol/],
      ['/v2/all-markets/prices', /^markets: is required$/],
      ['/v2/all-markets/prices?markets=BTCUSD&markets=NOPE', /^markets: NOPE is not a market of this service/],
      ['/v2/all-markets/prices?market=BTCUSD', /market: is not a known field/],
      ['/v2/markets/BTCUSD/ticker?depth=5', /^depth: is not a known query parameter$/],
    ];
    for (const [path, detail] of cases) {
      const r = await fetch(svc.baseUrl + path);
      expect(r.status, path).toBe(400);
      expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const p = (await r.json()) as any;
      expect(p.detail, path).toMatch(detail);
      expect(p.meta.issues.length).toBeGreaterThan(0);
    }
  });
});
