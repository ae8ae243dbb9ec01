// The simulated market of one symbol: an order book with seeded random order flow around the price model's mid,
// trades taken from that same book (the recent ones kept for the HTTP snapshots), and the stream payloads each change
// produces.
import { MARKET_INFO } from '../../contract/catalogue.js';
import type { Market } from '../../contract/enums.js';
import type {
  BookLevel,
  ExecutionPayload,
  MarketDataPayload,
  RecentExecution,
  TopOfBookPayload,
} from '../../contract/schemas.js';
import { midPriceFloat, marketSeed } from '../../market-data/price-model.js';
import { seededRng, type Rng } from '../../market-data/rng.js';

/** Prices are integer ticks (10^-priceDecimals), amounts integer lots (10^-amountDecimals): exact and fast. */
function scaledToString(scaled: number, decimals: number): string {
  if (decimals === 0) return String(scaled);
  const s = String(scaled).padStart(decimals + 1, '0');
  return `${s.slice(0, s.length - decimals)}.${s.slice(s.length - decimals)}`;
}

/** A side keyed by tick: ticks sorted with the best LAST (bids ascending, asks descending), lots by tick. */
class SimSide {
  ticks: number[] = [];
  lots = new Map<number, number>();
  constructor(readonly isBid: boolean) {}

  get size(): number {
    return this.ticks.length;
  }
  best(): number | undefined {
    return this.ticks.length ? this.ticks[this.ticks.length - 1] : undefined;
  }
  worst(): number | undefined {
    return this.ticks.length ? this.ticks[0] : undefined;
  }
  /** Position where a tick belongs in storage order. */
  private index(tick: number): number {
    const t = this.ticks;
    let lo = 0;
    let hi = t.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.isBid ? t[mid] < tick : t[mid] > tick) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  set(tick: number, lots: number): void {
    if (lots <= 0) {
      if (!this.lots.has(tick)) return;
      this.lots.delete(tick);
      this.ticks.splice(this.index(tick), 1);
      return;
    }
    if (!this.lots.has(tick)) this.ticks.splice(this.index(tick), 0, tick);
    this.lots.set(tick, lots);
  }
  clear(): void {
    this.ticks = [];
    this.lots.clear();
  }
}

export interface MarketEvents {
  /** A market_data UPDATE (levels with absolute amounts). */
  update(p: MarketDataPayload): void;
  execution(p: ExecutionPayload): void;
  topOfBook(p: TopOfBookPayload): void;
  /** The book was rebuilt (the service clock jumped): subscribers need a fresh SNAPSHOT. */
  rebuilt(p: MarketDataPayload): void;
}

/** Target book shape: levels per side, and how many may cross the moving mid in one step before we stop trading them. */
const TARGET_LEVELS = 40;
const MAX_LEVELS = 80;
/** The fewest levels a side is left with after a step (the market makers' depth behind a sweep). */
const MIN_LEVELS = 10;
const MAX_TRADES_PER_STEP = 5;
/** Executions kept for GET /v2/markets/{market}/recent-executions: the hosted service lists the 2000 most recent. */
export const RECENT_EXECUTIONS = 2000;
/** Order flow between two steps of a market nobody watches, as the stream's default of 10 messages a second. */
const FLOW_STEP_MS = 100;
/** Trading a fresh book has behind it: built this long before it is first shown, and stepped up to that moment. */
const HISTORY_MS = 60_000;
/** A market left alone longer than this gets a fresh book at the current price rather than the flow it missed. */
const IDLE_MS = 5000;

/** One execution as the market keeps it: ticks and lots to compute with, and the item recent-executions lists. */
export interface Trade {
  ms: number;
  tick: number;
  lots: number;
  execution: RecentExecution;
}

/**
 * Event times are unique and increasing per market: the service clock in ms plus a sub-millisecond counter, written
 * with nanoseconds (spec/SERVICE.md 6), so a client can order every UPDATE against its SNAPSHOT.
 */
