// Running statistics of execution_data trades per market: count, volume, VWAP (exact decimals) and recent rate.
import { type Decimal, dec, isAmountString } from '../contract/money.js';
import type { ExecutionPayload, RecentExecution } from '../contract/schemas.js';
import { compareTime, parseTimeKey } from './book.js';

export interface MarketTradeStats {
  market: string;
  trades: number;
  volume: Decimal;
  notional: Decimal;
  last?: ExecutionPayload;
  /** Receive times (ms) of trades in the rate window. */
  recent: number[];
}

export class TradeTape {
  /** Newest last. */
  readonly tape: Array<ExecutionPayload & { receivedAt: number }> = [];
  readonly stats = new Map<string, MarketTradeStats>();

  constructor(
    private readonly keep = 500,
    private readonly rateWindowMs = 10_000,
  ) {}

  add(payload: ExecutionPayload, receivedAt: number): void {
    if (typeof payload?.price !== 'string' || typeof payload.amount !== 'string') return;
    let price: Decimal;
    let amount: Decimal;
    try {
      price = dec(payload.price);
      amount = dec(payload.amount);
    } catch {
      return;
    }
    let s = this.stats.get(payload.market);
    if (!s)
      this.stats.set(
        payload.market,
        (s = { market: payload.market, trades: 0, volume: dec(0), notional: dec(0), recent: [] }),
      );
    s.trades++;
    s.volume = s.volume.plus(amount);
    s.notional = s.notional.plus(price.times(amount));
    // execution_data may arrive out of order (spec/UPSTREAM.md): "last" is the latest execution, not the last message.
    if (!s.last || payload.executed_at >= s.last.executed_at) s.last = payload;
    s.recent.push(receivedAt);
    this.tape.push({ ...payload, receivedAt });
    if (this.tape.length > this.keep * 2) this.tape.splice(0, this.tape.length - this.keep);
  }

  /** Volume-weighted average price, or undefined before the first trade. */
  vwap(market: string): Decimal | undefined {
    const s = this.stats.get(market);
    if (!s || s.volume.isZero()) return undefined;
    return s.notional.div(s.volume);
  }

  /** Trades per second over the rate window ending at `now`. */
  rate(market: string, now: number): number {
    const s = this.stats.get(market);
    if (!s) return 0;
    const from = now - this.rateWindowMs;
    let i = 0;
    while (i < s.recent.length && s.recent[i] < from) i++;
    if (i) s.recent.splice(0, i);
    return s.recent.length / (this.rateWindowMs / 1000);
  }

  latest(count: number): Array<ExecutionPayload & { receivedAt: number }> {
    return this.tape.slice(-count).reverse();
  }
}

/**
 * Recent trades newest first, whatever order the service lists them in (the published example lists the oldest
 * first); those that do not read as trades (a decimal price and amount) are left out.
 */
export function newestFirst(items: unknown): RecentExecution[] {
  const trades = (Array.isArray(items) ? items : []).filter(
    (t): t is RecentExecution => isAmountString(t?.price) && isAmountString(t?.amount),
  );
  const keyed = trades.map((t) => ({ t, k: parseTimeKey(String(t.executed_at)) ?? { ms: -Infinity, ns: 0 } }));
  return keyed.sort((a, b) => compareTime(b.k, a.k)).map((x) => x.t);
}
