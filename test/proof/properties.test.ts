// Properties of the money and paging rules, checked with fast-check: amount validation against spec/SERVICE.md's
// patterns, exact fee and total arithmetic through the local service, the client order book against a naive model
// over a wide range of prices and time spellings, and page cursors under inserts over real HTTP.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ASSETS,
  CRYPTO_ASSETS,
  ADDRESS_RULES,
  dec,
  decimalPlaces,
  isAmountString,
  operations,
  requestIssues,
  type CryptoNetwork,
} from '../../src/contract/index.js';
import { isDecimalString, OrderBook, type BookSide } from '../../src/market-data/book.js';
import { DEMO, DEMO_WIRE, harness, type Harness } from '../local/helpers.js';

// ---- Amount validation -----------------------------------------------------------------------------------------

const SPEC_AMOUNT = /^[0-9]*\.?[0-9]+$/;
const SPEC_FIAT_AMOUNT = /^[0-9]*\.?[0-9]{1,2}$/;

// Characters that look numeric to a human or to parseFloat but are not in the pattern: signs, exponents, spaces,
// other scripts' digits (Arabic-Indic, fullwidth, Devanagari, superscript), separators, NUL.
const ODD = [
  '-',
  '+',
  'e',
  'E',
  ' ',
  '\t',
  '\n',
  '\r',
  ',',
  '_',
  'x',
  '٣',
  '٫',
  '０',
  '９',
  '३',
  '²',
  '½',
  '\u0000',
  '\u200b',
  'Infinity',
  'NaN',
];
const amountLike = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: fc.constantFrom('0', '1', '5', '9', '.', '.', ...ODD), maxLength: 14 }) },
  { weight: 3, arbitrary: fc.string({ unit: fc.constantFrom('0', '1', '7', '.'), minLength: 1, maxLength: 24 }) },
  // Long digit strings probe the length cap (the contract caps amounts at 60 characters).
  {
    weight: 1,
    arbitrary: fc.tuple(fc.nat(80), fc.nat(80)).map(([i, f]) => `${'9'.repeat(i)}${f ? `.${'1'.repeat(f)}` : ''}`),
  },
  { weight: 1, arbitrary: fc.double().map(String) },
);

function feeBody(field: 'amount' | 'total', value: string) {
  return {
    asset: 'ETH',
    crypto_network: 'ETHEREUM',
    destination_address: ADDRESS_RULES.ETHEREUM.example,
    [field]: value,
  };
}

describe('amount validation agrees with spec/SERVICE.md', () => {
  it('fee quotes and withdrawals accept exactly the pattern, positive, within the precision and the length cap', () => {
    fc.assert(
      fc.property(amountLike, fc.constantFrom('amount' as const, 'total' as const), (amount, field) => {
        const expected =
          SPEC_AMOUNT.test(amount) &&
          amount.length <= 60 &&
          /[1-9]/.test(amount) &&
          decimalPlaces(amount) <= ASSETS.ETH.decimals;
        const quote = requestIssues(operations.createCryptoWithdrawalFee, { body: feeBody(field, amount) }).issues;
        const withdrawal = requestIssues(operations.createCryptoWithdrawal, {
          body: { ...feeBody(field, amount), profile_id: DEMO.profileId },
        }).issues;
        expect(quote.length === 0, `${JSON.stringify(amount)}: ${JSON.stringify(quote)}`).toBe(expected);
        expect(withdrawal.length === 0, `${JSON.stringify(amount)}: ${JSON.stringify(withdrawal)}`).toBe(expected);
        // A rejection names the field.
        for (const issues of [quote, withdrawal]) if (!expected) expect(issues.map((i) => i.field)).toContain(field);
        // The client-side checks agree with the pattern too.
        expect(isAmountString(amount)).toBe(SPEC_AMOUNT.test(amount));
        expect(isDecimalString(amount)).toBe(SPEC_AMOUNT.test(amount));
      }),
      { numRuns: 4000 },
    );
  });

  it('sandbox deposits accept exactly the two-decimal pattern, positive, within the length cap', () => {
    fc.assert(
      fc.property(amountLike, (amount) => {
        const expected = SPEC_FIAT_AMOUNT.test(amount) && amount.length <= 30 && /[1-9]/.test(amount);
        const { issues } = requestIssues(operations.initiateSandboxFiatDeposit, {
          body: { amount, asset: 'USD', memo_id: DEMO.memoId, fiat_network_instructions: { wire: DEMO_WIRE } },
        });
        expect(issues.length === 0, `${JSON.stringify(amount)}: ${JSON.stringify(issues)}`).toBe(expected);
        if (!expected) expect(issues.map((i) => i.field)).toContain('amount');
      }),
      { numRuns: 3000 },
    );
  });
});

