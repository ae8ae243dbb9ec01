// Property: whatever sequence of withdrawals (some to failing destinations, some unaffordable), fee-quoted
// withdrawals, credits, sandbox deposits and clock moves, every balance equals what it started with, plus what was
// credited, minus the totals of the withdrawals that did not fail; and no balance is ever negative.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Decimal, dec } from '../../src/contract/money.js';
import { DEMO, DEMO_WIRE, harness, type Harness } from './helpers.js';
import { ETH_ADDRESS, FAILING_ETH_ADDRESS } from '../support/addresses.js';

let h: Harness;
beforeAll(async () => {
  h = await harness({ config: { withdrawalSettleSeconds: 20 } });
});
afterAll(() => h.close());

const P = DEMO.emptyProfileId;

type Cmd =
  | { kind: 'withdraw'; amount: string; dead: boolean; byTotal: boolean; quoted: boolean }
  | { kind: 'credit'; asset: 'ETH' | 'USD'; amount: string }
  | { kind: 'deposit'; amount: string }
  | { kind: 'advance'; seconds: number };

const amountArb = fc.integer({ min: 1, max: 400_000 }).map((n) => dec(n).div(100_000).toFixed()); // 0.00001 .. 4 ETH
const cmdArb: fc.Arbitrary<Cmd> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('withdraw' as const),
      amount: amountArb,
      dead: fc.boolean(),
      byTotal: fc.boolean(),
      quoted: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.record({ kind: fc.constant('credit' as const), asset: fc.constant('ETH' as const), amount: amountArb }),
      // USD has 2 decimals: the control API refuses finer credits.
      fc.record({
        kind: fc.constant('credit' as const),
        asset: fc.constant('USD' as const),
        amount: fc.integer({ min: 1, max: 400_000 }).map((n) => (n / 100).toFixed(2)),
      }),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('deposit' as const),
      amount: fc.integer({ min: 1, max: 99999 }).map((n) => (n / 100).toFixed(2)),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('advance' as const), seconds: fc.integer({ min: 1, max: 30 }) }),
  },
);

async function balances(): Promise<Record<string, string>> {
  const r = await h.control('GET', '/_local/profiles');
  return r.body.items.find((p: any) => p.id === P).balances;
}

describe('money is conserved', () => {
  it('balances equal credits minus the totals of withdrawals that did not fail, never negative', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(cmdArb, { minLength: 1, maxLength: 14 }), async (cmds) => {
        await h.control('POST', '/_local/reset');
        const credited: Record<string, Decimal> = { ETH: dec(0), USD: dec(0) };
        await h.control('POST', `/_local/profiles/${P}/balances`, { asset: 'ETH', amount: '5' });
        credited.ETH = credited.ETH.plus(5);
        for (const c of cmds) {
          if (c.kind === 'withdraw') {
            const dest = c.dead ? FAILING_ETH_ADDRESS : ETH_ADDRESS;
            let feeId: string | undefined;
            if (c.quoted) {
              const q = await h.admin('POST', '/v2/transfer/fees/crypto-withdrawal', {
                asset: 'ETH',
                crypto_network: 'ETHEREUM',
                destination_address: dest,
                [c.byTotal ? 'total' : 'amount']: c.amount,
              });
              if (q.status === 200) feeId = q.body.id;
            }
            const r = await h.admin('POST', '/v2/transfer/crypto-withdrawals', {
              profile_id: P,
              asset: 'ETH',
              crypto_network: 'ETHEREUM',
              destination_address: dest,
              [c.byTotal ? 'total' : 'amount']: c.amount,
              ...(feeId ? { fee_id: feeId } : {}),
            });
            expect([200, 400, 403]).toContain(r.status);
          } else if (c.kind === 'credit') {
            await h.control('POST', `/_local/profiles/${P}/balances`, { asset: c.asset, amount: c.amount });
            credited[c.asset] = credited[c.asset].plus(c.amount);
          } else if (c.kind === 'deposit') {
            const r = await h.admin('POST', '/v2/sandbox/fiat-deposits', {
              amount: c.amount,
              asset: 'USD',
              memo_id: DEMO.emptyMemoId,
              fiat_network_instructions: { wire: DEMO_WIRE },
            });
            expect(r.status).toBe(200);
          } else {
            await h.control('POST', '/_local/clock/advance', { seconds: c.seconds });
          }
          const transfers = (await h.admin('GET', `/v2/transfer/transfers?profile_ids=${P}&limit=1000`)).body
            .items as any[];
          const b = await balances();
          for (const asset of ['ETH', 'USD']) {
            let expected = credited[asset];
            for (const t of transfers) {
              if (t.balance_asset !== asset) continue;
              if (t.direction === 'CREDIT') expected = expected.plus(t.total);
              else if (t.status !== 'FAILED') expected = expected.minus(t.total);
            }
            const actual = dec(b[asset] ?? '0');
            expect(actual.toFixed(), `${asset} after ${JSON.stringify(c)}`).toBe(expected.toFixed());
            expect(actual.gte(0)).toBe(true);
          }
          for (const t of transfers) {
            if (t.type !== 'CRYPTO_WITHDRAWAL') continue;
            expect(dec(t.amount).plus(t.fee).toFixed()).toBe(dec(t.total).toFixed());
            if (t.status === 'FAILED') expect(t.destination_address).toBe(FAILING_ETH_ADDRESS);
            if (t.status === 'COMPLETED') expect(t.crypto_tx_hash).toBeTruthy();
          }
        }
      }),
      { numRuns: 25, seed: 20261121 },
    );
  });
});
