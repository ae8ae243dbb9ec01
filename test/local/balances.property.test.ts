// Property: after any sequence of sandbox deposits, internal transfers (some unaffordable, some repeating a ref_id)
// and withdrawals (some to failing destinations) among three profiles that start empty, with the clock moving, every
// balance the API shows equals the sum of its profile's transfers (credits in, debits out unless FAILED), the
// control API agrees, no balance is ever negative, and every internal transfer is one DEBIT and one CREDIT.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '../../src/contract/money.js';
import { DEMO, DEMO_WIRE, harness, type Harness } from './helpers.js';
import { ETH_ADDRESS, FAILING_ETH_ADDRESS } from '../support/addresses.js';

let h: Harness;
beforeAll(async () => {
  h = await harness({ config: { withdrawalSettleSeconds: 20 } });
});
afterAll(() => h.close());

// USD moves every way here: deposits, internal transfers, and USDP withdrawals debiting the USD balance.
const MEMOS = [DEMO.emptyMemoId, 'PROP-MEMO-2'];

type Cmd =
  | { kind: 'deposit'; to: number; amount: string }
  | { kind: 'transfer'; from: number; to: number; amount: string; reuseRef: boolean }
  | { kind: 'withdraw'; from: number; amount: string; dead: boolean }
  | { kind: 'advance'; seconds: number };

const cents = (max: number) => fc.integer({ min: 1, max }).map((n) => (n / 100).toFixed(2));
const profileIndex = fc.integer({ min: 0, max: 2 });
const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('deposit' as const),
      to: fc.integer({ min: 0, max: 1 }),
      amount: cents(50_000),
    }),
  },
  {
    weight: 4,
    arbitrary: fc
      .record({
        kind: fc.constant('transfer' as const),
        from: profileIndex,
        to: profileIndex,
        amount: cents(60_000),
        reuseRef: fc.boolean(),
      })
      .filter((c) => c.from !== c.to),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('withdraw' as const),
      from: profileIndex,
      amount: fc.integer({ min: 100, max: 40_000 }).map((n) => (n / 100).toFixed(2)),
      dead: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('advance' as const), seconds: fc.integer({ min: 1, max: 30 }) }),
  },
);

/** Three profiles of the demo customer with nothing in them: two take deposits, the third only internal transfers. */
async function emptyProfiles(): Promise<string[]> {
  await h.control('POST', '/_local/reset');
  await h.control('POST', '/_local/profiles', { id: 'prop-2', customer_id: DEMO.customerId, memo_id: MEMOS[1] });
  const third = await h.admin('POST', '/v2/profiles', { nickname: 'prop-3' });
  return [DEMO.emptyProfileId, 'prop-2', third.body.id];
}

async function step(cmd: Cmd, ids: string[], refs: string[]): Promise<void> {
  if (cmd.kind === 'deposit') {
    const r = await h.admin('POST', '/v2/sandbox/fiat-deposits', {
      amount: cmd.amount,
      asset: 'USD',
      memo_id: MEMOS[cmd.to],
      fiat_network_instructions: { wire: DEMO_WIRE },
    });
    expect(r.status).toBe(200);
  } else if (cmd.kind === 'transfer') {
    const ref = cmd.reuseRef && refs.length ? refs[refs.length - 1] : `prop-${refs.length}-${Math.random()}`;
    const r = await h.admin('POST', '/v2/transfer/internal', {
      from_profile_id: ids[cmd.from],
      to_profile_id: ids[cmd.to],
      asset: 'USD',
      amount: cmd.amount,
      ref_id: ref,
    });
    expect([200, 403, 409]).toContain(r.status);
    if (r.status === 200) refs.push(ref);
  } else if (cmd.kind === 'withdraw') {
    const r = await h.admin('POST', '/v2/transfer/crypto-withdrawals', {
      profile_id: ids[cmd.from],
      asset: 'USDP',
      balance_asset: 'USD',
      crypto_network: 'ETHEREUM',
      destination_address: cmd.dead ? FAILING_ETH_ADDRESS : ETH_ADDRESS,
      amount: cmd.amount,
    });
    expect([200, 403]).toContain(r.status);
  } else {
    await h.control('POST', '/_local/clock/advance', { seconds: cmd.seconds });
  }
}

/** Every profile's USD balance against its transfers, through the API and the control API. */
async function checkLedger(ids: string[], after: Cmd): Promise<void> {
  const control = (await h.control('GET', '/_local/profiles')).body.items;
  for (const id of ids) {
    const transfers = (await h.admin('GET', `/v2/transfer/transfers?profile_ids=${id}&limit=1000`)).body.items as any[];
    let sum = dec(0);
    for (const t of transfers) {
      expect(t.balance_asset).toBe('USD');
      if (t.direction === 'CREDIT') sum = sum.plus(t.total);
      else if (t.status !== 'FAILED') sum = sum.minus(t.total);
    }
    const shown = (await h.admin('GET', `/v2/profiles/${id}/balances/USD`)).body.available;
    expect(shown, `${id} after ${JSON.stringify(after)}`).toBe(sum.toFixed());
    expect(dec(shown).gte(0)).toBe(true);
    expect(control.find((p: any) => p.id === id).balances.USD ?? '0').toBe(shown);
  }
  const internal = (
    await h.admin('GET', '/v2/transfer/transfers?type=INTERNAL_TRANSFER_DEBIT&type=INTERNAL_TRANSFER_CREDIT&limit=1000')
  ).body.items as any[];
  const groups = new Map<string, any[]>();
  for (const t of internal) groups.set(t.group_id, [...(groups.get(t.group_id) ?? []), t]);
  for (const pair of groups.values()) {
    expect(pair.map((t) => t.direction).sort()).toEqual(['CREDIT', 'DEBIT']);
    expect(pair[0].amount).toBe(pair[1].amount);
  }
}

describe('balances are the ledger', () => {
  it('each balance equals the sum of its transfers and is never negative', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(cmdArb, { minLength: 1, maxLength: 14 }), async (cmds) => {
        const ids = await emptyProfiles();
        const refs: string[] = [];
        for (const c of cmds) {
          await step(c, ids, refs);
          await checkLedger(ids, c);
        }
      }),
      { numRuns: 25, seed: 20261123 },
    );
  });
});
