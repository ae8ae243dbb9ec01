// coinop stream: live market data (book, top, trades, heartbeat, any channel mix); the work is in run.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { examples } from '../../cli/help.js';
import { ports } from '../../cli/ports.js';
import type { StreamView } from './options.js';
import { STREAM_FLAG_TABLE } from './flags.js';

export function register(program: Command, ctx: Invocation): void {
  // The flags belong to `stream`, and commander reads them wherever they appear, so each view takes them through
  // optsWithGlobals() (and --help of each view lists them with the global options).
  const run = async (view: StreamView, args: string[], cmd: Command) =>
    (await import('./run.js')).stream(ports(ctx), view, args, cmd.optsWithGlobals());
  const stream = STREAM_FLAG_TABLE.declare(program.command('stream')).description(
    'live market data: a live view on a terminal, one JSON object per line when piped or with -o ndjson',
  );
  stream.addHelpText(
    'after',
    `
On a terminal the view takes the whole screen (q or Ctrl-C leaves). Piped, or with -o ndjson, each message
is written as received, one per line, and nothing else goes to stdout.

Examples:
  $ coinop stream book BTCUSD
  $ coinop stream top BTCUSD ETHUSD SOLEUR
  $ coinop stream trades BTCUSD ETHUSD
  $ coinop stream heartbeat
  $ coinop stream -c market_data:BTCUSD -c execution_data:BTCUSD -o ndjson --duration 10s
  $ coinop stream book ETHEUR -o ndjson --book --interval 500 --depth 10 --count 20
`,
  );
  stream.action((_o: unknown, cmd: Command) => run('channels', [], cmd));

  examples(
    stream
      .command('book')
      .description('live order book ladder: levels per side with depth bars, spread, mid, age of the last update')
      .argument('<market>', 'market, such as BTCUSD')
      .action((market: string, _o: unknown, cmd: Command) => run('book', [market], cmd)),
    ['coinop stream book BTCUSD', 'coinop stream book BTCUSD -o ndjson --book --depth 5 --count 3'],
  );
  examples(
    stream
      .command('top')
      .description('board of best bid and ask across markets')
      .argument('[markets...]', 'markets, such as BTCUSD ETHUSD (default: every market)')
      .action((markets: string[], _o: unknown, cmd: Command) => run('top', markets, cmd)),
    ['coinop stream top BTCUSD ETHUSD SOLEUR', 'coinop stream top'],
  );
  examples(
    stream
      .command('trades')
      .description('trade tape with running volume, VWAP and trade rate')
      .argument('<markets...>', 'markets, such as BTCUSD ETHUSD')
      .action((markets: string[], _o: unknown, cmd: Command) => run('trades', markets, cmd)),
    ['coinop stream trades BTCUSD', 'coinop stream trades BTCUSD ETHUSD -o ndjson --count 100'],
  );
  examples(
    stream
      .command('heartbeat')
      .description('heartbeat age and latency')
      .action((_o: unknown, cmd: Command) => run('heartbeat', [], cmd)),
    ['coinop stream heartbeat', 'coinop stream heartbeat -o ndjson --count 5'],
  );
}
