// coinop stream: subscribes through the resilient client, then either a live terminal view or NDJSON on stdout.
// In stages: parse the flags (options.ts), connect, subscribe, render or write what arrives until the stream
// ends, and finish (timers stopped, output flushed, warnings said, the reason for stopping reported).
import type { ExecutionPayload, TopOfBookPayload } from '../../contract/schemas.js';
import type { Connection } from '../../cli/invocation.js';
import { CoinopError } from '../../cli/errors.js';
import { checkMarkets } from '../../cli/market-check.js';
import type { LiveView, Ports } from '../../cli/ports.js';
import type { RawFlags } from '../../cli/options.js';
import { StreamAuthError, StreamClient, StreamGaveUpError, StreamNetworkError } from '../../client/stream.js';
import { TradeTape } from '../../market-data/trades.js';
import { bookView, channelsView, heartbeatView, topView, tradesView, type LiveState } from '../../render/live/views.js';
import { palette } from '../../render/style.js';
import { channelKey, parseStreamOptions, type StreamOptions, type StreamView } from './options.js';

/** A stream with --count gives up after this many short-lived connections in a row. */
const GIVE_UP_RECONNECTS = 10;

/**
 * What stream takes: the terminal or the pipe it writes to (and its --debug lines), the service (the catalogue's
 * markets, the connection, the stream's timings), the time, what Ctrl-C says and the way out, and the live view.
 */
export type StreamDeps = Pick<Ports, 'display' | 'service' | 'clock' | 'interrupt' | 'screen'>;

/** What Ctrl-C says while a stream runs, and what q's Ctrl-C in the live view says. */
const STOPPED = 'stopped: the stream ended; nothing was changed';

/** `coinop stream [VIEW] [MARKETS...]`: `args` are the view's markets; `raw` its flags with the global ones. */
export async function stream(ctx: StreamDeps, view: StreamView, args: string[], raw: RawFlags): Promise<void> {
  const o = parseStreamOptions(view, args, raw);
  const live = ctx.display.io.stdoutTTY && (o.format === undefined || o.format === 'table');
  const markets = o.channels.flatMap((c) => (c.params?.market ? [c.params.market] : []));
  await checkMarkets(ctx, view === 'channels' ? '--channel' : 'MARKET', markets, { quiet: live, live });
  const conn = await ctx.service.connect({ quiet: live, live });
  ctx.interrupt.say(STOPPED);
  await new StreamSession(ctx, o, conn, live).follow();
}

/** Lines for stdout, written in batches (one write per turn of the event loop), pausing the stream when stdout is full. */
class LineWriter {
  private buf: string[] = [];
  private scheduled = false;
  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly onFull: () => void,
    private readonly onDrain: () => void,
  ) {}
  write(line: string): void {
    this.buf.push(line);
    if (this.buf.length >= 512) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }
  flush(): void {
    this.scheduled = false;
    if (!this.buf.length) return;
    const text = `${this.buf.join('\n')}\n`;
    this.buf = [];
    if (!this.out.write(text)) {
      this.onFull();
      this.out.once('drain', this.onDrain);
    }
  }
  async end(): Promise<void> {
    this.flush();
    await new Promise<void>((r) => this.out.write('', () => r()));
  }
}

/** One subscription from start to end: the client, what it writes or shows, and why it stopped. */
class StreamSession {
  private readonly st: LiveState;
  private readonly client: StreamClient;
  /** NDJSON lines on stdout (not live). */
  private readonly writer: LineWriter | null;
  /** Messages pass to stdout as received: no view, no books written. */
  private readonly passThrough: boolean;
  private readonly warnings: string[] = [];
  private readonly refused = new Set<string>();
  private readonly timers: NodeJS.Timeout[] = [];
  private screen: LiveView | null = null;
  /** Messages (or books) written, or counted by the live view. */
  private written = 0;
  private firstShown = false;
  private stopReason: CoinopError | null = null;
  /** Ctrl-C in the live view (raw mode: a key, not a signal). */
  private interrupted = false;

