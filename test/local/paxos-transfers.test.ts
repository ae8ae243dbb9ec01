// Local service: transfers to another customer of the service (POST /v2/transfer/paxos). A PAXOS_TRANSFER_DEBIT of
// the sender and a PAXOS_TRANSFER_CREDIT of the recipient's profile (another customer's) sharing a group_id, both
// balances moved in one transaction, each an event, idempotent by ref_id, refused as the OpenAPI says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, harness, withdrawal, type Harness, resetBeforeEach } from './helpers.js';

const FROM = DEMO.profileId;
let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());
resetBeforeEach(() => h);

const RECIPIENT = 'recipient-profile';
const RECIPIENT_CUSTOMER = 'recipient-customer';
const addRecipient = () =>
  h.control('POST', '/_local/profiles', { id: RECIPIENT, customer_id: RECIPIENT_CUSTOMER, nickname: 'payee' });
const transfer = (extra: Record<string, unknown> = {}) =>
  h.admin('POST', '/v2/transfer/paxos', {
    from_profile_id: FROM,
    to_profile_id: RECIPIENT,
    asset: 'USD',
    amount: '250.5',
    ...extra,
  });
const available = async (profileId: string, asset: string) =>
  (await h.admin('GET', `/v2/profiles/${profileId}/balances/${asset}`)).body.available;

describe('transfers to another customer', () => {
  it('debits the sender, credits the recipient, both sides listed with their types and in the event feed', async () => {
    await addRecipient();
    const r = await transfer({ ref_id: 'pay-1', metadata: { invoice: 'A-1' }, recipient_metadata: { from: 'acme' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      profile_id: FROM,
      customer_id: DEMO.customerId,
      asset: 'USD',
      amount: '250.5',
      total: '250.5',
      fee: '0',
      direction: 'DEBIT',
      type: 'PAXOS_TRANSFER_DEBIT',
      status: 'COMPLETED',
      ref_id: 'pay-1',
      metadata: { invoice: 'A-1' },
    });
    expect(await available(FROM, 'USD')).toBe('9999749.5');
    expect(await available(RECIPIENT, 'USD')).toBe('250.5');
    const group = (await h.admin('GET', `/v2/transfer/transfers?group_ids=${r.body.group_id}&order=ASC`)).body.items;
    expect(group.map((t: any) => [t.type, t.profile_id, t.customer_id, t.direction, t.amount])).toEqual([
      ['PAXOS_TRANSFER_DEBIT', FROM, DEMO.customerId, 'DEBIT', '250.5'],
      ['PAXOS_TRANSFER_CREDIT', RECIPIENT, RECIPIENT_CUSTOMER, 'CREDIT', '250.5'],
    ]);
    expect(group[1]).toMatchObject({ metadata: { from: 'acme' } });
    // spec/SERVICE.md's name of the type finds them as the OpenAPI's does.
    for (const type of ['PAXOS_TRANSFER_DEBIT', 'PLATFORM_TRANSFER_DEBIT'])
      expect((await h.admin('GET', `/v2/transfer/transfers?type=${type}`)).body.items.map((t: any) => t.id)).toEqual([
        r.body.id,
      ]);
    for (const [i, side] of ['debit', 'credit'].entries()) {
      const type = `transfer.paxos_transfer_${side}.completed`;
      const events = (await h.admin('GET', `/v2/events?type=${type}`)).body.events;
      expect(events.map((e: any) => [e.type, e.object.id, e.object.type])).toEqual([
        [type, group[i].id, group[i].type],
      ]);
    }
  });

  it('a reused ref_id answers 409 with the transfer it made, and moves nothing again', async () => {
    await addRecipient();
    const first = await transfer({ ref_id: 'once' });
    const again = await transfer({ ref_id: 'once', amount: '9' });
    expect(again.status).toBe(409);
    expect(again.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(again.body.type).toMatch(/already-exists$/);
    expect(again.body.meta.existing).toEqual(first.body);
    expect(await available(RECIPIENT, 'USD')).toBe('250.5');
    const w = await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: 'paid-out' }));
    expect((await transfer({ ref_id: 'paid-out' })).body.meta.existing.id).toBe(w.body.id);
  });

  it('refuses an unknown recipient (404), one of the same customer (403), too little money (403)', async () => {
    const unknown = await transfer({ to_profile_id: 'nobody' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe('profile not found: nobody');
    expect(unknown.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const own = await transfer({ to_profile_id: DEMO.emptyProfileId });
    expect(own.status).toBe(403);
    expect(own.body.detail).toMatch(/belong to one customer/);
    await addRecipient();
    const poor = await transfer({ from_profile_id: DEMO.emptyProfileId });
    expect(poor.status).toBe(403);
    expect(poor.body.type).toMatch(/insufficient-funds$/);
    expect(poor.body.meta).toEqual({ profile_id: DEMO.emptyProfileId, asset: 'USD', available: '0', needed: '250.5' });
    expect(await available(RECIPIENT, 'USD')).toBe('0');
    expect((await h.admin('GET', `/v2/transfer/transfers?profile_ids=${RECIPIENT}`)).body.items).toEqual([]);
  });

  it('refuses bad bodies naming the field (400), never a 500', async () => {
    await addRecipient();
    for (const [extra, field] of [
      [{ amount: '0' }, 'amount'],
      [{ amount: '1e3' }, 'amount'],
      [{ asset: 'MOON' }, 'asset'],
      [{ asset: 'USD', amount: '0.001' }, 'amount'],
      [{ to_profile_id: FROM }, 'to_profile_id'],
      [{ ref_id: 'x'.repeat(129) }, 'ref_id'],
      [{ recipient_metadata: { k: 'v'.repeat(101) } }, 'recipient_metadata.k'],
      [{ recipient: 'x' }, 'recipient'],
    ] as const) {
      const r = await transfer(extra);
      expect(r.status, JSON.stringify(extra)).toBe(400);
      expect(r.body.meta.issues[0].field, JSON.stringify(extra)).toBe(field);
    }
    expect(await available(FROM, 'USD')).toBe('10000000');
  });

  it('needs transfer:write_paxos_transfer', async () => {
    await addRecipient();
    const readonly = await h.token(DEMO.readonlyClientId);
    const r = await h.req('POST', '/v2/transfer/paxos', {
      token: readonly,
      body: { from_profile_id: FROM, to_profile_id: RECIPIENT, asset: 'USD', amount: '1' },
    });
    expect(r.status).toBe(403);
    expect(r.body.detail).toMatch(/transfer:write_paxos_transfer/);
  });
});
