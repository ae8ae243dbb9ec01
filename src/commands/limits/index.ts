// coinop limits: declarations; the flags are checked in options.ts, the work is in run.ts.
import type { Command } from 'commander';
import { TRANSFER_LIMIT_TYPES } from '../../contract/enums.js';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { examples } from '../../cli/help.js';
import { tableOptions } from '../../cli/list-flags.js';
import { choiceOption, type RawFlags } from '../../cli/options.js';

export function register(program: Command, ctx: Invocation): void {
  examples(
    tableOptions(program.command('limits'))
      .description('transfer limits: what is used and what is left of each, per transfer and per period')
      .addOption(
        choiceOption('--type <type>', 'transfer type the limits apply to', TRANSFER_LIMIT_TYPES).default(
          'CRYPTO_WITHDRAWAL',
        ),
      )
      .action(async (raw: RawFlags) => {
        const { parseLimitsOptions } = await import('./options.js');
        const o = parseLimitsOptions(raw);
        await (await import('./run.js')).limits(ports(ctx), o);
      }),
    ['coinop limits', 'coinop limits --type WIRE_DEPOSIT', 'coinop limits -o json'],
  );
}
