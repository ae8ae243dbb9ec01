// The client-side order book: sorted book sides with exact decimal prices, and the SNAPSHOT/UPDATE rules of the stream.
import { isAmountString } from '../contract/money.js';
import type { BookLevel, MarketDataPayload } from '../contract/schemas.js';

/**
 * Canonical form of a non-negative decimal string: no leading zeros in the integer part, no trailing zeros in the
 * fraction. Only called when two prices parse to the same float but are not the same string.
 */
function canonical(amount: string): string {
  let start = 0;
  while (start < amount.length - 1 && amount.charCodeAt(start) === 48 && amount.charCodeAt(start + 1) !== 46) start++;
  let end = amount.length;
  if (amount.indexOf('.', start) >= 0) {
    while (end > start && amount.charCodeAt(end - 1) === 48) end--;
    if (end > start && amount.charCodeAt(end - 1) === 46) end--;
  }
  const r = amount.slice(start, end);
  if (r === '' || r.charCodeAt(0) === 46) return `0${r}`;
  return r;
}

/** Exact comparison of two non-negative decimal strings: negative, zero or positive like left - right. */
export function compareDecimal(left: string, right: string): number {
  if (left === right) return 0;
  const ca = canonical(left);
  const cb = canonical(right);
  if (ca === cb) return 0;
  const ia = ca.indexOf('.');
  const ib = cb.indexOf('.');
  const ai = ia < 0 ? ca : ca.slice(0, ia);
  const bi = ib < 0 ? cb : cb.slice(0, ib);
  if (ai.length !== bi.length) return ai.length - bi.length;
  if (ai !== bi) return ai < bi ? -1 : 1;
  const af = ia < 0 ? '' : ca.slice(ia + 1);
  const bf = ib < 0 ? '' : cb.slice(ib + 1);
  // Without trailing zeros, fractions compare exactly as strings ("05" < "5", "5" < "51").
  return af < bf ? -1 : af > bf ? 1 : 0;
}

/** True when a decimal string is zero ("0", "0.000", ".0"). */
export function isZeroAmount(amount: string): boolean {
  for (let i = 0; i < amount.length; i++) {
    const c = amount.charCodeAt(i);
    if (c !== 48 && c !== 46) return false;
  }
  return true;
}

/** A plain non-negative decimal ("12", "0.5", ".5"), as the wire pattern ^[0-9]*\\.?[0-9]+$ allows. */
export function isDecimalString(text: string): boolean {
  const n = text.length;
  if (n === 0) return false;
  let dot = false;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      if (dot || i === n - 1) return false;
      dot = true;
    } else if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * One side of a book: levels kept sorted in parallel arrays, found by binary search. Ordering uses the float value
 * of the price (parseFloat is monotonic, so different floats order correctly) and falls back to an exact decimal
 * comparison only when two floats are equal, so prices stay exact without paying for decimal arithmetic. The arrays
 * hold the best level LAST: most order flow is near the top of the book, and changes at the end of an array move
 * nothing. Use at(i) / levels() for best-first access.
 */
export class BookSide {
  prices: string[] = [];
  amounts: string[] = [];
  keys: number[] = [];
  /** Bids are best-first descending, asks best-first ascending. */
  constructor(readonly descending: boolean) {}

  get size(): number {
    return this.prices.length;
  }

