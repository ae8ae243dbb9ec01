// The live views of `coinop stream`: order book ladder, top-of-book board, trade tape, heartbeat and any channel mix,
// each a function from the current stream state to the lines of one frame.
import { dec, decimalPlaces } from '../../contract/money.js';
import type { TopOfBookPayload } from '../../contract/schemas.js';
import type { OrderBook } from '../../market-data/book.js';
import type { TradeTape } from '../../market-data/trades.js';
import type { Palette } from '../style.js';

/** What the views read of the stream client (src/client/stream.ts's StreamClient). */
export interface StreamStatus {
  readonly state: 'connecting' | 'subscribing' | 'live' | 'reconnecting' | 'stopped';
  readonly lastError: string;
  readonly reconnects: number;
  /** Order books per market, kept by the client. */
  readonly books: ReadonlyMap<string, OrderBook>;
  readonly lastHeartbeat: string | null;
  readonly lastHeartbeatAt: number;
  /** Between the last two heartbeats, in ms (0 before the second): how often this service sends them. */
  readonly heartbeatGapMs: number;
  /** Local receive time minus the heartbeat's own timestamp, in ms. */
  readonly heartbeatLatencyMs: number | null;
  readonly connectedAt: number;
}

export interface LiveState {
  client: StreamStatus;
  palette: Palette;
  /** Colour is on: without it (NO_COLOR) the book's sides are labelled in words. */
  colour: boolean;
  now(): number;
  tops: Map<string, TopOfBookPayload & { receivedAt: number }>;
  tape: TradeTape;
  /** Messages per subscription key ("market_data:BTCUSD", "heartbeat"), and the latest raw one. */
  counts: Map<string, number>;
  latest: Map<string, string>;
  /** Latest raw messages, newest last. */
  log: string[];
  /** Messages per second, measured by the command. */
  rate: number;
}

const padL = (s: string, n: number) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);
const padR = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));

