import { describe, expect, it } from 'vitest';
import { SimulatedMarket, scaledToString } from '../../src/local/stream/market.js';
import { OrderBook } from '../../src/market-data/book.js';
import type { ExecutionPayload, MarketDataPayload, TopOfBookPayload } from '../../src/contract/schemas.js';

function record(sim: SimulatedMarket, from: number, steps: number, dt: number) {
  const updates: MarketDataPayload[] = [];
  const trades: ExecutionPayload[] = [];
  const tops: TopOfBookPayload[] = [];
  const out = {
    update: (p: MarketDataPayload) => updates.push(p),
    execution: (p: ExecutionPayload) => trades.push(p),
    topOfBook: (p: TopOfBookPayload) => tops.push(p),
    rebuilt: (p: MarketDataPayload) => updates.push(p),
  };
  for (let i = 0; i < steps; i++) sim.step(from + i * dt, out);
  return { updates, trades, tops };
}

describe('simulated market', () => {
  it('writes scaled integers exactly', () => {
    expect(scaledToString(123456, 2)).toBe('1234.56');
    expect(scaledToString(5, 8)).toBe('0.00000005');
    expect(scaledToString(7, 0)).toBe('7');
  });

  it('is reproducible from the seed', () => {
    const t0 = Date.UTC(2026, 5, 1);
    const a = new SimulatedMarket('ETHUSD', 3);
    const b = new SimulatedMarket('ETHUSD', 3);
    a.rebuild(t0);
    b.rebuild(t0);
    expect(record(a, t0, 500, 10)).toEqual(record(b, t0, 500, 10));
    expect(a.snapshot()).toEqual(b.snapshot());
  });

  it('leaves each side of the book ten levels deep at least after every step (a sweep does not empty it for minutes)', () => {
    // Before the market makers kept depth behind a sweep, a side was under 5 levels in about 3% of the steps, down to
    // one: `coinop book --depth 5` then showed blanks (docs/market-data.md's example, run at such a moment).
    const thinnest: Record<string, number> = {};
    for (const market of ['BTCUSD', 'ETHUSD'] as const) {
      for (const seed of [1, 7, 42]) {
        const sim = new SimulatedMarket(market, seed);
        let t = Date.UTC(2026, 10, 27);
        sim.rebuild(t);
        let least = Infinity;
        for (let i = 0; i < 30_000; i++) {
          t += 100;
          sim.step(t, null);
          if (i % 10) continue;
          const { bids, asks } = sim.snapshot();
          least = Math.min(least, bids.length, asks.length);
        }
        thinnest[`${market} ${seed}`] = least;
      }
    }
    for (const [market, least] of Object.entries(thinnest))
      expect({ market, least: least >= 10 }).toEqual({ market, least: true });
  });

  it('emits UPDATEs that rebuild its book, trades at prices that were in it, top of book on best-price changes', () => {
    const t0 = Date.UTC(2026, 0, 1);
    const sim = new SimulatedMarket('BTCUSD', 5);
    sim.rebuild(t0);
    const book = new OrderBook('BTCUSD');
    book.apply(sim.snapshot());
    const updates: MarketDataPayload[] = [];
    const seen = { trades: 0, tops: 0 };
    let lastTop: [string, string] | null = null;
    const out = {
      update: (payload: MarketDataPayload) => {
        updates.push(payload);
        book.apply(payload);
      },
      execution: (payload: ExecutionPayload) => {
        // A trade takes liquidity that was resting at that price before this step's UPDATE.
        seen.trades++;
        expect(Number(payload.amount)).toBeGreaterThan(0);
        expect(payload.executed_at).toBe(updates[updates.length - 1].time);
        const u = updates[updates.length - 1];
        expect([...u.bids, ...u.asks].some((l) => l.price === payload.price)).toBe(true);
      },
      topOfBook: (payload: TopOfBookPayload) => {
        seen.tops++;
        const now: [string, string] = [payload.bids[0].price, payload.asks[0].price];
        if (lastTop) expect(now).not.toEqual(lastTop);
        lastTop = now;
        expect(payload.bids[0]).toEqual(book.bestBid());
        expect(payload.asks[0]).toEqual(book.bestAsk());
      },
      rebuilt: () => {
        throw new Error('no rebuild while stepping steadily');
      },
    };
    for (let i = 0; i < 5000; i++) sim.step(t0 + i * 5, out);
    expect(seen.trades).toBeGreaterThan(100);
    expect(seen.tops).toBeGreaterThan(100);
    expect(book.toSnapshot()).toEqual(sim.snapshot());
    expect(book.updatesDropped).toBe(0);
    // Times strictly increase.
    for (let i = 1; i < updates.length; i++) expect(updates[i].time > updates[i - 1].time).toBe(true);
  });
});

describe('WebSocket frames of the stream', () => {
  it('frames text with the 7-bit, 16-bit and 64-bit lengths of RFC 6455', async () => {
    const { frame } = await import('../../src/local/stream/hub.js');
    for (const size of [10, 125, 126, 5000, 65_535, 65_536, 200_000]) {
      const obj = { s: 'x'.repeat(size) };
      const json = JSON.stringify(obj);
      const f = frame(obj);
      expect(f[0]).toBe(0x81);
      const len = Buffer.byteLength(json);
      const head = len < 126 ? 2 : len < 65536 ? 4 : 10;
      const declared = head === 2 ? f[1] : head === 4 ? f.readUInt16BE(2) : Number(f.readBigUInt64BE(2));
      expect(f[1] & 0x80).toBe(0); // unmasked
      expect(declared).toBe(len);
      expect(f.subarray(head).toString('utf8')).toBe(json);
    }
    // Multi-byte characters count in bytes.
    const f = frame({ s: 'é'.repeat(100) });
    expect(f.readUInt16BE(2)).toBe(Buffer.byteLength(JSON.stringify({ s: 'é'.repeat(100) })));
  });
});
