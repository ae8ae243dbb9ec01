// Fiat deposit instructions of the local service: where to send fiat, per network, with a memo_id that names the
// profile; the memo_ids sandbox deposits credit live there (the demo ones and those the control API gives too).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, DEMO, DEMO_WIRE, harness, type Harness, resetBeforeEach } from './helpers.js';

const PATH = '/v2/transfer/fiat-deposit-instructions';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());
resetBeforeEach(() => h);

const create = (body: Record<string, unknown>) => h.admin('POST', PATH, body);
const deposit = (memo_id: string, amount = '25.00') =>
  h.admin('POST', '/v2/sandbox/fiat-deposits', {
    amount,
    asset: 'USD',
    memo_id,
    fiat_network_instructions: { wire: DEMO_WIRE },
  });

describe('POST /v2/transfer/fiat-deposit-instructions', () => {
  it('gives WIRE instructions (ABA unless SWIFT is asked for) with a new memo_id that sandbox deposits credit', async () => {
    const r = await create({ profile_id: DEMO.emptyProfileId, fiat_network: 'WIRE', metadata: { customer: '42' } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      profile_id: DEMO.emptyProfileId,
      customer_id: DEMO.customerId,
      identity_id: DEMO.customerId,
      status: 'VALID',
      memo_id: expect.stringMatching(/^[A-Z2-9]{16}$/),
      metadata: { customer: '42' },
      fiat_network_instructions: {
        wire: { account_number: expect.any(String), routing_details: { routing_number_type: 'ABA' } },
      },
    });
    const swift = await create({ profile_id: DEMO.emptyProfileId, fiat_network: 'WIRE', routing_number_type: 'SWIFT' });
    expect(swift.body.fiat_network_instructions.wire.routing_details.routing_number_type).toBe('SWIFT');
    expect(swift.body.memo_id).not.toBe(r.body.memo_id);
    expect((await deposit(r.body.memo_id, '25.00')).status).toBe(200);
    expect((await deposit(swift.body.memo_id, '5.00')).status).toBe(200);
    expect(await balanceOf(h, DEMO.emptyProfileId, 'USD')).toBe('30');
  });

  it.each([
    ['RTP', 'rtp'],
    ['DBS_ACT', 'dbs_act'],
    ['CUBIX', 'cubix'],
    ['SCB', 'scb'],
  ])('%s instructions are under %s', async (fiat_network, key) => {
    const r = await create({ profile_id: DEMO.profileId, fiat_network, identity_id: 'idt-7', account_id: 'acc-1' });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.fiat_network_instructions)).toEqual([key]);
    expect(r.body).toMatchObject({ identity_id: 'idt-7', account_id: 'acc-1' });
  });

  it('a ref_id used before is a 409 with the existing instructions; nothing new is made', async () => {
    const a = await create({ profile_id: DEMO.profileId, fiat_network: 'WIRE', ref_id: 'wire-1' });
    const b = await create({ profile_id: DEMO.profileId, fiat_network: 'WIRE', ref_id: 'wire-1' });
    expect(b.status).toBe(409);
    expect(b.body.type).toMatch(/already-exists$/);
    expect(b.body.meta.existing).toEqual(a.body);
    expect((await h.admin('GET', `${PATH}?ref_ids=wire-1`)).body.items).toHaveLength(1);
  });

  it.each([
    [{ fiat_network: 'WIRE' }, 400, 'profile_id: is required'],
    [{ profile_id: DEMO.profileId }, 400, 'fiat_network: is required'],
    [{ profile_id: DEMO.profileId, fiat_network: 'ACH' }, 400, 'fiat_network: must be one of WIRE, DBS_ACT'],
    [{ profile_id: DEMO.profileId, fiat_network: 'WIRE', routing_number_type: 'IBAN' }, 400, 'routing_number_type'],
    [{ profile_id: 'nobody', fiat_network: 'WIRE' }, 404, 'profile not found: nobody'],
  ])('refuses %j', async (body, status, detail) => {
    const r = await create(body);
    expect(r.status).toBe(status);
    expect(r.body.detail).toContain(detail);
  });

  it('needs the write scope; the read-only client reads them', async () => {
    const ro = await h.token(DEMO.readonlyClientId);
    expect(
      (await h.req('POST', PATH, { body: { profile_id: DEMO.profileId, fiat_network: 'WIRE' }, token: ro })).status,
    ).toBe(403);
    expect((await h.req('GET', PATH, { token: ro })).status).toBe(200);
  });
});

