// The resilient market data stream client: handshake with a bearer token, subscriptions, order books kept per
// market, and reconnection (capped backoff with jitter, resubscribe, fresh snapshots) when the connection fails.
import WebSocket from 'ws';
import type { ChannelAck, ChannelSpec, MarketDataPayload } from '../contract/schemas.js';
import { OrderBook } from '../market-data/book.js';

export type StreamState = 'connecting' | 'subscribing' | 'live' | 'reconnecting' | 'stopped';

/** A pushed message (spec/SERVICE.md 6): a channel name and its payload. */
export interface ChannelMessage {
  channel: string;
  payload: Record<string, unknown>;
}

/** The handshake was refused (401 or 403): retrying with the same credentials cannot help. */
export class StreamAuthError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(`stream handshake refused (${status}): ${detail}`);
    this.name = 'StreamAuthError';
  }
}

/** Could not connect at all after several attempts (nothing ever answered). */
export class StreamNetworkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StreamNetworkError';
  }
}

/**
 * A bounded stream gave up (see StreamClientOptions.giveUp): nothing arrived for too long, or the connection kept
 * dropping. `reason` says which, in words.
 */
export class StreamGaveUpError extends StreamNetworkError {
  constructor(readonly reason: string) {
    super(`the stream gave up: ${reason}`);
    this.name = 'StreamGaveUpError';
  }
}

export interface GiveUpOptions {
  /** No channel message (data or heartbeat) for this long, across reconnects. */
  quietMs: number;
  /** This many reconnects in a row, each after a connection that lived less than stableMs. */
  reconnects: number;
  stableMs: number;
}

export interface StreamClientOptions {
  url: string;
  /** The bearer token; `refresh` asks for a new one (after a 401 with a cached token). */
  token(refresh: boolean): Promise<string>;
  channels: ChannelSpec[];
  /** Keep an order book for each market_data channel. */
  books?: boolean;
  /** Every channel message as parsed, with its raw text (for pass-through output). */
  onMessage?(msg: ChannelMessage, raw: string): void;
  /**
   * Pass-through: channel messages the client itself does not need (no book, not the heartbeat) reach onMessage
   * unparsed, with an empty payload, when the text plainly is one (starts with {"channel":", one line).
   */
  passThrough?: boolean;
  onState?(state: StreamState, detail?: string): void;
  /** A channel the service refused (other than NO_EFFECT_ACTION on a resubscription). */
  onChannelError?(ack: ChannelAck): void;
  /** A request-level error message ({"type":"error","error":CODE}). */
  onServiceError?(code: string): void;
  /** Reconnect when neither heartbeat nor data arrives for this long. */
  staleAfterMs?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Give up (StreamNetworkError) after this many failed attempts in a row before any connection succeeded. */
  maxInitialAttempts?: number;
  handshakeTimeoutMs?: number;
  /** For a stream that must end (a --count to reach): give up rather than reconnect for ever. Unset: never give up. */
  giveUp?: GiveUpOptions;
  now?: () => number;
  random?: () => number;
}

/** Capped exponential backoff with "equal jitter": half fixed, half random, so clients do not reconnect in step. */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random: () => number): number {
  const cap = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 30));
  return cap / 2 + (cap / 2) * random();
}

const EMPTY: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

export class StreamClient {
  readonly books = new Map<string, OrderBook>();
  state: StreamState = 'connecting';
  /** Counters for views. */
  messages = 0;
  reconnects = 0;
  lastMessageAt = 0;
  lastHeartbeatAt = 0;
  /** Between the last two heartbeats, in ms (0 before the second). */
  heartbeatGapMs = 0;
  /** Local receive time minus the heartbeat's own timestamp, in ms. */
  heartbeatLatencyMs: number | null = null;
  lastHeartbeat: string | null = null;
  connectedAt = 0;
  lastError = '';

  private ws: WebSocket | null = null;
  private stopped = false;
  private paused = false;
  private attempt = 0;
  private everConnected = false;
  /** When the current connection opened (0: not open), the last channel message, and drops of short connections in a row. */
  private openedAt = 0;
  private lastChannelAt = 0;
  private shortDrops = 0;
  private staleTimer: NodeJS.Timeout | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private finish!: (err?: Error) => void;
  private readonly done: Promise<void>;
  private readonly now: () => number;
  private readonly random: () => number;
  /** What we ask for: the user's channels plus the heartbeat, which keeps the staleness check honest on quiet markets. */
  private readonly wanted: ChannelSpec[];
  readonly userWantsHeartbeat: boolean;

