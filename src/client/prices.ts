// Historical prices as coinop asks for them: a query without a start asks for the latest prices (one page of steps
// back from its end, or the last day with a maximum of points), not the oldest the service keeps. `coinop prices`
// and the MCP server's prices tool both build their queries so.
import { INCREMENT_SECONDS, type PriceIncrement } from '../contract/enums.js';

/**
 * An RFC 3339 time in whole seconds (the fraction dropped), as the time flags send it. Written from the date's UTC
 * fields: a process's first toISOString() looks up the machine's time zone (reads /etc/localtime, loads ICU's zone
 * data: 1 ms and more of a plain `coinop prices`, which asks for its latest prices from such a time), and UTC needs
 * none. Outside years 0-9999 (an extended year, or an invalid time), toISOString's own answer.
 */
export function isoSeconds(ms: number): string {
  const d = new Date(Math.floor(ms / 1000) * 1000);
  const year = d.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) return d.toISOString().replace('.000Z', 'Z');
  const two = (n: number) => String(n).padStart(2, '0');
  const date = `${String(year).padStart(4, '0')}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`;
  return `${date}T${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}Z`;
}

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
