import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BookSide, OrderBook, compareDecimal, parseTimeKey, compareTime } from '../../src/market-data/book.js';
import { dec } from '../../src/contract/money.js';
import type { MarketDataPayload } from '../../src/contract/schemas.js';

const T = (s: number, ns = 0) => `2026-01-01T00:00:${String(s).padStart(2, '0')}.${String(ns).padStart(9, '0')}Z`;
const upd = (time: string, bids: [string, string][] = [], asks: [string, string][] = []): MarketDataPayload => ({
  market: 'BTCUSD',
  type: 'UPDATE',
  time,
  bids: bids.map(([price, amount]) => ({ price, amount })),
  asks: asks.map(([price, amount]) => ({ price, amount })),
});
const snap = (time: string, bids: [string, string][] = [], asks: [string, string][] = []): MarketDataPayload => ({
  ...upd(time, bids, asks),
  type: 'SNAPSHOT',
});

describe('decimal comparison', () => {
  it('compares exactly, beyond float precision', () => {
    expect(compareDecimal('1.50', '1.5')).toBe(0);
    expect(compareDecimal('007.1', '7.10')).toBe(0);
    expect(compareDecimal('0.05', '0.5')).toBeLessThan(0);
    expect(compareDecimal('10', '9.99')).toBeGreaterThan(0);
    expect(compareDecimal('.5', '0.5')).toBe(0);
    // Same float, different decimals.
    expect(compareDecimal('0.10000000000000000001', '0.1')).toBeGreaterThan(0);
  });
  it('agrees with Decimal on random pairs', () => {
    const dstr = fc
      .tuple(fc.nat(100000), fc.nat(10 ** 9), fc.nat(12))
      .map(([i, f, z]) => `${i}.${String(f).padStart(9, '0')}${'0'.repeat(z % 3)}`);
    fc.assert(fc.property(dstr, dstr, (a, b) => Math.sign(compareDecimal(a, b)) === dec(a).comparedTo(dec(b))));
  });
});

describe('book side', () => {
  it('keeps bids descending and asks ascending, removes on zero', () => {
    const bids = new BookSide(true);
    const asks = new BookSide(false);
    for (const p of ['100.5', '101', '99.25', '100.50']) {
      bids.set(p, '1');
      asks.set(p, '2');
    }
    expect(bids.pricesBestFirst()).toEqual(['101', '100.5', '99.25']);
    expect(asks.pricesBestFirst()).toEqual(['99.25', '100.5', '101']);
    bids.set('100.500', '0.000');
    expect(bids.pricesBestFirst()).toEqual(['101', '99.25']);
    expect(bids.get('99.250')).toBe('1');
    bids.set('5', '0'); // removing an absent level changes nothing
    expect(bids.size).toBe(2);
  });
  it('tells apart prices that are equal as floats', () => {
    const s = new BookSide(false);
    s.set('0.1', '1');
    s.set('0.10000000000000000001', '2');
    s.set('0.09999999999999999999', '3');
    expect(s.pricesBestFirst()).toEqual(['0.09999999999999999999', '0.1', '0.10000000000000000001']);
  });
});

