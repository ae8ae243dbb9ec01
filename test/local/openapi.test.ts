// The local service against the hosted service's OpenAPI description (spec/), checked by an independent validator
// (openapi-backend, test/support/openapi.ts): every endpoint driven with valid and invalid requests, and every
// answer, success or error, valid by the description. The harness checks each answer as it comes
// (expectValidResponse); this file also checks that each request meant as valid is valid by the description, that
// each one the description refuses is refused, and that every operation and every error status was met.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_RULES } from '../../src/contract/index.js';
import { operationOf, requestViolations, responseViolations } from '../support/openapi.js';
import {
  BTC_ADDRESS,
  FAILING_ETH_ADDRESS,
  DEMO,
  DEMO_WIRE,
  ETH_ADDRESS,
  harness,
  withdrawal,
  type Harness,
  type Reply,
} from './helpers.js';
import { FIAT_ACCOUNT } from '../support/requests.js';
import { addressOfKey, signProof } from '../../src/contract/ownership-proof.js';

let h: Harness;
beforeAll(async () => {
  h = await harness({ config: { bodyLimitBytes: 4096 } });
});
afterAll(() => h.close());

const W = '/v2/transfer/crypto-withdrawals';
const FEE = '/v2/transfer/fees/crypto-withdrawal';
const DA = '/v2/transfer/deposit-addresses';
const SANDBOX = '/v2/sandbox/fiat-deposits';
const T = '/v2/transfer/transfers';
const FA = '/v2/transfer/fiat-accounts';
const FW = '/v2/transfer/fiat-withdrawals';
const PT = '/v2/transfer/paxos';
const SC = '/v2/conversion/stablecoins';
const AV = '/v2/addresses/verifications';
const PRICES = (market: string, q: string) => `/v2/markets/${market}/historical-prices?${q}`;

/** Every answer met here: operation, status. */
const met: { operation: string; status: number }[] = [];

type Who = 'admin' | 'readonly' | 'none' | 'bad';

