// The stream's server side: connections, the request protocol (spec/SERVICE.md 4.6, 7), fan-out of simulated market
// messages, heartbeats, slow-consumer cut-off and the configured faults.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, WebSocket, type RawData } from 'ws';
import { MARKETS, SCOPES, STREAM_CHANNELS, type Market } from '../../contract/enums.js';
import type { ChannelAck, ChannelSpec, ExecutionPayload } from '../../contract/schemas.js';
import type { LocalConfig } from '../config.js';
import type { SimulatedExchange } from './exchange.js';
import type { MarketEvents, SimulatedMarket } from './market.js';

/** A stream handshake for the request journal (/_local/journal), when the service passes one. */
export interface HandshakeRecord {
  method: string;
  url: string;
  status: number;
  client_id?: string;
  reason?: string;
}

export interface HubContext {
  config: LocalConfig;
  seed: number;
  now: () => number;
  /** The service's simulated markets, which the HTTP market data snapshots read too. */
  exchange: SimulatedExchange;
  authenticate(token: string): { clientId: string; scopes: string[]; allowStream: boolean } | null;
  /** Optional: record each stream handshake (accepted 101, or refused with its reason) in the request journal. */
  logHandshake?(record: HandshakeRecord): void;
}

const MARKET_SET = new Set<string>(MARKETS);
const CHANNEL_SET = new Set<string>(STREAM_CHANNELS);
const STREAM_PATHS = new Set(['/', '/ws', '/ws/']);
/** How many recent UPDATEs per market are kept to replay before a delayed SNAPSHOT (fault updatesBeforeSnapshot). */
const REPLAY_UPDATES = 20;
/** Events a subscriber sees before its delayed SNAPSHOT under that fault. */
const DELAYED_SNAPSHOT_AFTER = 10;
const TICK_MS = 5;
/** How long a subscriber's queue may stay over the cap before it counts as a slow consumer. */
const SLOW_CONSUMER_GRACE_MS = 1000;
/** WebSocket ping every this often; a connection that has not answered the previous ping is ended. */
const PING_MS = 20_000;

function isoNanos(ms: number): string {
  const whole = Math.floor(ms);
  const subMs = Math.min(999_999, Math.round((ms - whole) * 1e6));
  return `${new Date(whole).toISOString().slice(0, 23) + String(subMs).padStart(6, '0')}Z`;
}

interface PendingSnapshot {
  snapshot: Buffer;
  remaining: number;
  /** Sent by this wall time at the latest, even if the market is quiet or paused. */
  deadline: number;
}

class Connection {
  readonly subs = new Map<string, ChannelSpec>();
  alive = true;
  closed = false;
  /** Requests of one connection are handled in order, even when the subscription rate limit delays one. */
  queue: Promise<void> = Promise.resolve();
  pendingSnapshots = new Map<string, PendingSnapshot>();
  /** Wall time since which the send queue has been over the cap (0 = it is not). */
  overCapSince = 0;
  /** Frames gathered during a tick, written with one call at its end. */
  outbox: Buffer[] = [];
  outboxBytes = 0;
  /**
   * The upgraded connection's socket, the one handed to ws's handleUpgrade. Frames are written to it directly (see
   * frame()); ws still handles the handshake, reading, ping and close.
   */
  constructor(
    readonly ws: WebSocket,
    readonly socket: Duplex,
    readonly address: string,
    readonly clientId: string,
  ) {}
}

/** Running average size of a sent message, to turn the buffer cap (in messages) into bytes. */
let averageFrameBytes = 200;
/**
 * A whole WebSocket text frame (RFC 6455 5.2: FIN, opcode 1, unmasked from a server). Server frames are the same
 * bytes for every subscriber, so a message is serialised and framed once and the bytes go to each socket as they are.
 */
export const frame = (obj: unknown): Buffer => {
  const json = JSON.stringify(obj);
  const len = Buffer.byteLength(json);
  const head = len < 126 ? 2 : len < 65536 ? 4 : 10;
  const b = Buffer.allocUnsafe(head + len);
  b[0] = 0x81;
  if (head === 2) b[1] = len;
  else if (head === 4) {
    b[1] = 126;
    b.writeUInt16BE(len, 2);
  } else {
    b[1] = 127;
    b.writeUInt32BE(0, 2);
    b.writeUInt32BE(len, 6);
  }
  b.write(json, head, 'utf8');
  averageFrameBytes += (b.length - averageFrameBytes) / 64;
  return b;
};

