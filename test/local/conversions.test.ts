// Stablecoin conversions of the local service: USD to a stablecoin and back one to one, the source debited at once,
// CREATED then SETTLED on the service's clock (the target credited then), FAILED and given back under the
// failConversions fault, CANCELLED and given back while CREATED; idempotent by ref_id; listed with the OpenAPI's
// filters; every change in the event feed. Every answer is checked against the OpenAPI by the harness.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, DEMO, harness, type Harness, resetBeforeEach } from './helpers.js';

const CONVERSIONS = '/v2/conversion/stablecoins';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());
resetBeforeEach(() => h);

const convert = (body: Record<string, unknown>) =>
  h.admin('POST', CONVERSIONS, { profile_id: DEMO.profileId, source_asset: 'USD', target_asset: 'USDP', ...body });
const advance = (seconds: number) => h.control('POST', '/_local/clock/advance', { seconds });
const diff = (a: string, b: string) => Number(a) - Number(b);

describe('stablecoin conversions', () => {
  it('debit the source at once, stay CREATED, then SETTLED on the clock with the target credited; events', async () => {
    const usd = await balanceOf(h, DEMO.profileId, 'USD');
    const usdp = await balanceOf(h, DEMO.profileId, 'USDP');
    const r = await convert({ amount: '250.50', ref_id: 'conv-1', metadata: { desk: 'treasury' } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      status: 'CREATED',
      amount: '250.5',
      source_asset: 'USD',
      target_asset: 'USDP',
      ref_id: 'conv-1',
      profile_id: DEMO.profileId,
      metadata: { desk: 'treasury' },
    });
    expect(diff(usd, await balanceOf(h, DEMO.profileId, 'USD'))).toBeCloseTo(250.5, 2);
    expect(await balanceOf(h, DEMO.profileId, 'USDP')).toBe(usdp);
    await advance(31);
    const got = await h.admin('GET', `${CONVERSIONS}/${r.body.id}`);
    expect(got.body).toMatchObject({ status: 'SETTLED', id: r.body.id });
    expect(got.body.settled_at).toBe(got.body.updated_at);
    expect(diff(await balanceOf(h, DEMO.profileId, 'USDP'), usdp)).toBeCloseTo(250.5, 2);
    const created = await h.admin('GET', '/v2/events?type=conversion.stablecoin.created');
    expect(created.body.events.map((e: { object: { id: string } }) => e.object.id)).toEqual([r.body.id]);
    const settled = await h.admin('GET', '/v2/events?type=conversion.stablecoin.settled');
    expect(settled.body.events[0]).toMatchObject({
      object_type: 'stablecoin_conversion',
      object: { status: 'SETTLED' },
    });
  });

  it('convert back: a stablecoin to USD', async () => {
    const usd = await balanceOf(h, DEMO.profileId, 'USD');
    const r = await convert({ amount: '100', source_asset: 'PYUSD', target_asset: 'USD' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await advance(31);
    expect(diff(await balanceOf(h, DEMO.profileId, 'USD'), usd)).toBeCloseTo(100, 2);
  });

  it('cancel while CREATED (the source given back), not after it settled', async () => {
    const usd = await balanceOf(h, DEMO.profileId, 'USD');
    const r = await convert({ amount: '40' });
    const cancelled = await h.admin('DELETE', `${CONVERSIONS}/${r.body.id}`);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', cancelled_at: cancelled.body.updated_at });
    expect(await balanceOf(h, DEMO.profileId, 'USD')).toBe(usd);
    const again = await h.admin('DELETE', `${CONVERSIONS}/${r.body.id}`);
    expect(again.status).toBe(400);
    expect(again.body.detail).toMatch(/cannot be cancelled: it is CANCELLED/);
    const settled = await convert({ amount: '1' });
    await advance(31);
    expect((await h.admin('DELETE', `${CONVERSIONS}/${settled.body.id}`)).body.detail).toMatch(/it is SETTLED/);
    expect((await h.admin('GET', '/v2/events?type=conversion.stablecoin.cancelled')).body.events).toHaveLength(1);
    expect((await h.admin('DELETE', `${CONVERSIONS}/nope`)).status).toBe(404);
  });

  it('end FAILED and given back while the failConversions fault is on', async () => {
    expect((await h.control('PUT', '/_local/faults', { failConversions: true })).status).toBe(200);
    const usd = await balanceOf(h, DEMO.profileId, 'USD');
    const r = await convert({ amount: '75.25' });
    await h.control('PUT', '/_local/faults', {});
    await advance(31);
    expect((await h.admin('GET', `${CONVERSIONS}/${r.body.id}`)).body.status).toBe('FAILED');
    expect(await balanceOf(h, DEMO.profileId, 'USD')).toBe(usd);
    expect((await h.admin('GET', '/v2/events?type=conversion.stablecoin.failed')).body.events).toHaveLength(1);
  });

  it('are idempotent by ref_id: the same ref_id again is a 409 with the existing conversion, debited once', async () => {
    const first = await convert({ amount: '10', ref_id: 'once' });
    const usd = await balanceOf(h, DEMO.profileId, 'USD');
    const again = await convert({ amount: '10', ref_id: 'once' });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe("conversion already exists with ref_id 'once'");
    expect(again.body.meta.existing.id).toBe(first.body.id);
    expect(await balanceOf(h, DEMO.profileId, 'USD')).toBe(usd);
  });

  it('are listed newest first, by profile_id, ref_id and the created_at and updated_at bounds, paged', async () => {
    const a = await convert({ amount: '1', ref_id: 'a' });
    await advance(5);
    const b = await convert({ amount: '2', ref_id: 'b' });
    const all = await h.admin('GET', CONVERSIONS);
    expect(all.body.items.map((c: { id: string }) => c.id)).toEqual([b.body.id, a.body.id]);
    const asc = await h.admin('GET', `${CONVERSIONS}?order=ASC&limit=1`);
    expect(asc.body.items[0].id).toBe(a.body.id);
    const next = await h.admin('GET', `${CONVERSIONS}?order=ASC&limit=1&page_cursor=${asc.body.next_page_cursor}`);
    expect(next.body.items[0].id).toBe(b.body.id);
    expect((await h.admin('GET', `${CONVERSIONS}?ref_id=b`)).body.items).toHaveLength(1);
    expect((await h.admin('GET', `${CONVERSIONS}?profile_id=${DEMO.emptyProfileId}`)).body.items).toHaveLength(0);
    const since = encodeURIComponent(b.body.created_at);
    expect((await h.admin('GET', `${CONVERSIONS}?created_at.begin=${since}`)).body.items).toHaveLength(1);
    expect((await h.admin('GET', `${CONVERSIONS}?created_at.end=${since}`)).body.items).toHaveLength(2);
    expect((await h.admin('GET', `${CONVERSIONS}?updated_at.begin=${since}`)).body.items).toHaveLength(1);
    expect((await h.admin('GET', `${CONVERSIONS}?created_at.gte=${since}`)).status).toBe(400);
  });

  it('refuse: a pair that is not USD and a stablecoin, cents past USD, zero, above the maximum, no funds', async () => {
    const pair = await convert({ amount: '1', source_asset: 'USDP', target_asset: 'PYUSD' });
    expect(pair.status).toBe(400);
    expect(pair.body.detail).toMatch(/target_asset: a conversion is USD to USDP/);
    expect((await convert({ amount: '1', target_asset: 'BTC' })).status).toBe(400);
    expect((await convert({ amount: '1.001' })).status).toBe(400);
    expect((await convert({ amount: '0' })).status).toBe(400);
    expect((await convert({ amount: '-1' })).status).toBe(400);
    const over = await convert({ amount: '1000001' });
    expect(over.status).toBe(400);
    expect(over.body.detail).toBe('1000001 amount is above the maximum 1000000 USD');
    const poor = await convert({ amount: '5', profile_id: DEMO.emptyProfileId });
    expect(poor.status).toBe(403);
    expect(poor.body.type).toMatch(/insufficient-funds/);
    expect(poor.body.detail).toMatch(/^insufficient USD funds in profile .*: 5 needed, 0 available$/);
    expect((await convert({ amount: '1', profile_id: 'nobody' })).status).toBe(404);
    expect((await h.admin('GET', `${CONVERSIONS}/nope`)).body.detail).toBe('conversion with id nope not found');
  });

  it('need the conversion scopes: the read-only client lists but cannot convert', async () => {
    const token = await h.token(DEMO.readonlyClientId);
    expect((await h.req('GET', CONVERSIONS, { token })).status).toBe(200);
    const denied = await h.req('POST', CONVERSIONS, {
      token,
      body: { profile_id: DEMO.profileId, source_asset: 'USD', target_asset: 'USDP', amount: '1' },
    });
    expect(denied.status).toBe(403);
    expect(denied.body.detail).toMatch(/conversion:write_conversion_stablecoin/);
  });
});