class EventClock {
  private ms = -Infinity;
  private sub = 0;
  private isoMs = '';
  private isoMsText = '';
  next(nowMs: number): string {
    const now = Math.floor(nowMs);
    if (now > this.ms) {
      this.ms = now;
      this.sub = 0;
    } else if (++this.sub >= 1_000_000) {
      this.ms++;
      this.sub = 0;
    }
    if (this.isoMs !== String(this.ms)) {
      this.isoMs = String(this.ms);
      this.isoMsText = new Date(this.ms).toISOString().slice(0, 23);
    }
    return `${this.isoMsText + String(this.sub).padStart(6, '0')}Z`;
  }
  /** The millisecond and the counter within it of the latest event (a trade's match number is made of them). */
  position(): [number, number] {
    return [this.ms, this.sub];
  }
  /** The time of the latest event (what a snapshot taken now is "as of"). */
  last(): string {
    if (this.ms === -Infinity) return '';
    return `${new Date(this.ms).toISOString().slice(0, 23) + String(this.sub).padStart(6, '0')}Z`;
  }
}

export class SimulatedMarket {
  readonly info: (typeof MARKET_INFO)[Market];
  private readonly bids = new SimSide(true);
  private readonly asks = new SimSide(false);
  private readonly rng: Rng;
  private clock = new EventClock();
  /** Recent executions, oldest first; trimmed to RECENT_EXECUTIONS from time to time. */
  private trades: Trade[] = [];
  /** Book time: the time of the last change (or of the build). */
  private time = '';
  /** Service time (ms) of the last step, to rebuild a book that sat idle. */
  lastStepMs = -Infinity;
  private lastTop: [number | undefined, number | undefined] = [undefined, undefined];
  /** Grid between levels, in ticks (about half a basis point of the price). */
  private grid = 1;
  steps = 0;

  constructor(
    readonly market: Market,
    private readonly seed: number,
  ) {
    this.info = MARKET_INFO[market];
    this.rng = seededRng(marketSeed(seed, market) ^ 0x5bd1e995);
  }

  private midTicks(nowMs: number): number {
    return midPriceFloat(this.seed, this.market, nowMs) * 10 ** this.info.priceDecimals;
  }

  /** A random order size in lots: mostly small, sometimes large, worth roughly 50 to 50,000 in quote currency. */
  private randomLots(midTicks: number): number {
    const price = midTicks / 10 ** this.info.priceDecimals;
    const notional = 50 * Math.exp(this.rng() * Math.log(1000));
    const lots = Math.round((notional / price) * 10 ** this.info.amountDecimals);
    return Math.max(1, lots);
  }

  /** The tick one grid step inside the side from the mid: where a market maker quotes afresh. */
  private nearMid(side: SimSide, mid: number): number {
    return side.isBid ? Math.floor(mid) - this.grid : Math.ceil(mid) + this.grid;
  }

  /** Distance from the mid in ticks for a new order: half a spread plus an exponential number of grid steps. */
  private randomDistance(): number {
    return this.grid * (1 + Math.floor(-Math.log(1 - this.rng()) * 6));
  }

  /**
   * A fresh book for `nowMs` with recent trading behind it: built around the mid of a minute earlier (or of the
   * last step, when that is later) and stepped to `nowMs`, so a snapshot taken at once has recent executions and a
   * last price. Nothing is emitted (nobody is subscribed to see it).
   */
  rebuild(nowMs: number): void {
    if (nowMs < this.clock.position()[0]) {
      // The service clock went back (a reset or a state import): trades and event times from "the future" go.
      this.clock = new EventClock();
      this.trades = [];
    }
    const from = Math.max(nowMs - HISTORY_MS, this.lastStepMs <= nowMs ? this.lastStepMs : -Infinity);
    this.build(from);
    for (let t = from + FLOW_STEP_MS; t <= nowMs; t += FLOW_STEP_MS) this.step(t, null);
    this.lastTop = [this.bids.best(), this.asks.best()];
  }

  /** A book around the mid of `nowMs`, as new. */
  private build(nowMs: number): void {
    const mid = this.midTicks(nowMs);
    this.grid = Math.max(1, Math.round(mid * 0.00005));
    this.bids.clear();
    this.asks.clear();
    for (let i = 0; i < TARGET_LEVELS; i++) {
      this.bids.set(Math.floor(mid) - this.grid * (i + 1), this.randomLots(mid));
      this.asks.set(Math.ceil(mid) + this.grid * (i + 1), this.randomLots(mid));
    }
    this.time = this.clock.next(nowMs);
    this.lastStepMs = nowMs;
    this.lastTop = [this.bids.best(), this.asks.best()];
  }

