// coinop stream: subscribes through the resilient client, then either a live terminal view or NDJSON on stdout.
import { MARKETS, STREAM_CHANNELS } from '../../api/enums.js';
import type { ChannelSpec, ExecutionPayload, TopOfBookPayload } from '../../api/schemas.js';
import type { CliContext } from '../../cli/context.js';
import { CliError, usageError } from '../../cli/errors.js';
import { intFlag } from '../../cli/options.js';
import { StreamAuthError, StreamClient, StreamNetworkError } from '../../client/stream.js';
import { TradeTape } from '../../market/trades.js';
import { LiveScreen } from '../../render/live/screen.js';
import { bookView, channelsView, heartbeatView, topView, tradesView, type LiveState } from '../../render/live/views.js';
import { palette } from '../../render/style.js';
import type { StreamFlags } from './index.js';

const MARKET_SET = new Set<string>(MARKETS);

type View = 'book' | 'top' | 'trades' | 'heartbeat' | 'channels';

function market(arg: string, what = 'MARKET'): string {
  const m = arg.trim().toUpperCase();
  if (!MARKET_SET.has(m)) throw usageError(`${what}: "${arg}" is not a market (such as ${MARKETS.slice(0, 4).join(', ')})`);
  return m;
}

/** --channel TYPE[:MARKET] */
export function parseChannel(arg: string): ChannelSpec {
  const i = arg.indexOf(':');
  const type = (i < 0 ? arg : arg.slice(0, i)).trim();
  const m = i < 0 ? '' : arg.slice(i + 1).trim();
  if (!(STREAM_CHANNELS as readonly string[]).includes(type)) {
    throw usageError(`--channel: "${type}" is not a channel (one of ${STREAM_CHANNELS.join(', ')})`);
  }
  if (type === 'heartbeat') {
    if (m) throw usageError('--channel: heartbeat takes no market (write --channel heartbeat)');
    return { type };
  }
  if (!m) throw usageError(`--channel: ${type} needs a market, such as ${type}:BTCUSD`);
  return { type, params: { market: market(m, '--channel') } };
}

/** --duration: seconds, or a number with s, m or h. */
export function parseDuration(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(v.trim());
  if (!m || Number(m[1]) <= 0) throw usageError('--duration: must be a positive time such as 30, 30s, 5m or 1h');
  const unit = m[2] ?? 's';
  const ms = Number(m[1]) * (unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : 3_600_000);
  // A timer longer than 2^31 - 1 ms fires at once: --duration 1000h would end the stream immediately.
  if (ms > MAX_TIMER_MS) throw usageError('--duration: must be at most 596h (24 days); leave it out to stream until stopped');
  return ms;
}

const MAX_TIMER_MS = 2 ** 31 - 1;

const keyOf = (c: ChannelSpec) => (c.params?.market ? `${c.type}:${c.params.market}` : c.type);

export function streamBook(ctx: CliContext, m: string, o: StreamFlags): Promise<void> {
  const mk = market(m);
  return run(ctx, 'book', [{ type: 'market_data', params: { market: mk } }], o);
}
export function streamTop(ctx: CliContext, ms: string[], o: StreamFlags): Promise<void> {
  if (!ms.length) ms = [...MARKETS];
  return run(ctx, 'top', unique(ms.map((m) => market(m))).map((mk) => ({ type: 'market_data.top_of_book', params: { market: mk } })), o);
}
export function streamTrades(ctx: CliContext, ms: string[], o: StreamFlags): Promise<void> {
  return run(ctx, 'trades', unique(ms.map((m) => market(m))).map((mk) => ({ type: 'execution_data', params: { market: mk } })), o);
}
export function streamHeartbeat(ctx: CliContext, o: StreamFlags): Promise<void> {
  return run(ctx, 'heartbeat', [{ type: 'heartbeat' }], o);
}
export function streamChannels(ctx: CliContext, o: StreamFlags): Promise<void> {
  if (!o.channel?.length) {
    throw usageError('stream: name a view (book, top, trades, heartbeat) or at least one --channel TYPE[:MARKET]', 'coinop stream --help');
  }
  const seen = new Set<string>();
  const channels = o.channel.map(parseChannel).filter((c) => !seen.has(keyOf(c)) && seen.add(keyOf(c)));
  return run(ctx, 'channels', channels, o);
}

