// coinop balances [ASSET...]: how much each of the service's profiles holds. Declarations; the flags are checked in
// options.ts, the work is in run.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { examples } from '../../cli/help.js';
import { tableOptions } from '../../cli/list-flags.js';
import type { RawFlags } from '../../cli/options.js';
import { ports } from '../../cli/ports.js';

export function register(program: Command, ctx: Invocation): void {
  examples(
    tableOptions(program.command('balances'))
      .description(
        "what the service's profiles hold: available (what may be sent now) and trading (held by orders), per asset",
      )
      .argument('[assets...]', 'assets to show, such as BTC USD (default: every asset with something in it)')
      .option('--profile-id <id>', "the service's profile (default: the coinop profile's)")
      .option('--all-profiles', 'every service profile, in one table')
      .option('--include-zero', 'also list assets with nothing in them')
      .action(async (assets: string[], raw: RawFlags) => {
        const { parseBalancesOptions } = await import('./options.js');
        await (await import('./run.js')).balances(ports(ctx), parseBalancesOptions(assets, raw));
      }),
    [
      'coinop balances',
      'coinop balances BTC USD',
      'coinop balances --profile-id e3a0c9d1-... --include-zero',
      'coinop balances USD --all-profiles -o csv',
    ],
  );
}
