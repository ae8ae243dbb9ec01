// The catalogue (networks, assets, markets) against what the hosted service's OpenAPI lists, and the local service
// serving every entry of it: deposit addresses on every network, withdrawals and fee quotes of every asset on every
// network it moves on, historical prices of every market.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADDRESS_RULES,
  addressReason,
  ASSETS,
  CRYPTO_ASSETS,
  CRYPTO_NETWORKS,
  MARKET_INFO,
  MARKETS,
  networksForAsset,
} from '../../src/contract/index.js';
import { OPENAPI } from '../support/openapi.js';
import { DEMO, harness, type Harness } from './helpers.js';

const openApiMarkets: string[] = OPENAPI.paths['/markets/{market}/historical-prices'].get.parameters.find(
  (p: { name: string }) => p.name === 'market',
).schema.enum;

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

describe('the catalogue is what the OpenAPI lists', () => {
  it('networks: exactly the CryptoNetwork enumeration', () => {
    expect([...CRYPTO_NETWORKS]).toEqual(OPENAPI.components.schemas.CryptoNetwork.enum);
  });

  it("markets: every market of historical prices, and spec/SERVICE.md's MATIC markets besides", () => {
    expect(MARKETS.filter((m) => !openApiMarkets.includes(m))).toEqual(['MATICUSD', 'MATICEUR']);
    expect(openApiMarkets.filter((m) => !(MARKETS as readonly string[]).includes(m))).toEqual([]);
  });

  it('every network has an asset that moves on it; every market base is a crypto asset', () => {
    for (const n of CRYPTO_NETWORKS)
      expect(
        CRYPTO_ASSETS.some((a) => ASSETS[a].networks[n]),
        n,
      ).toBe(true);
    for (const m of MARKETS) expect(CRYPTO_ASSETS, m).toContain(MARKET_INFO[m].base);
  });
});

describe('the local service serves the whole catalogue', () => {
  it('a deposit address on every network, in its format with its checksum', async () => {
    for (const crypto_network of CRYPTO_NETWORKS) {
      const r = await h.admin('POST', '/v2/transfer/deposit-addresses', { profile_id: DEMO.profileId, crypto_network });
      expect(r.status, crypto_network).toBe(200);
      expect(addressReason(crypto_network, r.body.address), `${crypto_network} ${r.body.address}`).toBeUndefined();
    }
  });

  it('a fee quote and a withdrawal of every asset on every network it moves on', async () => {
    for (const asset of CRYPTO_ASSETS) {
      for (const crypto_network of networksForAsset(asset)) {
        const target = { asset, crypto_network, destination_address: ADDRESS_RULES[crypto_network].example };
        const amount = ASSETS[asset].minWithdrawal;
        const q = await h.admin('POST', '/v2/transfer/fees/crypto-withdrawal', { ...target, amount });
        expect(q.status, `${asset} ${crypto_network}: ${JSON.stringify(q.body)}`).toBe(200);
        expect(q.body.fee).toBe(ASSETS[asset].networks[crypto_network]!.fee);
        const w = await h.admin('POST', '/v2/transfer/crypto-withdrawals', {
          ...target,
          amount,
          profile_id: DEMO.profileId,
          fee_id: q.body.id,
        });
        expect(w.status, `${asset} ${crypto_network}: ${JSON.stringify(w.body)}`).toBe(200);
        expect(Number(w.body.notional_value), asset).toBeGreaterThan(0);
      }
    }
  });

  it('historical prices of every market', async () => {
    for (const m of MARKETS) {
      const r = await h.admin('GET', `/v2/markets/${m}/historical-prices?increment=ONE_DAY&pagination.limit=3`);
      expect(r.status, m).toBe(200);
      expect(r.body.items, m).toHaveLength(3);
      for (const p of r.body.items) expect(Number(p.average_price), m).toBeGreaterThan(0);
    }
  });
});
