// Local service: crypto withdrawals, fee quotes and the withdrawal lifecycle, with every rule and named problem.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '../../src/contract/money.js';
import {
  BTC_ADDRESS,
  FAILING_ETH_ADDRESS,
  DEMO,
  ETH_ADDRESS,
  balanceOf,
  harness,
  withdrawal,
  type Harness,
  resetBeforeEach,
} from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness({ config: { withdrawalSettleSeconds: 30, feeQuoteLifetimeSeconds: 60 } });
});
resetBeforeEach(() => h);
afterAll(() => h.close());

const W = '/v2/transfer/crypto-withdrawals';
const F = '/v2/transfer/fees/crypto-withdrawal';

describe('crypto withdrawals', () => {
  it('creates a PENDING withdrawal and debits amount plus fee', async () => {
    const before = await balanceOf(h, DEMO.profileId, 'BTC');
    const r = await h.admin(
      'POST',
      W,
      withdrawal({
        amount: '0.5',
        ref_id: 'w1',
        metadata: { note: 'x' },
        memo: 'm',
        identity_id: 'i1',
        account_id: 'a1',
      }),
    );
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      profile_id: DEMO.profileId,
      customer_id: DEMO.customerId,
      amount: '0.5',
      fee: '0.00002',
      total: '0.50002',
      asset: 'BTC',
      balance_asset: 'BTC',
      direction: 'DEBIT',
      type: 'CRYPTO_WITHDRAWAL',
      status: 'PENDING',
      ref_id: 'w1',
      metadata: { note: 'x' },
      memo: 'm',
      identity_id: 'i1',
      account_id: 'a1',
      crypto_network: 'BITCOIN',
      destination_address: BTC_ADDRESS,
    });
    expect(r.body.crypto_tx_hash).toBeUndefined();
    expect(Number(r.body.notional_value)).toBeGreaterThan(0);
    expect(await balanceOf(h, DEMO.profileId, 'BTC')).toBe(dec(before).minus('0.50002').toFixed());
  });

  it('with total, amount is total minus fee', async () => {
    const r = await h.admin('POST', W, withdrawal({ amount: undefined, total: '1' }));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ amount: '0.99998', total: '1', fee: '0.00002' });
  });

  it('a total that does not cover the fee is a 400 on total', async () => {
    const r = await h.admin('POST', W, withdrawal({ amount: undefined, total: '0.00002' }));
    expect(r.status).toBe(400);
    expect(r.body.meta.issues[0]).toEqual({ field: 'total', rule: 'must be greater than the fee of 0.00002' });
  });

  it('exactly one of amount and total', async () => {
    let r = await h.admin('POST', W, withdrawal({ total: '1' }));
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/^amount: .*not both/);
    r = await h.admin('POST', W, withdrawal({ amount: undefined }));
    expect(r.status).toBe(400);
    expect(r.body.meta.issues[0]).toEqual({ field: 'amount', rule: 'give exactly one of amount and total' });
  });

  it('names unknown fields, bad patterns, enums and metadata limits', async () => {
    let r = await h.admin('POST', W, withdrawal({ colour: 'red' }));
    expect(r.status).toBe(400);
    expect(r.body.detail).toBe('colour: is not a known field');
    r = await h.admin('POST', W, withdrawal({ amount: '-1' }));
    expect(r.body.meta.issues[0].field).toBe('amount');
    r = await h.admin('POST', W, withdrawal({ amount: '1e3' }));
    expect(r.status).toBe(400);
    r = await h.admin('POST', W, withdrawal({ crypto_network: 'MOON' }));
    expect(r.body.meta.issues[0]).toMatchObject({ field: 'crypto_network' });
    expect(r.body.meta.issues[0].rule).toMatch(/must be one of BITCOIN/);
    const seven = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`k${i}`, 'v']));
    r = await h.admin('POST', W, withdrawal({ metadata: seven }));
    expect(r.body.meta.issues[0]).toEqual({ field: 'metadata', rule: 'must have at most 6 pairs' });
    r = await h.admin('POST', W, withdrawal({ metadata: { k: 'v'.repeat(101) } }));
    expect(r.body.meta.issues[0]).toEqual({ field: 'metadata.k', rule: 'must be at most 100 characters' });
    r = await h.admin('POST', W, withdrawal({ amount: '0' }));
    expect(r.body.meta.issues[0]).toEqual({ field: 'amount', rule: 'must be greater than 0' });
    r = await h.admin('POST', W, withdrawal({ crypto_network: 'ETHEREUM' }));
    expect(r.body.meta.issues[0].field).toBe('crypto_network');
    r = await h.admin('POST', W, withdrawal({ asset: 'USD' }));
    expect(r.body.meta.issues[0].field).toBe('asset');
    r = await h.admin('POST', W, withdrawal({ profile_id: undefined }));
    expect(r.body.meta.issues[0]).toEqual({ field: 'profile_id', rule: 'is required' });
  });

  it('named problems: unsupported address, too many decimals, below minimum, above maximum', async () => {
    // Each as the OpenAPI's example of it words it.
    let r = await h.admin('POST', W, withdrawal({ destination_address: ETH_ADDRESS }));
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      type: 'https://developer.paxos.com/docs/v2/problems/unsupported-address',
      title: 'Unsupported Address',
      status: 400,
      detail: `unsupported address ${ETH_ADDRESS}: INVALID_ADDRESS`,
      meta: { address: ETH_ADDRESS, reason: 'INVALID_ADDRESS' },
    });
    // By checksum, not by pattern (the issue "Never send wrong money"): each is refused, nothing is held.
    for (const [crypto_network, asset, address] of [
      ['BITCOIN', 'BTC', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3'],
      ['BITCOIN', 'BTC', 'bc1qqqqqqqqqqqqqq'],
      ['ETHEREUM', 'ETH', '0xF0Aa84466e353E5390be37FE2934301c07c19A55'],
      ['STELLAR', 'XLM', 'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGA'],
    ]) {
      const body = withdrawal({ crypto_network, asset, destination_address: address, amount: '1' });
      for (const path of [W, F]) {
        r = await h.admin('POST', path, path === W ? body : { ...body, profile_id: undefined });
        expect(r.status, `${path} ${address}`).toBe(400);
        expect(r.body.detail).toBe(`unsupported address ${address}: INVALID_ADDRESS`);
        expect(r.body.meta).toEqual({ address, reason: 'INVALID_ADDRESS' });
      }
    }
    // One case only carries no EIP-55 checksum and is accepted.
    r = await h.admin(
      'POST',
      W,
      withdrawal({
        crypto_network: 'ETHEREUM',
        asset: 'ETH',
        amount: '0.01',
        destination_address: ETH_ADDRESS.toLowerCase(),
      }),
    );
    expect(r.status).toBe(200);
    r = await h.admin('POST', W, withdrawal({ amount: '0.123456789' }));
    expect(r.status).toBe(400);
    expect(r.body.type).toMatch(/\/exceed-precision$/);
    expect(r.body.detail).toBe('max precision allowed for asset BTC is 8');
    expect(r.body.meta).toMatchObject({ asset: 'BTC', decimals: 8 });
    r = await h.admin('POST', W, withdrawal({ amount: '0.123456789', colour: 'red' }));
    expect(r.body.detail).toBe('colour: is not a known field');
    r = await h.admin('POST', W, withdrawal({ amount: '0.00001' }));
    expect(r.body.type).toMatch(/\/below-min-withdraw-limit$/);
    expect(r.body.detail).toBe('amount too small for network BITCOIN minimum amount is 0.0001');
    expect(r.body.meta).toMatchObject({ limit: '0.0001', amount: '0.00001' });
    r = await h.admin('POST', W, withdrawal({ amount: '101' }));
    expect(r.body.type).toMatch(/\/exceed-max-withdraw-limit$/);
    expect(r.body.detail).toBe('withdrawal amount 101 exceeds withdrawal limit for this asset BTC');
    expect(r.body.meta).toMatchObject({ limit: '100', amount: '101' });
  });

  it('unknown profile is 404', async () => {
    let r = await h.admin('POST', W, withdrawal({ profile_id: 'nope' }));
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'profile not found: nope' });
    r = await h.admin('POST', '/v2/transfer/deposit-addresses', { profile_id: 'nope', crypto_network: 'BITCOIN' });
    expect(r.body.detail).toBe('profile not found: nope');
  });

  it('insufficient funds is the 403 problem with meta, and nothing is debited', async () => {
    await h.control('POST', `/_local/profiles/${DEMO.emptyProfileId}/balances`, { asset: 'BTC', amount: '0.5' });
    const r = await h.admin('POST', W, withdrawal({ profile_id: DEMO.emptyProfileId, amount: '0.5' }));
    expect(r.status).toBe(403);
    expect(r.body.type).toMatch(/\/insufficient-funds$/);
    expect(r.body.detail).toBe(
      `insufficient BTC funds in profile ${DEMO.emptyProfileId}: 0.50002 needed, 0.5 available`,
    );
    expect(r.body.meta).toEqual({ profile_id: DEMO.emptyProfileId, asset: 'BTC', available: '0.5', needed: '0.50002' });
    expect(await balanceOf(h, DEMO.emptyProfileId, 'BTC')).toBe('0.5');
  });

  it('a reused ref_id is 409 with the full existing transfer, and debits once', async () => {
    const first = await h.admin('POST', W, withdrawal({ ref_id: 'dup' }));
    const before = await balanceOf(h, DEMO.profileId, 'BTC');
    const again = await h.admin('POST', W, withdrawal({ ref_id: 'dup', amount: '0.02' }));
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      title: 'Already Exists',
      status: 409,
      detail: "transfer already exists with ref_id 'dup'",
    });
    expect(again.body.type).toMatch(/\/already-exists$/);
    expect(again.body.meta.existing).toEqual(first.body);
    expect(await balanceOf(h, DEMO.profileId, 'BTC')).toBe(before);
  });

  it('balance_asset USD debits the USD balance for a USDP withdrawal', async () => {
    const before = await balanceOf(h, DEMO.profileId, 'USD');
    const r = await h.admin('POST', W, {
      profile_id: DEMO.profileId,
      asset: 'USDP',
      balance_asset: 'USD',
      crypto_network: 'ETHEREUM',
      destination_address: ETH_ADDRESS,
      amount: '100',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ balance_asset: 'USD', total: '102.5' });
    expect(await balanceOf(h, DEMO.profileId, 'USD')).toBe(dec(before).minus('102.5').toFixed());
    const bad = await h.admin('POST', W, withdrawal({ balance_asset: 'ETH' }));
    expect(bad.body.meta.issues[0].field).toBe('balance_asset');
  });
});

