// coinop stream and its views: the flags and arguments, checked, as a typed options object (declared in index.ts).
import { canonicalChoice, MARKETS, STREAM_CHANNELS } from '../../contract/enums.js';
import type { ChannelSpec } from '../../contract/schemas.js';
import { usageError } from '../../cli/errors.js';
import { durationFlag, intFlag, marketFlag, type RawFlags } from '../../cli/options.js';
import { STREAM_FLAG_TABLE } from './flags.js';
import { GLOBAL_FLAG_TABLE } from '../../cli/global-flags.js';

export type StreamView = 'book' | 'top' | 'trades' | 'heartbeat' | 'channels';

export interface StreamOptions {
  view: StreamView;
  /** What to subscribe, each channel once. */
  channels: ChannelSpec[];
  /** The markets of the market_data channels: their books are kept (live views, --book). */
  bookMarkets: string[];
  /** -o / --json as given (undefined: a live view on a terminal, ndjson otherwise). */
  format?: string;
  durationMs?: number;
  count?: number;
  depth?: number;
  intervalMs: number;
  /** --book: write each market_data channel's book every intervalMs instead of the messages. */
  book: boolean;
}

/** A timer longer than 2^31 - 1 ms fires at once: --duration 1000h would end the stream immediately. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export const channelKey = (c: ChannelSpec) => (c.params?.market ? `${c.type}:${c.params.market}` : c.type);

/** --channel TYPE[:MARKET] */
export function parseChannel(arg: string): ChannelSpec {
  const i = arg.indexOf(':');
  const given = (i < 0 ? arg : arg.slice(0, i)).trim();
  const m = i < 0 ? '' : arg.slice(i + 1).trim();
  const type = canonicalChoice(STREAM_CHANNELS, given);
  if (type === undefined) {
    throw usageError(`--channel: "${given}" is not a channel (one of ${STREAM_CHANNELS.join(', ')})`);
  }
  if (type === 'heartbeat') {
    if (m) throw usageError('--channel: heartbeat takes no market (write --channel heartbeat)');
    return { type };
  }
  if (!m) throw usageError(`--channel: ${type} needs a market, such as ${type}:BTCUSD`);
  return { type, params: { market: marketFlag('--channel', m) } };
}

const unique = (xs: string[]) => [...new Set(xs)];
const markets = (args: string[]) => unique(args.map((m) => marketFlag('MARKET', m)));

/** The channels of a view: `args` are its markets (book: one; top: none means every market). */
function viewChannels(view: StreamView, args: string[], channelFlags: string[] | undefined): ChannelSpec[] {
  switch (view) {
    case 'book':
      return [{ type: 'market_data', params: { market: marketFlag('MARKET', args[0]) } }];
    case 'top':
      return markets(args.length ? args : [...MARKETS]).map((market) => ({
        type: 'market_data.top_of_book',
        params: { market },
      }));
    case 'trades':
      return markets(args).map((market) => ({ type: 'execution_data', params: { market } }));
    case 'heartbeat':
      return [{ type: 'heartbeat' }];
    default: {
      if (!channelFlags?.length)
        throw usageError(
          'stream: name a view (book, top, trades, heartbeat) or at least one --channel TYPE[:MARKET]',
          'coinop stream --help',
        );
      const seen = new Set<string>();
      return channelFlags.map(parseChannel).filter((c) => !seen.has(channelKey(c)) && seen.add(channelKey(c)));
    }
  }
}

/** `raw`: the stream's flags with the global ones (-o, --json), as every view reads them. */
export function parseStreamOptions(view: StreamView, args: string[], raw: RawFlags): StreamOptions {
  const f = STREAM_FLAG_TABLE.read(raw);
  const channelFlags = f.channel;
  const channels = viewChannels(view, args, channelFlags);
  if (view !== 'channels' && channelFlags?.length)
    throw usageError(`--channel: not with stream ${view} (use coinop stream --channel ... alone)`);
  const durationMs = durationFlag(
    '--duration',
    f.duration,
    MAX_TIMER_MS,
    'must be at most 596h (24 days); leave it out to stream until stopped',
  );
  const count = intFlag('--count', f.count, 1, Number.MAX_SAFE_INTEGER);
  const depth = intFlag('--depth', f.depth, 1, 100_000);
  const intervalMs = intFlag('--interval', f.interval, 10, 3_600_000) ?? 1000;
  const output = GLOBAL_FLAG_TABLE.read(raw);
  const format = output.json ? 'json' : output.output;
  if (format === 'csv') throw usageError('-o csv: the stream writes ndjson (one JSON object per line); use -o ndjson');
  const bookMarkets = channels.filter((c) => c.type === 'market_data').map((c) => c.params!.market!);
  const { book } = f;
  if (book && !bookMarkets.length)
    throw usageError('--book: needs a market_data channel (stream book MARKET, or --channel market_data:MARKET)');
  return { view, channels, bookMarkets, format, durationMs, count, depth, intervalMs, book };
}
