// Abuse by racing: the same ref_id or the same fee quote sent many times at once (a file database, so group commits
// and transactions are real) must move money once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '../../src/contract/index.js';
import { DEMO, balanceOf, harness, tempDir, type Harness } from '../local/helpers.js';
import { BTC_ADDRESS as BTC } from '../support/addresses.js';

describe('races', () => {
  let h: Harness;
  let tmp: { dir: string; cleanup(): void };
  beforeAll(async () => {
    tmp = tempDir();
    h = await harness({ dbFile: `${tmp.dir}/races.db` });
  });
  afterAll(async () => {
    await h.close();
    tmp.cleanup();
  });

  it('one ref_id sent 60 times at once makes one transfer; the others answer 409 with it', async () => {
    const before = await balanceOf(h, DEMO.profileId, 'BTC');
    const body = {
      profile_id: DEMO.profileId,
      asset: 'BTC',
      crypto_network: 'BITCOIN',
      destination_address: BTC,
      amount: '0.12345678',
      ref_id: 'race-ref',
    };
    const rs = await Promise.all(
      Array.from({ length: 60 }, () => h.admin('POST', '/v2/transfer/crypto-withdrawals', body)),
    );
    const ok = rs.filter((r) => r.status === 200);
    const dup = rs.filter((r) => r.status === 409);
    expect(ok).toHaveLength(1);
    expect(dup).toHaveLength(59);
    for (const d of dup) expect(d.body.meta.existing.id).toBe(ok[0].body.id);
    const after = await balanceOf(h, DEMO.profileId, 'BTC');
    // amount + fee (0.00002), exactly.
    expect(dec(before).minus(after).toFixed()).toBe('0.12347678');
    const list = await h.admin('GET', '/v2/transfer/transfers?ref_ids=race-ref');
    expect(list.body.items).toHaveLength(1);
  });

  it('one fee quote used by 40 withdrawals at once pays for one', async () => {
    const q = await h.admin('POST', '/v2/transfer/fees/crypto-withdrawal', {
      asset: 'BTC',
      crypto_network: 'BITCOIN',
      destination_address: BTC,
      amount: '0.01',
    });
    expect(q.status).toBe(200);
    const rs = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        h.admin('POST', '/v2/transfer/crypto-withdrawals', {
          profile_id: DEMO.profileId,
          asset: 'BTC',
          crypto_network: 'BITCOIN',
          destination_address: BTC,
          amount: '0.01',
          fee_id: q.body.id,
          ref_id: `race-fee-${i}`,
        }),
      ),
    );
    expect(rs.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of rs.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(400);
      expect(r.body.detail).toMatch(/fee_id/);
    }
  });

  it('one ref_id for deposit addresses sent 40 times at once makes one address', async () => {
    const rs = await Promise.all(
      Array.from({ length: 40 }, () =>
        h.admin('POST', '/v2/transfer/deposit-addresses', {
          profile_id: DEMO.profileId,
          crypto_network: 'SOLANA',
          ref_id: 'race-address',
        }),
      ),
    );
    const ok = rs.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    for (const r of rs.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.body.meta.existing.id).toBe(ok[0].body.id);
    }
  });
});
