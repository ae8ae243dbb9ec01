// Statements of the local service: the OpenAPI's statements are monthly USDG rewards statements (product USDG_REWARDS),
// each settled by payments (a crypto withdrawal of USDG to the customer's payout address). The local service makes
// them from its ledger: once a calendar month (UTC) of a customer's activity is over, its statement is generated on
// the 2nd of the next month, 00:00 UTC, by the service clock, and kept (generated once, never worked out again):
// - the reward accrues daily on what the customer's profiles held at each day's end of the dollar stablecoins
//   (REWARD_ASSETS: coinop's catalogue has USDP and PYUSD; USDG would count if a ledger held it), at
//   REWARD_ANNUAL_RATE / 365 a day, truncated to 6 decimals; the past balances are the balances now less every
//   transfer that moved them since (a debit at its creation, its refund when it FAILED, a credit once COMPLETED), so a
//   credit of the control API (which makes no transfer) counts as held from the start;
// - a statement that owes something is GENERATED with a PENDING payment of that much USDG, then PAID a day later,
//   when its payment is COMPLETED; one that owes nothing is GENERATED and has no payment. Payments move no balance:
//   the payout goes to an address outside the service (payment_destination), as a crypto withdrawal there would.
// Generation and settlement happen when statements or payments are read, inside the request's transaction.
import { dec, type Decimal, fixed, fmt, type Payment, type Statement } from '../contract/index.js';
import type { Core } from './core.js';
import { createHash, randomUUID } from './lazy-crypto.js';
import { isoMillis } from './service-clock.js';
import type { BalanceMoveRow, StatementPaymentRow, StatementRow } from './store.js';

export const REWARD_ASSETS = ['USDG', 'USDP', 'PYUSD'] as const;
export const REWARD_ANNUAL_RATE = '0.04';
const PRODUCT = 'USDG_REWARDS';
const DAY_MS = 24 * 3600 * 1000;

/** What a statement's body keeps: its balances and metadata as generated. */
interface StatementBody {
  owed: string;
  payment_ref_id?: string;
  metadata: Record<string, string>;
}

const monthStart = (ms: number) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
};
const nextMonth = (ms: number) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
};
const monthName = (ms: number) => isoMillis(ms).slice(0, 7);
/** When a month's statement is generated: the 2nd of the next month, 00:00 UTC. */
const generatedAt = (start: number) => nextMonth(start) + DAY_MS;

/** The customer's stablecoin holdings at each time asked for (ascending), from the balances now and the moves since. */
function heldAt(now: { amount: string }[], moves: BalanceMoveRow[], times: number[]): Decimal[] {
  const effects: [number, Decimal][] = [];
  for (const m of moves) {
    const total = dec(m.total);
    if (m.direction === 'DEBIT') {
      effects.push([m.created_ms, total.neg()]);
      if (m.status === 'FAILED') effects.push([m.updated_ms, total]);
    } else if (m.status === 'COMPLETED') effects.push([m.updated_ms, total]);
  }
  const current = now.reduce((acc, b) => acc.plus(dec(b.amount)), dec(0));
  return times.map((t) => effects.reduce((acc, [at, e]) => (at > t ? acc.minus(e) : acc), current));
}

/** The month's reward: daily accrual on each day's closing holdings. */
function monthReward(held: Decimal[]): { reward: Decimal; average: Decimal } {
  const total = held.reduce((acc, h) => acc.plus(h.gt(0) ? h : dec(0)), dec(0));
  const average = held.length ? total.div(held.length) : dec(0);
  return { reward: dec(fixed(total.times(REWARD_ANNUAL_RATE).div(365), 6)), average };
}

/** Generates every statement now due that is not yet (each customer's months since its first profile). */
function generateDue(core: Core, now: number): void {
  const { store } = core;
  for (const { customer_id, since_ms } of store.customersSince()) {
    let moves: BalanceMoveRow[] | undefined;
    let balances: { amount: string }[] | undefined;
    for (let start = monthStart(since_ms); generatedAt(start) <= now; start = nextMonth(start)) {
      const refId = `${PRODUCT}-${customer_id}-${monthName(start)}`;
      if (store.statementByRef(refId)) continue;
      moves ??= store.customerBalanceMoves(customer_id, REWARD_ASSETS);
      balances ??= store.customerBalances(customer_id, REWARD_ASSETS);
      const end = nextMonth(start);
      const dayEnds: number[] = [];
      for (let t = start + DAY_MS - 1; t < end; t += DAY_MS) dayEnds.push(t);
      const { reward, average } = monthReward(heldAt(balances, moves, dayEnds));
      insertStatement(core, { customer_id, refId, start, end, reward, average, days: dayEnds.length });
    }
  }
  store.settleStatementPayments(now);
}

