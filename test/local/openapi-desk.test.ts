// The address book, transfer limits and fiat deposit instructions held to the hosted service's OpenAPI by an
// independent validator, openapi-backend (test/support/openapi.ts), not by the project's contract: every answer of the
// local service to these endpoints (the harness checks each), successes by their documented schema and errors as
// Problem objects of their own status, sent as application/problem+json; and each operation answered a success.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationOf, responseViolations } from '../support/openapi.js';
import { BTC_ADDRESS, DEMO, ETH_ADDRESS, harness, withdrawal, type Harness } from './helpers.js';

let h: Harness;
const seen = new Map<string, number>();

beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

/** A request to the local service whose answer must hold to the description (the harness checks it). */
async function call(method: string, path: string, body?: unknown, token?: string): Promise<any> {
  const r = await h.req(method, path, { body, token });
  const key = `${operationOf(method, path)?.operationId} ${r.status}`;
  seen.set(key, (seen.get(key) ?? 0) + 1);
  return r;
}

describe('the address book, transfer limits and deposit instructions answer as the OpenAPI says', () => {
  it('the validator catches a wrong answer', () => {
    const wrong = { addresses: [{ id: 'x', crypto_network: 'MOON', address: 'a', bookmarked: 'yes' }] };
    expect(responseViolations('GET', '/v2/transfer/crypto-destination-addresses', 200, wrong)).not.toEqual([]);
    const limits = { items: [{ remaining: 5 }] };
    expect(responseViolations('GET', '/v2/transfer/limits/utilizations', 200, limits)).not.toEqual([]);
    expect(responseViolations('GET', '/v2/transfer/fiat-deposit-instructions/x', 200, { id: 'x' })).not.toEqual([]);
  });

  it('crypto destination addresses', async () => {
    const put = '/v2/transfer/crypto-destination-address';
    const a = await call('PUT', put, {
      crypto_network: 'ETHEREUM',
      address: ETH_ADDRESS,
      nickname: 'treasury',
      bookmarked_status: true,
      travelrule_metadata: {
        beneficiary: { person_details: { first_name: 'Ada', last_name: 'Lovelace' } },
        custodian_type: 'PRIVATE',
      },
    });
    expect(a.status).toBe(200);
    await call('PUT', put, { crypto_network: 'BITCOIN', address: BTC_ADDRESS, identity_id: 'idt-1' });
    await call('PUT', put, { id: a.body.address.id, bookmarked_status: false });
    expect(
      (await call('PUT', put, { crypto_network: 'BITCOIN', address: BTC_ADDRESS, nickname: 'treasury' })).status,
    ).toBe(409);
    expect((await call('PUT', put, { crypto_network: 'BITCOIN' })).status).toBe(400);
    expect((await call('PUT', put, { id: 'f190b163-208f-4d73-8deb-4fb8b24add00' })).status).toBe(404);
    const list = await call('GET', '/v2/transfer/crypto-destination-addresses?limit=1');
    expect(list.body.next_page_cursor).toBeTruthy();
    await call('GET', `/v2/transfer/crypto-destination-addresses?page_cursor=${list.body.next_page_cursor}&limit=1`);
    await call('GET', '/v2/transfer/crypto-destination-addresses?bookmarked_status=false&crypto_networks=BITCOIN');
    expect((await call('GET', '/v2/transfer/crypto-destination-addresses?bookmarked_status=no')).status).toBe(400);
    const ro = await h.token(DEMO.readonlyClientId);
    expect((await call('PUT', put, { crypto_network: 'BITCOIN', address: BTC_ADDRESS }, ro)).status).toBe(403);
  });

  it('transfer limits', async () => {
    await call('POST', '/v2/transfer/crypto-withdrawals', withdrawal());
    const r = await call('GET', '/v2/transfer/limits/utilizations?transfer_type=CRYPTO_WITHDRAWAL');
    expect(r.body.items).toHaveLength(2);
    await call('GET', '/v2/transfer/limits/utilizations?transfer_type=RTP_DEPOSIT');
    expect((await call('GET', '/v2/transfer/limits/utilizations')).status).toBe(400);
    await h.control('PUT', '/_local/limits', {
      rules: [
        { id: 'tiny', transfer_types: ['CRYPTO_WITHDRAWAL'], period_seconds: 60, limit: '1', limit_asset: 'USD' },
      ],
    });
    const over = await call('POST', '/v2/transfer/crypto-withdrawals', withdrawal());
    expect(over.status).toBe(400);
  });

  it('fiat deposit instructions', async () => {
    const base = '/v2/transfer/fiat-deposit-instructions';
    for (const fiat_network of ['WIRE', 'RTP', 'DBS_ACT', 'CUBIX', 'SCB']) {
      const r = await call('POST', base, { profile_id: DEMO.profileId, fiat_network, metadata: { k: 'v' } });
      expect(r.status).toBe(200);
      await call('GET', `${base}/${r.body.id}`);
    }
    await call('POST', base, {
      profile_id: DEMO.profileId,
      fiat_network: 'WIRE',
      routing_number_type: 'SWIFT',
      ref_id: 'x',
    });
    expect((await call('POST', base, { profile_id: DEMO.profileId, fiat_network: 'WIRE', ref_id: 'x' })).status).toBe(
      409,
    );
    expect((await call('POST', base, { profile_id: 'nobody', fiat_network: 'WIRE' })).status).toBe(404);
    expect((await call('POST', base, { profile_id: DEMO.profileId })).status).toBe(400);
    const list = await call('GET', `${base}?limit=2`);
    await call('GET', `${base}?limit=2&page_cursor=${list.body.next_page_cursor}`);
    expect((await call('GET', `${base}/f190b163-208f-4d73-8deb-4fb8b24add00`)).status).toBe(404);
  });

  it('every operation was answered with a success', () => {
    for (const id of [
      'ListCryptoDestinationAddresses',
      'PutCryptoDestinationAddress',
      'ListTransferLimits',
      'CreateFiatDepositInstructions',
      'ListFiatDepositInstructions',
      'GetFiatDepositInstructions',
    ])
      expect(seen.get(`${id} 200`), id).toBeGreaterThan(0);
  });
});
