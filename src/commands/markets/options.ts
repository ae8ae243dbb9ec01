// coinop markets, ticker, book and trades: the raw flags and the MARKET argument, checked once; a market left out is
// asked for on a terminal by the run (whether the service knows it is the run's to find out).
import { readTableView } from '../../cli/list-flags.js';
import { intFlag, marketArg, type RawFlags } from '../../cli/options.js';
import { MARKET_COLUMNS, TRADE_COLUMNS } from '../../render/columns.js';
import type { TableView } from '../../render/table.js';
import { BOOK_DEPTH_DEFAULT, BOOK_DEPTH_MAX, TRADES_LIMIT_DEFAULT, TRADES_LIMIT_MAX } from './depth-bounds.js';
import { BOOK_FLAG_TABLE, MARKETS_FLAG_TABLE, TRADES_FLAG_TABLE } from './flags.js';

export interface MarketsOptions {
  /** Fetch the service's market list again even when the kept one is fresh. */
  refresh: boolean;
  /** --columns, --wide. */
  view?: TableView;
}

export interface TickerOptions {
  /** Upper-cased market symbol; undefined when not given. */
  market?: string;
}

export interface BookOptions extends TickerOptions {
  /** Price levels shown per side. */
  depth: number;
}

export interface TradesOptions extends TickerOptions {
  /** The most recent trades shown. */
  limit: number;
  /** --columns, --wide. */
  view?: TableView;
}

export function parseMarketsOptions(raw: RawFlags): MarketsOptions {
  return { refresh: MARKETS_FLAG_TABLE.read(raw).refresh, view: readTableView(raw, MARKET_COLUMNS) };
}

export function parseTickerOptions(market: string | undefined, _raw: RawFlags): TickerOptions {
  return { market: marketArg('MARKET', market) };
}

export function parseBookOptions(market: string | undefined, raw: RawFlags): BookOptions {
  const { depth } = BOOK_FLAG_TABLE.read(raw);
  return {
    market: marketArg('MARKET', market),
    depth: intFlag('--depth', depth, 1, BOOK_DEPTH_MAX) ?? BOOK_DEPTH_DEFAULT,
  };
}

export function parseTradesOptions(market: string | undefined, raw: RawFlags): TradesOptions {
  const { limit } = TRADES_FLAG_TABLE.read(raw);
  return {
    market: marketArg('MARKET', market),
    limit: intFlag('--limit', limit, 1, TRADES_LIMIT_MAX) ?? TRADES_LIMIT_DEFAULT,
    view: readTableView(raw, TRADE_COLUMNS),
  };
}
