// The HTTP market data snapshots of the local service, read from the same simulated markets the stream serves
// (stream/exchange.ts). The choices where the hosted service's documentation is silent:
// - GET /v2/markets lists every market of the catalogue (spec/SERVICE.md's Market enumeration), all AVAILABLE, with the
//   tick (one unit of the price's last decimal) and the smallest amount (one unit of the amount's last decimal).
// - The order book is the whole simulated book, best price first on both sides: what a market_data SNAPSHOT of the
//   stream would say at the same moment.
// - Recent executions are the market's last 2000 trades, oldest first as in the published example, each with a match
//   number unique in its market; executed_at is the stream's own time of that trade.
// - The ticker's last_execution is the latest of those trades; best bid and ask are the book's. For last_day (the
//   24 hours to now) and today (from midnight UTC), open is the price model's mid at the start, high and low span
//   that mid sampled every minute and the trades in the window, and volume (with its VWAP) counts the trades the
//   simulated market made in the window: it trades while the stream watches it, and two minutes before it is first
//   read, so volume is small next to a real market's.
// - Prices: current_price is the last trade's price, yesterday_price the price model's one-minute average of the
//   minute 24 hours ago (the value GET historical-prices gives for that minute).
import { catalogueMarket, MARKETS, type Market } from '../contract/index.js';
import {
  dec,
  decimalClass,
  type ExchangeStats,
  type ListMarketsResponse,
  type ListPricesResponse,
  type ListRecentExecutionsResponse,
  type MarketPrice,
  type OrderBookResponse,
  type Ticker,
} from '../contract/index.js';
import { averagePrice, midPriceFloat } from '../market-data/price-model.js';
import { isoMillis } from './service-clock.js';
import type { SimulatedExchange } from './stream/exchange.js';
import { scaledToString, type SimulatedMarket, type Trade } from './stream/market.js';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

export function marketsJson(): ListMarketsResponse {
  return {
    markets: MARKETS.map((market) => ({
      ...catalogueMarket(market),
      market_status: { buy_status: 'AVAILABLE', sell_status: 'AVAILABLE', scheduled_maintenance: [] },
    })),
  };
}

export function orderBookJson(sim: SimulatedMarket): OrderBookResponse {
  const { bids, asks } = sim.snapshot();
  return { market: sim.market, bids, asks };
}

export function recentExecutionsJson(sim: SimulatedMarket): ListRecentExecutionsResponse {
  return { items: sim.recentTrades().map((t) => t.execution) };
}

/** Open, high, low, volume and VWAP of [beginMs, endMs]: the price model's path and the market's trades in it. */
function stats(sim: SimulatedMarket, seed: number, beginMs: number, endMs: number, trades: Trade[]): ExchangeStats {
  const pd = sim.info.priceDecimals;
  const modelTicks = (t: number) => Math.round(midPriceFloat(seed, sim.market, t) * 10 ** pd);
  const open = modelTicks(beginMs);
  let high = open;
  let low = open;
  for (let t = beginMs + MINUTE_MS; t <= endMs; t += MINUTE_MS) {
    const m = modelTicks(t);
    if (m > high) high = m;
    if (m < low) low = m;
  }
  let lots = 0;
  let notional = dec(0);
  for (const tr of trades) {
    if (tr.ms < beginMs || tr.ms > endMs) continue;
    if (tr.tick > high) high = tr.tick;
    if (tr.tick < low) low = tr.tick;
    lots += tr.lots;
    notional = notional.plus(dec(tr.tick).times(tr.lots));
  }
  const price = (ticks: number) => scaledToString(ticks, pd);
  return {
    high: price(high),
    low: price(low),
    open: price(open),
    volume: lots ? scaledToString(lots, sim.info.amountDecimals) : '0',
    ...(lots
      ? {
          volume_weighted_average_price: notional
            .div(lots)
            .div(10 ** pd)
            .toFixed(pd, decimalClass().ROUND_HALF_EVEN),
        }
      : {}),
    range: { begin: isoMillis(beginMs), end: isoMillis(endMs) },
  };
}

export function tickerJson(sim: SimulatedMarket, seed: number, nowMs: number): Ticker {
  const top = sim.topOfBook();
  const last = sim.lastTrade();
  const trades = sim.recentTrades();
  return {
    market: sim.market,
    ...(top.bids[0] ? { best_bid: top.bids[0] } : {}),
    ...(top.asks[0] ? { best_ask: top.asks[0] } : {}),
    ...(last ? { last_execution: { price: last.execution.price, amount: last.execution.amount } } : {}),
    last_day: stats(sim, seed, nowMs - DAY_MS, nowMs, trades),
    today: stats(sim, seed, Math.floor(nowMs / DAY_MS) * DAY_MS, nowMs, trades),
    snapshot_at: isoMillis(nowMs),
  };
}

/** The last trade's price, or the book's mid (rounded down to the tick) before the market's first trade. */
function currentPrice(sim: SimulatedMarket): string | undefined {
  const last = sim.lastTrade();
  if (last) return last.execution.price;
  const mid = sim.bookMid();
  return mid === undefined
    ? undefined
    : scaledToString(Math.floor(mid * 10 ** sim.info.priceDecimals), sim.info.priceDecimals);
}

export function pricesJson(
  exchange: SimulatedExchange,
  seed: number,
  markets: Market[],
  nowMs: number,
): ListPricesResponse {
  const yesterday = Math.floor((nowMs - DAY_MS) / MINUTE_MS) * MINUTE_MS;
  const items: MarketPrice[] = [];
  for (const market of new Set(markets)) {
    const current = currentPrice(exchange.current(market));
    items.push({
      market,
      ...(current !== undefined ? { current_price: current } : {}),
      yesterday_price: averagePrice(seed, market, yesterday, MINUTE_MS),
      snapshot_at: isoMillis(nowMs),
    });
  }
  return { items };
}
