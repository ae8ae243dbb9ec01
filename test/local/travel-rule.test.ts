// The Travel Rule on the local service: the VASP directory (any token, no scope; search, order, pages), a withdrawal to
// a VASP-custodied address without a beneficiary held in TRAVEL_RULE_INFO_REQUESTED until the address's beneficiary
// is saved (or rejected as TRAVEL_RULE_REJECTED at the deadline, refunded), the failing VASP, and crypto deposits held
// for their originator, updated (then credited) or rejected (CUSTOMER_REJECTED, never credited); the transfers list
// filters on the secondary status and the event feed carries it. Every answer is checked against the OpenAPI by the
// harness. Held transfers wait 600 s for their information here (travelRuleInfoSeconds; a day by default).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, BTC_ADDRESS, DEMO, harness, type Harness, resetBeforeEach, withdrawal } from './helpers.js';
import { FAILING_VASP, VASPS } from '../../src/local/vasps.js';

const VASPS_PATH = '/v2/travelrule/vasps';
const BOOK = '/v2/transfer/crypto-destination-address';
const WITHDRAWALS = '/v2/transfer/crypto-withdrawals';
const OKX = '8e4b1c2d-9a3f-4e6b-b1d7-2c5a8f0e3b94';
const IDENTITY = '54385e67-d7ef-40d1-b488-ceda6dd9b264';

let h: Harness;
beforeAll(async () => {
  h = await harness({ config: { travelRuleInfoSeconds: 600 } });
});
afterAll(() => h.close());
resetBeforeEach(() => h);

const markVasp = (travelrule: Record<string, unknown>, address = BTC_ADDRESS) =>
  h.admin('PUT', BOOK, { crypto_network: 'BITCOIN', address, travelrule_metadata: travelrule });
const transfer = async (id: string) => (await h.admin('GET', `/v2/transfer/transfers/${id}`)).body;
const advance = (seconds: number) => h.control('POST', '/_local/clock/advance', { seconds });

describe('the VASP directory', () => {
  it('lists by name, ascending or descending, filters by ids and a name prefix, and pages', async () => {
    const all = await h.admin('GET', VASPS_PATH);
    expect(all.status).toBe(200);
    const names = all.body.items.map((v: { name: string }) => v.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    expect(names).toContain('OKX');
    expect((await h.admin('GET', `${VASPS_PATH}?order=DESC`)).body.items[0].name).toBe(names[names.length - 1]);
    expect((await h.admin('GET', `${VASPS_PATH}?search=rob`)).body.items).toEqual([
      { id: '3d9a7c61-5e2b-48f0-9c4a-1b6e7d2f8a05', name: 'Robinhood (US)' },
    ]);
    expect((await h.admin('GET', `${VASPS_PATH}?ids=${OKX}`)).body.items).toEqual([{ id: OKX, name: 'OKX' }]);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await h.admin('GET', `${VASPS_PATH}?limit=4${cursor ? `&page_cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.items.map((v: { name: string }) => v.name));
      cursor = page.body.next_page_cursor;
    } while (cursor);
    expect(seen).toEqual(names);
    expect(seen).toHaveLength(VASPS.length);
  });

  it('gets one VASP; an unknown id is a 404; any valid token serves, none is a 401; bad queries are 400s', async () => {
    expect((await h.admin('GET', `${VASPS_PATH}/${OKX}`)).body).toEqual({ vasp: { id: OKX, name: 'OKX' } });
    expect((await h.admin('GET', `${VASPS_PATH}/nobody`)).status).toBe(404);
    const readonly = await h.token(DEMO.readonlyClientId);
    expect((await h.req('GET', VASPS_PATH, { token: readonly })).status).toBe(200);
    expect((await h.req('GET', VASPS_PATH, { token: null })).status).toBe(401);
    expect((await h.admin('GET', `${VASPS_PATH}?order_by=ID`)).status).toBe(400);
    expect((await h.admin('GET', `${VASPS_PATH}?page_cursor=broken!`)).status).toBe(400);
  });

  it('is what a destination names: an unknown VASP id is a 400', async () => {
    const r = await markVasp({ custodian_type: 'VASP', vasp: { id: 'a0000000-0000-4000-8000-000000000000' } });
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/travelrule_metadata\.vasp\.id/);
    expect((await markVasp({ custodian_type: 'VASP', vasp: { id: OKX } })).status).toBe(200);
  });
});

