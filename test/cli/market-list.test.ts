// The markets a command may name against a service other than the local one: the catalogue plus GET /v2/markets,
// kept per service in the data directory for a day, fetched again when stale, the stale list used when that fails.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MARKETS } from '../../src/contract/enums.js';
import type { ServiceClient } from '../../src/client/service-client.js';
import { MARKET_LIST_MAX_AGE_MS, marketCacheFile, mergeMarkets, serviceMarkets } from '../../src/client/market-list.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'coinop-markets-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A client whose GET /v2/markets answers `answer` (or throws it), counting the calls. */
function client(answer: () => unknown): ServiceClient & { calls: number } {
  const c = {
    calls: 0,
    async call(id: string) {
      expect(id).toBe('listMarkets');
      c.calls++;
      const a = answer();
      if (a instanceof Error) throw a;
      return { data: a, status: 200, alreadySubmitted: false, submittedByThisCall: false };
    },
  };
  return c as unknown as ServiceClient & { calls: number };
}

const MOON = { market: 'MOONUSD', base_asset: 'MOON', quote_asset: 'USD', tick_rate: '0.00000001' };
const T0 = Date.UTC(2026, 10, 1);

describe('serviceMarkets', () => {
  it('fetches once, then answers from the kept list until it is a day old', async () => {
    const c = client(() => ({ markets: [MOON] }));
    const o = { client: c, serviceId: 'sandbox:https://api.sandbox.example', dataDir: dir };
    expect(await serviceMarkets({ ...o, now: T0 })).toEqual({ markets: [MOON], fetchedAt: T0, from: 'service' });
    expect(await serviceMarkets({ ...o, now: T0 + MARKET_LIST_MAX_AGE_MS - 1 })).toMatchObject({ from: 'cache' });
    expect(c.calls).toBe(1);
    const stale = await serviceMarkets({ ...o, now: T0 + MARKET_LIST_MAX_AGE_MS });
    expect(stale).toEqual({ markets: [MOON], fetchedAt: T0 + MARKET_LIST_MAX_AGE_MS, from: 'service' });
    expect(c.calls).toBe(2);
    await serviceMarkets({ ...o, now: T0 + MARKET_LIST_MAX_AGE_MS + 1, refresh: true });
    expect(c.calls).toBe(3);
    // Owner-only, named by a hash of the service id.
    const file = marketCacheFile(dir, o.serviceId);
    expect(file.startsWith(join(dir, 'markets'))).toBe(true);
    expect(JSON.parse(readFileSync(file, 'utf8')).service_id).toBe(o.serviceId);
    expect(statSync(file).mode & 0o077).toBe(0);
  });

  it('keeps one list per service', async () => {
    const a = client(() => ({ markets: [MOON] }));
    const b = client(() => ({ markets: [] }));
    await serviceMarkets({ client: a, serviceId: 'production:https://a', dataDir: dir, now: T0 });
    const other = await serviceMarkets({ client: b, serviceId: 'production:https://b', dataDir: dir, now: T0 });
    expect(other.markets).toEqual([]);
    expect(b.calls).toBe(1);
  });

  it('uses a stale list when the service fails, and fails without one', async () => {
    let fail = false;
    const c = client(() => (fail ? new Error('down') : { markets: [MOON] }));
    const o = { client: c, serviceId: 's', dataDir: dir };
    await serviceMarkets({ ...o, now: T0 });
    fail = true;
    expect(await serviceMarkets({ ...o, now: T0 + 2 * MARKET_LIST_MAX_AGE_MS })).toEqual({
      markets: [MOON],
      fetchedAt: T0,
      from: 'stale cache',
    });
    await expect(serviceMarkets({ ...o, serviceId: 'other', now: T0 })).rejects.toThrow('down');
  });

  it('ignores a damaged or foreign file, and entries without a market', async () => {
    const c = client(() => ({ markets: [MOON, { base_asset: 'X' }, null, { market: '' }] }));
    const o = { client: c, serviceId: 's', dataDir: dir };
    const file = marketCacheFile(dir, 's');
    await serviceMarkets({ ...o, now: T0 });
    writeFileSync(file, '{not json');
    expect(await serviceMarkets({ ...o, now: T0 })).toMatchObject({ markets: [MOON], from: 'service' });
    writeFileSync(file, JSON.stringify({ service_id: 'another', fetched_at: T0, markets: [] }));
    expect(await serviceMarkets({ ...o, now: T0 })).toMatchObject({ markets: [MOON], from: 'service' });
    expect(c.calls).toBe(3);
  });
});

describe('mergeMarkets', () => {
  it("the catalogue first with the service's details where it lists a market, then the markets only it lists", () => {
    const btc = { market: 'BTCUSD', tick_rate: '0.25', market_status: { buy_status: 'UNAVAILABLE' } };
    const merged = mergeMarkets([MOON, btc, MOON]);
    expect(merged.map((m) => m.market)).toEqual([...MARKETS, 'MOONUSD']);
    expect(merged.find((m) => m.market === 'BTCUSD')).toEqual({
      market: 'BTCUSD',
      base_asset: 'BTC',
      quote_asset: 'USD',
      tick_rate: '0.25',
      min_base_amount: '0.00000001',
      market_status: { buy_status: 'UNAVAILABLE' },
    });
    expect(mergeMarkets().map((m) => m.market)).toEqual([...MARKETS]);
  });
});
