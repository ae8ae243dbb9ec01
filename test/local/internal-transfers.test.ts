// Local service: internal transfers between two profiles of one customer. A DEBIT and a CREDIT sharing a group_id,
// both balances moved in one transaction, idempotent by ref_id, and refused as the OpenAPI says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, harness, withdrawal, type Harness, resetBeforeEach } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());
resetBeforeEach(() => h);

const FROM = DEMO.profileId;
const TO = DEMO.emptyProfileId;
const transfer = (extra: Record<string, unknown> = {}) =>
  h.admin('POST', '/v2/transfer/internal', {
    from_profile_id: FROM,
    to_profile_id: TO,
    asset: 'BTC',
    amount: '1.25',
    ...extra,
  });
const available = async (profileId: string, asset: string) =>
  (await h.admin('GET', `/v2/profiles/${profileId}/balances/${asset}`)).body.available;

describe('internal transfers', () => {
  it('moves the amount and records a DEBIT and a CREDIT sharing a group_id, listed in transfers', async () => {
    const r = await transfer({
      ref_id: 'move-1',
      metadata: { why: 'rebalance' },
      recipient_metadata: { note: 'from demo' },
      from_identity_id: 'id-from',
      to_account_id: 'acct-to',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      profile_id: FROM,
      customer_id: DEMO.customerId,
      asset: 'BTC',
      balance_asset: 'BTC',
      amount: '1.25',
      total: '1.25',
      fee: '0',
      direction: 'DEBIT',
      type: 'INTERNAL_TRANSFER_DEBIT',
      status: 'COMPLETED',
      ref_id: 'move-1',
      metadata: { why: 'rebalance' },
      identity_id: 'id-from',
    });
    expect(await available(FROM, 'BTC')).toBe('998.75');
    expect(await available(TO, 'BTC')).toBe('1.25');
    const group = (await h.admin('GET', `/v2/transfer/transfers?group_ids=${r.body.group_id}&order=ASC`)).body.items;
    expect(group.map((t: any) => [t.type, t.profile_id, t.direction, t.amount])).toEqual([
      ['INTERNAL_TRANSFER_DEBIT', FROM, 'DEBIT', '1.25'],
      ['INTERNAL_TRANSFER_CREDIT', TO, 'CREDIT', '1.25'],
    ]);
    expect(group[0]).toEqual(r.body);
    expect(group[1]).toMatchObject({ metadata: { note: 'from demo' }, account_id: 'acct-to' });
    expect(group[1].ref_id).toBeUndefined();
    expect((await h.admin('GET', `/v2/transfer/transfers/${group[1].id}`)).body).toEqual(group[1]);
    const credits = await h.admin('GET', `/v2/transfer/transfers?type=INTERNAL_TRANSFER_CREDIT`);
    expect(credits.body.items.filter((t: any) => t.profile_id === TO).map((t: any) => t.id)).toEqual([group[1].id]);
  });

  it('a reused ref_id answers 409 with the transfer it made, and moves nothing again', async () => {
    const first = await transfer({ ref_id: 'once' });
    const again = await transfer({ ref_id: 'once' });
    expect(again.status).toBe(409);
    expect(again.body.type).toMatch(/already-exists$/);
    expect(again.body.meta.existing).toEqual(first.body);
    expect(await available(TO, 'BTC')).toBe('1.25');
    expect((await transfer({ ref_id: 'once', amount: '2' })).status).toBe(409);
    // A ref_id names one transfer whatever its kind: a withdrawal's is taken too.
    const w = await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: 'paid-out' }));
    const clash = await transfer({ ref_id: 'paid-out' });
    expect(clash.status).toBe(409);
    expect(clash.body.meta.existing.id).toBe(w.body.id);
  });

  it('refuses insufficient funds with the named problem, moving nothing', async () => {
    const r = await h.admin('POST', '/v2/transfer/internal', {
      from_profile_id: TO,
      to_profile_id: FROM,
      asset: 'USD',
      amount: '10.5',
    });
    expect(r.status).toBe(403);
    expect(r.body.type).toMatch(/insufficient-funds$/);
    expect(r.body.meta).toEqual({ profile_id: TO, asset: 'USD', available: '0', needed: '10.5' });
    expect(await available(FROM, 'USD')).toBe('10000000');
    expect((await h.admin('GET', `/v2/transfer/transfers?profile_ids=${TO}`)).body.items).toEqual([]);
  });

  it('refuses unknown profiles (404), another customer profile (403), the same profile (400)', async () => {
    const unknown = await transfer({ to_profile_id: 'nope' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toBe('profile not found: nope');
    expect((await transfer({ from_profile_id: 'nope' })).status).toBe(404);
    await h.control('POST', '/_local/profiles', { id: 'stranger', customer_id: 'another-customer' });
    const foreign = await transfer({ to_profile_id: 'stranger' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.detail).toMatch(/different customers/);
    const same = await transfer({ to_profile_id: FROM });
    expect(same.status).toBe(400);
    expect(same.body.meta.issues).toEqual([
      { field: 'to_profile_id', rule: 'must not be the profile it is sent from' },
    ]);
    expect(await available(FROM, 'BTC')).toBe('1000');
  });

  it('refuses bad bodies naming the field, never a 500', async () => {
    for (const [extra, field] of [
      [{ amount: '0' }, 'amount'],
      [{ amount: '-1' }, 'amount'],
      [{ amount: '1e3' }, 'amount'],
      [{ amount: 5 }, 'amount'],
      [{ asset: 'MOON' }, 'asset'],
      [{ asset: 'USD', amount: '0.001' }, 'amount'],
      [{ from_profile_id: '' }, 'from_profile_id'],
      [{ ref_id: 'x'.repeat(129) }, 'ref_id'],
      [{ metadata: { a: '1', b: '2', c: '3', d: '4', e: '5', f: '6', g: '7' } }, 'metadata'],
      [{ recipient_metadata: { k: 'v'.repeat(101) } }, 'recipient_metadata.k'],
      [{ to_identity: 'x' }, 'to_identity'],
    ] as const) {
      const r = await transfer(extra);
      expect(r.status, JSON.stringify(extra)).toBe(400);
      expect(r.body.meta.issues[0].field, JSON.stringify(extra)).toBe(field);
    }
    // Too many decimals for a crypto asset is the hosted service's own named problem.
    const precise = await transfer({ amount: '0.000000001' });
    expect(precise.body.type).toMatch(/exceed-precision$/);
    expect(await available(FROM, 'BTC')).toBe('1000');
  });

  it('needs transfer:write_internal_transfer', async () => {
    const readonly = await h.token(DEMO.readonlyClientId);
    const r = await h.req('POST', '/v2/transfer/internal', {
      token: readonly,
      body: { from_profile_id: FROM, to_profile_id: TO, asset: 'BTC', amount: '1' },
    });
    expect(r.status).toBe(403);
    expect(r.body.detail).toMatch(/transfer:write_internal_transfer/);
  });
});
