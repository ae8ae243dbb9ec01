// coinop prices: its flags, checked, as a typed options object (the declaration is in index.ts).
import { PRICE_INCREMENTS, type PriceIncrement } from '../../contract/enums.js';
import { usageError } from '../../cli/errors.js';
import { readTableView } from '../../cli/list-flags.js';
import { choiceFlag, intFlag, marketFlag, parseTime, type RawFlags } from '../../cli/options.js';
import { PRICES_FLAG_TABLE } from './flags.js';
import { PRICE_COLUMNS } from '../../render/columns.js';
import type { TableView } from '../../render/table.js';

export interface PricesOptions {
  /** Unset: asked on a terminal (with the increment). By its shape: the run checks the service has it. */
  market?: string;
  increment?: PriceIncrement;
  maxPoints?: number;
  /** RFC 3339 (a date or a duration back from now already resolved). */
  from?: string;
  to?: string;
  limit?: number;
  offset?: number;
  all: boolean;
  /** --columns, --wide. */
  view?: TableView;
}

/** --from and --to, the start not after the end (said with the flags' names, never the API's range fields). */
function range(from: string | undefined, to: string | undefined): { from?: string; to?: string } {
  if (from !== undefined && to !== undefined && Date.parse(from) > Date.parse(to))
    throw usageError(`--from: ${from} is after --to ${to}; the range must start before it ends`);
  return { from, to };
}

export function parsePricesOptions(market: string | undefined, raw: RawFlags, now: number): PricesOptions {
  const f = PRICES_FLAG_TABLE.read(raw);
  const { increment, maxPoints } = f;
  if (increment !== undefined && maxPoints !== undefined)
    throw usageError('--increment and --max-points: give one, not both');
  return {
    increment: choiceFlag('--increment', increment, PRICE_INCREMENTS),
    maxPoints: intFlag('--max-points', maxPoints, 1, 1_000_000),
    limit: intFlag('--limit', f.limit, 1, 1000),
    offset: intFlag('--offset', f.offset, 0, 100_000_000),
    market: market === undefined ? undefined : marketFlag('MARKET', market),
    ...range(parseTime('--from', f.from, now), parseTime('--to', f.to, now)),
    all: f.all,
    view: readTableView(raw, PRICE_COLUMNS),
  };
}
