// Historical prices of the local service, from the deterministic price model. The choices where the hosted
// service's documentation is silent:
// - Points sit on multiples of the step since the Unix epoch; a point's timestamp is the beginning of its period
//   and its average_price is the time-weighted average over [t, t + step). Only completed periods are shown.
// - With `increment`, points are strictly inside (range.begin, range.end).
// - With `max_data_points`, the range is inclusive and the step is the finest increment whose point count fits;
//   when even FOUR_WEEKS does not fit, the most recent max_data_points points of FOUR_WEEKS are given.
// - Without range.begin the series starts at the market's earliest date, 2024-01-01T00:00:00Z.
// - Without range.end the series ends with one more point at the request time whose average_price is the
//   current mid price, so the last historical point agrees with the live stream's mid; not when range.begin is in
//   the future (the OpenAPI allows a future range.begin): such a range holds no point at all.
// - range.end later than now is treated as now. Items ascend in time; total_count counts every point of the
//   query; pagination.limit defaults to 100 (at most 1000) and pagination.offset to 0.
import {
  INCREMENT_SECONDS,
  PRICE_INCREMENTS,
  type HistoricalPrice,
  type ListHistoricalPricesQuery,
  type Market,
  type PriceIncrement,
} from '../contract/index.js';
import { averagePrice, midPrice } from '../market-data/price-model.js';
import { isoMillis } from './service-clock.js';

export const EARLIEST_PRICE_MS = Date.UTC(2024, 0, 1);

// A completed period's average never changes, so cached values cannot be wrong.
const averages = new Map<string, string>();

function cachedAverage(seed: number, market: Market, time: number, step: number): string {
  const key = `${seed}|${market}|${time}|${step}`;
  let v = averages.get(key);
  if (v === undefined) {
    v = averagePrice(seed, market, time, step);
    if (averages.size >= 200_000) averages.clear();
    averages.set(key, v);
  }
  return v;
}

/** Averages kept between processes (the local service's database: Store.keptAverages and keepAverages). */
export interface KeptAverages {
  keptAverages(seed: number, market: string, step: number, firstK: number, lastK: number): Map<number, string>;
  keepAverages(seed: number, market: string, step: number, averages: [k: number, average: string][]): void;
}

interface Series {
  step: number;
  firstK: number;
  lastK: number;
  withNow: boolean;
}

function seriesCount(series: Series): number {
  return Math.max(0, series.lastK - series.firstK + 1) + (series.withNow ? 1 : 0);
}

/** The response body (JSON text) of a historical prices query: {market, items, total_count}. */
export function historicalPricesJson(
  seed: number,
  market: Market,
  query: ListHistoricalPricesQuery,
  now: number,
  kept?: KeptAverages,
): string {
  const beginGiven = query['range.begin'] !== undefined ? Date.parse(query['range.begin']) : undefined;
  const endGiven = query['range.end'] !== undefined ? Date.parse(query['range.end']) : undefined;
  const end = Math.min(endGiven ?? now, now);
  const withNow = endGiven === undefined && (beginGiven === undefined || beginGiven <= now);

  const seriesFor = (inc: PriceIncrement, inclusive: boolean): Series => {
    const step = INCREMENT_SECONDS[inc] * 1000;
    let firstK: number;
    if (beginGiven === undefined || beginGiven < EARLIEST_PRICE_MS) firstK = Math.ceil(EARLIEST_PRICE_MS / step);
    else firstK = inclusive ? Math.ceil(beginGiven / step) : Math.floor(beginGiven / step) + 1;
    // Complete periods only, and before (or, inclusive, at) the end of the range.
    let lastK = Math.floor((now - step) / step);
    if (endGiven !== undefined) lastK = Math.min(lastK, inclusive ? Math.floor(end / step) : Math.ceil(end / step) - 1);
    return { step, firstK, lastK, withNow };
  };

  let series: Series;
  if (query.increment !== undefined) {
    series = seriesFor(query.increment, false);
  } else {
    const max = query.max_data_points ?? 1;
    const coarsest = seriesFor('FOUR_WEEKS', true);
    series = { ...coarsest, firstK: coarsest.firstK + Math.max(0, seriesCount(coarsest) - max) };
    for (const inc of PRICE_INCREMENTS) {
      const s = seriesFor(inc, true);
      if (seriesCount(s) <= max) {
        series = s;
        break;
      }
    }
  }

  const total = seriesCount(series);
  const offset = query['pagination.offset'] ?? 0;
  const to = Math.min(total, offset + (query['pagination.limit'] ?? 100));
  const stored = Math.max(0, series.lastK - series.firstK + 1);
  const storedTo = Math.min(to, stored);
  const parts: string[] = [];
  if (storedTo > offset)
    parts.push(storedPage(seed, market, series.step, series.firstK + offset, storedTo - offset, kept));
  if (to > stored && offset < to)
    parts.push(JSON.stringify({ average_price: midPrice(seed, market, now), timestamp: isoMillis(now) }));
  return `{"market":${JSON.stringify(market)},"items":[${parts.join(',')}],"total_count":${total}}`;
}

// Pages of completed periods, serialized once: the same query answers from memory (bounded size).
const pages = new Map<string, string>();
let pagesChars = 0;

function storedPage(
  seed: number,
  market: Market,
  step: number,
  firstK: number,
  count: number,
  kept?: KeptAverages,
): string {
  const key = `${seed}|${market}|${step}|${firstK}|${count}`;
  let page = pages.get(key);
  if (page === undefined) {
    const lastK = firstK + count - 1;
    const known = kept?.keptAverages(seed, market, step, firstK, lastK) ?? new Map<number, string>();
    // What another process kept is the model's value unless the database was written by a coinop whose price model
    // differs: one kept value is worked out again, and on a difference none is used (and all are replaced).
    const [sample] = known;
    if (sample && cachedAverage(seed, market, sample[0] * step, step) !== sample[1]) known.clear();
    const worked: [number, string][] = [];
    const items: HistoricalPrice[] = [];
    for (let k = firstK; k <= lastK; k++) {
      let average = known.get(k);
      if (average === undefined) {
        average = cachedAverage(seed, market, k * step, step);
        worked.push([k, average]);
      }
      items.push({ average_price: average, timestamp: isoMillis(k * step) });
    }
    kept?.keepAverages(seed, market, step, worked);
    page = JSON.stringify(items).slice(1, -1);
    if (pagesChars + page.length > 32_000_000) {
      pages.clear();
      pagesChars = 0;
    }
    pages.set(key, page);
    pagesChars += page.length;
  }
  return page;
}