describe('withdrawals and the travel rule', () => {
  it('holds one to a VASP-custodied address without a beneficiary, and releases it when the beneficiary is saved', async () => {
    await markVasp({ custodian_type: 'VASP', vasp: { id: OKX } });
    const before = await balanceOf(h, DEMO.profileId, 'BTC');
    const w = await h.admin('POST', WITHDRAWALS, withdrawal({ ref_id: 'tr-held' }));
    expect(w.status, JSON.stringify(w.body)).toBe(200);
    expect(w.body.status).toBe('PENDING');
    expect(w.body.secondary_status.name).toBe('TRAVEL_RULE_INFO_REQUESTED');
    // Held: the settle time passes and it is still pending, and listed by its secondary status.
    await advance(120);
    expect((await transfer(w.body.id)).status).toBe('PENDING');
    const held = await h.admin('GET', '/v2/transfer/transfers?secondary_statuses=TRAVEL_RULE_INFO_REQUESTED');
    expect(held.body.items.map((t: { id: string }) => t.id)).toEqual([w.body.id]);
    // The beneficiary saved on the address releases it; it completes as any other.
    await markVasp({
      custodian_type: 'VASP',
      vasp: { id: OKX },
      beneficiary: { person_details: { first_name: 'Ada', last_name: 'Lovelace' } },
    });
    const released = await transfer(w.body.id);
    expect(released.status).toBe('PENDING');
    expect(released.secondary_status).toBeUndefined();
    await advance(31);
    expect((await transfer(w.body.id)).status).toBe('COMPLETED');
    expect(await balanceOf(h, DEMO.profileId, 'BTC')).not.toBe(before);
    // The feed carries the hold and the release.
    const events = (await h.admin('GET', '/v2/events?limit=100')).body.events as {
      type: string;
      object: { id: string; secondary_status?: { name: string } };
    }[];
    const mine = events.filter((e) => e.object.id === w.body.id);
    expect(mine.map((e) => [e.type, e.object.secondary_status?.name])).toEqual([
      ['transfer.crypto_withdrawal.pending', 'TRAVEL_RULE_INFO_REQUESTED'],
      ['transfer.crypto_withdrawal.pending', undefined],
      ['transfer.crypto_withdrawal.completed', undefined],
    ]);
  });

  it('does not hold one that carries its beneficiary, nor one to a private wallet', async () => {
    await markVasp({ custodian_type: 'VASP', vasp: { id: OKX } });
    const w = await h.admin(
      'POST',
      WITHDRAWALS,
      withdrawal({ beneficiary: { institution_details: { name: 'Acme Ltd' } } }),
    );
    expect(w.body.secondary_status).toBeUndefined();
    await markVasp({ custodian_type: 'PRIVATE' });
    expect((await h.admin('POST', WITHDRAWALS, withdrawal())).body.secondary_status).toBeUndefined();
  });

  it('rejects one held past the deadline as TRAVEL_RULE_REJECTED, refunded', async () => {
    await markVasp({ custodian_type: 'VASP', vasp: { id: OKX } });
    const before = await balanceOf(h, DEMO.profileId, 'BTC');
    const w = await h.admin('POST', WITHDRAWALS, withdrawal());
    expect(await balanceOf(h, DEMO.profileId, 'BTC')).not.toBe(before);
    await advance(600);
    const t = await transfer(w.body.id);
    expect(t.status).toBe('FAILED');
    expect(t.secondary_status.name).toBe('TRAVEL_RULE_REJECTED');
    expect(await balanceOf(h, DEMO.profileId, 'BTC')).toBe(before);
    const listed = await h.admin('GET', '/v2/transfer/transfers?secondary_statuses=TRAVEL_RULE_REJECTED');
    expect(listed.body.items.map((x: { id: string }) => x.id)).toEqual([w.body.id]);
  });

  it('rejects one to the VASP that fails the checks at its settle time, even with a beneficiary', async () => {
    await markVasp({
      custodian_type: 'VASP',
      vasp: { id: FAILING_VASP.id },
      beneficiary: { self: true },
    });
    const before = await balanceOf(h, DEMO.profileId, 'BTC');
    const w = await h.admin('POST', WITHDRAWALS, withdrawal());
    expect(w.body.secondary_status).toBeUndefined();
    await advance(31);
    const t = await transfer(w.body.id);
    expect([t.status, t.secondary_status?.name, t.status_details]).toEqual([
      'FAILED',
      'TRAVEL_RULE_REJECTED',
      undefined,
    ]);
    expect(await balanceOf(h, DEMO.profileId, 'BTC')).toBe(before);
  });
});

