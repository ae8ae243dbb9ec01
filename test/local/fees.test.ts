// Network fees of the local service (src/local/fees.ts): the catalogue's, unless PUT /_local/fees set another; a quote
// and a withdrawal without one pay the fee in effect, a quote keeps its own; a reset puts the catalogue's back; and a
// testnet destination is taken (coinop's environments decide where one may be sent).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, withdrawal, type Harness, resetBeforeEach } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());
resetBeforeEach(() => h);

const quote = (extra: Record<string, unknown> = {}) => {
  const { profile_id: _, ...body } = withdrawal(extra);
  return h.admin('POST', '/v2/transfer/fees/crypto-withdrawal', body);
};

describe('PUT /_local/fees', () => {
  it('sets a network fee: new quotes and withdrawals pay it, a quote made before keeps its own; reset restores', async () => {
    const before = await quote();
    expect(before.body.fee).toBe('0.00002');
    const put = await h.control('PUT', '/_local/fees', {
      fees: [{ asset: 'BTC', crypto_network: 'BITCOIN', fee: '0.000050' }],
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toEqual({ fees: [{ asset: 'BTC', crypto_network: 'BITCOIN', fee: '0.00005' }] });
    expect((await h.control('GET', '/_local/fees')).body).toEqual(put.body);
    expect((await quote()).body.fee).toBe('0.00005');
    expect((await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal())).body.fee).toBe('0.00005');
    const kept = await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ fee_id: before.body.id }));
    expect(kept.body.fee).toBe('0.00002');
    // Other networks keep the catalogue's.
    expect(
      (
        await quote({
          asset: 'ETH',
          crypto_network: 'BASE',
          destination_address: '0xF0Aa84466e353E5390be37FE2934301c07c19a55',
          amount: '1',
        })
      ).body.fee,
    ).toBe('0.00001');
    await h.control('POST', '/_local/reset');
    expect((await h.control('GET', '/_local/fees')).body).toEqual({ fees: [] });
    expect((await quote()).body.fee).toBe('0.00002');
  });

  it.each([
    [{}, 'fees', 'must be a list'],
    [{ fees: [], rules: [] }, '', 'the body must be {"fees": [...]}'],
    [{ fees: {} }, 'fees', 'must be a list'],
    [{ fees: [{ asset: 'USD', crypto_network: 'BITCOIN', fee: '1' }] }, 'fees[0].asset', 'must be a crypto asset'],
    [
      { fees: [{ asset: 'BTC', crypto_network: 'ETHEREUM', fee: '1' }] },
      'fees[0].crypto_network',
      'must be a network of BTC',
    ],
    [{ fees: [{ asset: 'BTC', crypto_network: 'BITCOIN', fee: '0.000000001' }] }, 'fees[0].fee', 'at most 8 decimals'],
    [{ fees: [{ asset: 'BTC', crypto_network: 'BITCOIN', fee: 1 }] }, 'fees[0].fee', 'decimal string'],
    [{ fees: [{ asset: 'BTC', crypto_network: 'BITCOIN', fee: '1', extra: 1 }] }, 'fees[0].extra', 'not a known field'],
  ])('refuses %j (400 naming %s)', async (body, field, rule) => {
    const r = await h.control('PUT', '/_local/fees', body);
    expect(r.status).toBe(400);
    expect(r.body.detail).toContain(rule);
    expect(r.body.meta.issues[0].field).toBe(field);
    expect((await h.control('GET', '/_local/fees')).body).toEqual({ fees: [] });
  });
});

describe('testnet destinations', () => {
  it('are taken for a quote and a withdrawal, checksum and all', async () => {
    const tb1 = 'tb1qcrh3yqn4nlleplcez2yndq2ry8h9ncg3qh7n54';
    expect((await quote({ destination_address: tb1 })).status).toBe(200);
    expect(
      (await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ destination_address: tb1 }))).status,
    ).toBe(200);
    const typo = await h.admin(
      'POST',
      '/v2/transfer/crypto-withdrawals',
      withdrawal({ destination_address: `${tb1.slice(0, -1)}5` }),
    );
    expect(typo.status).toBe(400);
    expect(typo.body.meta).toMatchObject({ reason: 'INVALID_ADDRESS' });
  });
});
