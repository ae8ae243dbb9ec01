// Fiat accounts of the local service and fiat withdrawals to them: stored with the OpenAPI's validation, PENDING then
// APPROVED on the service's clock; a withdrawal debits USD, is PENDING then COMPLETED (or FAILED and refunded by the
// failFiatWithdrawals fault), idempotent by ref_id, and shows in the transfers and the event feed. Every answer is
// checked against the OpenAPI by the harness.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, DEMO, harness, type Harness, resetBeforeEach } from './helpers.js';
import { FIAT_ACCOUNT } from '../support/requests.js';

const ACCOUNTS = '/v2/transfer/fiat-accounts';
const WITHDRAWALS = '/v2/transfer/fiat-withdrawals';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());
resetBeforeEach(() => h);

const createAccount = async (extra: Record<string, unknown> = {}) => {
  const r = await h.admin('POST', ACCOUNTS, { ...FIAT_ACCOUNT, ...extra });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { id: string; status: string };
};
const withdraw = (body: Record<string, unknown>) =>
  h.admin('POST', WITHDRAWALS, { profile_id: DEMO.profileId, asset: 'USD', ...body });

describe('fiat accounts', () => {
  it('are created whole, listed abbreviated (last four digits, no owner), got, updated and deleted', async () => {
    const a = await createAccount({ ref_id: 'acct-1', metadata: { desk: 'treasury' } });
    expect(a).toMatchObject({
      ref_id: 'acct-1',
      status: 'APPROVED',
      fiat_account_owner: { institution_details: { name: 'Acme Treasury Inc' } },
      fiat_network_instructions: { wire: { account_number: '12345678' } },
      metadata: { desk: 'treasury' },
    });
    const list = await h.admin('GET', ACCOUNTS);
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0].fiat_network_instructions.wire.account_number).toBe('XXXX5678');
    expect(list.body.items[0].fiat_network_instructions.wire.fiat_account_owner_address).toEqual({ country: 'USA' });
    expect(list.body.items[0].fiat_account_owner).toEqual({});
    expect((await h.admin('GET', `${ACCOUNTS}?ref_ids=acct-1`)).body.items).toHaveLength(1);
    expect((await h.admin('GET', `${ACCOUNTS}?ref_ids=other`)).body.items).toHaveLength(0);
    const got = await h.admin('GET', `${ACCOUNTS}/${a.id}`);
    expect(got.body.fiat_network_instructions.wire.account_number).toBe('12345678');

    const upd = await h.admin('PUT', `${ACCOUNTS}/${a.id}`, {
      fiat_account_owner: { institution_details: { name: 'Acme Holdings Inc' } },
      fiat_network_instructions: { wire: { routing_details: { bank_name: '' } } },
    });
    expect(upd.status, JSON.stringify(upd.body)).toBe(200);
    expect(upd.body.fiat_account_owner.institution_details.name).toBe('Acme Holdings Inc');
    // "Empty strings or null values are ignored."
    expect(upd.body.fiat_network_instructions.wire.routing_details.bank_name).toBe('Customers Bank');
    const toPerson = await h.admin('PUT', `${ACCOUNTS}/${a.id}`, {
      fiat_account_owner: { person_details: { first_name: 'Jane', last_name: 'Doe' } },
    });
    expect(toPerson.status).toBe(400);
    expect(toPerson.body.detail).toMatch(/cannot be changed from institution to person/);

    expect((await h.admin('DELETE', `${ACCOUNTS}/${a.id}`)).status).toBe(200);
    expect((await h.admin('GET', `${ACCOUNTS}/${a.id}`)).status).toBe(404);
    expect((await h.admin('GET', `${ACCOUNTS}/${a.id}?include_deleted=true`)).status).toBe(200);
    expect((await h.admin('GET', ACCOUNTS)).body.items).toHaveLength(0);
    expect((await h.admin('GET', `${ACCOUNTS}?include_deleted=true`)).body.items).toHaveLength(1);
    expect((await h.admin('DELETE', `${ACCOUNTS}/${a.id}`)).status).toBe(404);
  });

  it('refuse what the OpenAPI refuses: no owner, two networks, a required field missing; a ref_id twice is a 409', async () => {
    const noOwner = await h.admin('POST', ACCOUNTS, { ...FIAT_ACCOUNT, fiat_account_owner: {} });
    expect(noOwner.status).toBe(400);
    expect(noOwner.body.detail).toMatch(/fiat_account_owner/);
    const two = await h.admin('POST', ACCOUNTS, {
      ...FIAT_ACCOUNT,
      fiat_network_instructions: { ...FIAT_ACCOUNT.fiat_network_instructions, scb: { account_number: '1' } },
    });
    expect(two.status).toBe(400);
    expect(two.body.detail).toMatch(/fiat_network_instructions: give exactly one of/);
    const noNumber = await h.admin('POST', ACCOUNTS, {
      ...FIAT_ACCOUNT,
      fiat_network_instructions: {
        wire: { ...FIAT_ACCOUNT.fiat_network_instructions.wire, account_number: undefined },
      },
    });
    expect(noNumber.status).toBe(400);
    expect(noNumber.body.detail).toMatch(/account_number/);
    await createAccount({ ref_id: 'twice' });
    const again = await h.admin('POST', ACCOUNTS, { ...FIAT_ACCOUNT, ref_id: 'twice' });
    expect(again.status).toBe(409);
    expect(again.body.meta.existing.ref_id).toBe('twice');
  });

  it('need their scopes: the read-only client lists but cannot create', async () => {
    const ro = await h.token(DEMO.readonlyClientId);
    expect((await h.req('GET', ACCOUNTS, { token: ro })).status).toBe(200);
    expect((await h.req('POST', ACCOUNTS, { token: ro, body: FIAT_ACCOUNT })).status).toBe(403);
    expect((await h.req('POST', WITHDRAWALS, { token: ro, body: {} })).status).toBe(403);
  });

  it('stay PENDING for their review time by the service clock, and take no withdrawal until APPROVED', async () => {
    h.svc.config.fiatAccountReviewSeconds = 60;
    try {
      const a = await createAccount();
      expect(a.status).toBe('PENDING');
      const early = await withdraw({ fiat_account_id: a.id, amount: '10.00', ref_id: 'early' });
      expect(early.status).toBe(400);
      expect(early.body.detail).toBe('fiat account has invalid status PENDING, must be approved');
      await h.control('POST', '/_local/clock/advance', { seconds: 61 });
      expect((await h.admin('GET', `${ACCOUNTS}/${a.id}`)).body.status).toBe('APPROVED');
    } finally {
      h.svc.config.fiatAccountReviewSeconds = 0;
    }
  });
});