describe('GET /v2/transfer/fiat-deposit-instructions', () => {
  it('holds the demo memo_ids, newest first, and gets one by id', async () => {
    const list = await h.admin('GET', `${PATH}?order=ASC`);
    expect(list.body.items.map((i: { memo_id: string; ref_id: string }) => [i.memo_id, i.ref_id])).toEqual([
      [DEMO.memoId, 'demo-wire'],
      [DEMO.emptyMemoId, 'demo-wire-empty'],
    ]);
    const one = await h.admin('GET', `${PATH}/${list.body.items[0].id}`);
    expect(one.body).toEqual(list.body.items[0]);
    const missing = await h.admin('GET', `${PATH}/f190b163-208f-4d73-8deb-4fb8b24add00`);
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe(
      'fiat deposit instructions with id f190b163-208f-4d73-8deb-4fb8b24add00 not found',
    );
  });

  it('filters by id and ref_id and pages', async () => {
    for (let i = 0; i < 3; i++) await create({ profile_id: DEMO.profileId, fiat_network: 'WIRE', ref_id: `r${i}` });
    const first = await h.admin('GET', `${PATH}?limit=2`);
    expect(first.body.items.map((i: { ref_id: string }) => i.ref_id)).toEqual(['r2', 'r1']);
    const next = await h.admin('GET', `${PATH}?limit=2&page_cursor=${first.body.next_page_cursor}`);
    expect(next.body.items.map((i: { ref_id: string }) => i.ref_id)).toEqual(['r0', 'demo-wire-empty']);
    const byRef = await h.admin('GET', `${PATH}?ref_ids=r0&ref_ids=r2`);
    expect(byRef.body.items).toHaveLength(2);
    expect((await h.admin('GET', `${PATH}?ids=${byRef.body.items[0].id}`)).body.items).toHaveLength(1);
    const bad = await h.admin('GET', `${PATH}?profile_ids=${DEMO.profileId}`);
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe('profile_ids: is not a known field');
  });
});

describe('memo_ids live on deposit instructions', () => {
  it('a sandbox deposit to a memo_id no instructions hold is a 404', async () => {
    const r = await deposit('NO-SUCH-MEMO');
    expect(r.status).toBe(404);
    expect(r.body.detail).toBe('no fiat deposit instructions have memo_id NO-SUCH-MEMO');
  });

  it('the control API gives a new profile its memo_id as WIRE instructions, and shows the first one', async () => {
    await h.control('POST', '/_local/profiles', { id: 'p-memo', memo_id: 'MEMO-P' });
    const list = await h.admin('GET', PATH);
    expect(list.body.items[0]).toMatchObject({ profile_id: 'p-memo', memo_id: 'MEMO-P' });
    expect((await deposit('MEMO-P', '7.00')).status).toBe(200);
    expect(await balanceOf(h, 'p-memo', 'USD')).toBe('7');
    await create({ profile_id: 'p-memo', fiat_network: 'RTP' });
    const profiles = (await h.control('GET', '/_local/profiles')).body.items;
    expect(profiles.find((p: { id: string }) => p.id === 'p-memo').memo_id).toBe('MEMO-P');
    const again = await h.control('POST', '/_local/profiles', { memo_id: 'MEMO-P' });
    expect(again.status).toBe(400);
    expect(again.body.detail).toBe('memo_id: is already used by another profile');
  });
});
