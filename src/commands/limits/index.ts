// coinop limits: declarations; the flags are checked in options.ts, the work is in run.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { examples } from '../../cli/help.js';
import type { RawFlags } from '../../cli/options.js';
import { declareLimits } from './flags.js';

export function register(program: Command, ctx: Invocation): void {
  examples(
    declareLimits(program.command('limits'))
      .description('transfer limits: what is used and what is left of each, per transfer and per period')
      .action(async (raw: RawFlags) => {
        const { parseLimitsOptions } = await import('./options.js');
        const o = parseLimitsOptions(raw);
        await (await import('./run.js')).limits(ports(ctx), o);
      }),
    ['coinop limits', 'coinop limits --type WIRE_DEPOSIT', 'coinop limits -o json'],
  );
}
