// The service profile, balance and internal transfer answers of the local service validate against the hosted
// service's OpenAPI, checked by openapi-backend (test/support/openapi.ts, as the harness checks every answer): successes
// and every documented error, each reaching the operation named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationOf, responseViolations } from '../support/openapi.js';
import { DEMO, harness, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

/** The request reaches the operation, the answer has the status expected and (the harness checks) its documented body. */
async function valid(operationId: string, status: number, method: string, path: string, body?: unknown) {
  expect(operationOf(method, path)?.operationId).toBe(operationId);
  const r = await h.admin(method, path, body);
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body;
}

describe('service profiles, balances and internal transfers match the OpenAPI', () => {
  it('the validator catches a broken answer', () => {
    const balance = { asset: 'BTC', available: 1, trading: '0' };
    expect(responseViolations('GET', '/v2/profiles/p/balances/BTC', 200, balance)).not.toEqual([]);
    const profiles = { items: [{ id: 'p', nickname: 'n', type: 'OTHER' }] };
    expect(responseViolations('GET', '/v2/profiles', 200, profiles)).not.toEqual([]);
    const transfer = { id: 'x', type: 'INTERNAL_TRANSFER_DEBIT' };
    expect(responseViolations('POST', '/v2/transfer/internal', 200, transfer)).not.toEqual([]);
  });

  it('profiles: list (filtered and paged), get (by id and default), create', async () => {
    await valid('CreateProfile', 200, 'POST', '/v2/profiles', { nickname: 'oa-ops', description: 'described' });
    await valid('CreateProfile', 200, 'POST', '/v2/profiles', { nickname: 'oa-plain' });
    const page = await valid('ListProfiles', 200, 'GET', '/v2/profiles?limit=1');
    expect(page.next_page_cursor).toBeTruthy();
    await valid('ListProfiles', 200, 'GET', '/v2/profiles?nickname=oa&order=DESC');
    await valid('GetProfile', 200, 'GET', '/v2/profiles/default');
    await valid('GetProfile', 200, 'GET', `/v2/profiles/${DEMO.emptyProfileId}?include_deactivated=true`);
  });

  it('balances: every asset, some assets, one asset', async () => {
    await valid('ListProfileBalances', 200, 'GET', `/v2/profiles/${DEMO.profileId}/balances`);
    await valid(
      'ListProfileBalances',
      200,
      'GET',
      `/v2/profiles/${DEMO.emptyProfileId}/balances?assets=BTC&assets=USD`,
    );
    await valid('GetProfileBalance', 200, 'GET', `/v2/profiles/${DEMO.profileId}/balances/PAXG`);
  });

  it('internal transfers: the transfer, both sides as listed, and the documented 403, 404 and 409', async () => {
    const body = {
      from_profile_id: DEMO.profileId,
      to_profile_id: DEMO.emptyProfileId,
      asset: 'ETH',
      amount: '0.5',
      ref_id: 'oa-internal',
      metadata: { my_id: '1' },
      recipient_metadata: { your_id: '2' },
      from_identity_id: 'i',
      to_account_id: 'a',
    };
    const t = await valid('CreateInternalTransfer', 200, 'POST', '/v2/transfer/internal', body);
    await valid('CreateInternalTransfer', 409, 'POST', '/v2/transfer/internal', body);
    await valid('CreateInternalTransfer', 403, 'POST', '/v2/transfer/internal', {
      ...body,
      ref_id: undefined,
      amount: '1000000',
    });
    await valid('CreateInternalTransfer', 404, 'POST', '/v2/transfer/internal', {
      ...body,
      ref_id: 'oa-2',
      to_profile_id: 'nope',
    });
    const pair = await valid('ListTransfers', 200, 'GET', `/v2/transfer/transfers?group_ids=${t.group_id}`);
    expect(pair.items).toHaveLength(2);
    for (const side of pair.items) await valid('GetTransfer', 200, 'GET', `/v2/transfer/transfers/${side.id}`);
  });
});
