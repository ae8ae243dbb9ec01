// Local service: historical prices (increments, max_data_points, ranges, pagination, rules, determinism).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { midPrice, averagePrice } from '../../src/market-data/price-model.js';
import { harness, type Harness } from './helpers.js';
import { historicalPricesJson } from '../../src/local/prices.js';
import { Store } from '../../src/local/store.js';

let h: Harness;
beforeAll(async () => {
  h = await harness({ seed: 42 });
});
afterAll(() => h.close());

const P = (q: string, market = 'BTCUSD') => h.admin('GET', `/v2/markets/${market}/historical-prices?${q}`);
const HOUR = 3_600_000;

describe('historical prices', () => {
  it('a range.begin in the future holds no points, not one stamped now', async () => {
    const now = Date.parse((await h.control('GET', '/_local/health')).body.now);
    const future = new Date(now + 10 * 86_400_000).toISOString();
    for (const q of [`increment=ONE_HOUR&range.begin=${future}`, `max_data_points=10&range.begin=${future}`]) {
      const r = await P(q);
      expect(r.status, q).toBe(200);
      expect(r.body, q).toEqual({ market: 'BTCUSD', items: [], total_count: 0 });
    }
    // A range.begin in the past still ends with the current mid price.
    const past = new Date(now - 3 * HOUR).toISOString();
    const r = await P(`increment=ONE_HOUR&range.begin=${past}`);
    expect(r.body.items.length).toBeGreaterThanOrEqual(2);
  });

  it('with an increment: aligned points strictly inside the range, ascending, deterministic', async () => {
    const r = await P('increment=ONE_HOUR&range.begin=2025-03-01T00:00:00Z&range.end=2025-03-01T05:00:00Z');
    expect(r.status).toBe(200);
    expect(r.body.market).toBe('BTCUSD');
    expect(r.body.total_count).toBe(4);
    expect(r.body.items.map((p: any) => p.timestamp)).toEqual(
      ['01', '02', '03', '04'].map((x) => `2025-03-01T${x}:00:00.000Z`),
    );
    const t = Date.parse('2025-03-01T01:00:00Z');
    expect(r.body.items[0].average_price).toBe(averagePrice(42, 'BTCUSD', t, HOUR));
    const again = await P('increment=ONE_HOUR&range.begin=2025-03-01T00:00:00Z&range.end=2025-03-01T05:00:00Z');
    expect(again.body).toEqual(r.body);
  });

  it('unaligned range: points on multiples of the step since the epoch', async () => {
    const r = await P('increment=FIFTEEN_MINUTES&range.begin=2025-03-01T00:07:00Z&range.end=2025-03-01T00:50:00Z');
    expect(r.body.items.map((p: any) => p.timestamp)).toEqual(
      ['15', '30', '45'].map((m) => `2025-03-01T00:${m}:00.000Z`),
    );
  });

  it('max_data_points infers the finest step that fits, with an inclusive range', async () => {
    const r = await P('max_data_points=5&range.begin=2025-03-01T00:00:00Z&range.end=2025-03-01T01:00:00Z');
    // 61 one-minute points, 13 five-minute points, 5 fifteen-minute points (00, 15, 30, 45, 60).
    expect(r.body.total_count).toBe(5);
    expect(r.body.items.map((p: any) => p.timestamp)).toEqual(
      ['00:00', '00:15', '00:30', '00:45', '01:00'].map((x) => `2025-03-01T${x}:00.000Z`),
    );
    const tiny = await P('max_data_points=2&range.begin=2024-01-01T00:00:00Z');
    expect(tiny.body.items.length).toBe(2);
  });

  it('without range.end the last point is the current mid price', async () => {
    const health = await h.control('GET', '/_local/health');
    const r = await P('increment=ONE_DAY&pagination.offset=100000');
    expect(r.body.items).toEqual([]);
    const count = r.body.total_count;
    const last = await P(`increment=ONE_DAY&pagination.offset=${count - 1}`);
    expect(last.body.items.length).toBe(1);
    const p = last.body.items[0];
    const t = Date.parse(p.timestamp);
    expect(t).toBeGreaterThanOrEqual(Date.parse(health.body.now));
    expect(p.average_price).toBe(midPrice(42, 'BTCUSD', t));
    // The series starts at the market's earliest date.
    const first = await P('increment=ONE_DAY&pagination.limit=1');
    expect(first.body.items[0].timestamp).toBe('2024-01-01T00:00:00.000Z');
  });

  it('pagination limit and offset', async () => {
    const all = await P('increment=ONE_HOUR&range.begin=2025-01-01T00:00:00Z&range.end=2025-01-02T00:00:00Z');
    expect(all.body.total_count).toBe(23);
    const page = await P(
      'increment=ONE_HOUR&range.begin=2025-01-01T00:00:00Z&range.end=2025-01-02T00:00:00Z&pagination.limit=5&pagination.offset=10',
    );
    expect(page.body.items).toEqual(all.body.items.slice(10, 15));
    expect(page.body.total_count).toBe(23);
    const dflt = await P('increment=ONE_MINUTE');
    expect(dflt.body.items.length).toBe(100);
  });

  it('rules: exactly one of increment and max_data_points, enums, limits, ranges', async () => {
    let r = await P('increment=ONE_HOUR&max_data_points=10');
    expect(r.status).toBe(400);
    expect(r.body.meta.issues[0].field).toBe('increment');
    r = await P('');
    expect(r.status).toBe(400);
    r = await P('increment=ONE_YEAR');
    expect(r.body.meta.issues[0].field).toBe('increment');
    r = await P('increment=ONE_HOUR', 'MOONUSD');
    expect(r.status).toBe(400);
    expect(r.body.meta.issues[0].field).toBe('market');
    r = await P('increment=ONE_HOUR&pagination.limit=1001');
    expect(r.body.meta.issues[0]).toEqual({ field: 'pagination.limit', rule: 'must be at most 1000' });
    r = await P('increment=ONE_HOUR&pagination.offset=-1');
    expect(r.body.meta.issues[0].field).toBe('pagination.offset');
    r = await P('max_data_points=abc');
    expect(r.body.meta.issues[0].field).toBe('max_data_points');
    r = await P('increment=ONE_HOUR&range.begin=2025-02-01T00:00:00Z&range.end=2025-01-01T00:00:00Z');
    expect(r.body.meta.issues[0].field).toBe('range.begin');
    r = await P('increment=ONE_HOUR&range.begin=soon');
    expect(r.body.meta.issues[0].field).toBe('range.begin');
  });

  it('another seed gives other prices; the same seed in another service the same prices', async () => {
    const q = 'increment=ONE_DAY&range.begin=2025-01-01T00:00:00Z&range.end=2025-01-05T00:00:00Z';
    const other = await harness({ seed: 7 });
    const same = await harness({ seed: 42 });
    try {
      const a = (await P(q)).body;
      const b = (await other.admin('GET', `/v2/markets/BTCUSD/historical-prices?${q}`)).body;
      const c = (await same.admin('GET', `/v2/markets/BTCUSD/historical-prices?${q}`)).body;
      expect(b.items).not.toEqual(a.items);
      expect(c).toEqual(a);
    } finally {
      await other.close();
      await same.close();
    }
  });
});

