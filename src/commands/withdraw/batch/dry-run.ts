// `withdraw batch --dry-run`: a guaranteed fee for every staged row, then totals per asset and network. Nothing is sent.
import type { Ports } from '../../../cli/ports.js';
import { CoinopError } from '../../../cli/errors.js';
import { clientBatchService } from '../../../batch/service-port.js';
import { QUOTED_WORDING, type QuoteTotals, quoteRows, totalsRows } from '../../../batch/quote.js';
import type { Stage } from '../../../batch/stage.js';
import { type Shortfalls, shortfallHint, shortfallReason, shortfalls } from '../../../send/funds.js';
import { progressBar } from './progress.js';

export async function dryRun(
  ctx: Pick<Ports, 'display' | 'service' | 'clock'>,
  stage: Stage,
  counts: { valid: number; invalid: number; scope: string },
  concurrency: number,
  rate: number,
  partial: { skipped: number } = { skipped: 0 },
): Promise<void> {
  const conn = await ctx.service.connect();
  await conn.tokens.token();
  const bar = progressBar(ctx);
  const progress = { todo: counts.valid, done: 0, succeeded: 0, failed: 0, retries: 0, startedAt: ctx.clock.now() };
  let quoted: Awaited<ReturnType<typeof quoteRows>>;
  try {
    quoted = await quoteRows(clientBatchService(conn.client), stage.valid(), {
      concurrency,
      rate,
      onRow: (ok) => {
        progress.done++;
        if (ok) progress.succeeded++;
        else progress.failed++;
        bar.update(progress);
      },
    });
  } finally {
    bar.clear();
  }
  const short = await shortfalls(conn, quoted.needs, { what: QUOTED_WORDING, now: ctx.clock.now() });
  return report(ctx, quoted.totals, {
    ...counts,
    quoted: quoted.quoted,
    failures: quoted.failures,
    short,
    skipped: partial.skipped,
  });
}

/** The refused rows, the totals per asset and network, a summary line, and the exit code a real run would give. */
async function report(
  ctx: Pick<Ports, 'display'>,
  totals: QuoteTotals[],
  summary: {
    valid: number;
    invalid: number;
    scope: string;
    quoted: number;
    failures: string[];
    short: Shortfalls;
    /** --allow-partial: the rows a real run would not send (listed before the quotes). */
    skipped: number;
  },
): Promise<void> {
  const { failures } = summary;
  for (const f of failures) ctx.display.io.err(`${f}\n`);
  const list = totalsRows(totals);
  await ctx.display
    .output()
    .list(list, [
      { key: 'asset' },
      { key: 'crypto_network', header: 'network' },
      { key: 'rows' },
      { key: 'amount', kind: 'amount' },
      { key: 'fee', kind: 'amount' },
      { key: 'total', kind: 'amount' },
    ]);
  ctx.display.io.err(
    `dry run: ${summary.quoted} of ${summary.valid} rows quoted${failures.length ? `, ${failures.length} refused (listed above)` : ''}` +
      `${summary.invalid ? `, ${summary.invalid} invalid rows skipped` : ''}; nothing was sent (context ${summary.scope})\n`,
  );
  for (const s of [...summary.short.funds, ...summary.short.limits, ...summary.short.notes])
    ctx.display.io.err(`${s}\n`);
  const reason = shortfallReason(summary.short);
  if (summary.skipped) {
    // What a real run with --allow-partial ends with: the rows it sends, and exit 6 for those it skips.
    ctx.display.io.err(
      `--allow-partial: a real run sends ${summary.valid - summary.skipped} of ${summary.valid} rows and skips ${summary.skipped} (listed above)\n`,
    );
    throw new CoinopError('failed', 'some rows would not be sent', { quiet: true });
  }
  if (reason)
    throw new CoinopError('usage', `${reason} (shortfalls above)`, {
      hint: shortfallHint(summary.short, 'a real run is refused before its first row unless --allow-partial'),
    });
  // The same exit codes as a real run would give: every row fine, some not, none.
  if (!summary.quoted) throw new CoinopError('nothing-sent', 'no row could be quoted', { quiet: true });
  if (failures.length || summary.invalid)
    throw new CoinopError('failed', 'some rows could not be quoted', { quiet: true });
}