  constructor(
    private readonly ctx: StreamDeps,
    private readonly options: StreamOptions,
    private readonly conn: Connection,
    private readonly live: boolean,
  ) {
    this.passThrough = !live && !options.book;
    this.client = this.subscribe();
    const { io } = ctx.display;
    this.st = {
      client: this.client,
      palette: palette(io.colour),
      colour: io.colour,
      now: () => Date.now(),
      tops: new Map(),
      tape: new TradeTape(),
      counts: new Map(),
      latest: new Map(),
      log: [],
      rate: 0,
    };
    const client = this.client;
    this.writer = live
      ? null
      : new LineWriter(
          io.stdout,
          () => client.pause(),
          () => client.resume(),
        );
  }

  /** Subscribe: the stream client over the connection's token, with the settings' timings. */
  private subscribe(): StreamClient {
    const { ctx, options: o, conn, live } = this;
    const stale = ctx.service.streamStaleMs();
    const retryBaseMs = ctx.service.retryBaseMs();
    const debug = live ? undefined : ctx.display.debug();
    const { io } = ctx.display;
    const client: StreamClient = new StreamClient({
      url: conn.context.wsUrl,
      token: async (refresh) =>
        (refresh && conn.tokens.canRefresh ? await conn.tokens.refresh() : await conn.tokens.token()).accessToken,
      channels: o.channels,
      // Plain NDJSON passes messages through: keeping books would only cost time.
      books: o.bookMarkets.length > 0 && (live || o.book),
      staleAfterMs: stale,
      // A count must be reached or the stream must end: the count goes on across reconnects, within a bounded wait.
      giveUp:
        o.count !== undefined ? { quietMs: 6 * stale, stableMs: 6 * stale, reconnects: GIVE_UP_RECONNECTS } : undefined,
      backoffBaseMs: retryBaseMs,
      backoffMaxMs: 10_000,
      onMessage: (m, raw) => this.onMessage(m, raw),
      passThrough: this.passThrough,
      onChannelError: (ack) => {
        const key = channelKey(ack);
        this.refused.add(key);
        this.warn(`the service refused ${key}: ${ack.error ?? 'no reason given'}`);
        if (o.channels.every((c) => this.refused.has(channelKey(c)))) {
          this.stopReason = new CoinopError(
            'api',
            `the service refused every channel (${[...this.refused].join(', ')}: ${ack.error ?? 'refused'})`,
          );
          client.stop();
        }
      },
      onServiceError: (code) => this.warn(`the service answered ${code}`),
      onState: (state, detail) => {
        debug?.(`stream ${state}${detail ? `: ${detail}` : ''}`);
        if (!live && state === 'reconnecting' && detail)
          io.err(palette(io.colourErr).dim(`stream: ${detail}; reconnecting\n`));
      },
    });
    return client;
  }

  private warn(text: string): void {
    if (this.live) this.warnings.push(text);
    else this.ctx.display.io.err(`${palette(this.ctx.display.io.colourErr).yellow('warning:')} ${text}\n`);
  }

  /** With --count: stop once that many are written. */
  private get countReached(): boolean {
    return this.options.count !== undefined && this.written >= this.options.count;
  }

  private done(): void {
    if (this.countReached) this.client.stop();
  }

  private onMessage(message: { channel: string; payload: Record<string, unknown> }, raw: string): void {
    if (this.passThrough) {
      if (this.countReached) return;
      this.writer!.write(raw);
      this.written++;
      this.done();
      return;
    }
    if (!this.live) return;
    this.written++;
    const st = this.st;
    const mk = typeof message.payload?.market === 'string' ? (message.payload.market as string) : '';
    const key = mk ? `${message.channel}:${mk}` : message.channel;
    st.counts.set(key, (st.counts.get(key) ?? 0) + 1);
    if (this.options.view === 'channels') {
      st.latest.set(key, raw);
      st.log.push(raw);
      if (st.log.length > 400) st.log.splice(0, 200);
    }
    if (message.channel === 'market_data.top_of_book')
      st.tops.set(mk, { ...(message.payload as unknown as TopOfBookPayload), receivedAt: Date.now() });
    else if (message.channel === 'execution_data')
      st.tape.add(message.payload as unknown as ExecutionPayload, Date.now());
    // The first data is shown at once, not at the next frame tick.
    if (!this.firstShown && this.screen) {
      this.firstShown = true;
      this.screen.draw();
    }
    this.done();
  }

