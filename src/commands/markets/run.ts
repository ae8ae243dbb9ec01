// coinop markets, ticker, book and trades: one snapshot each, as the service answers it (read leniently: the hosted
// service's answers and examples differ in places), for people as tables and for scripts as JSON, NDJSON or CSV.
import {
  dec,
  fmt,
  isAmountString,
  MARKETS,
  type BookLevel,
  type ExchangeStats,
  type MarketDetails,
} from '../../contract/index.js';
import { askMarket } from '../../cli/ask.js';
import type { Connection } from '../../cli/invocation.js';
import type { Ports } from '../../cli/ports.js';
import { usageError } from '../../cli/errors.js';
import { SEE_MARKETS } from '../../cli/options.js';
import type { FlagNames } from '../../client/service-client.js';
import { fetchMarkets, mergeMarkets, serviceMarkets, type ServiceMarkets } from '../../client/market-list.js';
import { isLocalServiceId } from '../../client/service-identity.js';
import { bestFirst } from '../../market-data/book.js';
import { newestFirst } from '../../market-data/trades.js';
import {
  BOOK_LEVEL_COLUMNS,
  BOOK_SIDE_BY_SIDE_COLUMNS,
  MARKET_COLUMNS,
  TICKER_COLUMNS,
  TRADE_COLUMNS,
} from '../../render/columns.js';
import { keyValueLines } from '../../render/key-value.js';
import { relativeTime } from '../../render/time.js';
import type { BookOptions, MarketsOptions, TickerOptions, TradesOptions } from './options.js';

const FLAGS: FlagNames = { market: 'MARKET' };
const CATALOGUE = new Set<string>(MARKETS);

/** The local service (its health check answered) serves exactly the catalogue; any other service may list more. */
const isLocal = (conn: Connection) => isLocalServiceId(conn.serviceId);

/** What the markets commands take: where they are shown, the service, a question for the market, the clock. */
export type MarketsDeps = Pick<Ports, 'display' | 'service' | 'prompter' | 'clock'>;

function listedBy(ctx: MarketsDeps, conn: Connection, refresh = false): Promise<ServiceMarkets> {
  return serviceMarkets({
    client: conn.client,
    serviceId: conn.serviceId,
    dataDir: ctx.service.dataDir(),
    now: ctx.clock.now(),
    refresh,
  });
}

/** The market to ask about: the one given when it is known, else asked for on a terminal from the known ones. */
async function chooseMarket(ctx: MarketsDeps, conn: Connection, given: string | undefined): Promise<string> {
  if (given !== undefined && CATALOGUE.has(given)) return given;
  const known = isLocal(conn) ? [...MARKETS] : mergeMarkets((await listedBy(ctx, conn)).markets).map((m) => m.market);
  if (given === undefined) return askMarket(ctx.prompter, undefined, 'MARKET', known);
  if (known.includes(given)) return given;
  throw usageError(
    `MARKET: ${given} is not a market of this service (such as ${known.slice(0, 4).join(', ')})`,
    SEE_MARKETS,
  );
}

export async function markets(ctx: MarketsDeps, options: MarketsOptions): Promise<void> {
  const conn = await ctx.service.connect();
  let list: MarketDetails[];
  let note: string;
  if (isLocal(conn)) {
    const served = await fetchMarkets(conn.client);
    list = mergeMarkets(served);
    note = `${list.length} markets · the local service lists ${served.length}`;
  } else {
    const s = await listedBy(ctx, conn, options.refresh);
    list = mergeMarkets(s.markets);
    const when =
      s.from === 'service' ? 'just now' : `${relativeTime(new Date(s.fetchedAt).toISOString(), ctx.clock.now())}`;
    const stale = s.from === 'stale cache' ? ' (the service did not answer; the kept list)' : '';
    note = `${list.length} markets · ${s.markets.length} listed by the service ${when}${stale} · the rest from coinop's catalogue`;
  }
  const out = ctx.display.output(options.view);
  await out.list(list, MARKET_COLUMNS);
  if (out.forPeople) out.note(out.p.dim(note));
}

/** A decimal string's value, or undefined for anything else (a lenient read of the service's answers). */
const num = (s: unknown) => (isAmountString(s) ? dec(s) : undefined);

/** "4.94 (0.78 bp)": the spread and its size against the mid, in basis points. */
function spreadText(bid?: BookLevel, ask?: BookLevel): string | undefined {
  const b = num(bid?.price);
  const a = num(ask?.price);
  if (!b || !a || a.plus(b).isZero()) return undefined;
  const spread = a.minus(b);
  return `${fmt(spread)} (${spread.div(a.plus(b).div(2)).times(10_000).toFixed(2)} bp)`;
}

