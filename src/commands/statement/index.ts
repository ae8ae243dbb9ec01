// coinop statement: a service profile's statement for a month or a period. Declarations; the flags are checked in
// options.ts, the work is in run.ts (the figures in src/statement).
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { examples } from '../../cli/help.js';
import type { RawFlags } from '../../cli/options.js';
import { STATEMENT_FLAG_TABLE } from './flags.js';

export function register(program: Command, ctx: Invocation): void {
  examples(
    STATEMENT_FLAG_TABLE.declare(program.command('statement'))
      .description(
        "a service profile's statement: opening balance, every movement with its reference and fee, closing balance, per asset",
      )
      .action(async (raw: RawFlags) => {
        const { parseStatementOptions } = await import('./options.js');
        const o = parseStatementOptions(raw, ctx.now());
        await (await import('./run.js')).statement(ports(ctx), o);
      }),
    [
      'coinop statement --month 2026-11',
      'coinop statement --profile-id e3a0c9d1-... --month 2026-11 -o csv > november.csv',
      'coinop statement --from 2026-11-15 --to 2026-11-16 -o json',
    ],
  );
}
