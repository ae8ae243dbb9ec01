// coinop stream and its views: a real argv (with the global output flags) to checked options, and to the usage error.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { MARKETS, STREAM_CHANNELS } from '../../src/contract/enums.js';
import { STREAM_FLAG_TABLE } from '../../src/commands/stream/flags.js';
import { GLOBAL_FLAG_TABLE } from '../../src/cli/global-flags.js';
import { parseStreamOptions as parseRaw, type StreamView } from '../../src/commands/stream/options.js';
import { parseArgv } from '../support/argv.js';
import { usageMessage } from './support.js';

/** stream's flags, and -o and --json as the program declares them (optsWithGlobals hands them over). */
const declares = (cmd: Command) => GLOBAL_FLAG_TABLE.declare(STREAM_FLAG_TABLE.declare(cmd));
const parseStreamOptions = (view: StreamView, args: string[], argv: string[]) =>
  parseRaw(view, args, parseArgv(declares, argv));
const md = (market: string) => ({ type: 'market_data', params: { market } });

describe('stream options', () => {
  it.each<{ view: StreamView; args: string[]; argv: string[]; want: Record<string, unknown> }>([
    {
      view: 'book',
      args: ['btcusd'],
      argv: [],
      want: { view: 'book', channels: [md('BTCUSD')], bookMarkets: ['BTCUSD'], intervalMs: 1000, book: false },
    },
    {
      view: 'book',
      args: ['ETHEUR'],
      argv: ['--output', 'ndjson', '--book', '--interval', '500', '--depth', '10', '--count', '20'],
      want: {
        view: 'book',
        channels: [md('ETHEUR')],
        bookMarkets: ['ETHEUR'],
        format: 'ndjson',
        intervalMs: 500,
        depth: 10,
        count: 20,
        book: true,
      },
    },
    {
      view: 'top',
      args: ['BTCUSD', 'btcusd', 'ETHUSD'],
      argv: ['--json', '--duration', '30'],
      want: {
        view: 'top',
        channels: [
          { type: 'market_data.top_of_book', params: { market: 'BTCUSD' } },
          { type: 'market_data.top_of_book', params: { market: 'ETHUSD' } },
        ],
        bookMarkets: [],
        format: 'json',
        durationMs: 30_000,
        intervalMs: 1000,
        book: false,
      },
    },
    {
      view: 'trades',
      args: ['SOLEUR'],
      argv: ['--duration', '1.5m'],
      want: {
        view: 'trades',
        channels: [{ type: 'execution_data', params: { market: 'SOLEUR' } }],
        bookMarkets: [],
        durationMs: 90_000,
        intervalMs: 1000,
        book: false,
      },
    },
    {
      view: 'heartbeat',
      args: [],
      argv: ['--duration', '500ms', '--count', '5'],
      want: {
        view: 'heartbeat',
        channels: [{ type: 'heartbeat' }],
        bookMarkets: [],
        durationMs: 500,
        count: 5,
        intervalMs: 1000,
        book: false,
      },
    },
    {
      view: 'channels',
      args: [],
      argv: [
        '--channel',
        'market_data:BTCUSD',
        '--channel',
        ' heartbeat ',
        '--channel',
        'market_data: btcusd',
        '--channel',
        'execution_data:ETHUSD',
        '--duration',
        '2h',
      ],
      want: {
        view: 'channels',
        channels: [md('BTCUSD'), { type: 'heartbeat' }, { type: 'execution_data', params: { market: 'ETHUSD' } }],
        bookMarkets: ['BTCUSD'],
        durationMs: 7_200_000,
        intervalMs: 1000,
        book: false,
      },
    },
  ])('$view $args $argv', ({ view, args, argv, want }) => {
    expect(JSON.parse(JSON.stringify(parseStreamOptions(view, args, argv)))).toEqual(want);
  });

  it('stream top alone subscribes every market once', () => {
    const o = parseStreamOptions('top', [], []);
    expect(o.channels.map((c) => c.params?.market)).toEqual([...MARKETS]);
  });

  it.each<[StreamView, string[], string[], string]>([
    ['channels', [], [], 'stream: name a view (book, top, trades, heartbeat) or at least one --channel TYPE[:MARKET]'],
    // By their shape only: whether the service has them is the run's (src/cli/market-check.ts).
    ['book', ['XYZ/USD'], [], 'MARKET: "XYZ/USD" is not a market symbol (capital letters and digits, such as BTCUSD)'],
    [
      'trades',
      ['BTCUSD', 'no pe'],
      [],
      'MARKET: "no pe" is not a market symbol (capital letters and digits, such as BTCUSD)',
    ],
    [
      'channels',
      [],
      ['--channel', 'trades'],
      `--channel: "trades" is not a channel (one of ${STREAM_CHANNELS.join(', ')})`,
    ],
    [
      'channels',
      [],
      ['--channel', 'heartbeat:BTCUSD'],
      '--channel: heartbeat takes no market (write --channel heartbeat)',
    ],
    ['channels', [], ['--channel', 'market_data'], '--channel: market_data needs a market, such as market_data:BTCUSD'],
    [
      'channels',
      [],
      ['--channel', 'execution_data:XY.Z'],
      '--channel: "XY.Z" is not a market symbol (capital letters and digits, such as BTCUSD)',
    ],
    [
      'book',
      ['BTCUSD'],
      ['--channel', 'heartbeat'],
      '--channel: not with stream book (use coinop stream --channel ... alone)',
    ],
    ['heartbeat', [], ['--duration', '0'], '--duration: must be a positive time such as 30, 30s, 5m or 1h'],
    ['heartbeat', [], ['--duration', 'soon'], '--duration: must be a positive time such as 30, 30s, 5m or 1h'],
    ['heartbeat', [], ['--duration', '5m ago'], '--duration: must be a positive time such as 30, 30s, 5m or 1h'],
    [
      'heartbeat',
      [],
      ['--duration', '1000h'],
      '--duration: must be at most 596h (24 days); leave it out to stream until stopped',
    ],
    ['heartbeat', [], ['--count', '0'], `--count: must be from 1 to ${Number.MAX_SAFE_INTEGER}`],
    ['book', ['BTCUSD'], ['--depth', '0'], '--depth: must be from 1 to 100000'],
    ['book', ['BTCUSD'], ['--interval', '5'], '--interval: must be from 10 to 3600000'],
    [
      'book',
      ['BTCUSD'],
      ['--output', 'csv'],
      '-o csv: the stream writes ndjson (one JSON object per line); use -o ndjson',
    ],
    [
      'top',
      ['BTCUSD'],
      ['--book'],
      '--book: needs a market_data channel (stream book MARKET, or --channel market_data:MARKET)',
    ],
  ])('%s %o %o: %s', (view, args, argv, message) => {
    expect(usageMessage(() => parseStreamOptions(view, args, argv))).toBe(message);
  });
});