  /** Index of the level with this price, or -(insertion point) - 1. */
  private search(price: string, key: number): number {
    const keys = this.keys;
    let lo = 0;
    let hi = keys.length - 1;
    const desc = this.descending;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const k = keys[mid];
      let c: number;
      if (k === key) {
        c = compareDecimal(this.prices[mid], price);
        if (c === 0) return mid;
      } else c = k < key ? -1 : 1;
      // c < 0: the level's price is below the searched price. Storage is ascending for bids, descending for asks.
      if (desc ? c < 0 : c > 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -lo - 1;
  }

  /** Set a level's absolute amount; a zero amount removes it. Prices must be plain decimals (callers check). */
  set(price: string, amount: string): boolean {
    const key = +price;
    if (Number.isNaN(key) || price.length === 0) return false;
    const i = this.search(price, key);
    if (isZeroAmount(amount)) {
      if (i >= 0) this.removeAt(i);
      return true;
    }
    if (i >= 0) this.amounts[i] = amount;
    else this.insertAt(-i - 1, price, amount, key);
    return true;
  }

  // Hand-written shifts instead of splice: no garbage array per call, and near the best level (the array's end)
  // almost nothing moves.
  private removeAt(index: number): void {
    const { prices, amounts, keys } = this;
    const last = prices.length - 1;
    for (let j = index; j < last; j++) {
      prices[j] = prices[j + 1];
      amounts[j] = amounts[j + 1];
      keys[j] = keys[j + 1];
    }
    prices.pop();
    amounts.pop();
    keys.pop();
  }

  private insertAt(at: number, price: string, amount: string, key: number): void {
    const { prices, amounts, keys } = this;
    let j = prices.length;
    prices.push(price);
    amounts.push(amount);
    keys.push(key);
    for (; j > at; j--) {
      prices[j] = prices[j - 1];
      amounts[j] = amounts[j - 1];
      keys[j] = keys[j - 1];
    }
    prices[at] = price;
    amounts[at] = amount;
    keys[at] = key;
  }

  get(price: string): string | undefined {
    const key = +price;
    if (Number.isNaN(key)) return undefined;
    const i = this.search(price, key);
    return i >= 0 ? this.amounts[i] : undefined;
  }

  best(): BookLevel | undefined {
    const n = this.prices.length;
    return n ? { price: this.prices[n - 1], amount: this.amounts[n - 1] } : undefined;
  }

  /** Price of the i-th best level (0 = best). */
  priceAt(index: number): string {
    return this.prices[this.prices.length - 1 - index];
  }
  amountAt(index: number): string {
    return this.amounts[this.amounts.length - 1 - index];
  }

  /** Prices best first. */
  pricesBestFirst(): string[] {
    return this.prices.slice().reverse();
  }

  /** The first `depth` levels, best first. */
  levels(depth = Infinity): BookLevel[] {
    const len = this.prices.length;
    const n = Math.min(depth, len);
    const out: BookLevel[] = new Array(n);
    for (let i = 0; i < n; i++) out[i] = { price: this.prices[len - 1 - i], amount: this.amounts[len - 1 - i] };
    return out;
  }

  clear(): void {
    this.prices = [];
    this.amounts = [];
    this.keys = [];
  }
}

/**
 * The levels of one side of a book snapshot that read as levels (a decimal price and amount), best first: bids high
 * to low, asks low to high. A lenient read of a service's answer.
 */
export function bestFirst(levels: unknown, bids: boolean): BookLevel[] {
  const ok = (Array.isArray(levels) ? levels : []).filter(
    (l): l is BookLevel => isAmountString(l?.price) && isAmountString(l?.amount),
  );
  return ok.sort((x, y) => (bids ? -1 : 1) * compareDecimal(x.price, y.price));
}

/** An RFC 3339 time as (epoch milliseconds of the whole second, nanoseconds), comparable exactly. */
export interface TimeKey {
  ms: number;
  ns: number;
}

const TIME_RE = /^(\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d)(?:\.(\d+))?([Zz]|[+-]\d\d:?\d\d)$/;
const DIGITS_RE = /^\d+$/;
// Stream times come many per second: remember the last whole second read so most parses skip Date.parse.
let lastSecondText = '';
let lastSecondMs = NaN;

export function parseTimeKey(text: string): TimeKey | null {
  // Fast path for the usual "YYYY-MM-DDTHH:MM:SS[.fraction]Z".
  if (text.length >= 20 && text.charCodeAt(text.length - 1) === 90 && text.charCodeAt(10) === 84) {
    const head = text.slice(0, 19);
    let ms: number;
    if (head === lastSecondText) ms = lastSecondMs;
    else {
      ms = TIME_RE.test(`${head}Z`) ? Date.parse(`${head}Z`) : NaN;
      if (Number.isNaN(ms)) return parseTimeKeySlow(text);
      lastSecondText = head;
      lastSecondMs = ms;
    }
    if (text.length === 20) return { ms, ns: 0 };
    if (text.charCodeAt(19) !== 46) return parseTimeKeySlow(text);
    const frac = text.slice(20, text.length - 1);
    if (frac.length === 0 || !DIGITS_RE.test(frac)) return null;
    const ns = Number(frac.length >= 9 ? frac.slice(0, 9) : frac + '000000000'.slice(frac.length));
    return { ms, ns };
  }
  return parseTimeKeySlow(text);
}

function parseTimeKeySlow(text: string): TimeKey | null {
  const m = TIME_RE.exec(text);
  if (!m) return null;
  const ms = Date.parse(
    m[1].replace(/[t ]/, 'T') +
      (m[3] === 'z' ? 'Z' : m[3].length === 5 ? `${m[3].slice(0, 3)}:${m[3].slice(3)}` : m[3]),
  );
  if (Number.isNaN(ms)) return null;
  const frac = m[2] ?? '';
  const ns =
    frac.length === 0 ? 0 : Number(frac.length >= 9 ? frac.slice(0, 9) : frac + '000000000'.slice(frac.length));
  return { ms, ns };
}

export function compareTime(left: TimeKey, right: TimeKey): number {
  return left.ms !== right.ms ? left.ms - right.ms : left.ns - right.ns;
}

/** "YYYY-MM-DDTHH:MM:SS[.fff…]Z" by its separators (cheap; a full parse happens once per snapshot). */
function isUtcShape(text: string): boolean {
  const n = text.length;
  return (
    n >= 20 &&
    text.charCodeAt(n - 1) === 90 &&
    text.charCodeAt(4) === 45 &&
    text.charCodeAt(7) === 45 &&
    text.charCodeAt(10) === 84 &&
    text.charCodeAt(13) === 58 &&
    text.charCodeAt(16) === 58 &&
    (n === 20 || text.charCodeAt(19) === 46)
  );
}

export type BookState = 'awaiting-snapshot' | 'live';

/**
 * The book of one market as the stream describes it (spec/UPSTREAM.md "Market data stream"): UPDATEs that arrive before
 * the SNAPSHOT are buffered; once it arrives, those whose time is not after the snapshot's are dropped and the rest
 * applied in arrival order. Amounts are absolute and "0" removes a level.
 */
export class OrderBook {
  readonly bids = new BookSide(true);
  readonly asks = new BookSide(false);
  state: BookState = 'awaiting-snapshot';
  /** Time of the snapshot, then of the latest applied update, as sent. */
  time: string | null = null;
  private snapshotKey: TimeKey | null = null;
  /** The snapshot's time when it is plain UTC ("...Z"): same-shaped times then compare exactly as strings. */
  private snapshotUtc: string | null = null;
  private pending: MarketDataPayload[] = [];
  /** Counters for views and benchmarks. */
  updatesApplied = 0;
  updatesDropped = 0;
  levelChanges = 0;
  snapshots = 0;
  /** Local receive time (ms) of the last change, for "age of the last update" (when apply() is given one). */
  changedAt = 0;