  /** The message rate for the status line, the --duration timer, and with --book the books every interval. */
  private startTimers(): void {
    const { options: o, client, writer } = this;
    let lastCount = 0;
    this.timers.push(
      setInterval(() => {
        this.st.rate = this.st.rate * 0.5 + (client.messages - lastCount) * 0.5 * 2;
        lastCount = client.messages;
      }, 500),
    );
    if (o.durationMs !== undefined) this.timers.push(setTimeout(() => client.stop(), o.durationMs));
    if (!o.book || !writer) return;
    this.timers.push(
      setInterval(() => {
        for (const mk of o.bookMarkets) {
          const book = client.books.get(mk);
          if (book?.state !== 'live') continue;
          if (this.countReached) break;
          writer.write(JSON.stringify(book.toSnapshot(o.depth)));
          this.written++;
        }
        this.done();
      }, o.intervalMs),
    );
  }

  /** The live view on the terminal; the terminal is restored on the way out, whatever the way. */
  private async startScreen(): Promise<void> {
    const { ctx, options: o, st, client } = this;
    const markets = o.channels.map((c) => c.params?.market).filter((x): x is string => !!x);
    const keys = o.channels.map(channelKey);
    const screen = await ctx.screen.open({
      render: (width, height) => {
        switch (o.view) {
          case 'book':
            return bookView(st, markets[0], width, height);
          case 'top':
            return topView(st, markets, width, height);
          case 'trades':
            return tradesView(st, markets, width, height);
          case 'heartbeat':
            return heartbeatView(st);
          default:
            return channelsView(st, keys, width, height);
        }
      },
      // q ends the view (exit 0); Ctrl-C interrupts it, as it does a piped stream (its note, exit 3).
      onQuit: (key) => {
        if (key === 'ctrl-c') this.interrupted = true;
        client.stop();
      },
      onError: (error) => {
        this.stopReason = new CoinopError(
          'internal',
          `the live view failed: ${(error as Error)?.message ?? String(error)}`,
          {
            hint: 'use -o ndjson meanwhile',
          },
        );
        client.stop();
      },
    });
    this.screen = screen;
    // Ctrl-C outside raw mode, SIGTERM, or an error anywhere: the terminal is restored on the way out.
    ctx.interrupt.onExit(() => screen.stop());
    ctx.interrupt.onExit(() => client.stop());
    screen.start();
  }

  /** Runs the stream until it ends (count, duration, q, refusal or failure), then finishes. */
  async follow(): Promise<void> {
    const { ctx, options: o, client } = this;
    this.startTimers();
    if (this.live) await this.startScreen();
    else ctx.interrupt.onExit(() => client.stop());
    try {
      await client.run();
    } catch (e) {
      this.stopReason = streamError(
        e,
        this.conn.context.wsUrl,
        o.count !== undefined ? `${this.written} of ${o.count} ${o.book ? 'books' : 'messages'}` : '',
      );
    } finally {
      await this.finish();
    }
    if (this.stopReason) throw this.stopReason;
    if (this.interrupted) {
      ctx.display.io.err(`${STOPPED}\n`);
      throw new CoinopError('cancelled', 'interrupted', { quiet: true });
    }
  }

  /** Timers stopped, the screen given back, stdout flushed, and the warnings held back by the live view said. */
  private async finish(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.screen?.stop();
    await this.writer?.end();
    const { io } = this.ctx.display;
    for (const w of this.warnings) io.err(`${palette(io.colourErr).yellow('warning:')} ${w}\n`);
  }
}

/** Why the stream client stopped, as the error to report; `arrived`: "N of COUNT messages" for a stream with --count. */
function streamError(error: unknown, wsUrl: string, arrived: string): CoinopError {
  if (error instanceof StreamAuthError) {
    return error.status === 401
      ? new CoinopError('auth', `the stream refused the token (401): ${error.detail}`, {
          hint: 'run: coinop login (or check COINOP_TOKEN)',
        })
      : new CoinopError('auth', `the stream refused this client (403): ${error.detail}`, {
          hint: 'the stream needs the scope exchange:read_aggregated_marketdata_stream and a client on the allow list',
        });
  }
  if (error instanceof StreamGaveUpError) {
    return new CoinopError('network', `the stream ended early: ${arrived} arrived; ${error.reason}`, {
      hint: `is the service's stream up? (${wsUrl}); --duration ends a stream at a time instead`,
    });
  }
  if (error instanceof StreamNetworkError)
    return new CoinopError('network', error.message, { hint: `is the service up? (${wsUrl})` });
  throw error;
}