  constructor(private readonly options: StreamClientOptions) {
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
    this.userWantsHeartbeat = options.channels.some((c) => c.type === 'heartbeat');
    this.wanted = this.userWantsHeartbeat ? options.channels : [...options.channels, { type: 'heartbeat' }];
    if (options.books) {
      for (const c of options.channels)
        if (c.type === 'market_data' && c.params?.market)
          this.books.set(c.params.market, new OrderBook(c.params.market));
    }
    this.done = new Promise<void>((resolve, reject) => {
      this.finish = (err) => {
        if (err) reject(err);
        else resolve();
      };
    });
  }

  /** Connects and keeps connected until stop(); rejects on a refused handshake or when nothing ever answered. */
  run(): Promise<void> {
    this.lastChannelAt = this.now();
    void this.connect(false);
    this.staleTimer = setInterval(() => this.checkStale(), 250);
    return this.done;
  }

  /** Stop reading from the socket (the output cannot keep up); the service sees a slow consumer if it lasts. */
  pause(): void {
    this.paused = true;
    this.ws?.pause();
  }
  resume(): void {
    this.paused = false;
    this.lastMessageAt = this.lastChannelAt = this.now();
    this.ws?.resume();
  }

  stop(): void {
    this.end();
  }

  private fail(err: Error): void {
    this.end(err);
  }

  /** Tears the connection down once, for a stop asked for or a failure that ends the stream. */
  private end(err?: Error): void {
    if (this.stopped) return;
    this.stopped = true;
    this.cleanupTimers();
    this.ws?.removeAllListeners();
    this.ws?.on('error', () => {});
    this.ws?.terminate();
    this.ws = null;
    this.setState('stopped', err?.message);
    this.finish(err);
  }

