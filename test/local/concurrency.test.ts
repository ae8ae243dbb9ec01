// vitest project: proof
// Local service: concurrent withdrawals never overdraw a balance, in one service and in two sharing a file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '../../src/contract/money.js';
import { DEMO, balanceOf, harness, tempDir, withdrawal, type Harness } from './helpers.js';

describe('concurrent withdrawals', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(() => h.close());

  it('200 concurrent withdrawals that together exceed the balance: exactly the affordable ones succeed', async () => {
    // 1 BTC; each withdrawal debits 0.01 + 0.00002, so 99 are affordable (99 x 0.01002 = 0.99198).
    await h.control('POST', `/_local/profiles/${DEMO.emptyProfileId}/balances`, { asset: 'BTC', amount: '1' });
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        h.admin(
          'POST',
          '/v2/transfer/crypto-withdrawals',
          withdrawal({ profile_id: DEMO.emptyProfileId, ref_id: `c${i}` }),
        ),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 403);
    expect(ok.length).toBe(99);
    expect(refused.length).toBe(101);
    for (const r of refused) expect(r.body.type).toMatch(/insufficient-funds$/);
    const left = await balanceOf(h, DEMO.emptyProfileId, 'BTC');
    expect(left).toBe(dec(1).minus(dec('0.01002').times(99)).toFixed());
    expect(dec(left).gte(0)).toBe(true);
  });
});

describe('two services on one database file', () => {
  it('share state and never drive a balance negative', async () => {
    const d = tempDir();
    const file = `${d.dir}/shared.db`;
    const a = await harness({ dbFile: file });
    const b = await harness({ dbFile: file });
    try {
      await a.control('POST', `/_local/profiles/${DEMO.emptyProfileId}/balances`, { asset: 'ETH', amount: '1.0005' });
      // Each debits 0.1 + 0.0005; 9 fit into 1.0005 (9 x 0.1005 = 0.9045), the 10th does not.
      const calls = Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? a : b).admin('POST', '/v2/transfer/crypto-withdrawals', {
          profile_id: DEMO.emptyProfileId,
          asset: 'ETH',
          crypto_network: 'ETHEREUM',
          destination_address: '0xF0Aa84466e353E5390be37FE2934301c07c19a55',
          amount: '0.1',
          ref_id: `x${i}`,
        }),
      );
      const results = await Promise.all(calls);
      expect(results.filter((r) => r.status === 200).length).toBe(9);
      expect(results.filter((r) => r.status === 403).length).toBe(31);
      expect(await balanceOf(a, DEMO.emptyProfileId, 'ETH')).toBe('0.096');
      expect(await balanceOf(b, DEMO.emptyProfileId, 'ETH')).toBe('0.096');
      // A ref_id used through one service is a conflict through the other.
      const ok = results.findIndex((r) => r.status === 200);
      const dup = await a.admin('POST', '/v2/transfer/crypto-withdrawals', {
        profile_id: DEMO.emptyProfileId,
        asset: 'ETH',
        crypto_network: 'ETHEREUM',
        destination_address: '0xF0Aa84466e353E5390be37FE2934301c07c19a55',
        amount: '0.001',
        ref_id: `x${ok}`,
      });
      expect(dup.status).toBe(409);
    } finally {
      await a.close();
      await b.close();
      d.cleanup();
    }
  });
});