  /** Rebuild when the book has not moved for a while, so an idle market picks up at the current price. */
  ensureFresh(nowMs: number, idleMs = IDLE_MS): boolean {
    if (this.bids.size === 0 || nowMs - this.lastStepMs > idleMs || nowMs < this.lastStepMs - idleMs) {
      this.rebuild(nowMs);
      return true;
    }
    return false;
  }

  /**
   * A market nobody watches, brought to `nowMs` without emitting: the order flow it missed since its last step, or a
   * fresh book after an idle spell. Never for a watched market: its subscribers would miss those changes.
   */
  catchUp(nowMs: number): void {
    if (this.ensureFresh(nowMs)) return;
    for (let t = this.lastStepMs + FLOW_STEP_MS; t <= nowMs; t += FLOW_STEP_MS) this.step(t, null);
  }

  /**
   * One step of order flow at service time `nowMs`: the book follows the model's mid (resting orders the mid moved
   * through trade), then one random action: a new or changed order, a cancel, or a market order. Emits one UPDATE,
   * its trades, and a top of book when a best price changed.
   */
  step(nowMs: number, out: MarketEvents | null): void {
    if (this.ensureFresh(nowMs) && out) {
      this.lastTop = [undefined, undefined];
      out.rebuilt(this.snapshot());
    }
    this.lastStepMs = nowMs;
    this.steps++;
    const mid = this.midTicks(nowMs);
    const changedBids = new Map<number, number>();
    const changedAsks = new Map<number, number>();
    const trades: Array<[number, number]> = [];
    const set = (side: SimSide, tick: number, lots: number) => {
      side.set(tick, lots);
      (side.isBid ? changedBids : changedAsks).set(tick, Math.max(0, lots));
    };
    // Resting orders on the wrong side of the mid are taken by the flow that moved it.
    for (const side of [this.asks, this.bids]) {
      for (;;) {
        const best = side.best();
        if (best === undefined || (side.isBid ? best < mid : best > mid)) break;
        const lots = side.lots.get(best)!;
        if (trades.length < MAX_TRADES_PER_STEP) trades.push([best, lots]);
        set(side, best, 0);
      }
    }
    const r = this.rng();
    const side = this.rng() < 0.5 ? this.bids : this.asks;
    if (r < 0.5 || side.size < TARGET_LEVELS / 2) {
      // A new order, or more size at an existing price.
      const d = this.randomDistance();
      const tick = side.isBid ? Math.floor(mid) - d : Math.ceil(mid) + d;
      set(side, tick, (side.lots.get(tick) ?? 0) + this.randomLots(mid));
    } else if (r < 0.85) {
      // A cancel: whole or partial, more often near the top where orders churn.
      const n = side.size;
      const fromBest = Math.min(n - 1, Math.floor(-Math.log(1 - this.rng()) * 8));
      const tick = side.ticks[n - 1 - fromBest];
      const lots = side.lots.get(tick)!;
      set(side, tick, this.rng() < 0.5 ? 0 : Math.floor(lots * this.rng()));
    } else {
      // A market order against `side`, consuming levels from the best.
      let want = this.randomLots(mid);
      while (want > 0 && side.size > 0) {
        const best = side.best()!;
        const lots = side.lots.get(best)!;
        const take = Math.min(lots, want);
        want -= take;
        if (trades.length < MAX_TRADES_PER_STEP) trades.push([best, take]);
        set(side, best, lots - take);
      }
    }
    // Market makers re-quote: a side whose best is left far behind by the mid (it moved, or an order swept
    // levels) gets a fresh order near it.
    for (const side of [this.bids, this.asks]) {
      const best = side.best();
      const gap = best === undefined ? Infinity : side.isBid ? mid - best : best - mid;
      if (gap > this.grid * 3) {
        const tick = this.nearMid(side, mid);
        set(side, tick, (side.lots.get(tick) ?? 0) + this.randomLots(mid));
      }
    }
    // Behind the best, market makers keep a book of MIN_LEVELS at least: a sweep or a mid that ran through the side
    // leaves it thin for a step, not for minutes (a thin side is a book whose depth shows blanks).
    for (const side of [this.bids, this.asks]) {
      while (side.size < MIN_LEVELS) {
        const worst = side.worst();
        const tick = worst === undefined ? this.nearMid(side, mid) : side.isBid ? worst - this.grid : worst + this.grid;
        set(side, tick, this.randomLots(mid));
      }
    }
    for (const s of [this.bids, this.asks]) {
      while (s.size > MAX_LEVELS) set(s, s.worst()!, 0);
    }
    if (changedBids.size === 0 && changedAsks.size === 0) return;
    const time = this.clock.next(nowMs);
    this.time = time;
    const made = this.record(trades, time);
    if (out) this.emit(out, time, changedBids, changedAsks, made);
  }

