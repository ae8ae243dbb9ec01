// coinop prices MARKET: declarations; the work is in run.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { examples } from '../../cli/help.js';
import { declarePrices } from './flags.js';

export function register(program: Command, ctx: Invocation): void {
  examples(
    declarePrices(program.command('prices'))
      .description('historical average prices of a market (a table and a chart on a terminal)')
      .argument('[market]', 'market, such as BTCUSD (asked on a terminal when missing)')
      .action(async (market: string | undefined, opts) => (await import('./run.js')).prices(ports(ctx), market, opts)),
    [
      'coinop prices BTCUSD',
      'coinop prices ETHEUR --increment ONE_DAY --from 30d',
      'coinop prices BTCUSD --max-points 50 --from 2026-01-01T00:00:00Z --to 2026-02-01T00:00:00Z -o csv',
      'coinop prices SOLEUR --increment FIVE_MINUTES --from 24h --all -o ndjson',
    ],
  );
}