// ---- Exact fees and totals through the local service ------------------------------------------------------------

/** A non-negative decimal string as an integer count of 10^-scale units (exact, BigInt). */
function units(text: string, scale = 30): bigint {
  const [i, f = ''] = text.split('.');
  if (f.length > scale) throw new Error(`${text} has more than ${scale} decimals`);
  return BigInt((i || '0') + f.padEnd(scale, '0'));
}
function fromUnits(units: bigint, decimals: number): string {
  const s = units.toString().padStart(decimals + 1, '0');
  const i = s.slice(0, s.length - decimals);
  const f = s.slice(s.length - decimals).replace(/0+$/, '');
  return f ? `${i}.${f}` : i;
}

const ADDRESS: Record<string, string> = Object.fromEntries(
  Object.entries(ADDRESS_RULES).map(([n, f]) => [n, f.example]),
);

const withdrawalCase = fc.constantFrom(...CRYPTO_ASSETS).chain((asset) => {
  const info = ASSETS[asset];
  const min = units(info.minWithdrawal, info.decimals);
  const max = units(info.maxWithdrawal, info.decimals);
  return fc.record({
    asset: fc.constant(asset),
    network: fc.constantFrom(...(Object.keys(info.networks) as CryptoNetwork[])),
    // Mostly amounts with every decimal used, sometimes round ones.
    units: fc.oneof(
      fc.bigInt({ min, max }),
      fc.bigInt({ min: 1n, max: max / 10n ** BigInt(info.decimals) }).map((n) => n * 10n ** BigInt(info.decimals)),
    ),
    byTotal: fc.boolean(),
    quoted: fc.boolean(),
  });
});

describe('fees and totals are exact', () => {
  let h: Harness;
  const P = DEMO.emptyProfileId;
  beforeAll(async () => {
    h = await harness();
    // Amounts up to each asset's largest withdrawal, many times over: far past the demo transfer limits.
    await h.control('PUT', '/_local/limits', { rules: [] });
    // Enough for many of the largest withdrawals of each asset (the control API credits at most 10^15 at once).
    for (const asset of CRYPTO_ASSETS) {
      const amount = dec(ASSETS[asset].maxWithdrawal).times(200).clampedTo(0, '1000000000000000').toFixed();
      await h.control('POST', `/_local/profiles/${P}/balances`, { asset, amount });
    }
  });
  afterAll(() => h.close());

  const balance = async (asset: string) =>
    (await h.control('GET', '/_local/profiles')).body.items.find((p: any) => p.id === P).balances[asset] as string;

  it('amount + fee = total and total - fee = amount, to the last unit, and the balance moves by exactly the total', async () => {
    await fc.assert(
      fc.asyncProperty(withdrawalCase, async (example) => {
        const info = ASSETS[example.asset];
        const fee = units(info.networks[example.network]!.fee, info.decimals);
        const given = fromUnits(example.units, info.decimals);
        const field = example.byTotal ? 'total' : 'amount';
        const base = {
          asset: example.asset,
          crypto_network: example.network,
          destination_address: ADDRESS[example.network],
          [field]: given,
        };
        const q = await h.admin('POST', '/v2/transfer/fees/crypto-withdrawal', base);
        const amountUnits = example.byTotal ? example.units - fee : example.units;
        const belowMin = amountUnits < units(info.minWithdrawal, info.decimals);
        if (example.byTotal && amountUnits <= 0n) {
          expect(q.status).toBe(400);
          return;
        }
        if (belowMin) {
          expect(q.status, JSON.stringify(q.body)).toBe(400);
          return;
        }
        expect(q.status, JSON.stringify(q.body)).toBe(200);
        const d = info.decimals;
        expect(units(q.body.fee, d)).toBe(fee);
        expect(units(q.body.amount, d) + units(q.body.fee, d)).toBe(units(q.body.total, d));
        expect(units(q.body[field], d)).toBe(example.units);

        const before = await balance(example.asset);
        const w = await h.admin('POST', '/v2/transfer/crypto-withdrawals', {
          ...base,
          profile_id: P,
          ...(example.quoted ? { fee_id: q.body.id } : {}),
        });
        expect(w.status, JSON.stringify(w.body)).toBe(200);
        const t = w.body;
        expect(units(t.fee, d)).toBe(fee);
        expect(units(t.amount, d)).toBe(amountUnits);
        expect(units(t.total, d)).toBe(amountUnits + fee);
        expect(units(t.total, d) - units(t.fee, d)).toBe(units(t.amount, d));
        const after = await balance(example.asset);
        expect(units(before) - units(after)).toBe(units(t.total));
      }),
      { numRuns: 150 },
    );
  });
});