  /** Keeps a step's trades as executions, each with a match number unique in this market: its time and place. */
  private record(trades: Array<[number, number]>, time: string): Trade[] {
    if (!trades.length) return [];
    const [ms, sub] = this.clock.position();
    const base = BigInt(ms) * 10_000_000n + BigInt(sub * MAX_TRADES_PER_STEP);
    const made = trades.map(([tick, lots], index): Trade => {
      const execution = {
        match_number: (base + BigInt(index)).toString(36).toUpperCase(),
        price: scaledToString(tick, this.info.priceDecimals),
        amount: scaledToString(lots, this.info.amountDecimals),
        executed_at: time,
      };
      return { ms, tick, lots, execution };
    });
    this.trades.push(...made);
    if (this.trades.length > RECENT_EXECUTIONS * 2) this.trades.splice(0, this.trades.length - RECENT_EXECUTIONS);
    return made;
  }

  /** A step's stream messages: one UPDATE, its trades, and a top of book when a best price changed. */
  private emit(
    out: MarketEvents,
    time: string,
    changedBids: Map<number, number>,
    changedAsks: Map<number, number>,
    trades: Trade[],
  ): void {
    const pd = this.info.priceDecimals;
    const ad = this.info.amountDecimals;
    const levels = (levelMap: Map<number, number>): BookLevel[] => {
      const a: BookLevel[] = [];
      for (const [tick, lots] of levelMap)
        a.push({ price: scaledToString(tick, pd), amount: lots === 0 ? '0' : scaledToString(lots, ad) });
      return a;
    };
    out.update({ market: this.market, type: 'UPDATE', time, bids: levels(changedBids), asks: levels(changedAsks) });
    for (const { execution: e } of trades)
      out.execution({ market: this.market, price: e.price, amount: e.amount, executed_at: e.executed_at });
    const top: [number | undefined, number | undefined] = [this.bids.best(), this.asks.best()];
    if (top[0] !== this.lastTop[0] || top[1] !== this.lastTop[1]) {
      this.lastTop = top;
      out.topOfBook(this.topOfBook(time));
    }
  }

  /** The most recent executions (at most RECENT_EXECUTIONS), oldest first. */
  recentTrades(): Trade[] {
    return this.trades.slice(-RECENT_EXECUTIONS);
  }

  /** The latest execution, if the market has traded. */
  lastTrade(): Trade | undefined {
    return this.trades[this.trades.length - 1];
  }

  topOfBook(timestamp = this.time): TopOfBookPayload {
    const pd = this.info.priceDecimals;
    const ad = this.info.amountDecimals;
    const one = (side: SimSide): BookLevel[] => {
      const b = side.best();
      return b === undefined ? [] : [{ price: scaledToString(b, pd), amount: scaledToString(side.lots.get(b)!, ad) }];
    };
    return { market: this.market, type: 'TOP_OF_BOOK', timestamp, bids: one(this.bids), asks: one(this.asks) };
  }

  /** The whole book as a SNAPSHOT as of the latest event (best first on both sides). */
  snapshot(): MarketDataPayload {
    const pd = this.info.priceDecimals;
    const ad = this.info.amountDecimals;
    const levels = (side: SimSide): BookLevel[] => {
      const out: BookLevel[] = [];
      for (let i = side.ticks.length - 1; i >= 0; i--) {
        const t = side.ticks[i];
        out.push({ price: scaledToString(t, pd), amount: scaledToString(side.lots.get(t)!, ad) });
      }
      return out;
    };
    return { market: this.market, type: 'SNAPSHOT', time: this.time, bids: levels(this.bids), asks: levels(this.asks) };
  }

  /** Mid of the book (between best bid and best ask) as a float, for tests that compare it with the price model. */
  bookMid(): number | undefined {
    const b = this.bids.best();
    const a = this.asks.best();
    if (b === undefined || a === undefined) return undefined;
    return (b + a) / 2 / 10 ** this.info.priceDecimals;
  }
}

export { scaledToString };