describe('order book stream rules', () => {
  it('buffers updates until the snapshot and drops those not after it', () => {
    const b = new OrderBook('BTCUSD');
    expect(b.apply(upd(T(1), [['100', '1']]))).toBe(false);
    b.apply(upd(T(2), [['101', '1']]));
    b.apply(upd(T(3), [['102', '1']], [['103', '4']]));
    expect(b.bids.size).toBe(0);
    expect(b.pendingCount).toBe(3);
    b.apply(snap(T(2), [['99', '5']], [['104', '1']]));
    // T1 and T2 are not after the snapshot: dropped; T3 applied.
    expect(b.toSnapshot().bids).toEqual([
      { price: '102', amount: '1' },
      { price: '99', amount: '5' },
    ]);
    expect(b.toSnapshot().asks).toEqual([
      { price: '103', amount: '4' },
      { price: '104', amount: '1' },
    ]);
    expect(b.updatesDropped).toBe(2);
    expect(b.updatesApplied).toBe(1);
    expect(b.time).toBe(T(3));
  });
  it('compares update times of another precision or offset exactly against the snapshot', () => {
    const b = new OrderBook('BTCUSD');
    b.apply(snap('2026-01-01T00:00:00.5Z', [['1', '1']]));
    b.apply(upd('2026-01-01T00:00:00.499999999Z', [['2', '1']])); // before: dropped
    b.apply(upd('2026-01-01T00:00:00.500Z', [['3', '1']])); // same instant: dropped
    b.apply(upd('2026-01-01T01:00:00.500000001+01:00', [['4', '1']])); // 1 ns after: applied
    b.apply(upd('2026-01-01T00:00:00.6Z', [['5', '1']])); // same shape, later: applied
    b.apply(upd('2026-01-01T00:00:00.4Z', [['6', '1']])); // same shape, earlier: dropped
    b.apply(upd('not a time', [['7', '1']]));
    expect(b.bids.pricesBestFirst()).toEqual(['5', '4', '1']);
    expect(b.updatesDropped).toBe(4);
  });
  it('orders times by nanoseconds and offsets', () => {
    expect(
      compareTime(parseTimeKey('2026-01-01T00:00:00.000000001Z')!, parseTimeKey('2026-01-01T00:00:00Z')!),
    ).toBeGreaterThan(0);
    expect(compareTime(parseTimeKey('2026-01-01T01:00:00+01:00')!, parseTimeKey('2026-01-01T00:00:00Z')!)).toBe(0);
    expect(parseTimeKey('yesterday')).toBeNull();
  });
  it('remembers when it last changed, not when an update was dropped', () => {
    const b = new OrderBook('BTCUSD');
    b.apply(upd(T(2), [['1', '1']]), 100);
    expect(b.changedAt).toBe(0);
    b.apply(snap(T(1)), 200);
    expect(b.changedAt).toBe(200);
    b.apply(upd(T(0), [['2', '1']]), 300);
    expect(b.changedAt).toBe(200);
    b.apply(upd(T(3), [['2', '1']]), 400);
    expect(b.changedAt).toBe(400);
  });
  it('rebuilds from a fresh snapshot after reset', () => {
    const b = new OrderBook('BTCUSD');
    b.apply(snap(T(1), [['1', '1']]));
    b.reset();
    expect(b.state).toBe('awaiting-snapshot');
    b.apply(upd(T(5), [['2', '1']]));
    b.apply(snap(T(4), [['3', '1']]));
    expect(b.bids.pricesBestFirst()).toEqual(['3', '2']);
  });
  it('ignores malformed levels', () => {
    const b = new OrderBook('BTCUSD');
    b.apply(
      snap(T(1), [
        ['1e3', '1'],
        ['-5', '1'],
        ['7', 'x'],
        ['8', '2'],
      ]),
    );
    expect(b.bids.pricesBestFirst()).toEqual(['8']);
  });
});

describe('property: the book equals a naive model', () => {
  // Prices from a small set with several spellings of each, so updates hit existing levels through other spellings.
  const price = fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 2 })).map(([n, z]) => {
    const s = (n / 4).toFixed(2);
    return z === 0 ? s : z === 1 ? s.replace(/\.?0+$/, '') : `${s}000`;
  });
  const amount = fc.oneof(
    fc.constant('0'),
    fc.constant('0.00'),
    fc.integer({ min: 1, max: 1000 }).map((n) => (n / 100).toString()),
  );
  const levels = fc.array(fc.tuple(price, amount), { maxLength: 5 });
  const msg = fc.record({ snapshot: fc.boolean(), t: fc.integer({ min: 0, max: 50 }), bids: levels, asks: levels });

  it('matches after any sequence of snapshots and updates', () => {
    fc.assert(
      fc.property(fc.array(msg, { maxLength: 60 }), (msgs) => {
        const book = new OrderBook('X');
        // Naive model: maps keyed by Decimal string, replayed with the stream rules.
        let model: { bids: Map<string, string>; asks: Map<string, string> } | null = null;
        let snapT = -1;
        const pending: typeof msgs = [];
        const applyTo = (message: (typeof msgs)[number]) => {
          for (const [side, ls] of [
            ['bids', message.bids],
            ['asks', message.asks],
          ] as const)
            for (const [p, a] of ls) {
              const k = dec(p).toFixed();
              if (dec(a).isZero()) model![side].delete(k);
              else model![side].set(k, a);
            }
        };
        for (const m of msgs) {
          const payload = (m.snapshot ? snap : upd)(T(m.t % 60), m.bids, m.asks);
          book.apply(payload);
          if (m.snapshot) {
            model = { bids: new Map(), asks: new Map() };
            snapT = m.t;
            applyTo(m);
            for (const p of pending.splice(0)) if (p.t > snapT) applyTo(p);
          } else if (!model) pending.push(m);
          else if (m.t > snapT) applyTo(m);
        }
        if (!model) return book.bids.size === 0 && book.asks.size === 0;
        const mine = (s: BookSide) => s.levels().map((l) => [dec(l.price).toFixed(), l.amount]);
        const theirs = (mp: Map<string, string>, desc: boolean) =>
          [...mp.entries()].sort((x, y) => (desc ? -1 : 1) * dec(x[0]).comparedTo(dec(y[0])));
        expect(mine(book.bids)).toEqual(theirs(model.bids, true));
        expect(mine(book.asks)).toEqual(theirs(model.asks, false));
        return true;
      }),
      { numRuns: 300 },
    );
  });
});