const unique = (xs: string[]) => [...new Set(xs)];

/** Lines for stdout, written in batches (one write per turn of the event loop), pausing the stream when stdout is full. */
class LineWriter {
  private buf: string[] = [];
  private scheduled = false;
  constructor(private readonly out: NodeJS.WritableStream, private readonly onFull: () => void, private readonly onDrain: () => void) {}
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
    const text = this.buf.join('\n') + '\n';
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

async function run(ctx: CliContext, view: View, channels: ChannelSpec[], o: StreamFlags): Promise<void> {
  if (view !== 'channels' && o.channel?.length) throw usageError(`--channel: not with stream ${view} (use coinop stream --channel ... alone)`);
  const durationMs = parseDuration(o.duration);
  const count = intFlag('--count', o.count, 1, Number.MAX_SAFE_INTEGER);
  const depth = intFlag('--depth', o.depth, 1, 100_000);
  const interval = intFlag('--interval', o.interval, 10, 3_600_000) ?? 1000;
  const format = ctx.globals.json ? 'json' : ctx.globals.output;
  const live = ctx.io.stdoutTTY && (format === undefined || format === 'table');
  if (format === 'csv') throw usageError('-o csv: the stream writes ndjson (one JSON object per line); use -o ndjson');
  const bookMarkets = channels.filter((c) => c.type === 'market_data').map((c) => c.params!.market!);
  if (o.book && !bookMarkets.length) throw usageError('--book: needs a market_data channel (stream book MARKET, or --channel market_data:MARKET)');

  const conn = await ctx.connect({ quiet: live });
  const p = palette(ctx.io.colour);
  const env = ctx.env;
  const st: LiveState = {
    client: undefined as unknown as StreamClient,
    palette: p,
    now: () => Date.now(),
    tops: new Map(),
    tape: new TradeTape(),
    counts: new Map(),
    latest: new Map(),
    log: [],
    rate: 0,
  };
  const warnings: string[] = [];
  const warn = (s: string) => {
    if (live) warnings.push(s);
    else ctx.io.err(`${palette(ctx.io.colourErr).yellow('warning:')} ${s}\n`);
  };
  let written = 0;
  const stop: { reason: CliError | null } = { reason: null };
  const refused = new Set<string>();
  const client: StreamClient = new StreamClient({
    url: conn.profile.wsUrl,
    token: async (refresh) => (refresh && conn.tokens.canRefresh ? await conn.tokens.refresh() : await conn.tokens.token()).accessToken,
    channels,
    // Plain NDJSON passes messages through: keeping books would only cost time.
    books: bookMarkets.length > 0 && (live || !!o.book),
    staleAfterMs: Number(env.COINOP_STREAM_STALE_MS) || 5000,
    backoffBaseMs: Number(env.COINOP_RETRY_BASE_MS) || 250,
    backoffMaxMs: 10_000,
    onMessage: (m, raw) => onMessage(m, raw),
    passThrough: !live && !o.book,
    onChannelError: (ack) => {
      const key = keyOf(ack);
      refused.add(key);
      warn(`the service refused ${key}: ${ack.error ?? 'no reason given'}`);
      if (channels.every((c) => refused.has(keyOf(c)))) {
        stop.reason = new CliError('api', `the service refused every channel (${[...refused].join(', ')}: ${ack.error ?? 'refused'})`);
        client.stop();
      }
    },
    onServiceError: (code) => warn(`the service answered ${code}`),
    onState: (s, detail) => {
      if (!live && ctx.globals.debug) ctx.debug(`stream ${s}${detail ? `: ${detail}` : ''}`);
      if (!live && s === 'reconnecting' && detail) ctx.io.err(palette(ctx.io.colourErr).dim(`stream: ${detail}; reconnecting\n`));
    },
  });
  st.client = client;

  const writer = live ? null : new LineWriter(ctx.io.stdout, () => client.pause(), () => client.resume());
  const passThrough = !live && !o.book;
  const track = live;
  const done = () => {
    if (count !== undefined && written >= count) client.stop();
  };

  function onMessage(m: { channel: string; payload: Record<string, unknown> }, raw: string): void {
    if (passThrough) {
      if (count !== undefined && written >= count) return;
      writer!.write(raw);
      written++;
      done();
      return;
    }
    if (!track) return;
    written++;
    const mk = typeof m.payload?.market === 'string' ? (m.payload.market as string) : '';
    const key = mk ? `${m.channel}:${mk}` : m.channel;
    st.counts.set(key, (st.counts.get(key) ?? 0) + 1);
    if (view === 'channels') {
      st.latest.set(key, raw);
      st.log.push(raw);
      if (st.log.length > 400) st.log.splice(0, 200);
    }
    if (m.channel === 'market_data.top_of_book') st.tops.set(mk, { ...(m.payload as unknown as TopOfBookPayload), receivedAt: Date.now() });
    else if (m.channel === 'execution_data') st.tape.add(m.payload as unknown as ExecutionPayload, Date.now());
    // The first data is shown at once, not at the next frame tick.
    if (!firstShown && screen) {
      firstShown = true;
      screen.draw();
    }
    done();
  }
  let firstShown = false;

  // Messages per second for the status line.
  let lastCount = 0;
  const rateTimer = setInterval(() => {
    st.rate = st.rate * 0.5 + (client.messages - lastCount) * 0.5 * 2;
    lastCount = client.messages;
  }, 500);
  const timers: NodeJS.Timeout[] = [rateTimer];
  if (durationMs !== undefined) timers.push(setTimeout(() => client.stop(), durationMs));
  if (o.book && writer) {
    timers.push(
      setInterval(() => {
        for (const mk of bookMarkets) {
          const book = client.books.get(mk);
          if (!book || book.state !== 'live') continue;
          if (count !== undefined && written >= count) break;
          writer.write(JSON.stringify(book.toSnapshot(depth)));
          written++;
        }
        done();
      }, interval),
    );
  }

  let screen: LiveScreen | null = null;
  if (live) {
    const markets = channels.map((c) => c.params?.market).filter((x): x is string => !!x);
    const keys = channels.map(keyOf);
    screen = new LiveScreen({
      stdout: ctx.io.stdout,
      stdin: ctx.io.stdin as LiveScreenStdin,
      fps: Number(env.COINOP_STREAM_FPS) || 20,
      render: (w, h) => {
        switch (view) {
          case 'book':
            return bookView(st, markets[0], w, h);
          case 'top':
            return topView(st, markets, w, h);
          case 'trades':
            return tradesView(st, markets, w, h);
          case 'heartbeat':
            return heartbeatView(st);
          default:
            return channelsView(st, keys, w, h);
        }
      },
      onQuit: () => client.stop(),
      onError: (e) => {
        stop.reason = new CliError('internal', `the live view failed: ${(e as Error)?.message ?? String(e)}`, { hint: 'use -o ndjson meanwhile' });
        client.stop();
      },
    });
    // Ctrl-C outside raw mode, SIGTERM, or an error anywhere: the terminal is restored on the way out.
    ctx.onCleanup(() => screen?.stop());
    ctx.onCleanup(() => client.stop());
    screen.start();
  } else {
    ctx.onCleanup(() => client.stop());
  }

  try {
    await client.run();
  } catch (e) {
    if (e instanceof StreamAuthError) {
      stop.reason =
        e.status === 401
          ? new CliError('auth', `the stream refused the token (401): ${e.detail}`, { hint: 'run: coinop login (or check COINOP_TOKEN)' })
          : new CliError('auth', `the stream refused this client (403): ${e.detail}`, {
              hint: 'the stream needs the scope exchange:read_aggregated_marketdata_stream and a client on the allow list',
            });
    } else if (e instanceof StreamNetworkError) {
      stop.reason = new CliError('network', e.message, { hint: `is the service up? (${conn.profile.wsUrl})` });
    } else throw e;
  } finally {
    for (const t of timers) clearInterval(t);
    screen?.stop();
    await writer?.end();
    for (const w of warnings) ctx.io.err(`${palette(ctx.io.colourErr).yellow('warning:')} ${w}\n`);
  }
  if (stop.reason) throw stop.reason;
}

type LiveScreenStdin = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?(mode: boolean): unknown } & import('node:stream').Readable;
