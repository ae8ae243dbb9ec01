// coinop prices: historical prices with exactly one of increment and max points; table and chart for people.
import {
  INCREMENT_SECONDS, MARKETS, PRICE_INCREMENTS, operations, type HistoricalPrice, type ListHistoricalPricesResponse, type PriceIncrement,
} from '../../api/index.js';
import { askIncrement, askMarket } from '../../cli/ask.js';
import type { CliContext } from '../../cli/context.js';
import { usageError } from '../../cli/errors.js';
import { intFlag, iso, parseTime } from '../../cli/options.js';
import { checkRequest, type FlagNames } from '../../client/api.js';
import { lineChart } from '../../render/chart.js';
import { PRICE_COLUMNS } from '../../render/columns.js';

export interface PricesOptions {
  increment?: string;
  maxPoints?: string;
  from?: string;
  to?: string;
  limit?: string;
  offset?: string;
  all?: boolean;
}

const FLAGS: FlagNames = {
  market: 'MARKET',
  increment: '--increment',
  max_data_points: '--max-points',
  'range.begin': '--from',
  'range.end': '--to',
  'pagination.limit': '--limit',
  'pagination.offset': '--offset',
};

export async function prices(ctx: CliContext, marketArg: string | undefined, o: PricesOptions): Promise<void> {
  if (o.increment !== undefined && o.maxPoints !== undefined) throw usageError('--increment and --max-points: give one, not both');
  if (o.increment !== undefined && !(PRICE_INCREMENTS as readonly string[]).includes(o.increment)) {
    throw usageError(`--increment: must be one of ${PRICE_INCREMENTS.join(', ')}`);
  }
  const maxPoints = intFlag('--max-points', o.maxPoints, 1, 1_000_000);
  const limit = intFlag('--limit', o.limit, 1, 1000);
  const offset = intFlag('--offset', o.offset, 0, 100_000_000);
  const market = (marketArg ?? (await askMarket(ctx.prompter, undefined))).toUpperCase();
  if (!(MARKETS as readonly string[]).includes(market)) throw usageError(`MARKET: "${marketArg}" is not a market (such as ${MARKETS.slice(0, 4).join(', ')}; see coinop prices --help)`);
  let increment = o.increment as PriceIncrement | undefined;
  // Asked only in the full walk-through (`coinop prices` alone); `coinop prices BTCUSD` just shows recent hours.
  if (increment === undefined && maxPoints === undefined) increment = marketArg === undefined && ctx.prompter.allowed ? await askIncrement(ctx.prompter) : 'ONE_HOUR';

  const now = ctx.now();
  const to = parseTime(o.to, now);
  // Without --from the range ends now and holds one page: `limit` steps back, which is (limit - 1) completed
  // periods plus the current mid point the service adds when range.end is absent. So `--limit 24` shows the
  // latest 24 prices, not the oldest 24 of a longer window. With max points it is the last day.
  const span = increment ? (limit ?? 100) * INCREMENT_SECONDS[increment] * 1000 : 86_400_000;
  const end = to && !Number.isNaN(Date.parse(to)) ? Date.parse(to) : now;
  const from = parseTime(o.from, now) ?? iso(end - span);
  const query: Record<string, unknown> = {
    ...(increment ? { increment } : {}),
    ...(maxPoints !== undefined ? { max_data_points: String(maxPoints) } : {}),
    'range.begin': from,
    ...(to !== undefined ? { 'range.end': to } : {}),
    ...(limit !== undefined ? { 'pagination.limit': String(limit) } : {}),
    ...(offset !== undefined ? { 'pagination.offset': String(offset) } : {}),
  };
  const params = { market };
  checkRequest(operations.listHistoricalPrices, { params, query }, FLAGS);

  const conn = await ctx.connect();
  const out = ctx.output();
  const keep: HistoricalPrice[] = [];
  let total: number | undefined;
  async function* pages(): AsyncGenerator<Record<string, unknown>> {
    let off = offset ?? 0;
    for (;;) {
      const q = { ...query, ...(off ? { 'pagination.offset': String(off) } : {}) };
      const { data } = await conn.client.call<ListHistoricalPricesResponse>('listHistoricalPrices', { params, query: q }, FLAGS);
      // The schema names the list items, the published example prices: both are read.
      const page = data.items ?? data.prices ?? [];
      total = data.total_count;
      for (const p of page) {
        if (out.format === 'table' && keep.length < 5000) keep.push(p);
        yield p;
      }
      off += page.length;
      if (!o.all || !page.length || (total !== undefined && off >= total) || (limit !== undefined && page.length < limit)) return;
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
    ctx.io.err(out.p.dim(`${market} · ${shown} prices${increment ? ` · ${increment}` : ''}${total !== undefined && rows.length < total && !o.all ? ' · --all for every page' : ''}`) + '\n');
    if (ctx.io.stdoutTTY && keep.length >= 2) {
      const points = keep
        .map((p) => ({ label: p.average_price, value: Number(p.average_price), time: p.timestamp.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, 'Z') }))
        .filter((p) => Number.isFinite(p.value));
      ctx.io.out('\n' + lineChart(points, ctx.io.width, 10));
    }
    return;
  }
  await out.list(pages(), PRICE_COLUMNS);
}
