// Local service: sandbox fiat deposits, their body checked whole as the hosted service's OpenAPI describes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI, requestViolations } from '../support/openapi.js';
import { balanceOf, DEMO, DEMO_WIRE, harness, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const PATH = '/v2/sandbox/fiat-deposits';
const body = (extra: Record<string, unknown> = {}) => ({
  amount: '125.50',
  asset: 'USD',
  memo_id: DEMO.memoId,
  fiat_network_instructions: { wire: structuredClone(DEMO_WIRE) as Record<string, any> },
  ...extra,
});
const dep = (b: unknown) => h.admin('POST', PATH, b);

/** The deposit body with one change made to a copy of its wire instructions. */
function withWire(change: (wire: Record<string, any>) => void): Record<string, unknown> {
  const b = body();
  change(b.fiat_network_instructions.wire);
  return b;
}

describe('sandbox fiat deposits', () => {
  it('credits the profile that owns memo_id and answers {}', async () => {
    const before = await balanceOf(h, DEMO.profileId, 'USD');
    const r = await dep(body());
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
    expect(Number(await balanceOf(h, DEMO.profileId, 'USD'))).toBe(Number(before) + 125.5);
    await dep(body({ memo_id: DEMO.emptyMemoId, amount: '3' }));
    expect(await balanceOf(h, DEMO.emptyProfileId, 'USD')).toBe('3');
  });

  it('rules: 2 decimals, USD only, instructions required, memo known', async () => {
    expect((await dep(body({ amount: '1.234' }))).body.meta.issues[0].field).toBe('amount');
    expect((await dep(body({ asset: 'EUR' }))).body.meta.issues[0]).toEqual({
      field: 'asset',
      rule: 'must be USD (the only asset sandbox deposits support)',
    });
    expect((await dep(body({ fiat_network_instructions: undefined }))).body.meta.issues[0]).toEqual({
      field: 'fiat_network_instructions',
      rule: 'is required',
    });
    const r = await dep(body({ memo_id: 'UNKNOWN' }));
    expect(r.status).toBe(404);
  });

  it('accepts the OpenAPI example request and every optional part it describes', async () => {
    const example = structuredClone(
      OPENAPI.paths['/sandbox/fiat-deposits'].post.requestBody.content['application/json'].example,
    );
    example.memo_id = DEMO.memoId;
    expect((await dep(example)).status).toBe(200);
    const full = body({
      fiat_account_owner: { person_details: { first_name: 'Ada', last_name: 'Lovelace' } },
    });
    full.fiat_network_instructions.wire.intermediary_routing_details = {
      routing_number_type: 'SWIFT',
      routing_number: 'CHASUS33',
      bank_name: 'Intermediary Bank',
      bank_address: { country: 'USA', address1: '1 Chase Plaza (Floor 2), Suite 4' },
    };
    expect(requestViolations('POST', PATH, full)).toEqual([]);
    const r = await dep(full);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await dep(body({ fiat_account_owner: { institution_details: { name: 'SomeCorp, Inc.' } } }))).status).toBe(
      200,
    );
  });

  it('refuses what the OpenAPI refuses, naming the field: required parts, enums, lengths, characters', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      [
        'empty wire',
        body({ fiat_network_instructions: { wire: {} } }),
        'fiat_network_instructions.wire.account_number',
      ],
      [
        'routing type FOO',
        withWire((w) => (w.routing_details.routing_number_type = 'FOO')),
        'fiat_network_instructions.wire.routing_details.routing_number_type',
      ],
      [
        'address part over 35 characters',
        withWire((w) => (w.fiat_account_owner_address.address1 = 'x'.repeat(36))),
        'fiat_network_instructions.wire.fiat_account_owner_address.address1',
      ],
      [
        'non-ASCII city',
        withWire((w) => (w.routing_details.bank_address.city = 'Zürich')),
        'fiat_network_instructions.wire.routing_details.bank_address.city',
      ],
      [
        'address without country',
        withWire((w) => delete w.fiat_account_owner_address.country),
        'fiat_network_instructions.wire.fiat_account_owner_address.country',
      ],
      [
        'routing details without bank address',
        withWire((w) => delete w.routing_details.bank_address),
        'fiat_network_instructions.wire.routing_details.bank_address',
      ],
      [
        'intermediary routing details incomplete',
        withWire((w) => (w.intermediary_routing_details = { routing_number_type: 'SWIFT' })),
        'fiat_network_instructions.wire.intermediary_routing_details.routing_number',
      ],
      [
        'institution details without a name',
        body({ fiat_account_owner: { institution_details: {} } }),
        'fiat_account_owner.institution_details.name',
      ],
      [
        'person details without a last name',
        body({ fiat_account_owner: { person_details: { first_name: 'Ada' } } }),
        'fiat_account_owner.person_details.last_name',
      ],
    ];
    const before = await balanceOf(h, DEMO.profileId, 'USD');
    for (const [what, b, field] of cases) {
      // The independent validator agrees that the request is invalid ...
      expect(requestViolations('POST', PATH, b).length, what).toBeGreaterThan(0);
      // ... and the service refuses it with a 400 naming the field.
      const r = await dep(b);
      expect(r.status, what).toBe(400);
      expect(
        r.body.meta.issues.map((i: { field: string }) => i.field),
        what,
      ).toContain(field);
      expect(r.body.detail, what).toContain(`${field}: `);
    }
    expect(await balanceOf(h, DEMO.profileId, 'USD')).toBe(before);
  });

  it('other instruction kinds and unknown fields are refused: the service simulates wire deposits only', async () => {
    let r = await dep(body({ fiat_network_instructions: { cbit: { wallet_address: 'w' } } }));
    expect(r.status).toBe(400);
    expect(r.body.meta.issues.map((i: { field: string }) => i.field)).toEqual([
      'fiat_network_instructions.wire',
      'fiat_network_instructions.cbit',
    ]);
    r = await dep(withWire((w) => (w.swift = 'x')));
    expect(r.body.meta.issues[0].field).toBe('fiat_network_instructions.wire.swift');
  });
});