export class StreamHub {
  readonly wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 64 * 1024 });
  private readonly conns = new Set<Connection>();
  private readonly subscribers = new Map<string, Set<Connection>>();
  private readonly replay = new Map<Market, Buffer[]>();
  /** A trade held back by the executionsOutOfOrder fault, per market: it goes out after the next one. */
  private readonly heldExecutions = new Map<string, { payload: ExecutionPayload; at: number }>();
  private readonly carry = new Map<Market, number>();
  private readonly nextSubscriptionAt = new Map<string, number>();
  private ticker: NodeJS.Timeout | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private lastTickWall = performance.now();
  private lastDropWall = performance.now();
  private lastDropSetting = 0;
  /** True while a tick runs: sends go to the connections' outboxes. */
  private batching = false;
  private dirty: Connection[] = [];
  /** Counters for tests and benchmarks. */
  messagesSent = 0;
  slowConsumersDropped = 0;

  constructor(private readonly ctx: HubContext) {
    this.ticker = setInterval(() => this.tick(), TICK_MS);
    this.scheduleHeartbeat();
    this.pingTimer = setInterval(() => this.pingAll(), PING_MS);
    this.ticker.unref?.();
    this.pingTimer.unref?.();
  }

  private get cfg() {
    return this.ctx.config.stream;
  }

  private get exchange(): SimulatedExchange {
    return this.ctx.exchange;
  }

  // ---- Handshake -------------------------------------------------------------------------------------------------

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = req.url ?? '/';
    const refuse = (status: number, title: string, detail: string, clientId?: string) => {
      this.ctx.logHandshake?.({
        method: req.method ?? 'GET',
        url,
        status,
        reason: detail,
        ...(clientId ? { client_id: clientId } : {}),
      });
      reject(socket, status, title, detail);
    };
    const path = url.split('?')[0];
    // The hosted stream answers at the root (wss://ws.paxos.com/); /ws is the local service's own address too.
    if (!STREAM_PATHS.has(path)) return refuse(404, 'Not Found', `no WebSocket endpoint at ${path}`);
    const auth = req.headers.authorization ?? '';
    const m = /^bearer\s+(\S+)\s*$/i.exec(auth);
    if (!m)
      return refuse(
        401,
        'Unauthorized',
        auth ? 'authorization header is not a bearer token' : 'no authorization header set',
      );
    const principal = this.ctx.authenticate(m[1]);
    if (!principal) return refuse(401, 'Unauthorized', 'invalid or expired token');
    if (!principal.scopes.includes(SCOPES.marketDataStream)) {
      return refuse(
        403,
        'Forbidden',
        `insufficient scopes: found '${principal.scopes.join(' ')}', required one of '[${SCOPES.marketDataStream}]'`,
        principal.clientId,
      );
    }
    if (!principal.allowStream) {
      return refuse(
        403,
        'Forbidden',
        `client ${principal.clientId} is not on the market data stream allow list`,
        principal.clientId,
      );
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      this.ctx.logHandshake?.({ method: req.method ?? 'GET', url, status: 101, client_id: principal.clientId });
      this.accept(ws, socket, req.socket.remoteAddress ?? '', principal.clientId);
    });
  }

  private accept(ws: WebSocket, socket: Duplex, address: string, clientId: string): void {
    const conn = new Connection(ws, socket, address, clientId);
    this.conns.add(conn);
    ws.on('pong', () => (conn.alive = true));
    ws.on('message', (data: RawData, isBinary: boolean) => {
      conn.queue = conn.queue
        .then(() => this.onRequest(conn, data, isBinary))
        .catch(() => {
          this.send(conn, frame({ type: 'error', error: 'INTERNAL_SERVER_ERROR' }));
        });
    });
    ws.on('close', () => this.drop(conn));
    ws.on('error', () => this.drop(conn));
  }

  private drop(conn: Connection): void {
    if (conn.closed) return;
    conn.closed = true;
    this.conns.delete(conn);
    for (const key of conn.subs.keys()) this.removeSubscriber(conn, key);
    conn.subs.clear();
  }

  // ---- Requests --------------------------------------------------------------------------------------------------

  private async onRequest(conn: Connection, data: RawData, isBinary: boolean): Promise<void> {
    if (conn.closed) return;
    const error = (code: string) => this.send(conn, frame({ type: 'error', error: code }));
    if (isBinary) return error('MALFORMED_REQUEST');
    let req: unknown;
    try {
      req = JSON.parse(data.toString());
    } catch {
      return error('MALFORMED_REQUEST');
    }
    if (!req || typeof req !== 'object' || Array.isArray(req) || typeof (req as { type?: unknown }).type !== 'string') {
      return error('MALFORMED_REQUEST');
    }
    const r = req as { type: string; channels?: unknown };
    if (r.type === 'subscription_list') {
      return this.send(conn, frame({ type: 'subscription_list', channels: [...conn.subs.values()] }));
    }
    if (r.type !== 'subscribe' && r.type !== 'unsubscribe') return error('UNKNOWN_ACTION');
    if (!Array.isArray(r.channels) || r.channels.length === 0) return error('MALFORMED_REQUEST');
    await this.throttle(conn);
    if (conn.closed) return;
    const after: Array<() => void> = [];
    const acks = r.channels.map((c) =>
      r.type === 'subscribe' ? this.subscribe(conn, c, after) : this.unsubscribe(conn, c),
    );
    this.send(conn, frame({ type: r.type, channels: acks }));
    for (const f of after) f();
  }

  /** spec/UPSTREAM.md: one subscription request per second per client address; later ones wait their turn. */
  private async throttle(conn: Connection): Promise<void> {
    const rate = this.cfg.subscriptionRequestsPerSecond;
    if (!rate) return;
    const now = performance.now();
    const at = Math.max(now, this.nextSubscriptionAt.get(conn.address) ?? 0);
    this.nextSubscriptionAt.set(conn.address, at + 1000 / rate);
    if (at > now) await new Promise((res) => setTimeout(res, at - now));
  }

  /**
   * Checks one channel entry; returns its key, its subscription and its echo, or the echo with an error. The echo is
   * the entry's `type` and `params` as sent (no `params` when none were sent, as a heartbeat's), so a client can tell
   * which entry of a request each acknowledgement answers.
   */
  private parseChannel(
    channel: unknown,
  ): { key: string; spec: ChannelSpec; echo: ChannelSpec; market?: Market } | { ack: ChannelAck } {
    if (!channel || typeof channel !== 'object' || Array.isArray(channel))
      return { ack: { type: String(channel), success: false, error: 'MALFORMED_REQUEST' } };
    const { type, params } = channel as { type?: unknown; params?: unknown };
    const echo: ChannelSpec = { type: typeof type === 'string' ? type : String(type) };
    if (params !== undefined) echo.params = params as ChannelSpec['params'];
    const fail = (error: string) => ({ ack: { ...echo, success: false, error } });
    if (typeof type !== 'string') return fail('MALFORMED_REQUEST');
    if (!CHANNEL_SET.has(type)) return fail('UNKNOWN_CHANNEL');
    if (params !== undefined && (!params || typeof params !== 'object' || Array.isArray(params))) {
      return fail('UNKNOWN_CHANNEL_PARAMS_CONFIGURATION');
    }
    const p = (params ?? {}) as Record<string, unknown>;
    if (type === 'heartbeat') {
      if (Object.keys(p).length) return fail('UNKNOWN_CHANNEL_PARAMS_CONFIGURATION');
      return { key: 'heartbeat', spec: { type }, echo };
    }
    const keys = Object.keys(p);
    if (typeof p.market !== 'string' || !MARKET_SET.has(p.market) || keys.length !== 1)
      return fail('UNKNOWN_CHANNEL_PARAMS_CONFIGURATION');
    const market = p.market as Market;
    return { key: `${type}:${market}`, spec: { type, params: { market } }, echo, market };
  }

  private subscribe(conn: Connection, channel: unknown, after: Array<() => void>): ChannelAck {
    const parsed = this.parseChannel(channel);
    if ('ack' in parsed) return parsed.ack;
    const { key, spec, echo, market } = parsed;
    if (conn.subs.has(key)) return { ...echo, success: false, error: 'NO_EFFECT_ACTION' };
    conn.subs.set(key, spec);
    let set = this.subscribers.get(key);
    if (!set) this.subscribers.set(key, (set = new Set()));
    set.add(conn);
    if (market) {
      const sim = this.exchange.watch(market);
      // Only market_data starts with a message (its SNAPSHOT); top of book, as the hosted stream's, comes when the
      // best price changes, never unasked on subscribing.
      if (spec.type === 'market_data') after.push(() => this.sendSnapshot(conn, key, sim));
    }
    return { ...echo, success: true };
  }

  private sendSnapshot(conn: Connection, key: string, sim: SimulatedMarket): void {
    const snapshot = frame({ channel: 'market_data', payload: sim.snapshot() });
    if (!this.cfg.faults.updatesBeforeSnapshot) return this.send(conn, snapshot);
    // spec/UPSTREAM.md allows UPDATEs before the SNAPSHOT: replay some already in the snapshot, then hold the snapshot
    // back while live UPDATEs (newer than it) flow.
    for (const u of this.replay.get(sim.market) ?? []) this.send(conn, u);
    conn.pendingSnapshots.set(key, { snapshot, remaining: DELAYED_SNAPSHOT_AFTER, deadline: performance.now() + 200 });
  }

  private unsubscribe(conn: Connection, channel: unknown): ChannelAck {
    const parsed = this.parseChannel(channel);
    if ('ack' in parsed) return parsed.ack;
    const { key, echo } = parsed;
    if (!conn.subs.has(key)) return { ...echo, success: false, error: 'NO_EFFECT_ACTION' };
    conn.subs.delete(key);
    this.removeSubscriber(conn, key);
    return { ...echo, success: true };
  }

  private removeSubscriber(conn: Connection, key: string): void {
    const set = this.subscribers.get(key);
    if (set?.delete(conn) && key !== 'heartbeat') this.exchange.unwatch(key.slice(key.indexOf(':') + 1) as Market);
    conn.pendingSnapshots.delete(key);
  }

  // ---- Fan-out ---------------------------------------------------------------------------------------------------

  private send(conn: Connection, buf: Buffer): void {
    const sock = conn.socket;
    if (conn.closed || conn.ws.readyState !== WebSocket.OPEN || !sock.writable) return;
    // writableLength counts only what the kernel has not taken yet. A reader that keeps up drains a burst quickly;
    // one whose queue stays over the cap for a second is a slow consumer and is let go (spec/UPSTREAM.md) rather than
    // queued without bound (a second of flow is the most it can hold).
    const queued = sock.writableLength + conn.outboxBytes;
    const cap = this.cfg.subscriberBufferCap * averageFrameBytes;
    if (queued > cap) {
      const now = performance.now();
      if (!conn.overCapSince) conn.overCapSince = now;
      if (now - conn.overCapSince >= SLOW_CONSUMER_GRACE_MS) {
        this.slowConsumersDropped++;
        conn.ws.terminate();
        this.drop(conn);
        return;
      }
    } else conn.overCapSince = 0;
    this.messagesSent++;
    if (this.batching) {
      if (conn.outbox.length === 0) this.dirty.push(conn);
      conn.outbox.push(buf);
      conn.outboxBytes += buf.length;
    } else sock.write(buf);
  }

  /** One write per connection for everything a tick produced. */
  private flush(): void {
    for (const conn of this.dirty) {
      const out = conn.outbox;
      conn.outbox = [];
      const bytes = conn.outboxBytes;
      conn.outboxBytes = 0;
      if (conn.closed || !conn.socket.writable) continue;
      conn.socket.write(out.length === 1 ? out[0] : Buffer.concat(out, bytes));
    }
    this.dirty = [];
  }

  /** Serialise once, send to every subscriber of the key. */
  private broadcast(key: string, obj: unknown): Buffer | null {
    const set = this.subscribers.get(key);
    if (!set || set.size === 0) return null;
    const buf = frame(obj);
    for (const conn of set) {
      const pending = conn.pendingSnapshots.get(key);
      this.send(conn, buf);
      if (pending && --pending.remaining <= 0) {
        conn.pendingSnapshots.delete(key);
        this.send(conn, pending.snapshot);
      }
    }
    return buf;
  }

  private readonly events: MarketEvents = {
    update: (payload) => {
      const key = `market_data:${payload.market}`;
      const buf = this.broadcast(key, { channel: 'market_data', payload: payload });
      if (this.cfg.faults.updatesBeforeSnapshot) {
        const b = buf ?? frame({ channel: 'market_data', payload: payload });
        let ring = this.replay.get(payload.market as Market);
        if (!ring) this.replay.set(payload.market as Market, (ring = []));
        ring.push(b);
        if (ring.length > REPLAY_UPDATES) ring.shift();
      }
    },
    execution: (payload) => {
      if (!this.cfg.faults.executionsOutOfOrder) return void this.sendExecution(payload);
      const held = this.heldExecutions.get(payload.market);
      if (!held) return void this.heldExecutions.set(payload.market, { payload: payload, at: performance.now() });
      this.heldExecutions.delete(payload.market);
      this.sendExecution(payload);
      this.sendExecution(held.payload);
    },
    topOfBook: (p) =>
      void this.broadcast(`market_data.top_of_book:${p.market}`, { channel: 'market_data.top_of_book', payload: p }),
    rebuilt: (payload) => {
      // Subscribers' books no longer follow: give them the new book as a fresh SNAPSHOT.
      this.replay.delete(payload.market as Market);
      this.broadcast(`market_data:${payload.market}`, { channel: 'market_data', payload: payload });
    },
  };

  private tick(): void {
    const wall = performance.now();
    // After a stall, catch up at most 100 ms of flow: a burst bigger than that would only look like a slow consumer.
    const elapsed = Math.min(100, wall - this.lastTickWall);
    this.lastTickWall = wall;
    this.maybeDropConnections(wall);
    this.flushLateSnapshots(wall);
    if (this.heldExecutions.size) this.flushHeldExecutions(wall);
    if (this.cfg.paused || this.exchange.watchedCount === 0) return;
    const rate = this.cfg.messagesPerSecond;
    const now = this.ctx.now();
    this.batching = true;
    try {
      for (const market of this.exchange.watched()) {
        const due = (this.carry.get(market) ?? 0) + (rate * elapsed) / 1000;
        const n = Math.floor(due);
        this.carry.set(market, due - n);
        const sim = this.exchange.market(market);
        for (let i = 0; i < n; i++) sim.step(now, this.events);
      }
    } finally {
      this.batching = false;
      this.flush();
    }
  }

  private sendExecution(payload: ExecutionPayload): void {
    this.broadcast(`execution_data:${payload.market}`, { channel: 'execution_data', payload: payload });
  }

  /** A held trade waits for the next one of its market at most 250 ms, and not at all once the fault is off. */
  private flushHeldExecutions(wall: number): void {
    for (const [market, held] of this.heldExecutions) {
      if (this.cfg.faults.executionsOutOfOrder && wall - held.at < 250) continue;
      this.heldExecutions.delete(market);
      this.sendExecution(held.payload);
    }
  }

  private flushLateSnapshots(wall: number): void {
    for (const conn of this.conns) {
      if (conn.pendingSnapshots.size === 0) continue;
      for (const [key, p] of conn.pendingSnapshots) {
        if (p.deadline > wall) continue;
        conn.pendingSnapshots.delete(key);
        this.send(conn, p.snapshot);
      }
    }
  }

  private maybeDropConnections(wall: number): void {
    const every = this.cfg.faults.dropConnectionsEveryMs;
    if (every !== this.lastDropSetting) {
      this.lastDropSetting = every;
      this.lastDropWall = wall;
    }
    if (!every || wall - this.lastDropWall < every) return;
    this.lastDropWall = wall;
    for (const conn of [...this.conns]) {
      conn.ws.terminate();
      this.drop(conn);
    }
  }

  private scheduleHeartbeat(): void {
    const interval = Math.max(10, this.cfg.heartbeatIntervalMs || 1000);
    this.heartbeatTimer = setTimeout(() => {
      if (!this.cfg.faults.stallHeartbeats)
        this.broadcast('heartbeat', { channel: 'heartbeat', payload: { timestamp: isoNanos(this.ctx.now()) } });
      this.scheduleHeartbeat();
    }, interval);
    this.heartbeatTimer.unref?.();
  }

  private pingAll(): void {
    for (const conn of this.conns) {
      if (!conn.alive) {
        conn.ws.terminate();
        this.drop(conn);
        continue;
      }
      conn.alive = false;
      conn.ws.ping();
    }
  }

  /** GET /_local/stream: what the stream is doing. */
  stats(): Record<string, unknown> {
    return {
      connections: this.conns.size,
      active_markets: [...this.exchange.watched()],
      messages_sent: this.messagesSent,
      slow_consumers_dropped: this.slowConsumersDropped,
      paused: this.cfg.paused,
    };
  }

  async close(): Promise<void> {
    if (this.ticker) clearInterval(this.ticker);
    if (this.heartbeatTimer) clearTimeout(this.heartbeatTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    for (const conn of [...this.conns]) {
      conn.ws.terminate();
      this.drop(conn);
    }
    await new Promise<void>((res) => this.wss.close(() => res()));
  }
}

function reject(socket: Duplex, status: number, title: string, detail: string): void {
  const body = JSON.stringify({ type: 'about:blank', title, status, detail });
  socket.end(
    `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
  socket.on('error', () => {});
}