async function send(
  method: string,
  path: string,
  opts: { body?: unknown; who?: Who; raw?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const who = opts.who ?? 'admin';
  const token = who === 'admin' ? undefined : who === 'readonly' ? await h.token(DEMO.readonlyClientId) : null;
  const r = await h.req(method, path, {
    body: opts.body,
    raw: opts.raw,
    headers: who === 'bad' ? { ...opts.headers, authorization: 'Bearer not-a-token' } : opts.headers,
    token,
  });
  // The harness has checked the answer already; this says so again, for the record of this file.
  expect(responseViolations(method, path, r.status, r.body, r.headers.get('content-type'))).toEqual([]);
  met.push({ operation: operationOf(method, path)?.operationId ?? `${method} ${path}`, status: r.status });
  return r;
}

/** A request the description accepts, answered with `status`. */
async function valid(method: string, path: string, body: unknown, status = 200): Promise<Reply> {
  expect(requestViolations(method, path, body), `${method} ${path}`).toEqual([]);
  const r = await send(method, path, { body });
  expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBe(status);
  return r;
}

/** A request the description refuses: the service refuses it too, with a 400 naming a field. */
async function invalid(method: string, path: string, body?: unknown): Promise<Reply> {
  expect(requestViolations(method, path, body).length, `${method} ${path} ${JSON.stringify(body)}`).toBeGreaterThan(0);
  const r = await send(method, path, { body });
  expect(r.status, `${method} ${path} ${JSON.stringify(body)}: ${JSON.stringify(r.body)}`).toBe(400);
  expect(r.body.meta.issues.length).toBeGreaterThan(0);
  return r;
}

/** The answers without a token, with a bad one and without the scope: 401, 401, 403. */
async function refusedWithoutToken(method: string, path: string, body?: unknown): Promise<void> {
  expect((await send(method, path, { body, who: 'none' })).status).toBe(401);
  expect((await send(method, path, { body, who: 'bad' })).status).toBe(401);
  if (method === 'POST') expect((await send(method, path, { body, who: 'readonly' })).status).toBe(403);
}

describe('the validator', () => {
  it('catches broken answers and requests: missing fields, values outside an enumeration, errors that are no Problem', () => {
    const transfer = { id: 'x', customer_id: 'c', profile_id: 'p', amount: '1', total: '1', fee: '0', asset: 'BTC' };
    const t = {
      ...transfer,
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
      direction: 'DEBIT',
      type: 'CRYPTO_WITHDRAWAL',
      status: 'PENDING',
    };
    expect(responseViolations('GET', `${T}/x`, 200, t, 'application/json')).toEqual([]);
    expect(responseViolations('GET', `${T}/x`, 200, transfer, 'application/json').length).toBeGreaterThan(0);
    expect(responseViolations('GET', `${T}/x`, 200, { ...t, status: 'DONE' }, 'application/json')).toEqual([
      `GET ${T}/x 200: /status must be equal to one of the allowed values`,
    ]);
    expect(responseViolations('GET', `${T}/x`, 200, { ...t, created_at: 'now' }, 'application/json').length).toBe(1);
    expect(responseViolations('GET', `${T}/x`, 200, { ...t, notional_value: 'ten' }, 'application/json').length).toBe(
      1,
    );
    expect(responseViolations('GET', T, 201, { items: [] }, 'application/json')).toEqual([
      `GET ${T} 201: status 201 is not documented`,
    ]);
    const problem = { type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'no authorization header set' };
    expect(responseViolations('GET', T, 401, problem, 'application/problem+json')).toEqual([]);
    expect(responseViolations('GET', T, 401, { ...problem, status: 400 }, 'application/problem+json').length).toBe(1);
    expect(responseViolations('GET', T, 401, { error: 'nope' }, 'application/problem+json').length).toBeGreaterThan(0);
    expect(responseViolations('GET', T, 401, problem, 'text/plain').length).toBe(1);
    expect(responseViolations('POST', W, 409, problem, 'application/json').length).toBeGreaterThan(0);
    expect(
      requestViolations('POST', SANDBOX, {
        amount: '1',
        asset: 'USD',
        memo_id: 'm',
        fiat_network_instructions: { wire: {} },
      }).length,
    ).toBe(3);
    expect(requestViolations('GET', `${T}?bogus=1`)).toEqual([
      'ListTransfers request: /query must NOT have additional properties (bogus)',
    ]);
  });
});

describe('every endpoint against the OpenAPI description', () => {
  it('crypto withdrawals: created, refused, already existing, short of funds, with an expired fee', async () => {
    const w = await valid('POST', W, withdrawal({ ref_id: 'oa-1', metadata: { a: 'b' }, memo: 'm' }));
    await valid('POST', W, {
      profile_id: DEMO.profileId,
      asset: 'ETH',
      crypto_network: 'ETHEREUM',
      destination_address: FAILING_ETH_ADDRESS,
      total: '1',
      beneficiary: { person_details: { first_name: 'Ada', last_name: 'Lovelace' } },
    });
    await valid(
      'POST',
      W,
      withdrawal({
        asset: 'USDP',
        crypto_network: 'SOLANA',
        destination_address: ADDRESS_RULES.SOLANA.example,
        amount: '5',
        balance_asset: 'USD',
        identity_id: 'i',
        account_id: 'a',
      }),
    );
    await invalid('POST', W, withdrawal({ crypto_network: 'BITCOIN_TESTNET' }));
    await invalid('POST', W, withdrawal({ amount: '-1' }));
    await invalid('POST', W, withdrawal({ profile_id: undefined }));
    await invalid('POST', W, withdrawal({ beneficiary: { person_details: { first_name: 'Ada' } } }));
    await invalid('POST', W, withdrawal({ metadata: { n: 1 } }));
    await invalid('POST', W);
    // Refused by the service's rules (valid by the description's schemas): named problems, each a Problem.
    for (const [body, status] of [
      [withdrawal({ amount: '1', total: '2' }), 400],
      [withdrawal({ destination_address: ETH_ADDRESS }), 400],
      [withdrawal({ amount: '0.000000001' }), 400],
      [withdrawal({ amount: '0.00001' }), 400],
      [withdrawal({ amount: '101' }), 400],
      [withdrawal({ profile_id: 'nope' }), 404],
      [withdrawal({ profile_id: DEMO.emptyProfileId }), 403],
      [withdrawal({ fee_id: 'no-such-fee' }), 404],
      [withdrawal({ ref_id: 'oa-1' }), 409],
    ] as const) {
      expect(requestViolations('POST', W, body)).toEqual([]);
      expect((await send('POST', W, { body })).status, JSON.stringify(body)).toBe(status);
    }
    expect((await send('POST', W, { body: withdrawal({ ref_id: 'oa-1' }) })).body.meta.existing).toEqual(w.body);
    const q = await valid('POST', FEE, {
      asset: 'BTC',
      crypto_network: 'BITCOIN',
      destination_address: BTC_ADDRESS,
      amount: '0.01',
    });
    await h.control('POST', '/_local/clock/advance', { seconds: 120 });
    const expired = await send('POST', W, { body: withdrawal({ fee_id: q.body.id }) });
    expect(expired.status).toBe(403);
    expect(expired.body.meta.expired_at).toBe(q.body.expires_at);
    await refusedWithoutToken('POST', W, withdrawal());
  });

  it('fee quotes', async () => {
    await valid('POST', FEE, { asset: 'ETH', crypto_network: 'BASE', destination_address: ETH_ADDRESS, amount: '1' });
    await valid('POST', FEE, {
      asset: 'SOL',
      crypto_network: 'SOLANA',
      destination_address: ADDRESS_RULES.SOLANA.example,
      total: '2',
    });
    await invalid('POST', FEE, { asset: 'ETH', crypto_network: 'ETH', destination_address: ETH_ADDRESS, amount: '1' });
    await invalid('POST', FEE, { asset: 'ETH', destination_address: ETH_ADDRESS, amount: '1' });
    await invalid('POST', FEE, {
      asset: 'ETH',
      crypto_network: 'ETHEREUM',
      destination_address: ETH_ADDRESS,
      amount: '1e3',
    });
    const bad = { asset: 'ETH', crypto_network: 'ETHEREUM', destination_address: 'nope', amount: '1' };
    expect((await send('POST', FEE, { body: bad })).body.meta).toEqual({ address: 'nope', reason: 'INVALID_ADDRESS' });
    await refusedWithoutToken('POST', FEE, bad);
  });

  it('deposit addresses: created on every kind of network, listed, filtered, refused', async () => {
    for (const crypto_network of ['BITCOIN', 'STELLAR', 'BASE', 'DOGECOIN', 'SUI'])
      await valid('POST', DA, {
        profile_id: DEMO.profileId,
        crypto_network,
        metadata: { k: 'v' },
        identity_id: 'i',
        ref_id: `oa-${crypto_network}`,
      });
    await valid('POST', DA, {
      profile_id: DEMO.profileId,
      crypto_network: 'ETHEREUM',
      conversion_target_asset: 'USD',
      account_id: 'a',
    });
    expect(
      (await send('POST', DA, { body: { profile_id: DEMO.profileId, crypto_network: 'SUI', ref_id: 'oa-SUI' } }))
        .status,
    ).toBe(409);
    expect((await send('POST', DA, { body: { profile_id: 'nope', crypto_network: 'SUI' } })).status).toBe(404);
    await invalid('POST', DA, { profile_id: DEMO.profileId, crypto_network: 'SUI', conversion_target_asset: 'EUR' });
    await invalid('POST', DA, { crypto_network: 'SUI' });
    const page = await valid(
      'GET',
      `${DA}?limit=2&order=ASC&networks=BITCOIN&networks=SUI&created_at.gte=2020-01-01T00:00:00Z`,
      undefined,
    );
    expect(page.body.next_page_cursor).toBeTruthy();
    await valid(
      'GET',
      `${DA}?page_cursor=${encodeURIComponent(page.body.next_page_cursor)}&limit=2&order=ASC&networks=BITCOIN&networks=SUI&created_at.gte=2020-01-01T00:00:00Z`,
      undefined,
    );
    await invalid('GET', `${DA}?networks=MOON`);
    await invalid('GET', `${DA}?limit=ten`);
    await invalid('GET', `${DA}?order_by=UPDATED_AT`);
    await invalid('GET', `${DA}?created_at.lt=yesterday`);
    await refusedWithoutToken('GET', DA);
    await refusedWithoutToken('POST', DA, { profile_id: DEMO.profileId, crypto_network: 'SUI' });
  });

  it('sandbox fiat deposits', async () => {
    await valid('POST', SANDBOX, {
      amount: '5.00',
      asset: 'USD',
      memo_id: DEMO.memoId,
      fiat_network_instructions: { wire: DEMO_WIRE },
    });
    await invalid('POST', SANDBOX, {
      amount: '5.00',
      asset: 'USD',
      memo_id: DEMO.memoId,
      fiat_network_instructions: { wire: {} },
    });
    await invalid('POST', SANDBOX, {
      amount: '5.001',
      asset: 'USD',
      memo_id: DEMO.memoId,
      fiat_network_instructions: { wire: DEMO_WIRE },
    });
    await invalid('POST', SANDBOX, { amount: '5', asset: 'USD', fiat_network_instructions: { wire: DEMO_WIRE } });
    const unknownMemo = {
      amount: '5',
      asset: 'USD',
      memo_id: 'NO-SUCH-MEMO',
      fiat_network_instructions: { wire: DEMO_WIRE },
    };
    expect((await send('POST', SANDBOX, { body: unknownMemo })).status).toBe(404);
    await refusedWithoutToken('POST', SANDBOX, unknownMemo);
  });

  it('fiat accounts and fiat withdrawals: made, listed, got, updated, deleted, paid, refused', async () => {
    const made = await valid('POST', FA, { ...FIAT_ACCOUNT, ref_id: 'oa-fa', metadata: { k: 'v' } });
    const id = made.body.id as string;
    expect((await send('POST', FA, { body: { ...FIAT_ACCOUNT, ref_id: 'oa-fa' } })).status).toBe(409);
    await invalid('POST', FA, { ...FIAT_ACCOUNT, fiat_network_instructions: { wire: { account_number: '1' } } });
    await invalid('POST', FA, { fiat_network_instructions: FIAT_ACCOUNT.fiat_network_instructions });
    await invalid('POST', FA, {
      ...FIAT_ACCOUNT,
      fiat_network_instructions: { cubix: { account_id: 'c' }, rtp: { routing_details: {} } },
    });
    await valid('POST', FA, {
      fiat_account_owner: { person_details: { first_name: 'Jane', last_name: 'Doe' } },
      fiat_network_instructions: { rtp: { account_number: '1', routing_details: { routing_number: '021000021' } } },
    });
    await valid('GET', `${FA}?limit=1&order=ASC&order_by=CREATED_AT&include_deleted=true&ref_ids=oa-fa`, undefined);
    await valid('GET', `${FA}/${id}`, undefined);
    expect((await send('GET', `${FA}/no-such-account`)).status).toBe(404);
    expect((await send('GET', `${FA}?limit=0`)).status).toBe(400);
    expect((await send('GET', FA, { who: 'none' })).status).toBe(401);
    await valid('PUT', `${FA}/${id}`, { fiat_account_owner: { institution_details: { name: 'Acme Holdings' } } });
    expect(
      (
        await send('PUT', `${FA}/${id}`, {
          body: { fiat_account_owner: { person_details: { first_name: 'A', last_name: 'B' } } },
        })
      ).status,
    ).toBe(400);
    const paid = await valid('POST', FW, {
      profile_id: DEMO.profileId,
      fiat_account_id: id,
      asset: 'USD',
      amount: '12.34',
      ref_id: 'oa-fw',
    });
    expect(paid.body).toMatchObject({ type: 'WIRE_WITHDRAWAL', fiat_account_id: id });
    expect(
      (
        await send('POST', FW, {
          body: { profile_id: DEMO.profileId, fiat_account_id: id, asset: 'USD', amount: '1', ref_id: 'oa-fw' },
        })
      ).status,
    ).toBe(409);
    const poor = { profile_id: DEMO.emptyProfileId, fiat_account_id: id, asset: 'USD', amount: '1' };
    expect((await send('POST', FW, { body: poor })).status).toBe(403);
    await invalid('POST', FW, { profile_id: DEMO.profileId, fiat_account_id: id, asset: 'USD', amount: '1.234' });
    await invalid('POST', FW, { profile_id: DEMO.profileId, asset: 'USD', amount: '1' });
    expect((await send('POST', FW, { body: { ...poor, fiat_account_id: 'nope' } })).status).toBe(404);
    await refusedWithoutToken('POST', FW, poor);
    await refusedWithoutToken('POST', FA, FIAT_ACCOUNT);
    await valid('DELETE', `${FA}/${id}`, undefined);
    expect((await send('DELETE', `${FA}/${id}`)).status).toBe(404);
  });

  it('the Travel Rule: the VASP directory, a withdrawal held and released, deposits updated and rejected', async () => {
    const VASPS = '/v2/travelrule/vasps';
    const OKX = '8e4b1c2d-9a3f-4e6b-b1d7-2c5a8f0e3b94';
    await valid('GET', `${VASPS}?search=o&limit=2&order=DESC&order_by=NAME&ids=${OKX}`, undefined);
    const page = await valid('GET', `${VASPS}?limit=2`, undefined);
    await valid('GET', `${VASPS}?limit=2&page_cursor=${page.body.next_page_cursor}`, undefined);
    await valid('GET', `${VASPS}/${OKX}`, undefined);
    expect((await send('GET', `${VASPS}/nobody`)).status).toBe(404);
    expect((await send('GET', VASPS, { who: 'none' })).status).toBe(401);
    expect((await send('GET', `${VASPS}/${OKX}`, { who: 'bad' })).status).toBe(401);
    // A withdrawal to an address a VASP holds, without a beneficiary: held; the beneficiary saved releases it.
    const book = { crypto_network: 'BITCOIN', address: BTC_ADDRESS };
    await valid('PUT', '/v2/transfer/crypto-destination-address', {
      ...book,
      travelrule_metadata: { custodian_type: 'VASP', vasp: { id: OKX }, transfer_purpose: 'payout' },
    });
    const w = await valid('POST', W, withdrawal({ ref_id: 'oa-tr' }));
    expect(w.body.secondary_status.name).toBe('TRAVEL_RULE_INFO_REQUESTED');
    await valid('GET', `${T}?secondary_statuses=TRAVEL_RULE_INFO_REQUESTED&statuses=PENDING`, undefined);
    await valid('PUT', '/v2/transfer/crypto-destination-address', {
      ...book,
      travelrule_metadata: {
        custodian_type: 'VASP',
        vasp: { id: OKX },
        beneficiary: {
          person_details: { first_name: 'Ada', last_name: 'Lovelace', physical_address: { country: 'GBR' } },
        },
      },
    });
    await valid('POST', W, withdrawal({ beneficiary: { institution_details: { name: 'Acme Ltd' } } }));
    // Deposits held for their originator.
    const deposit = async () =>
      (await h.control('POST', '/_local/crypto-deposits', { ref_id: 'demo-btc', amount: '0.1', needs_info: true })).body
        .id as string;
    const CD = (id: string, what: string) => `/v2/transfer/crypto-deposits/${id}/${what}`;
    const first = await deposit();
    const originator = { institution_info: { institution_name: 'Acme Ltd' } };
    await valid('POST', CD(first, 'update'), { identity_id: 'i-1', originator_address_info: originator });
    expect(
      (await send('POST', CD(first, 'update'), { body: { identity_id: 'i-1', originator_address_info: originator } }))
        .status,
    ).toBe(409);
    const second = await deposit();
    await valid('POST', CD(second, 'reject'), { identity_id: 'i-1' });
    expect((await send('POST', CD(second, 'reject'), { body: { identity_id: 'i-1' } })).status).toBe(409);
    await invalid('POST', CD(second, 'reject'), {});
    await invalid('POST', CD(second, 'update'), { identity_id: 'i-1' });
    expect((await send('POST', CD('not-a-uuid', 'reject'), { body: { identity_id: 'i-1' } })).status).toBe(400);
    const unknown = '2d929a0d-e1e3-4781-b7f8-7b34e66f7832';
    expect(
      (await send('POST', CD(unknown, 'update'), { body: { identity_id: 'i-1', originator_address_info: originator } }))
        .status,
    ).toBe(404);
    await refusedWithoutToken('POST', CD(unknown, 'reject'), { identity_id: 'i-1' });
  });

  it('transfers to another customer: paid, refused (unknown recipient, one customer, funds, ref_id, bad body)', async () => {
    await h.control('POST', '/_local/profiles', { id: 'oa-payee', customer_id: 'oa-other-customer' });
    const body = { from_profile_id: DEMO.profileId, to_profile_id: 'oa-payee', asset: 'BTC', amount: '0.05' };
    const paid = await valid('POST', PT, {
      ...body,
      ref_id: 'oa-pt',
      metadata: { my_id: 'x' },
      recipient_metadata: {},
    });
    expect(paid.body).toMatchObject({ type: 'PAXOS_TRANSFER_DEBIT', status: 'COMPLETED', direction: 'DEBIT' });
    expect((await send('POST', PT, { body: { ...body, ref_id: 'oa-pt' } })).status).toBe(409);
    expect((await send('POST', PT, { body: { ...body, to_profile_id: 'nobody' } })).status).toBe(404);
    expect((await send('POST', PT, { body: { ...body, to_profile_id: DEMO.emptyProfileId } })).status).toBe(403);
    expect((await send('POST', PT, { body: { ...body, from_profile_id: DEMO.emptyProfileId } })).status).toBe(403);
    await invalid('POST', PT, { ...body, amount: undefined });
    await invalid('POST', PT, { ...body, metadata: { k: 5 } });
    await refusedWithoutToken('POST', PT, body);
  });

  it('stablecoin conversions: made, listed, got, cancelled, refused', async () => {
    const body = { profile_id: DEMO.profileId, amount: '3', source_asset: 'USD', target_asset: 'USDP' };
    const made = await valid('POST', SC, { ...body, ref_id: 'oa-sc', metadata: { skey: 'svalue' } });
    const id = made.body.id as string;
    expect(made.body).toMatchObject({ status: 'CREATED', ref_id: 'oa-sc' });
    expect((await send('POST', SC, { body: { ...body, ref_id: 'oa-sc' } })).status).toBe(409);
    expect((await send('POST', SC, { body: { ...body, profile_id: DEMO.emptyProfileId } })).status).toBe(403);
    await invalid('POST', SC, { ...body, amount: '3.x' });
    await invalid('POST', SC, { amount: '3', source_asset: 'USD', target_asset: 'USDP' });
    expect((await send('POST', SC, { body: { ...body, amount: '2000000' } })).status).toBe(400);
    await refusedWithoutToken('POST', SC, body);
    await valid(
      'GET',
      `${SC}?profile_id=${DEMO.profileId}&ref_id=oa-sc&created_at.begin=2020-01-01T00:00:00Z&order=ASC&limit=5`,
      undefined,
    );
    expect((await send('GET', `${SC}?limit=0`)).status).toBe(400);
    expect((await send('GET', SC, { who: 'none' })).status).toBe(401);
    await valid('GET', `${SC}/${id}`, undefined);
    expect((await send('GET', `${SC}/no-such-conversion`)).status).toBe(404);
    expect((await send('DELETE', `${SC}/${id}`, { who: 'readonly' })).status).toBe(403);
    const cancelled = await valid('DELETE', `${SC}/${id}`, undefined);
    expect(cancelled.body.status).toBe('CANCELLED');
    expect((await send('DELETE', `${SC}/no-such-conversion`)).status).toBe(404);
  });

  it('address verifications: made, signed, listed, got, refused', async () => {
    const key = Uint8Array.from({ length: 32 }, (_, i) => i + 3);
    const address = addressOfKey('ETHEREUM', key);
    const made = await valid('POST', AV, {
      network: 'ETHEREUM',
      address,
      verification_method: 'SIGNATURE',
      ref_id: 'oa-av',
    });
    const { id, signature_verification } = made.body as { id: string; signature_verification: { message: string } };
    expect(
      (
        await send('POST', AV, {
          body: { network: 'ETHEREUM', address, verification_method: 'SIGNATURE', ref_id: 'oa-av' },
        })
      ).status,
    ).toBe(409);
    await invalid('POST', AV, { network: 'ETHEREUM', address, verification_method: 'BY_HAND' });
    expect(
      (
        await send('POST', AV, {
          body: { network: 'BITCOIN', address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', verification_method: 'SIGNATURE' },
        })
      ).status,
    ).toBe(400);
    expect((await send('POST', `${AV}/signature`, { body: { id, signature: '0x00' } })).status).toBe(400);
    await valid('POST', `${AV}/signature`, {
      id,
      signature: signProof('ETHEREUM', key, signature_verification.message),
    });
    await valid(
      'GET',
      `${AV}?status=APPROVED&verification_method=SIGNATURE&order=ASC&order_by=CREATED_AT&limit=1`,
      undefined,
    );
    await valid('GET', `${AV}/${id}`, undefined);
    expect((await send('GET', `${AV}/no-such-verification`)).status).toBe(404);
    await invalid('GET', `${AV}?status=DONE`);
    await refusedWithoutToken('POST', AV, { network: 'ETHEREUM', address, verification_method: 'SIGNATURE' });
    await refusedWithoutToken('POST', `${AV}/signature`, { id, signature: '0x00' });
  });

  it('statements and payments: listed, refused', async () => {
    await valid('GET', `/v2/statements?customer_id=${DEMO.customerId}&order=ASC&limit=5`, undefined);
    await valid('GET', '/v2/statements/payments?product=USDG_REWARDS&payment_status=PAYMENT_STATUS_PENDING', undefined);
    await invalid('GET', '/v2/statements?statuses=PAID');
    await invalid('GET', '/v2/statements/payments?payment_status=DONE');
    expect((await send('GET', '/v2/statements', { who: 'none' })).status).toBe(401);
    expect((await send('GET', '/v2/statements/payments', { who: 'bad' })).status).toBe(401);
  });

  it('historical prices', async () => {
    await valid('GET', PRICES('ETHUSD', 'increment=ONE_HOUR&pagination.limit=5'), undefined);
    await valid('GET', PRICES('PYUSDGBP', 'max_data_points=10'), undefined);
    await valid(
      'GET',
      PRICES(
        'BNBUSD',
        'increment=ONE_DAY&range.begin=2025-01-01T00:00:00Z&range.end=2025-02-01T00:00:00Z&pagination.offset=3',
      ),
      undefined,
    );
    await valid('GET', PRICES('BTCUSD', 'increment=ONE_DAY&range.begin=2099-01-01T00:00:00Z'), undefined);
    await invalid('GET', PRICES('MOONUSD', 'increment=ONE_DAY'));
    await invalid('GET', PRICES('BTCUSD', 'increment=ONE_YEAR'));
    await invalid('GET', PRICES('BTCUSD', 'max_data_points=many'));
    await invalid('GET', PRICES('BTCUSD', 'increment=ONE_DAY&bogus=1'));
    // Valid by the schemas, refused by the rule the description states in words.
    expect((await send('GET', PRICES('BTCUSD', 'increment=ONE_DAY&max_data_points=3'))).status).toBe(400);
    await refusedWithoutToken('GET', PRICES('BTCUSD', 'increment=ONE_DAY'));
  });

  it('transfers: listed with every filter, one by id, refused', async () => {
    await h.control('POST', '/_local/clock/advance', { seconds: 60 });
    const list = await valid('GET', `${T}?limit=2`, undefined);
    expect(list.body.next_page_cursor).toBeTruthy();
    // ids, ref_ids, profile_ids, identity_ids, account_ids and type each go with the time filters only (the
    // description's words); the other filters go together.
    const since = 'created_at.gte=2020-01-01T00:00:00Z&updated_at.lte=2030-01-01T00:00:00Z';
    for (const lone of [
      `profile_ids=${DEMO.profileId}`,
      'identity_ids=i',
      'account_ids=a',
      'ids=x',
      'ref_ids=oa-1',
      'type=CRYPTO_WITHDRAWAL&type=WIRE_DEPOSIT',
    ])
      await valid('GET', `${T}?${lone}&${since}&limit=5`, undefined);
    await valid(
      'GET',
      `${T}?statuses=COMPLETED&secondary_statuses=CUSTOMER_REJECTED&crypto_tx_hashes=h&group_ids=g&${since}`,
      undefined,
    );
    await invalid('GET', `${T}?profile_ids=${DEMO.profileId}&statuses=COMPLETED`);
    await invalid('GET', `${T}?ref_ids=oa-1&type=CRYPTO_WITHDRAWAL`);
    await valid(
      'GET',
      `${T}?order_by=UPDATED_AT&updated_at.gt=2020-01-01T00:00:00Z&updated_at.lte=2030-01-01T00:00:00Z`,
      undefined,
    );
    await valid(
      'GET',
      `${T}?created_at.eq=2020-01-01T00:00:00Z&created_at.lte=2030-01-01T00:00:00Z&updated_at.gt=2020-01-01T00:00:00Z`,
      undefined,
    );
    // Valid by the schemas, refused by the rule the description states in words: order_by as the timestamp filter.
    const pairing = await send('GET', `${T}?order_by=CREATED_AT&updated_at.gt=2020-01-01T00:00:00Z`);
    expect(pairing.status).toBe(400);
    expect(pairing.body.detail).toBe('order_by: must be UPDATED_AT with updated_at filters');
    const statuses = new Set<string>();
    for (const t of (await valid('GET', T, undefined)).body.items) {
      statuses.add((await valid('GET', `${T}/${t.id}`, undefined)).body.status);
    }
    expect([...statuses].sort()).toEqual(['COMPLETED', 'FAILED']);
    expect((await send('GET', `${T}/no-such-transfer`)).status).toBe(404);
    await invalid('GET', `${T}?statuses=DONE`);
    await invalid('GET', `${T}?secondary_statuses=STUCK`);
    await invalid('GET', `${T}?type=PAYMENT`);
    await invalid('GET', `${T}?updated_at.gte=now`);
    expect((await send('GET', `${T}?page_cursor=broken`)).status).toBe(400);
    await refusedWithoutToken('GET', T);
    await refusedWithoutToken('GET', `${T}/x`);
  });

  it('what every endpoint answers before its handler: 405, 413, 415, broken JSON, 429, injected 500 and 503', async () => {
    expect((await send('DELETE', T)).status).toBe(405);
    expect((await send('GET', W)).status).toBe(405);
    expect((await send('POST', W, { body: withdrawal({ memo: 'x'.repeat(5000) }) })).status).toBe(413);
    expect((await send('POST', W, { raw: 'amount=1', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    expect((await send('POST', W, { raw: '{"amount":', headers: { 'content-type': 'application/json' } })).status).toBe(
      400,
    );
    expect((await send('GET', '/v2/nothing/here')).status).toBe(404);
    await h.control('PUT', '/_local/faults', { rate500: 0.5, rate503: 0.5, seed: 1 });
    const injected = new Set<number>();
    for (let i = 0; i < 20; i++) injected.add((await send('GET', T)).status);
    expect([...injected].sort()).toEqual([500, 503]);
    await h.control('PUT', '/_local/faults', { rateLimits: { windowSeconds: 1, otherPerSecond: 2 } });
    const limited: number[] = [];
    for (let i = 0; i < 3; i++) limited.push((await send('GET', T)).status);
    expect(limited).toEqual([200, 200, 429]);
    expect((await send('POST', W, { body: withdrawal() })).status).toBe(429);
    await h.control('PUT', '/_local/faults', {});
  });

  it('met every operation with a success and an error, and every error status', () => {
    const ops = new Set(met.map((m) => m.operation));
    for (const op of [
      'CreateCryptoWithdrawal',
      'CreateCryptoWithdrawalFee',
      'ListDepositAddresses',
      'CreateDepositAddress',
      'InitiateSandboxFiatDeposit',
      'ListHistoricalPrices',
      'ListTransfers',
      'GetTransfer',
      'CreateFiatAccount',
      'ListFiatAccounts',
      'GetFiatAccount',
      'UpdateFiatAccount',
      'DeleteFiatAccount',
      'CreateFiatWithdrawal',
      'ListVasps',
      'GetVasp',
      'UpdateCryptoDeposit',
      'RejectCryptoDeposit',
      'CreatePaxosTransfer',
      'ListStablecoinConversions',
      'CreateStablecoinConversion',
      'GetStablecoinConversion',
      'CancelStablecoinConversion',
      'ListVerifications',
      'CreateVerification',
      'SubmitSignature',
      'GetVerification',
      'ListStatements',
      'ListPayments',
    ]) {
      expect(ops.has(op), op).toBe(true);
      expect(
        met.some((m) => m.operation === op && m.status === 200),
        `${op} 200`,
      ).toBe(true);
      expect(
        met.some((m) => m.operation === op && m.status >= 400),
        `${op} error`,
      ).toBe(true);
    }
    expect([...new Set(met.map((m) => m.status))].sort()).toEqual([
      200, 400, 401, 403, 404, 405, 409, 413, 415, 429, 500, 503,
    ]);
  });
});
