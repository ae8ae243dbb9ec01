// coinop markets, ticker, book and trades: market data snapshots over HTTP (public endpoints: no login needed).
// Declarations only; the flags are checked in options.ts, the work is in run.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { examples } from '../../cli/help.js';
import { tableOptions } from '../../cli/list-flags.js';
import type { RawFlags } from '../../cli/options.js';
import { BOOK_FLAG_TABLE, declareMarkets, TRADES_FLAG_TABLE } from './flags.js';

const MARKET_ARG = 'market, such as BTCUSD (asked on a terminal when missing)';

export function register(program: Command, ctx: Invocation): void {
  examples(
    declareMarkets(program.command('markets'))
      .description("the markets: the CLI's catalogue and what the service lists (GET /markets), with tick and status")
      .action(async (raw: RawFlags) => {
        const { parseMarketsOptions } = await import('./options.js');
        await (await import('./run.js')).markets(ports(ctx), parseMarketsOptions(raw));
      }),
    ['coinop markets', 'coinop markets -o csv', 'coinop markets --context sandbox --refresh'],
  );
  examples(
    program
      .command('ticker')
      .description("a market's best bid and ask, last trade, and the last 24 hours and today: open, high, low, volume")
      .argument('[market]', MARKET_ARG)
      .action(async (market: string | undefined, raw: RawFlags) => {
        const { parseTickerOptions } = await import('./options.js');
        await (await import('./run.js')).ticker(ports(ctx), parseTickerOptions(market, raw));
      }),
    ['coinop ticker BTCUSD', 'coinop ticker ETHEUR -o json'],
  );
  examples(
    BOOK_FLAG_TABLE.declare(program.command('book'))
      .description("one snapshot of a market's order book: bids and asks side by side, best first")
      .argument('[market]', MARKET_ARG)
      .action(async (market: string | undefined, raw: RawFlags) => {
        const { parseBookOptions } = await import('./options.js');
        await (await import('./run.js')).book(ports(ctx), parseBookOptions(market, raw));
      }),
    ['coinop book BTCUSD', 'coinop book ETHUSD --depth 25', 'coinop book BTCEUR -o csv'],
  );
  examples(
    TRADES_FLAG_TABLE.declare(tableOptions(program.command('trades')))
      .description("a market's most recent trades, newest first")
      .argument('[market]', MARKET_ARG)
      .action(async (market: string | undefined, raw: RawFlags) => {
        const { parseTradesOptions } = await import('./options.js');
        await (await import('./run.js')).trades(ports(ctx), parseTradesOptions(market, raw));
      }),
    ['coinop trades BTCUSD', 'coinop trades SOLEUR --limit 100 -o ndjson'],
  );
}