describe('fee quotes', () => {
  const quote = (extra: Record<string, unknown> = {}) =>
    h.admin('POST', F, {
      asset: 'ETH',
      crypto_network: 'ETHEREUM',
      destination_address: ETH_ADDRESS,
      amount: '1',
      ...extra,
    });

  it('quotes the network fee with an expiry', async () => {
    const r = await quote();
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      asset: 'ETH',
      fee: '0.0005',
      amount: '1',
      total: '1.0005',
      crypto_network: 'ETHEREUM',
      destination_address: ETH_ADDRESS,
    });
    const health = await h.control('GET', '/_local/health');
    expect(Date.parse(r.body.expires_at) - Date.parse(health.body.now)).toBeGreaterThan(55_000);
    const t = await quote({ amount: undefined, total: '2' });
    expect(t.body).toMatchObject({ amount: '1.9995', total: '2' });
  });

  it('checks amount/total, address and network', async () => {
    expect((await quote({ total: '2' })).status).toBe(400);
    expect((await quote({ amount: undefined })).status).toBe(400);
    expect((await quote({ destination_address: 'bad' })).body.type).toMatch(/unsupported-address/);
    expect((await quote({ crypto_network: 'BITCOIN' })).body.meta.issues[0].field).toBe('crypto_network');
    expect((await quote({ extra: 1 })).body.detail).toBe('extra: is not a known field');
  });

  it('a quote is used once, bound to its target, and the amount may not exceed the quoted amount', async () => {
    const q = (await quote()).body;
    const w = (extra: Record<string, unknown>) =>
      h.admin('POST', W, {
        profile_id: DEMO.profileId,
        asset: 'ETH',
        crypto_network: 'ETHEREUM',
        destination_address: ETH_ADDRESS,
        fee_id: q.id,
        amount: '1',
        ...extra,
      });
    expect((await w({ amount: '1.1' })).body.meta.issues[0]).toEqual({
      field: 'amount',
      rule: 'must not exceed the quoted amount 1',
    });
    expect(
      (await w({ destination_address: '0x1111111111111111111111111111111111111111' })).body.meta.issues[0].field,
    ).toBe('fee_id');
    const ok = await w({ amount: '0.5' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ fee: '0.0005', total: '0.5005' });
    const again = await w({ amount: '0.5' });
    expect(again.status).toBe(400);
    expect(again.body.meta.issues[0]).toEqual({
      field: 'fee_id',
      rule: 'was already used (a fee quote is single use)',
    });
  });

  it('unknown fee_id is 404, expired is 403 with meta.expired_at', async () => {
    const w = (feeId: string) =>
      h.admin('POST', W, {
        profile_id: DEMO.profileId,
        asset: 'ETH',
        crypto_network: 'ETHEREUM',
        destination_address: ETH_ADDRESS,
        fee_id: feeId,
        amount: '1',
      });
    const missing = await w('00000000-0000-0000-0000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe('fee not found with id 00000000-0000-0000-0000-000000000000');
    const q = (await quote()).body;
    await h.control('POST', '/_local/clock/advance', { seconds: 61 });
    const r = await w(q.id);
    expect(r.status).toBe(403);
    expect(r.body.type).toMatch(/\/expired$/);
    expect(r.body.meta.expired_at).toBe(q.expires_at);
  });
});