// ---- The client order book against a naive model ----------------------------------------------------------------
// test/stream/book.test.ts checks a small set of prices; this one draws prices over 30 orders of magnitude, prices that
// differ only beyond float precision, many spellings of one price, and update times with other fraction lengths and
// UTC offsets than the snapshot's, with reconnects (reset) in between.

/** A price as (units, scale) and several spellings of it. */
const priceValue = fc.record({
  units: fc.oneof(fc.bigInt({ min: 1n, max: 10n ** 22n }), fc.bigInt({ min: 1n, max: 1000n })),
  scale: fc.integer({ min: 0, max: 20 }),
});
function spell(units: bigint, scale: number, variant: number): string {
  const canon = fromUnits(units, scale);
  switch (variant % 4) {
    case 0:
      return canon;
    case 1:
      return canon.includes('.') ? `${canon}000` : `${canon}.0`;
    case 2:
      return `00${canon}`;
    default:
      return canon.startsWith('0.') ? canon.slice(1) : canon;
  }
}
function canonicalKey(units: bigint, scale: number): string {
  return fromUnits(units, scale);
}

/** Seconds and nanoseconds, written with 0, 3, 6 or 9 fraction digits and a Z or an offset. */
const timeValue = fc.record({
  sec: fc.integer({ min: 0, max: 40 }),
  ms: fc.constantFrom(0, 0, 500, 999),
  form: fc.nat(7),
});
function writeTime(sec: number, ms: number, form: number): string {
  const base = Date.UTC(2026, 0, 1, 12, 0, 0) + sec * 1000;
  const digits = [ms ? 3 : 0, 3, 6, 9][form % 4];
  const offsetMin = form >= 4 ? [60, -330, 0, 120][form % 4] : null;
  const d = new Date(base + (offsetMin ?? 0) * 60_000);
  const head = d.toISOString().slice(0, 19);
  const frac = digits ? `.${String(ms).padStart(3, '0').padEnd(digits, '0')}` : '';
  if (offsetMin === null) return `${head}${frac}Z`;
  const sign = offsetMin < 0 ? '-' : '+';
  const a = Math.abs(offsetMin);
  return `${head}${frac}${sign}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}

describe('property: the client book equals a naive model over wide prices and time spellings', () => {
  it('after any sequence of snapshots, updates and reconnects', () => {
    const scenario = fc.array(priceValue, { minLength: 1, maxLength: 8 }).chain((pool) => {
      // Neighbours that differ from a pool price only beyond float precision.
      const prices = [...pool, ...pool.map((p) => ({ units: p.units * 10n ** 19n + 1n, scale: p.scale + 19 }))];
      const level = fc.record({
        p: fc.nat(prices.length - 1),
        v: fc.nat(3),
        amount: fc.oneof(
          fc.constant('0'),
          fc.constant('0.000'),
          fc.integer({ min: 1, max: 10 ** 9 }).map((n) => fromUnits(BigInt(n), 4)),
        ),
      });
      const msg = fc.oneof(
        {
          weight: 10,
          arbitrary: fc.record({
            kind: fc.constantFrom('snapshot' as const, 'update' as const, 'update' as const, 'update' as const),
            t: timeValue,
            bids: fc.array(level, { maxLength: 6 }),
            asks: fc.array(level, { maxLength: 6 }),
          }),
        },
        { weight: 1, arbitrary: fc.constant({ kind: 'reset' as const }) },
      );
      return fc.tuple(fc.constant(prices), fc.array(msg, { maxLength: 80 }));
    });
    fc.assert(
      fc.property(scenario, ([prices, msgs]) => {
        const book = new OrderBook('X');
        type Side = Map<string, { units: bigint; scale: number; amount: string }>;
        let model: { bids: Side; asks: Side } | null = null;
        let snapT = -1;
        let pending: { t: number; bids: any[]; asks: any[] }[] = [];
        const applyTo = (bids: any[], asks: any[]) => {
          for (const [side, ls] of [
            ['bids', bids],
            ['asks', asks],
          ] as const)
            for (const l of ls) {
              const pr = prices[l.p];
              const k = canonicalKey(pr.units, pr.scale);
              if (!/[1-9]/.test(l.amount)) model![side].delete(k);
              else model![side].set(k, { ...pr, amount: l.amount });
            }
        };
        for (const m of msgs) {
          if (m.kind === 'reset') {
            book.reset();
            model = null;
            pending = [];
            continue;
          }
          const tv = m.t.sec * 1000 + m.t.ms;
          const wire = (ls: typeof m.bids) =>
            ls.map((l) => ({ price: spell(prices[l.p].units, prices[l.p].scale, l.v), amount: l.amount }));
          book.apply({
            market: 'X',
            type: m.kind === 'snapshot' ? 'SNAPSHOT' : 'UPDATE',
            time: writeTime(m.t.sec, m.t.ms, m.t.form),
            bids: wire(m.bids),
            asks: wire(m.asks),
          });
          if (m.kind === 'snapshot') {
            model = { bids: new Map(), asks: new Map() };
            snapT = tv;
            applyTo(m.bids, m.asks);
            for (const p of pending.splice(0)) if (p.t > snapT) applyTo(p.bids, p.asks);
          } else if (!model) pending.push({ t: tv, bids: m.bids, asks: m.asks });
          else if (tv > snapT) applyTo(m.bids, m.asks);
        }
        const mine = (s: BookSide) =>
          s.levels().map((l) => [units(l.price.includes('.') ? l.price.replace(/0+$/, '') : l.price, 40), l.amount]);
        const cmp = (left: { units: bigint; scale: number }, right: { units: bigint; scale: number }) => {
          const x = left.units * 10n ** BigInt(40 - left.scale);
          const y = right.units * 10n ** BigInt(40 - right.scale);
          return x < y ? -1 : x > y ? 1 : 0;
        };
        const theirs = (mp: Side, desc: boolean) =>
          [...mp.values()]
            .sort((a, b) => (desc ? -cmp(a, b) : cmp(a, b)))
            .map((v) => [v.units * 10n ** BigInt(40 - v.scale), v.amount]);
        if (!model) {
          expect(book.bids.size + book.asks.size).toBe(0);
          return;
        }
        expect(mine(book.bids)).toEqual(theirs(model.bids, true));
        expect(mine(book.asks)).toEqual(theirs(model.asks, false));
      }),
      { numRuns: 600 },
    );
  });
});

// ---- Page cursors under inserts, over real HTTP ------------------------------------------------------------------

type Step = { kind: 'page'; limit: number } | { kind: 'insert'; n: number; wait: boolean; deposit: boolean };
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('page' as const), limit: fc.integer({ min: 1, max: 4 }) }),
  fc.record({
    kind: fc.constant('insert' as const),
    n: fc.integer({ min: 1, max: 3 }),
    wait: fc.boolean(),
    deposit: fc.boolean(),
  }),
);

describe('page cursors never skip or repeat an item whatever inserts happen between pages', () => {
  let h: Harness;
  const P = DEMO.emptyProfileId;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(() => h.close());

  let n = 0;
  const insert = (list: 'transfers' | 'deposit-addresses', deposit: boolean) => {
    n++;
    if (list === 'deposit-addresses')
      return h.admin('POST', '/v2/transfer/deposit-addresses', {
        profile_id: P,
        crypto_network: 'ETHEREUM',
        ref_id: `cursor-${n}`,
      });
    if (deposit)
      return h.admin('POST', '/v2/sandbox/fiat-deposits', {
        amount: '1.00',
        asset: 'USD',
        memo_id: DEMO.emptyMemoId,
        fiat_network_instructions: { wire: DEMO_WIRE },
      });
    return h.admin('POST', '/v2/transfer/crypto-withdrawals', {
      profile_id: P,
      asset: 'BTC',
      crypto_network: 'BITCOIN',
      destination_address: ADDRESS.BITCOIN,
      amount: '0.001',
      ref_id: `cursor-${n}`,
    });
  };

  for (const list of ['transfers', 'deposit-addresses'] as const) {
    for (const order of ['ASC', 'DESC'] as const) {
      it(`${list}, ${order}`, async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.integer({ min: 0, max: 6 }),
            fc.array(stepArb, { minLength: 1, maxLength: 14 }),
            fc.boolean(),
            fc.boolean(),
            async (initial, steps, filtered, byUpdate) => {
              await h.control('POST', '/_local/reset');
              await h.control('POST', `/_local/profiles/${P}/balances`, { asset: 'BTC', amount: '1000' });
              for (let i = 0; i < initial; i++) expect((await insert(list, i % 2 === 0)).status).toBe(200);
              const q = new URLSearchParams({ order });
              if (filtered) q.set('profile_ids', P);
              if (list === 'transfers' && byUpdate) q.set('order_by', 'UPDATED_AT');
              const path = `/v2/transfer/${list}`;
              const full = async () => {
                const r = await h.admin('GET', `${path}?${q}&limit=1000`);
                expect(r.status).toBe(200);
                expect(r.body.next_page_cursor).toBeUndefined();
                return (r.body.items as { id: string }[]).map((i) => i.id);
              };
              const before = await full();
              const seen: string[] = [];
              let cursor: string | undefined;
              let started = false;
              let done = false;
              const inflight: Promise<unknown>[] = [];
              const page = async (limit: number) => {
                const r = await h.admin(
                  'GET',
                  `${path}?${q}&limit=${limit}${cursor ? `&page_cursor=${encodeURIComponent(cursor)}` : ''}`,
                );
                expect(r.status, JSON.stringify(r.body)).toBe(200);
                seen.push(...(r.body.items as { id: string }[]).map((i) => i.id));
                cursor = r.body.next_page_cursor;
                started = true;
                if (!cursor) done = true;
              };
              for (const s of steps) {
                if (s.kind === 'page') {
                  if (!done) await page(s.limit);
                } else {
                  for (let i = 0; i < s.n; i++) {
                    const p = insert(list, s.deposit);
                    if (s.wait) expect((await p).status).toBe(200);
                    else inflight.push(p);
                  }
                }
              }
              while (!done) await page(3);
              for (const r of (await Promise.all(inflight)) as { status: number }[]) expect(r.status).toBe(200);
              void started;
              const after = await full();
              expect(new Set(seen).size, 'no item repeated').toBe(seen.length);
              for (const id of before) expect(seen, 'every item present before the walk is seen').toContain(id);
              if (order === 'ASC') {
                // Inserts land after the last page, so the walk is a prefix of the final list.
                expect(seen).toEqual(after.slice(0, seen.length));
              } else {
                // Inserts land before the first page, so the walk is the final list's tail from its first item on.
                const at = after.indexOf(seen[0]);
                if (seen.length) expect(seen).toEqual(after.slice(at));
              }
            },
          ),
          { numRuns: 25 },
        );
      });
    }
  }
});