describe('averages kept in the database', () => {
  // Each case asks for its own range: the process keeps answered pages in memory by range.
  const hourly = (begin: string, end: string) => ({
    increment: 'ONE_HOUR' as const,
    'range.begin': begin,
    'range.end': end,
  });
  const NOW = Date.parse('2026-01-01T00:00:00Z');
  const FIRST = Date.parse('2025-06-01T01:00:00Z') / HOUR;

  it('completed periods are kept, and a later page over them takes them instead of working them out', () => {
    const store = new Store(null);
    try {
      const first = JSON.parse(
        historicalPricesJson(7, 'ETHUSD', hourly('2025-06-01T00:00:00Z', '2025-06-01T06:00:00Z'), NOW, store),
      );
      expect(first.items).toHaveLength(5);
      const kept = store.keptAverages(7, 'ETHUSD', HOUR, FIRST, FIRST + 10);
      expect([...kept.keys()]).toEqual([0, 1, 2, 3, 4].map((i) => FIRST + i));
      for (const [k, v] of kept) expect(v).toBe(averagePrice(7, 'ETHUSD', k * HOUR, HOUR));
      // Another range over the same periods (as the next process would ask): nothing new is worked out or kept.
      const worked: number[] = [];
      const spy = {
        keptAverages: store.keptAverages.bind(store),
        keepAverages: (...args: Parameters<Store['keepAverages']>) => {
          worked.push(...args[3].map(([k]) => k));
          store.keepAverages(...args);
        },
      };
      const second = JSON.parse(
        historicalPricesJson(7, 'ETHUSD', hourly('2025-06-01T00:00:00Z', '2025-06-01T05:00:00Z'), NOW, spy),
      );
      expect(second.items).toEqual(first.items.slice(0, 4));
      expect(worked).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('kept values another price model wrote are not served: all are worked out again and replaced', () => {
    const store = new Store(null);
    try {
      store.keepAverages(
        7,
        'ETHUSD',
        HOUR,
        [0, 1, 2].map((i) => [FIRST + i, '1.00']),
      );
      const page = JSON.parse(
        historicalPricesJson(7, 'ETHUSD', hourly('2025-06-01T00:30:00Z', '2025-06-01T04:00:00Z'), NOW, store),
      );
      expect(page.items.map((p: { average_price: string }) => p.average_price)).toEqual(
        [0, 1, 2].map((i) => averagePrice(7, 'ETHUSD', (FIRST + i) * HOUR, HOUR)),
      );
      expect([...store.keptAverages(7, 'ETHUSD', HOUR, FIRST, FIRST + 2).values()]).toEqual(
        page.items.map((p: { average_price: string }) => p.average_price),
      );
    } finally {
      store.close();
    }
  });
});
