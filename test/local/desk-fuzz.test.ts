// Fuzz: whatever body, query or path the service profile, balance and internal transfer endpoints get, the answer is
// a success or a problem+json below 500; a plain 400 names a field; and money is conserved (the demo customer's
// balances of each asset add up to what they were).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Decimal, dec } from '../../src/contract/money.js';
import { DEMO, harness, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

const PROFILES = [
  DEMO.profileId,
  DEMO.emptyProfileId,
  'default',
  'nope',
  '',
  '%',
  '..',
  'x'.repeat(300),
  'ü',
  '__proto__',
];
const ASSETS = ['BTC', 'USD', 'usd', 'DOGE', '', 'constructor', 'x'.repeat(30)];
const AMOUNTS = ['1', '0.5', '0', '-1', '1e3', '.5', '5.', '0.000000001', '99999999999999999999', ' 1', 'NaN'];

const scalar = fc.oneof(
  fc.constantFrom<unknown>(...PROFILES, ...ASSETS, ...AMOUNTS, null, true, 0, -1, 1.5, [], {}),
  fc.string({ maxLength: 20 }),
  fc.jsonValue({ maxDepth: 2 }),
);

/** An internal transfer body: a valid one with some fields replaced, dropped or added. */
const transferBody = fc
  .record(
    {
      from_profile_id: fc.oneof(fc.constantFrom(DEMO.profileId, DEMO.emptyProfileId), scalar),
      to_profile_id: fc.oneof(fc.constantFrom(DEMO.emptyProfileId, DEMO.profileId), scalar),
      asset: fc.oneof(fc.constantFrom('BTC', 'USD', 'ETH'), scalar),
      amount: fc.oneof(fc.constantFrom('0.01', '1', '2.5'), scalar),
      ref_id: fc.oneof(fc.constantFrom('fz-1', 'fz-2'), scalar),
      metadata: fc.oneof(
        fc.dictionary(fc.string({ maxLength: 120 }), fc.string({ maxLength: 120 }), { maxKeys: 8 }),
        scalar,
      ),
      recipient_metadata: scalar,
      to_identity_id: scalar,
      extra: scalar,
    },
    { requiredKeys: [] },
  )
  .map((b) => b as Record<string, unknown>);

type Req = { method: string; path: string; body?: unknown };
const enc = (s: string) => encodeURIComponent(s);
const reqArb: fc.Arbitrary<Req> = fc.oneof(
  transferBody.map((body) => ({ method: 'POST', path: '/v2/transfer/internal', body })),
  fc
    .record({ nickname: scalar, description: scalar, other: scalar }, { requiredKeys: [] })
    .map((body) => ({ method: 'POST', path: '/v2/profiles', body })),
  fc
    .oneof(fc.constantFrom<unknown>(null, [], 'x', 1), scalar)
    .map((body) => ({ method: 'POST', path: '/v2/transfer/internal', body })),
  fc
    .array(
      fc.tuple(
        fc.constantFrom('limit', 'order', 'nickname', 'ids', 'page_cursor', 'created_at.gt', 'created_at.eq', 'x'),
        fc.string({ maxLength: 30 }),
      ),
      { maxLength: 4 },
    )
    .map((q) => ({ method: 'GET', path: `/v2/profiles?${q.map(([k, v]) => `${k}=${enc(v)}`).join('&')}` })),
  fc
    .tuple(fc.constantFrom(...PROFILES), fc.array(fc.constantFrom(...ASSETS), { maxLength: 3 }), fc.boolean())
    .map(([p, assets, x]) => ({
      method: 'GET',
      path: `/v2/profiles/${enc(p)}/balances?${assets.map((a) => `assets=${enc(a)}`).join('&')}${x ? '&x=1' : ''}`,
    })),
  fc
    .tuple(
      fc.constantFrom(...PROFILES),
      fc.constantFrom(...ASSETS),
      fc.constantFrom('', '?include_deactivated=yes', '?include_deactivated=true'),
    )
    .map(([p, a, q]) => ({
      method: 'GET',
      path: a ? `/v2/profiles/${enc(p)}/balances/${enc(a)}` : `/v2/profiles/${enc(p)}${q}`,
    })),
);

async function totals(): Promise<Record<string, Decimal>> {
  const out: Record<string, Decimal> = {};
  for (const p of (await h.control('GET', '/_local/profiles')).body.items)
    for (const [a, v] of Object.entries(p.balances as Record<string, string>)) out[a] = (out[a] ?? dec(0)).plus(v);
  return out;
}

describe('fuzzing the new endpoints', () => {
  it('answers every request below 500, as a problem naming the field when it is a plain 400, and conserves money', async () => {
    const start = await totals();
    await fc.assert(
      fc.asyncProperty(reqArb, async (request) => {
        const res = await h.admin(request.method, request.path, request.body);
        expect(res.status, `${request.method} ${request.path} ${JSON.stringify(request.body)}`).toBeLessThan(500);
        if (res.status >= 400) {
          expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
          if (res.status === 400 && res.body.type === 'about:blank' && res.body.meta?.issues)
            for (const i of res.body.meta.issues) expect(typeof i.field).toBe('string');
        }
      }),
      { numRuns: 400, seed: 20261123 },
    );
    const end = await totals();
    for (const a of new Set([...Object.keys(start), ...Object.keys(end)]))
      expect((end[a] ?? dec(0)).toFixed(), a).toBe((start[a] ?? dec(0)).toFixed());
  });
});
