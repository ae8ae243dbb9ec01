// `withdraw batch --dry-run`: a guaranteed fee for every staged row, then totals per asset and network. Nothing is sent.
import { Decimal, dec, fmt, type CryptoWithdrawalFee } from '../../../api/index.js';
import type { CliContext } from '../../../cli/context.js';
import { asCliError, CoinopError } from '../../../cli/errors.js';
import { clientBatchApi } from '../../../batch/api.js';
import { backoffMs, realClock, TokenBucket } from '../../../batch/rate-limit.js';
import type { BatchRow } from '../../../batch/rows.js';
import type { Stage } from '../../../batch/stage.js';
import { progressBar } from './progress.js';
import { Needs, type Shortfalls, shortfallHint, shortfallReason, shortfalls } from '../funds.js';

/** Fee quotes and transfer reads count against the service's 50/s for other endpoints. */
export const READ_RATE = 45;

interface QuoteTotals {
  asset: string;
  crypto_network: string;
  rows: number;
  amount: Decimal;
  fee: Decimal;
  total: Decimal;
}

/** Adds a quoted row to its asset's totals; what it takes from the balance (amount plus quoted fee). */
function addQuote(totals: Map<string, QuoteTotals>, b: BatchRow['body'], q: CryptoWithdrawalFee): Decimal {
  const key = `${b.asset}\u0000${b.crypto_network}`;
  let t = totals.get(key);
  if (!t)
    totals.set(
      key,
      (t = {
        asset: b.asset,
        crypto_network: b.crypto_network,
        rows: 0,
        amount: new Decimal(0),
        fee: new Decimal(0),
        total: new Decimal(0),
      }),
    );
  const fee = dec(q.fee);
  const amount =
    q.amount !== undefined ? dec(q.amount) : b.amount !== undefined ? dec(b.amount) : dec(b.total as string).minus(fee);
  const total = q.total !== undefined ? dec(q.total) : b.total !== undefined ? dec(b.total) : amount.plus(fee);
  t.rows++;
  t.amount = t.amount.plus(amount);
  t.fee = t.fee.plus(fee);
  t.total = t.total.plus(total);
  return total;
}

export async function dryRun(
  ctx: CliContext,
  stage: Stage,
  counts: { valid: number; invalid: number },
  concurrency: number,
  rate: number,
): Promise<void> {
  const conn = await ctx.connect();
  await conn.tokens.token();
  const api = clientBatchApi(conn.client);
  const limiter = new TokenBucket(Number.isFinite(rate) ? READ_RATE : Infinity);
  const bar = progressBar(ctx);
  const totals = new Map<string, QuoteTotals>();
  const needs = new Needs();
  const progress = { todo: counts.valid, done: 0, succeeded: 0, failed: 0, retries: 0, startedAt: ctx.now() };
  const failures: string[] = [];
  let fatal: Error | undefined;
  const quoteOne = async (row: number, b: BatchRow['body']): Promise<void> => {
    const req = {
      asset: b.asset,
      destination_address: b.destination_address,
      crypto_network: b.crypto_network,
      ...(b.amount !== undefined ? { amount: b.amount } : { total: b.total }),
    };
    for (let attempt = 1; ; attempt++) {
      await limiter.take();
      const res = await api.quoteFee(req);
      if (res.kind === 'quote') {
        needs.add(b, addQuote(totals, b, res.quote));
        progress.succeeded++;
        return;
      }
      if (res.kind === 'fatal') {
        fatal ??= res.error;
        return;
      }
      if (res.kind === 'refused' || attempt >= 8) {
        failures.push(`row ${row}: ${[res.problem.title, res.problem.detail].filter(Boolean).join(': ')}`);
        progress.failed++;
        return;
      }
      if (res.throttled) limiter.hold(backoffMs(attempt, 1000, 15_000));
      else await realClock.sleep(backoffMs(attempt));
    }
  };
  const inFlight = new Set<Promise<void>>();
  for (const r of stage.valid()) {
    if (fatal) break;
    while (inFlight.size >= concurrency) await Promise.race(inFlight);
    const p: Promise<void> = quoteOne(r.row, JSON.parse(r.body) as BatchRow['body']).finally(() => {
      inFlight.delete(p);
      progress.done++;
      bar.update(progress);
    });
    inFlight.add(p);
  }
  await Promise.all([...inFlight]);
  bar.clear();
  if (fatal) throw asCliError(fatal);
  const short = await shortfalls(conn, needs, {
    what: { sum: 'amounts plus quoted fees', one: 'the largest row (amount plus quoted fee)' },
    now: ctx.now(),
  });
  return report(ctx, totals, { ...counts, quoted: progress.succeeded, failures, short });
}

/** The refused rows, the totals per asset and network, a summary line, and the exit code a real run would give. */
async function report(
  ctx: CliContext,
  totals: Map<string, QuoteTotals>,
  r: { valid: number; invalid: number; quoted: number; failures: string[]; short: Shortfalls },
): Promise<void> {
  const { failures } = r;
  for (const f of failures) ctx.io.err(`${f}\n`);
  const list = [...totals.values()]
    .sort((a, b) => a.asset.localeCompare(b.asset) || a.crypto_network.localeCompare(b.crypto_network))
    .map((t) => ({
      asset: t.asset,
      crypto_network: t.crypto_network,
      rows: t.rows,
      amount: fmt(t.amount),
      fee: fmt(t.fee),
      total: fmt(t.total),
    }));
  await ctx
    .output()
    .list(list, [
      { key: 'asset' },
      { key: 'crypto_network', header: 'network' },
      { key: 'rows' },
      { key: 'amount', kind: 'amount' },
      { key: 'fee', kind: 'amount' },
      { key: 'total', kind: 'amount' },
    ]);
  ctx.io.err(
    `dry run: ${r.quoted} of ${r.valid} rows quoted${failures.length ? `, ${failures.length} refused (listed above)` : ''}` +
      `${r.invalid ? `, ${r.invalid} invalid rows skipped` : ''}; nothing was sent\n`,
  );
  for (const s of [...r.short.funds, ...r.short.limits, ...r.short.notes]) ctx.io.err(`${s}\n`);
  const reason = shortfallReason(r.short);
  if (reason)
    throw new CoinopError('usage', `${reason} (shortfalls above)`, {
      hint: shortfallHint(r.short, 'a real run is refused before its first row unless --allow-partial'),
    });
  // The same exit codes as a real run would give: every row fine, some not, none.
  if (!r.quoted) throw new CoinopError('nothing-sent', 'no row could be quoted', { quiet: true });
  if (failures.length || r.invalid) throw new CoinopError('failed', 'some rows could not be quoted', { quiet: true });
}