describe('withdrawal lifecycle', () => {
  it('PENDING then COMPLETED with a tx hash after the settle delay, derived from the clock', async () => {
    const w = (await h.admin('POST', W, withdrawal({ ref_id: 'life' }))).body;
    await h.control('POST', '/_local/clock/advance', { seconds: 29 });
    expect((await h.admin('GET', `/v2/transfer/transfers/${w.id}`)).body.status).toBe('PENDING');
    await h.control('POST', '/_local/clock/advance', { seconds: 2 });
    const done = (await h.admin('GET', `/v2/transfer/transfers/${w.id}`)).body;
    expect(done.status).toBe('COMPLETED');
    expect(done.crypto_tx_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(done.updated_at) - Date.parse(done.created_at)).toBe(30_000);
  });

  it('a failing destination ends FAILED and the balance is refunded', async () => {
    const before = await balanceOf(h, DEMO.profileId, 'ETH');
    const w = (
      await h.admin('POST', W, {
        profile_id: DEMO.profileId,
        asset: 'ETH',
        crypto_network: 'ETHEREUM',
        destination_address: FAILING_ETH_ADDRESS,
        amount: '2',
      })
    ).body;
    expect(w.status).toBe('PENDING');
    expect(await balanceOf(h, DEMO.profileId, 'ETH')).toBe(dec(before).minus('2.0005').toFixed());
    await h.control('POST', '/_local/clock/advance', { seconds: 31 });
    const t = (await h.admin('GET', `/v2/transfer/transfers/${w.id}`)).body;
    expect(t.status).toBe('FAILED');
    expect(t.crypto_tx_hash).toBeUndefined();
    expect(t.status_details.invalid_destination_address).toMatchObject({ destination_address: FAILING_ETH_ADDRESS });
    expect(await balanceOf(h, DEMO.profileId, 'ETH')).toBe(before);
  });

  it('unknown transfer id is 404', async () => {
    const r = await h.admin('GET', '/v2/transfer/transfers/nope');
    expect(r.status).toBe(404);
  });
});
