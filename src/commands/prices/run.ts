// coinop prices: historical prices with exactly one of increment and max points; table and chart for people.
import type { PriceIncrement } from '../../contract/enums.js';
import { operations } from '../../contract/operations.js';
import type { HistoricalPrice } from '../../contract/schemas.js';
import { askIncrement, askMarket } from '../../cli/ask.js';
import type { Ports } from '../../cli/ports.js';
import { checkMarkets } from '../../cli/market-check.js';
import type { RawFlags } from '../../cli/options.js';
import { checkRequest, type FlagNames } from '../../client/service-client.js';
import { SHAPE_ONLY } from '../../client/catalogue-policy.js';
import { latestRangeBegin } from '../../client/prices.js';
import { lineChart } from '../../render/chart.js';
import { PRICE_COLUMNS } from '../../render/columns.js';
import { parsePricesOptions, type PricesOptions } from './options.js';

const FLAGS: FlagNames = {
  market: 'MARKET',
  increment: '--increment',
  max_data_points: '--max-points',
  'range.begin': '--from',
  'range.end': '--to',
  'pagination.limit': '--limit',
  'pagination.offset': '--offset',
};

/** The query: without --from the range ends at --to (or now) and holds one page of steps, or the last day. */
function pricesQuery(
  options: PricesOptions,
  increment: PriceIncrement | undefined,
  now: number,
): Record<string, unknown> {
  // Without --from the range ends now and holds one page: `limit` steps back, which is (limit - 1) completed
  // periods plus the current mid point the service adds when range.end is absent. So `--limit 24` shows the
  // latest 24 prices, not the oldest 24 of a longer window. With max points it is the last day.
  const end = options.to && !Number.isNaN(Date.parse(options.to)) ? Date.parse(options.to) : now;
  return {
    ...(increment ? { increment } : {}),
    ...(options.maxPoints !== undefined ? { max_data_points: String(options.maxPoints) } : {}),
    'range.begin': options.from ?? latestRangeBegin(increment, options.limit, end),
    ...(options.to !== undefined ? { 'range.end': options.to } : {}),
    ...(options.limit !== undefined ? { 'pagination.limit': String(options.limit) } : {}),
    ...(options.offset !== undefined ? { 'pagination.offset': String(options.offset) } : {}),
  };
}

/** What prices take: where they are shown (a chart too, on a terminal), the service, questions, the clock. */
export type PricesDeps = Pick<Ports, 'display' | 'service' | 'prompter' | 'clock'>;

export async function prices(ctx: PricesDeps, marketArg: string | undefined, raw: RawFlags): Promise<void> {
  const now = ctx.clock.now();
  const o = parsePricesOptions(marketArg, raw, now);
  const market = o.market ?? (await askMarket(ctx.prompter, undefined));
  let increment = o.increment;
  // Asked only in the full walk-through (`coinop prices` alone); `coinop prices BTCUSD` just shows recent hours.
  if (increment === undefined && o.maxPoints === undefined)
    increment = o.market === undefined && ctx.prompter.allowed ? await askIncrement(ctx.prompter) : 'ONE_HOUR';
  const query = pricesQuery(o, increment, now);
  const params = { market };
  checkRequest(operations.listHistoricalPrices, { params, query }, FLAGS, SHAPE_ONLY);
  await checkMarkets(ctx, 'MARKET', [market]);
  checkRequest(operations.listHistoricalPrices, { params, query }, FLAGS, ctx.service.catalogue());

  const conn = await ctx.service.connect();
  const out = ctx.display.output(o.view);
  const keep: HistoricalPrice[] = [];
  let total: number | undefined;
  async function* pages(): AsyncGenerator<Record<string, unknown>> {
    let off = o.offset ?? 0;
    for (;;) {
      const q = { ...query, ...(off ? { 'pagination.offset': String(off) } : {}) };
      const { data } = await conn.client.call('listHistoricalPrices', { params, query: q }, FLAGS);
      // The schema names the list items, the published example prices: both are read.
      const page = data.items ?? data.prices ?? [];
      total = data.total_count;
      for (const p of page) {
        if (out.format === 'table' && keep.length < 5000) keep.push(p);
        yield p;
      }
      off += page.length;
      if (
        !o.all ||
        !page.length ||
        (total !== undefined && off >= total) ||
        (o.limit !== undefined && page.length < o.limit)
      )
        return;
    }
  }
  if (out.format === 'table') {
    const rows: Record<string, unknown>[] = [];
    for await (const p of pages()) rows.push(p);
    if (!rows.length) {
      out.note(out.p.dim(`no prices for ${market} in that range`));
      return;
    }
    out.table(rows, PRICE_COLUMNS);
    const shown = `${rows.length}${total !== undefined && total !== rows.length ? ` of ${total}` : ''}`;
    out.note(
      out.p.dim(
        `${market} · ${shown} prices${increment ? ` · ${increment}` : ''}${total !== undefined && rows.length < total && !o.all ? ' · --all for every page' : ''}`,
      ),
    );
    if (ctx.display.io.stdoutTTY && keep.length >= 2) {
      const points = keep
        .map((p) => ({
          label: p.average_price,
          value: Number(p.average_price),
          time: p.timestamp.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, 'Z'),
        }))
        .filter((p) => Number.isFinite(p.value));
      out.io.out(`\n${lineChart(points, ctx.display.io.width, 10)}`);
    }
    return;
  }
  await out.list(pages(), PRICE_COLUMNS);
}
