// Historical prices as coinop asks for them: a query without a start asks for the latest prices (one page of steps
// back from its end, or the last day with a maximum of points), not the oldest the service keeps. `coinop prices`
// and the MCP server's prices tool both build their queries so.
import { INCREMENT_SECONDS, type PriceIncrement } from '../contract/enums.js';
import { isoSeconds } from '../contract/iso-time.js';

/** An RFC 3339 time in whole seconds (the fraction dropped), as the time flags send it. */
export { isoSeconds } from '../contract/iso-time.js';

/**
 * The range.begin of a query that gives none: `limit` steps (100 by default) before `endMs` with an increment, which
 * with the current mid point the service adds when range.end is absent makes one page of the latest prices; with a
 * maximum of points instead, the last day.
 */
export function latestRangeBegin(
  increment: PriceIncrement | undefined,
  limit: number | undefined,
  endMs: number,
): string {
  const span = increment ? (limit ?? 100) * INCREMENT_SECONDS[increment] * 1000 : 86_400_000;
  return isoSeconds(endMs - span);
}