describe('crypto deposits held for their originator', () => {
  const arrive = async () => {
    const r = await h.control('POST', '/_local/crypto-deposits', {
      ref_id: 'demo-btc',
      amount: '0.5',
      needs_info: true,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.secondary_status.name).toBe('TRAVEL_RULE_INFO_REQUESTED');
    return r.body as { id: string };
  };
  const update = (id: string, body: unknown) => h.admin('POST', `/v2/transfer/crypto-deposits/${id}/update`, body);
  const reject = (id: string, body: unknown) => h.admin('POST', `/v2/transfer/crypto-deposits/${id}/reject`, body);
  const ORIGINATOR = {
    identity_id: IDENTITY,
    originator_address_info: { individual_info: { first_name: 'J', last_name: 'Doe' } },
  };

  it('are not credited until updated; an update releases one, credited at its settle time; again is a 409', async () => {
    const before = await balanceOf(h, DEMO.profileId, 'BTC');
    const d = await arrive();
    await advance(120);
    expect((await transfer(d.id)).status).toBe('PENDING');
    expect(await balanceOf(h, DEMO.profileId, 'BTC')).toBe(before);
    const u = await update(d.id, ORIGINATOR);
    expect(u.status, JSON.stringify(u.body)).toBe(200);
    expect(u.body).toEqual({});
    expect((await transfer(d.id)).secondary_status).toBeUndefined();
    await advance(31);
    expect((await transfer(d.id)).status).toBe('COMPLETED');
    expect(Number(await balanceOf(h, DEMO.profileId, 'BTC'))).toBeCloseTo(Number(before) + 0.5, 8);
    const again = await update(d.id, ORIGINATOR);
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe(`crypto deposit ${d.id} does not need info`);
  });

  it('a rejection ends one FAILED with CUSTOMER_REJECTED, never credited; a deposit that needs nothing is a 409', async () => {
    const before = await balanceOf(h, DEMO.profileId, 'BTC');
    const d = await arrive();
    const r = await reject(d.id, { identity_id: IDENTITY });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const t = await transfer(d.id);
    expect([t.status, t.secondary_status.name]).toEqual(['FAILED', 'CUSTOMER_REJECTED']);
    await advance(120);
    expect(await balanceOf(h, DEMO.profileId, 'BTC')).toBe(before);
    expect((await reject(d.id, { identity_id: IDENTITY })).status).toBe(409);
    const plain = await h.control('POST', '/_local/crypto-deposits', { ref_id: 'demo-btc', amount: '0.1' });
    expect((await reject(plain.body.id, { identity_id: IDENTITY })).status).toBe(409);
  });

  it('answers the OpenAPI errors: a bad id 400, an unknown one 404, a body without its required fields 400', async () => {
    expect((await update('not-a-uuid', ORIGINATOR)).body.detail).toMatch(/^id: must be a UUID/);
    expect((await update('2d929a0d-e1e3-4781-b7f8-7b34e66f7832', ORIGINATOR)).status).toBe(404);
    const d = await arrive();
    expect((await update(d.id, { identity_id: IDENTITY })).status).toBe(400);
    const both = {
      identity_id: IDENTITY,
      originator_address_info: {
        individual_info: { first_name: 'J', last_name: 'D' },
        institution_info: { institution_name: 'X' },
      },
    };
    expect((await update(d.id, both)).body.detail).toMatch(/originator_address_info/);
    expect((await reject(d.id, {})).status).toBe(400);
    const readonly = await h.token(DEMO.readonlyClientId);
    expect(
      (
        await h.req('POST', `/v2/transfer/crypto-deposits/${d.id}/reject`, {
          token: readonly,
          body: { identity_id: IDENTITY },
        })
      ).status,
    ).toBe(403);
  });

  it('are rejected as TRAVEL_RULE_REJECTED when nobody answers before the deadline', async () => {
    const d = await arrive();
    await advance(600);
    const t = await transfer(d.id);
    expect([t.status, t.secondary_status.name]).toEqual(['FAILED', 'TRAVEL_RULE_REJECTED']);
  });
});