export function ago(ms: number): string {
  if (!(ms >= 0) || !Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.floor((ms % 60_000) / 1000)} s`;
}

/**
 * How long the stream has gone without a heartbeat once that is well past its rhythm (three gaps, at least 3 s), in
 * ms; 0 while heartbeats come on time. Counted from the connection's start when none came on it yet.
 */
export function heartbeatStallMs(status: StreamStatus, now: number): number {
  if (status.state !== 'live') return 0;
  const since = now - Math.max(status.lastHeartbeatAt, status.connectedAt);
  return since > Math.max(3000, 3 * status.heartbeatGapMs) ? since : 0;
}

/** The connection line shared by every view: live, or stale when heartbeats stopped, or why it is not. */
export function statusLine(st: LiveState, title: string, more?: string): string {
  const p = st.palette;
  const c = st.client;
  const stall = heartbeatStallMs(c, st.now());
  const state =
    c.state === 'live'
      ? stall
        ? p.yellow(`◌ stale ${Math.floor(stall / 1000)} s (no heartbeat)`)
        : p.green('● live')
      : c.state === 'reconnecting'
        ? p.red(`○ reconnecting${c.lastError ? ` (${c.lastError})` : ''}`)
        : c.state === 'stopped'
          ? p.dim('○ stopped')
          : p.yellow(`◌ ${c.state}`);
  const extra = [
    `${Math.round(st.rate).toLocaleString('en-US')} msg/s`,
    `reconnects ${c.reconnects}`,
    ...(more ? [more] : []),
  ];
  return `${p.bold(title)}  ${state}  ${p.dim(extra.join('  '))}`;
}

const footer = (p: Palette) => p.dim('q quit');

function timeOf(iso: string): string {
  const m = /T(\d\d:\d\d:\d\d(?:\.\d{1,3})?)/.exec(iso);
  return m ? m[1] : iso;
}

/** Spread and mid of a book, exact, with the spread in basis points of the mid. */
function spreadAndMid(
  bid: string | undefined,
  ask: string | undefined,
): { spread: string; mid: string; bp: string } | null {
  if (bid === undefined || ask === undefined) return null;
  const b = dec(bid);
  const a = dec(ask);
  const spread = a.minus(b);
  const mid = a.plus(b).div(2);
  const bp = mid.isZero() ? '—' : spread.div(mid).times(10_000).toFixed(2);
  // Written with the prices' decimals (the mid needs one more only when the two prices' sum is odd).
  const places = Math.max(decimalPlaces(bid), decimalPlaces(ask));
  return { spread: spread.toFixed(places), mid: mid.toFixed(Math.max(places, mid.decimalPlaces())), bp };
}

// ---- stream book MARKET -------------------------------------------------------------------------------------------

export function bookView(st: LiveState, market: string, width: number, height: number): string[] {
  const p = st.palette;
  const book = st.client.books.get(market) as OrderBook;
  const lines = [
    statusLine(
      st,
      `${market} order book`,
      book?.state === 'live' ? `levels ${book.bids.size}/${book.asks.size}` : undefined,
    ),
  ];
  if (book?.state !== 'live') {
    lines.push(
      '',
      p.dim(
        book?.pendingCount
          ? `waiting for the snapshot (${book.pendingCount} updates held)…`
          : 'waiting for the snapshot…',
      ),
    );
    return lines;
  }
  const bestBid = book.bids.size ? book.bids.priceAt(0) : undefined;
  const bestAsk = book.asks.size ? book.asks.priceAt(0) : undefined;
  const sm = spreadAndMid(bestBid, bestAsk);
  // Not live (reconnecting): the book is the last one seen, dimmed and said to be stale.
  const stale = st.client.state !== 'live';
  lines.push(
    [
      ...(stale ? [p.yellow(`stale book (${st.client.state}): as it was ${ago(st.now() - book.changedAt)} ago`)] : []),
      sm ? `spread ${sm.spread} (${sm.bp} bp)` : 'spread —',
      sm ? `mid ${sm.mid}` : 'mid —',
      ...(stale ? [] : [`last update ${ago(st.now() - book.changedAt)} ago`]),
      p.dim(`book time ${book.time ? timeOf(book.time) : '—'}`),
    ].join('   '),
  );
  const ladder = ladderLines(st, book, sm, width, Math.max(1, Math.floor((Math.max(2, height - 4) - 1) / 2)));
  lines.push(...(stale ? ladder.map((l) => p.dim(l)) : ladder), footer(p));
  return lines;
}

interface LadderLevel {
  price: string;
  amount: string;
  total: string;
  cum: number;
}

/** One side's best `depth` levels with the running total (exact, in the amounts' decimals). */
function ladderSide(side: OrderBook['bids'], depth: number): LadderLevel[] {
  const out: LadderLevel[] = [];
  let total = dec(0);
  let places = 0;
  for (let i = 0; i < Math.min(depth, side.size); i++) {
    const amount = side.amountAt(i);
    places = Math.max(places, decimalPlaces(amount));
    total = total.plus(amount);
    out.push({ price: side.priceAt(i), amount, total: total.toFixed(places), cum: total.toNumber() });
  }
  return out;
}

/**
 * The ladder: a header, the asks (best lowest), the mid row under the price column, the bids; depth bars fill the
 * width. Sides are red and green, and without colour labelled "ask" and "bid" in a column of their own. A stale book
 * is drawn without colour (the caller dims it).
 */
function ladderLines(
  st: LiveState,
  book: OrderBook,
  sm: ReturnType<typeof spreadAndMid>,
  width: number,
  perSide: number,
): string[] {
  const p = st.palette;
  const plain = (s: string) => s;
  const stale = st.client.state !== 'live';
  const asks = ladderSide(book.asks, perSide);
  const bids = ladderSide(book.bids, perSide);
  const levels = [...asks, ...bids];
  // The mid may carry one more decimal than the prices: the price column is wide enough for it too.
  const pw = Math.max(5, sm?.mid.length ?? 0, ...levels.map((l) => l.price.length));
  const aw = Math.max(6, ...levels.map((l) => l.amount.length));
  const tw = Math.max(5, ...levels.map((l) => l.total.length));
  const label = st.colour ? '' : '     ';
  const barWidth = Math.max(0, width - (label.length + pw + aw + tw + 8));
  const maxCum = Math.max(asks.at(-1)?.cum ?? 0, bids.at(-1)?.cum ?? 0) || 1;
  const row = (level: LadderLevel, side: 'ask' | 'bid') => {
    const colour = stale ? plain : side === 'ask' ? p.red : p.green;
    const bar = '█'.repeat(Math.round((level.cum / maxCum) * barWidth));
    return `${st.colour ? '' : `${side}  `}${colour(padL(level.price, pw))}  ${padL(level.amount, aw)}  ${padL(level.total, tw)}  ${colour(bar)}`;
  };
  const lines = [
    p.dim(`${st.colour ? '' : 'SIDE '}${padL('PRICE', pw)}  ${padL('AMOUNT', aw)}  ${padL('TOTAL', tw)}  DEPTH`),
  ];
  for (let i = perSide - 1; i >= 0; i--) lines.push(asks[i] ? row(asks[i], 'ask') : '');
  // The mid under the prices, a rule under the amounts and totals, the spread where the bars begin.
  lines.push(p.dim(sm ? `${label}${padL(sm.mid, pw)}  ${'─'.repeat(aw + 2 + tw)}  spread ${sm.spread}` : `${label}─`));
  for (let i = 0; i < perSide; i++) lines.push(bids[i] ? row(bids[i], 'bid') : '');
  return lines;
}

// ---- stream top MARKET... -----------------------------------------------------------------------------------------

export function topView(st: LiveState, markets: string[], _width: number, height: number): string[] {
  const p = st.palette;
  const lines = [statusLine(st, 'top of book'), ''];
  const rows = markets.map((market) => {
    const t = st.tops.get(market);
    const bid = t?.bids?.[0];
    const ask = t?.asks?.[0];
    const sm = spreadAndMid(bid?.price, ask?.price);
    return [
      market,
      bid?.amount ?? '',
      bid?.price ?? '—',
      ask?.price ?? '—',
      ask?.amount ?? '',
      sm ? `${sm.spread}` : '—',
      sm ? `${sm.bp}` : '',
      t ? ago(st.now() - t.receivedAt) : '—',
    ];
  });
  const head = ['MARKET', 'BID SIZE', 'BID', 'ASK', 'ASK SIZE', 'SPREAD', 'BP', 'AGE'];
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  lines.push(p.dim(head.map((h, i) => (i === 0 ? padR(h, w[i]) : padL(h, w[i]))).join('  ')));
  for (const r of rows.slice(0, Math.max(0, height - 4))) {
    lines.push(
      r
        .map((c, i) =>
          i === 0
            ? p.bold(padR(c, w[i]))
            : i === 2
              ? p.green(padL(c, w[i]))
              : i === 3
                ? p.red(padL(c, w[i]))
                : padL(c, w[i]),
        )
        .join('  '),
    );
  }
  lines.push('', footer(p));
  return lines;
}

// ---- stream trades MARKET... --------------------------------------------------------------------------------------

export function tradesView(st: LiveState, markets: string[], _width: number, height: number): string[] {
  const p = st.palette;
  const now = st.now();
  const lines = [statusLine(st, 'trades'), ''];
  const head = ['MARKET', 'TRADES', 'VOLUME', 'VWAP', 'RATE', 'LAST'];
  const rows = markets.map((market) => {
    const s = st.tape.stats.get(market);
    const info = st.tape.vwap(market);
    return [
      market,
      String(s?.trades ?? 0),
      s ? s.volume.toFixed() : '0',
      info ? info.toFixed(2) : '—',
      `${st.tape.rate(market, now).toFixed(1)}/s`,
      s?.last?.price ?? '—',
    ];
  });
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  lines.push(p.dim(head.map((h, i) => (i === 0 ? padR(h, w[i]) : padL(h, w[i]))).join('  ')));
  for (const r of rows) lines.push(r.map((c, i) => (i === 0 ? p.bold(padR(c, w[i])) : padL(c, w[i]))).join('  '));
  lines.push('');
  const n = Math.max(0, height - lines.length - 2);
  const latest = st.tape.latest(n);
  const pw = Math.max(5, ...latest.map((t) => t.price.length));
  const aw = Math.max(6, ...latest.map((t) => t.amount.length));
  lines.push(p.dim(`${padR('EXECUTED', 12)}  ${padR('MARKET', 8)}  ${padL('PRICE', pw)}  ${padL('AMOUNT', aw)}`));
  for (let i = 0; i < latest.length && lines.length < height - 1; i++) {
    const t = latest[i];
    // Colour by direction against the previous trade of the same market (older = later in the list).
    const prev = latest.slice(i + 1).find((x) => x.market === t.market);
    const c = !prev
      ? (s: string) => s
      : Number(t.price) > Number(prev.price)
        ? p.green
        : Number(t.price) < Number(prev.price)
          ? p.red
          : (s: string) => s;
    lines.push(
      `${padR(timeOf(t.executed_at), 12)}  ${padR(t.market, 8)}  ${c(padL(t.price, pw))}  ${padL(t.amount, aw)}`,
    );
  }
  lines.push(footer(p));
  return lines;
}

// ---- stream heartbeat ---------------------------------------------------------------------------------------------

export function heartbeatView(st: LiveState): string[] {
  const p = st.palette;
  const c = st.client;
  const now = st.now();
  const age = c.lastHeartbeatAt ? now - c.lastHeartbeatAt : NaN;
  const ageText = ago(age);
  return [
    statusLine(st, 'heartbeat'),
    '',
    `last heartbeat   ${c.lastHeartbeat ?? '—'}`,
    `age              ${age > 3000 ? p.red(ageText) : age > 1500 ? p.yellow(ageText) : ageText}`,
    `latency          ${latencyText(c.heartbeatLatencyMs)}`,
    `heartbeats       ${st.counts.get('heartbeat') ?? 0}`,
    `connected for    ${c.state === 'live' ? ago(now - c.connectedAt) : '—'}`,
    `reconnects       ${c.reconnects}`,
    '',
    footer(p),
  ];
}

/** Receive time minus the heartbeat's timestamp; far off means the two clocks differ (a moved local clock). */
function latencyText(ms: number | null): string {
  if (ms === null) return '—';
  if (Math.abs(ms) > 60_000) return `${ms} ms (the service clock differs from ours)`;
  return `${ms} ms`;
}

// ---- stream --channel ... -----------------------------------------------------------------------------------------

export function channelsView(st: LiveState, keys: string[], _width: number, height: number): string[] {
  const p = st.palette;
  const lines = [statusLine(st, 'stream'), ''];
  const kw = Math.max(7, ...keys.map((k) => k.length));
  lines.push(p.dim(`${padR('CHANNEL', kw)}  ${padL('MESSAGES', 9)}  LATEST`));
  for (const k of keys) {
    const latest = st.latest.get(k);
    let summary = '—';
    if (latest) {
      try {
        summary = summarise(JSON.parse(latest));
      } catch {
        summary = latest;
      }
    }
    lines.push(`${p.bold(padR(k, kw))}  ${padL(String(st.counts.get(k) ?? 0), 9)}  ${summary}`);
  }
  lines.push('', p.dim('latest messages'));
  const n = Math.max(0, height - lines.length - 1);
  for (const raw of st.log.slice(-n).reverse()) lines.push(p.dim(raw));
  while (lines.length < height - 1) lines.push('');
  lines.push(footer(p));
  return lines;
}

// biome-ignore lint/suspicious/noExplicitAny: a payload of any channel, read field by field for a one-line summary
function summarise(message: { channel?: string; payload?: Record<string, any> }): string {
  const pl = message.payload ?? {};
  switch (message.channel) {
    case 'market_data':
      return `${pl.type} ${timeOf(String(pl.time))} bids ${pl.bids?.length ?? 0} asks ${pl.asks?.length ?? 0}`;
    case 'market_data.top_of_book':
      return `bid ${pl.bids?.[0]?.price ?? '—'} ask ${pl.asks?.[0]?.price ?? '—'}`;
    case 'execution_data':
      return `${pl.amount} @ ${pl.price} ${timeOf(String(pl.executed_at))}`;
    case 'heartbeat':
      return String(pl.timestamp);
    default:
      return JSON.stringify(pl);
  }
}