  private cleanupTimers(): void {
    if (this.staleTimer) clearInterval(this.staleTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.staleTimer = this.retryTimer = null;
  }

  private setState(state: StreamState, detail?: string): void {
    this.state = state;
    this.options.onState?.(state, detail);
  }

  private async connect(refreshed: boolean): Promise<void> {
    if (this.stopped) return;
    this.setState(this.everConnected ? 'reconnecting' : 'connecting');
    let token: string;
    try {
      token = await this.options.token(refreshed);
    } catch (e) {
      return this.fail(e as Error);
    }
    if (this.stopped) return;
    this.openedAt = 0;
    // This connection's own error, so a close names its cause and not every earlier one.
    let socketError = '';
    const ws = new WebSocket(this.options.url, {
      headers: { Authorization: `Bearer ${token}` },
      handshakeTimeout: this.options.handshakeTimeoutMs ?? 10_000,
      perMessageDeflate: false,
    });
    this.ws = ws;
    let refused = false;
    ws.on('unexpected-response', (_req, res) => {
      refused = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d.length < 2000 ? d : ''));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        let detail = res.statusMessage ?? '';
        try {
          const j = JSON.parse(body) as { detail?: string; title?: string };
          detail = j.detail ?? j.title ?? detail;
        } catch {
          if (body.trim()) detail = body.trim().slice(0, 200);
        }
        ws.removeAllListeners();
        ws.on('error', () => {});
        ws.terminate();
        if (status === 401 && !refreshed) {
          // A cached token may have been forgotten by the service (a reset local database): one fresh token.
          void this.connect(true);
        } else if (status === 401 || status === 403) this.fail(new StreamAuthError(status, detail));
        else this.scheduleReconnect(`handshake answered ${status} ${detail}`);
      });
    });
    ws.on('open', () => {
      if (this.paused) ws.pause();
      this.connectedAt = this.openedAt = this.now();
      this.lastMessageAt = this.now();
      for (const b of this.books.values()) b.reset();
      this.setState('subscribing');
      ws.send(JSON.stringify({ type: 'subscribe', channels: this.wanted }));
    });
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      this.onText(data.toString());
    });
    ws.on('pong', () => (this.lastMessageAt = this.now()));
    ws.on('error', (error) => {
      this.lastError = socketError = error.message;
    });
    ws.on('close', (code, reason) => {
      if (refused || this.ws !== ws) return;
      this.scheduleReconnect(
        `connection closed (${code}${reason.length ? ` ${reason.toString()}` : ''}${socketError ? `: ${socketError}` : ''})`,
      );
    });
  }

  private scheduleReconnect(why: string): void {
    if (this.stopped) return;
    this.ws = null;
    this.lastError = why;
    const max = this.options.maxInitialAttempts ?? 5;
    if (!this.everConnected && this.attempt + 1 >= max) {
      return this.fail(
        new StreamNetworkError(`cannot connect to ${this.options.url} after ${this.attempt + 1} attempts: ${why}`),
      );
    }
    if (this.exhausted(why)) return;
    const delay = backoffDelay(
      this.attempt++,
      this.options.backoffBaseMs ?? 250,
      this.options.backoffMaxMs ?? 10_000,
      this.random,
    );
    this.reconnects++;
    this.setState('reconnecting', why);
    this.retryTimer = setTimeout(() => void this.connect(false), delay);
  }

  /** A bounded stream's reconnect budget: short-lived connections in a row. True when it gave up. */
  private exhausted(why: string): boolean {
    const g = this.options.giveUp;
    if (!g) return false;
    const lived = this.openedAt ? this.now() - this.openedAt : 0;
    this.openedAt = 0;
    this.shortDrops = lived >= g.stableMs ? 0 : this.shortDrops + 1;
    if (this.shortDrops < g.reconnects) return false;
    this.fail(new StreamGaveUpError(`the connection dropped ${this.shortDrops} times in a row (the last: ${why})`));
    return true;
  }

  private checkStale(): void {
    const g = this.options.giveUp;
    if (g && !this.paused && this.now() - this.lastChannelAt > g.quietMs) {
      return this.fail(
        new StreamGaveUpError(
          `nothing arrived for ${seconds(g.quietMs)} (no data and no heartbeat, across reconnects)`,
        ),
      );
    }
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || this.paused) return;
    const limit = this.options.staleAfterMs ?? 5000;
    if (this.now() - this.lastMessageAt > limit) {
      const ws = this.ws;
      this.ws = null;
      ws.removeAllListeners();
      ws.on('error', () => {});
      ws.terminate();
      this.scheduleReconnect(`nothing received for ${seconds(limit)}`);
    }
  }

  private onText(raw: string): void {
    const now = this.now();
    this.lastMessageAt = now;
    if (this.options.passThrough && raw.startsWith('{"channel":"')) {
      const end = raw.indexOf('"', 12);
      const channel = raw.slice(12, end);
      if (
        end > 12 &&
        channel !== 'heartbeat' &&
        !(channel === 'market_data' && this.books.size) &&
        raw.indexOf('\n') < 0
      ) {
        // Parsing only to write the same text out again would be most of the work of `stream -o ndjson`.
        this.messages++;
        this.lastChannelAt = now;
        if (this.state !== 'live') this.setState('live');
        this.attempt = 0;
        this.everConnected = true;
        this.options.onMessage?.({ channel, payload: EMPTY }, raw);
        return;
      }
    }
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(raw);
    } catch {
      return;
    }
    if (typeof msg.channel === 'string') {
      this.messages++;
      this.lastChannelAt = now;
      if (this.state !== 'live') {
        this.setState('live');
      }
      // Data flows: this connection works, so later failures start the backoff from the beginning.
      this.attempt = 0;
      this.everConnected = true;
      const m = msg as unknown as ChannelMessage;
      if (m.channel === 'market_data') {
        const p = m.payload as unknown as MarketDataPayload;
        const book = this.books.get(p?.market);
        if (book) book.apply(p, now);
      } else if (m.channel === 'heartbeat') {
        if (this.lastHeartbeatAt) this.heartbeatGapMs = now - this.lastHeartbeatAt;
        this.lastHeartbeatAt = now;
        const ts = (m.payload as { timestamp?: unknown })?.timestamp;
        if (typeof ts === 'string') {
          this.lastHeartbeat = ts;
          const t = Date.parse(ts);
          if (!Number.isNaN(t)) this.heartbeatLatencyMs = now - t;
        }
        if (!this.userWantsHeartbeat) return;
      }
      this.options.onMessage?.(m, raw);
      return;
    }
    if (msg.type === 'subscribe' && Array.isArray(msg.channels)) {
      this.everConnected = true;
      if (this.state === 'subscribing') this.setState('live');
      for (const ack of msg.channels as ChannelAck[]) {
        // NO_EFFECT_ACTION means it is subscribed already: as good as success.
        if (!ack.success && ack.error !== 'NO_EFFECT_ACTION') this.options.onChannelError?.(ack);
      }
      return;
    }
    // The error shape is inferred (spec/UPSTREAM.md): any message with a string `error` and no channel is one.
    if (typeof msg.error === 'string') this.options.onServiceError?.(msg.error);
  }
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;