describe('fiat withdrawals', () => {
  it('debit USD, are PENDING then COMPLETED on the clock, in the transfers and the event feed', async () => {
    const a = await createAccount();
    const before = await balanceOf(h, DEMO.profileId, 'USD');
    const r = await withdraw({ fiat_account_id: a.id, amount: '1250.50', ref_id: 'wire-1', memo: 'invoice 42' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      type: 'WIRE_WITHDRAWAL',
      status: 'PENDING',
      direction: 'DEBIT',
      amount: '1250.5',
      fee: '0',
      asset: 'USD',
      fiat_account_id: a.id,
      ref_id: 'wire-1',
    });
    const after = await balanceOf(h, DEMO.profileId, 'USD');
    expect(Number(before) - Number(after)).toBeCloseTo(1250.5, 2);
    await h.control('POST', '/_local/clock/advance', { seconds: 31 });
    const t = await h.admin('GET', `/v2/transfer/transfers/${r.body.id}`);
    expect(t.body.status).toBe('COMPLETED');
    expect(t.body.crypto_tx_hash).toBeUndefined();
    const listed = await h.admin('GET', '/v2/transfer/transfers?type=WIRE_WITHDRAWAL');
    expect(listed.body.items.map((x: { id: string }) => x.id)).toEqual([r.body.id]);
    const events = await h.admin('GET', '/v2/events?type=transfer.wire_withdrawal.pending');
    expect(events.body.events).toHaveLength(1);
    const done = await h.admin('GET', '/v2/events?type=transfer.wire_withdrawal.completed');
    expect(done.body.events[0].object.id).toBe(r.body.id);
  });

  it('are idempotent by ref_id: the same ref_id again is a 409 with the existing transfer, debited once', async () => {
    const a = await createAccount();
    const first = await withdraw({ fiat_account_id: a.id, amount: '10.00', ref_id: 'once' });
    const balance = await balanceOf(h, DEMO.profileId, 'USD');
    const again = await withdraw({ fiat_account_id: a.id, amount: '10.00', ref_id: 'once' });
    expect(again.status).toBe(409);
    expect(again.body.meta.existing.id).toBe(first.body.id);
    expect(await balanceOf(h, DEMO.profileId, 'USD')).toBe(balance);
  });

  it('end FAILED and refunded while the failFiatWithdrawals fault is on', async () => {
    const a = await createAccount();
    expect((await h.control('PUT', '/_local/faults', { failFiatWithdrawals: true })).status).toBe(200);
    const before = await balanceOf(h, DEMO.profileId, 'USD');
    const r = await withdraw({ fiat_account_id: a.id, total: '99.99', ref_id: 'doomed' });
    expect(r.status).toBe(200);
    await h.control('PUT', '/_local/faults', {});
    await h.control('POST', '/_local/clock/advance', { seconds: 31 });
    expect((await h.admin('GET', `/v2/transfer/transfers/${r.body.id}`)).body.status).toBe('FAILED');
    expect(await balanceOf(h, DEMO.profileId, 'USD')).toBe(before);
    expect((await h.admin('GET', '/v2/events?type=transfer.wire_withdrawal.failed')).body.events).toHaveLength(1);
  });

  it('refuse: an unknown or deleted account (404), not USD, three decimals, both amount and total, no funds (403)', async () => {
    const a = await createAccount();
    expect((await withdraw({ fiat_account_id: 'nope', amount: '1.00' })).status).toBe(404);
    const eur = await withdraw({ fiat_account_id: a.id, amount: '1.00', asset: 'EUR' });
    expect(eur.status).toBe(400);
    expect(eur.body.detail).toMatch(/asset: must be USD/);
    expect((await withdraw({ fiat_account_id: a.id, amount: '1.001' })).status).toBe(400);
    expect((await withdraw({ fiat_account_id: a.id, amount: '1.00', total: '1.00' })).status).toBe(400);
    const poor = await withdraw({ fiat_account_id: a.id, amount: '5.00', profile_id: DEMO.emptyProfileId });
    expect(poor.status).toBe(403);
    expect(poor.body.type).toMatch(/insufficient-funds/);
    await h.admin('DELETE', `${ACCOUNTS}/${a.id}`);
    expect((await withdraw({ fiat_account_id: a.id, amount: '1.00' })).status).toBe(404);
  });
});
