// A batch's dry run, the part that asks the service: a fee quote for every staged row (concurrently, under the rate
// the service allows for reads, retrying what was throttled or got no answer), the totals per asset and network,
// and what each profile needs of each asset. `withdraw batch --dry-run` and the MCP server's batch tool report it.
import { dec, type Decimal, fmt, type CryptoWithdrawalFee } from '../contract/index.js';
import { Needs } from '../send/funds.js';
import { feeRequestOf } from '../send/withdrawal.js';
import type { BatchService } from './service-port.js';
import { backoffMs, realClock, TokenBucket } from './pacing.js';
import type { BatchRow } from './rows.js';

/** Fee quotes and transfer reads count against the service's 50/s for other endpoints. */
export const READ_RATE = 45;

/** What a dry run's shortfalls are of: each row's amount plus its quoted fee. */
export const QUOTED_WORDING = { sum: 'amounts plus quoted fees', one: 'the largest row (amount plus quoted fee)' };

/** The quoted rows of one asset on one network. */
export interface QuoteTotals {
  asset: string;
  crypto_network: string;
  rows: number;
  amount: Decimal;
  fee: Decimal;
  total: Decimal;
}

export interface QuotedBatch {
  /** Per asset and network, sorted by both. */
  totals: QuoteTotals[];
  /** What each profile's balance of each asset, and each transfer limit, must cover: amounts plus quoted fees. */
  needs: Needs;
  /** Rows quoted. */
  quoted: number;
  /** Rows the service refused to quote: `row N: title: detail`. */
  failures: string[];
}

/** Adds a quoted row to its asset's totals; what it takes from the balance (amount plus quoted fee). */
function addQuote(totals: Map<string, QuoteTotals>, body: BatchRow['body'], quote: CryptoWithdrawalFee): Decimal {
  const key = `${body.asset}\u0000${body.crypto_network}`;
  let t = totals.get(key);
  if (!t)
    totals.set(
      key,
      (t = {
        asset: body.asset,
        crypto_network: body.crypto_network,
        rows: 0,
        amount: dec(0),
        fee: dec(0),
        total: dec(0),
      }),
    );
  const fee = dec(quote.fee);
  const amount =
    quote.amount !== undefined
      ? dec(quote.amount)
      : body.amount !== undefined
        ? dec(body.amount)
        : dec(body.total as string).minus(fee);
  const total =
    quote.total !== undefined ? dec(quote.total) : body.total !== undefined ? dec(body.total) : amount.plus(fee);
  t.rows++;
  t.amount = t.amount.plus(amount);
  t.fee = t.fee.plus(fee);
  t.total = t.total.plus(total);
  return total;
}

/**
 * Quotes every row (`body`: the staged request as JSON). `rate`: Infinity is no client-side limit; any other rate
 * reads at READ_RATE. `onRow` hears each row as it ends. An error nothing else could get past either (credentials
 * refused) is thrown once the rows in flight are done.
 */
export async function quoteRows(
  service: BatchService,
  rows: Iterable<{ row: number; body: string }>,
  options: { concurrency: number; rate: number; onRow?: (quoted: boolean) => void },
): Promise<QuotedBatch> {
  const limiter = new TokenBucket(Number.isFinite(options.rate) ? READ_RATE : Infinity);
  const totals = new Map<string, QuoteTotals>();
  const result: QuotedBatch = { totals: [], needs: new Needs(), quoted: 0, failures: [] };
  let fatal: Error | undefined;
  const quoteOne = async (row: number, body: BatchRow['body']): Promise<boolean> => {
    const req = feeRequestOf(body);
    for (let attempt = 1; ; attempt++) {
      await limiter.take();
      const res = await service.quoteFee(req);
      if (res.kind === 'quote') {
        result.needs.add(body, addQuote(totals, body, res.quote));
        result.quoted++;
        return true;
      }
      if (res.kind === 'fatal') {
        fatal ??= res.error;
        return false;
      }
      if (res.kind === 'refused' || attempt >= 8) {
        result.failures.push(`row ${row}: ${[res.problem.title, res.problem.detail].filter(Boolean).join(': ')}`);
        return false;
      }
      if (res.throttled) limiter.hold(backoffMs(attempt, 1000, 15_000));
      else await realClock.sleep(backoffMs(attempt));
    }
  };
  const inFlight = new Set<Promise<void>>();
  for (const r of rows) {
    if (fatal) break;
    while (inFlight.size >= options.concurrency) await Promise.race(inFlight);
    const p: Promise<void> = quoteOne(r.row, JSON.parse(r.body) as BatchRow['body'])
      .catch((error: unknown) => {
        fatal ??= error instanceof Error ? error : new Error(String(error));
        return false;
      })
      .then((ok) => {
        inFlight.delete(p);
        options.onRow?.(ok);
      });
    inFlight.add(p);
  }
  await Promise.all([...inFlight]);
  if (fatal) throw fatal;
  result.totals = [...totals.values()].sort(
    (a, b) => a.asset.localeCompare(b.asset) || a.crypto_network.localeCompare(b.crypto_network),
  );
  return result;
}

/** The totals as plain rows (decimal strings), as a report lists them. */
export function totalsRows(totals: QuoteTotals[]): {
  asset: string;
  crypto_network: string;
  rows: number;
  amount: string;
  fee: string;
  total: string;
}[] {
  return totals.map((t) => ({
    asset: t.asset,
    crypto_network: t.crypto_network,
    rows: t.rows,
    amount: fmt(t.amount),
    fee: fmt(t.fee),
    total: fmt(t.total),
  }));
}