function statsText(stats: ExchangeStats, last: string | undefined): string {
  const parts = [`open ${stats.open ?? '-'}`, `high ${stats.high ?? '-'}`, `low ${stats.low ?? '-'}`];
  const open = num(stats.open);
  const l = num(last);
  if (open && l && !open.isZero()) {
    const change = l.minus(open).div(open).times(100);
    parts.push(`${change.gte(0) ? '+' : ''}${change.toFixed(2)}% to last`);
  }
  const vwap = stats.volume_weighted_average_price;
  parts.push(`volume ${stats.volume ?? '-'}${vwap ? ` (VWAP ${vwap})` : ''}`);
  return parts.join(' · ');
}

export async function ticker(ctx: MarketsDeps, options: TickerOptions): Promise<void> {
  const conn = await ctx.service.connect();
  const market = await chooseMarket(ctx, conn, options.market);
  const { data } = await conn.client.call('getTicker', { params: { market } }, FLAGS);
  const out = ctx.display.output();
  if (out.format !== 'table') return out.one(data, TICKER_COLUMNS);
  const level = (l?: BookLevel) => (l ? `${l.price} × ${l.amount}` : '-');
  const last = data.last_execution?.price;
  const rows: [string, string][] = [
    ['market', data.market ?? market],
    ['bid', level(data.best_bid)],
    ['ask', level(data.best_ask)],
    ['spread', spreadText(data.best_bid, data.best_ask) ?? '-'],
    ['last', level(data.last_execution)],
  ];
  if (data.last_day) rows.push(['24 h', statsText(data.last_day, last)]);
  if (data.today) rows.push(['today', statsText(data.today, last)]);
  rows.push(['as of', data.snapshot_at ?? '-']);
  ctx.display.io.out(`${keyValueLines(rows, out.p).join('\n')}\n`);
}

export async function book(ctx: MarketsDeps, options: BookOptions): Promise<void> {
  const conn = await ctx.service.connect();
  const market = await chooseMarket(ctx, conn, options.market);
  const { data } = await conn.client.call('getOrderBook', { params: { market } }, FLAGS);
  const bids = bestFirst(data.bids, true);
  const asks = bestFirst(data.asks, false);
  const shown = {
    market: data.market ?? market,
    bids: bids.slice(0, options.depth),
    asks: asks.slice(0, options.depth),
  };
  const out = ctx.display.output();
  if (out.format === 'json' || out.format === 'ndjson') return out.one(shown);
  if (out.format === 'csv') {
    const rows = (['bid', 'ask'] as const).flatMap((s) =>
      shown[`${s}s`].map((l, i) => ({ market: shown.market, side: s, level: i + 1, ...l })),
    );
    await out.list(rows, BOOK_LEVEL_COLUMNS);
    return;
  }
  if (!shown.bids.length && !shown.asks.length) return out.note(out.p.dim(`the ${market} book is empty`));
  const rows = Array.from({ length: Math.max(shown.bids.length, shown.asks.length) }, (_, i) => ({
    level: i + 1,
    bid_amount: shown.bids[i]?.amount,
    bid: shown.bids[i]?.price,
    ask: shown.asks[i]?.price,
    ask_amount: shown.asks[i]?.amount,
  }));
  out.table(rows, BOOK_SIDE_BY_SIDE_COLUMNS);
  const spread = spreadText(bids[0], asks[0]);
  out.note(
    out.p.dim(
      `${shown.market}${spread ? ` · spread ${spread}` : ''} · ${shown.bids.length} of ${bids.length} bids, ` +
        `${shown.asks.length} of ${asks.length} asks${options.depth < Math.max(bids.length, asks.length) ? ' · --depth for more' : ''}`,
    ),
  );
}

export async function trades(ctx: MarketsDeps, options: TradesOptions): Promise<void> {
  const conn = await ctx.service.connect();
  const market = await chooseMarket(ctx, conn, options.market);
  const { data } = await conn.client.call('listRecentExecutions', { params: { market } }, FLAGS);
  const all = newestFirst(data.items);
  const items = all.slice(0, options.limit);
  const out = ctx.display.output(options.view);
  await out.list(items, TRADE_COLUMNS, { empty: `no recent trades in ${market}` });
  if (out.forPeople && items.length)
    out.note(out.p.dim(`${market} · the ${items.length} latest of ${all.length} recent trades, newest first`));
}