  constructor(readonly market: string) {}

  /** Forget everything, as after a reconnect: the next SNAPSHOT rebuilds the book. */
  reset(): void {
    this.bids.clear();
    this.asks.clear();
    this.state = 'awaiting-snapshot';
    this.time = null;
    this.snapshotKey = null;
    this.snapshotUtc = null;
    this.pending = [];
  }

  /**
   * Apply one market_data payload; `receivedAt` (ms), when given, becomes changedAt if the book changed (the caller
   * reads the clock once per message already). Returns true if the book changed.
   */
  apply(payload: MarketDataPayload, receivedAt?: number): boolean {
    let changed: boolean;
    if (payload.type === 'SNAPSHOT') changed = this.applySnapshot(payload);
    else if (this.state !== 'live') {
      this.pending.push(payload);
      return false;
    } else changed = this.applyUpdate(payload);
    if (changed && receivedAt !== undefined) this.changedAt = receivedAt;
    return changed;
  }

  get pendingCount(): number {
    return this.pending.length;
  }

  private applySnapshot(payload: MarketDataPayload): boolean {
    this.bids.clear();
    this.asks.clear();
    this.setLevels(this.bids, payload.bids);
    this.setLevels(this.asks, payload.asks);
    this.time = payload.time;
    this.snapshotKey = parseTimeKey(payload.time);
    this.snapshotUtc = this.snapshotKey && isUtcShape(payload.time) ? payload.time : null;
    this.state = 'live';
    this.snapshots++;
    const pending = this.pending;
    this.pending = [];
    for (const u of pending) this.applyUpdate(u);
    return true;
  }

  private applyUpdate(payload: MarketDataPayload): boolean {
    const snap = this.snapshotKey;
    const utc = this.snapshotUtc;
    const t = payload.time;
    if (utc !== null && typeof t === 'string' && t.length === utc.length && isUtcShape(t)) {
      // Same layout, same number of fraction digits, both UTC: string order is time order, no parsing.
      if (t <= utc) {
        this.updatesDropped++;
        return false;
      }
    } else if (snap) {
      const k = parseTimeKey(payload.time);
      // An update whose time cannot be read cannot be placed against the snapshot either: drop it.
      if (!k || compareTime(k, snap) <= 0) {
        this.updatesDropped++;
        return false;
      }
    }
    this.setLevels(this.bids, payload.bids);
    this.setLevels(this.asks, payload.asks);
    this.time = payload.time;
    this.updatesApplied++;
    return true;
  }

  private setLevels(side: BookSide, levels: BookLevel[] | undefined): void {
    if (!Array.isArray(levels)) return;
    for (let i = 0; i < levels.length; i++) {
      const l = levels[i];
      if (
        l &&
        typeof l.price === 'string' &&
        typeof l.amount === 'string' &&
        isDecimalString(l.amount) &&
        isDecimalString(l.price)
      ) {
        if (side.set(l.price, l.amount)) this.levelChanges++;
      }
    }
  }

  bestBid(): BookLevel | undefined {
    return this.bids.best();
  }
  bestAsk(): BookLevel | undefined {
    return this.asks.best();
  }

  /** The book as a snapshot payload (the shape of GET /_local/books/{market}). */
  toSnapshot(depth = Infinity): MarketDataPayload {
    return {
      market: this.market,
      type: 'SNAPSHOT',
      time: this.time ?? '',
      bids: this.bids.levels(depth),
      asks: this.asks.levels(depth),
    };
  }
}