interface Generated {
  customer_id: string;
  refId: string;
  start: number;
  end: number;
  reward: Decimal;
  average: Decimal;
  days: number;
}

function insertStatement(core: Core, generated: Generated): void {
  const g = generated;
  const { store } = core;
  const created = generatedAt(g.start);
  const owed = fmt(g.reward);
  const owes = g.reward.gt(0);
  const paymentRef = `${g.customer_id}-${g.refId}-USDG-${owed}-seq#1`;
  const body: StatementBody = {
    owed,
    ...(owes ? { payment_ref_id: paymentRef } : {}),
    metadata: {
      total_amount: owed,
      avg_daily_balance: fixed(g.average, 6),
      annual_rate: REWARD_ANNUAL_RATE,
      days: String(g.days),
      reward_assets: REWARD_ASSETS.join(','),
    },
  };
  const id = randomUUID();
  store.insertStatement({
    id,
    ref_id: g.refId,
    customer_id: g.customer_id,
    status: 'STATEMENT_STATUS_GENERATED',
    period_start_ms: g.start,
    period_end_ms: g.end - 1,
    created_ms: created,
    paid_ms: owes ? created + DAY_MS : null,
    body: JSON.stringify(body),
  });
  if (!owes) return;
  const profile = store.defaultProfileOf(g.customer_id);
  const payment: Omit<Payment, 'id' | 'payment_status' | 'created_at'> = {
    customer_id: g.customer_id,
    ...(profile ? { profile_id: profile } : {}),
    ref_id: paymentRef,
    product: PRODUCT,
    payment_type: 'PAYMENT_TYPE_CRYPTO_WITHDRAWAL',
    payment_destination: payoutAddressId(g.customer_id),
    payment_asset: 'USDG',
    payment_amount: owed,
  };
  store.insertStatementPayment({
    id: randomUUID(),
    ref_id: paymentRef,
    statement_id: id,
    customer_id: g.customer_id,
    product: PRODUCT,
    status: 'PAYMENT_STATUS_PENDING',
    created_ms: created,
    processed_ms: created + DAY_MS,
    body: JSON.stringify(payment),
  });
}

/** The customer's payout address, as the OpenAPI names it: a UUID (one per customer, stable). */
function payoutAddressId(customerId: string): string {
  const h = createHash('sha256').update(`payout:${customerId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Statements and payments brought up to the service clock: the due ones generated, the due payments settled. */
export function bringStatementsUpToDate(core: Core): void {
  core.store.immediate(() => generateDue(core, core.clock.now()));
}

/** The Statement resource of a row. */
export function statementResource(row: StatementRow): Statement {
  const body = JSON.parse(row.body) as StatementBody;
  const paid = row.status === 'STATEMENT_STATUS_PAID';
  return {
    id: row.id,
    ref_id: row.ref_id,
    customer_id: row.customer_id,
    type: 'STATEMENT_TYPE_USDG_REWARD',
    product: PRODUCT,
    status: row.status as Statement['status'],
    metadata: body.metadata,
    statement_balances: [
      {
        asset: 'USDG',
        amount_paid: paid ? body.owed : '0',
        total_amount_owed: body.owed,
        ...(!paid && body.payment_ref_id ? { next_payment_ref_id: body.payment_ref_id } : {}),
      },
    ],
    period_start: isoMillis(row.period_start_ms),
    period_end: isoMillis(row.period_end_ms),
    generated_at: isoMillis(row.created_ms),
    ...(paid && row.paid_ms !== null ? { paid_at: isoMillis(row.paid_ms) } : {}),
    created_at: isoMillis(row.created_ms),
  };
}

/** The Payment resource of a row. */
export function paymentResource(row: StatementPaymentRow): Payment {
  const done = row.status === 'PAYMENT_STATUS_COMPLETED';
  return {
    id: row.id,
    ...(JSON.parse(row.body) as Omit<Payment, 'id'>),
    payment_status: row.status as Payment['payment_status'],
    ...(done ? { payment_tx_id: createHash('sha256').update(`payment:${row.id}`).digest('hex') } : {}),
    created_at: isoMillis(row.created_ms),
    ...(done ? { processed_at: isoMillis(row.processed_ms) } : {}),
  };
}
