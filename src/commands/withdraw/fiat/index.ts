// `coinop withdraw fiat`: flags and help (options.ts checks them); the work loads from ./run.js when it runs.
import type { Command } from 'commander';
import type { Invocation } from '../../../cli/invocation.js';
import { ports } from '../../../cli/ports.js';
import { examples } from '../../../cli/help.js';
import { usageError } from '../../../cli/errors.js';
import type { RawFlags } from '../../../cli/options.js';
import { FIAT_WITHDRAW_FLAG_TABLE } from './flags.js';

/** Declares `fiat` under the `withdraw` command. */
export function register(withdraw: Command, ctx: Invocation): void {
  // withdraw has flags of the same names (--amount, --yes, --ref-id): after `fiat` they are fiat's.
  withdraw.enablePositionalOptions();
  const cmd = FIAT_WITHDRAW_FLAG_TABLE.declare(
    withdraw
      .command('fiat')
      .description('send USD from a profile balance to a saved fiat account (asks for missing values on a terminal)')
      // The crypto withdrawal's flags are not fiat's: only the program's own options are listed as global.
      .configureHelp({
        showGlobalOptions: true,
        visibleGlobalOptions: (c: Command) => (c.parent?.parent ?? c).options.filter((o) => !o.hidden),
      }),
  ).action(async (_flags: unknown, command: Command) => {
    // withdraw parses the flags it shares with fiat (--amount, --asset, --yes...) whatever their place: merged.
    const crypto = withdraw.options.filter(
      (o) =>
        withdraw.getOptionValueSource(o.attributeName()) === 'cli' && !command.options.some((f) => f.long === o.long),
    );
    if (crypto.length)
      throw usageError(
        `${crypto[0].long ?? crypto[0].flags}: not a flag of withdraw fiat (it sends to a saved fiat account)`,
        'coinop withdraw fiat --help lists its flags',
      );
    const { parseFiatWithdrawOptions } = await import('./options.js');
    const o = parseFiatWithdrawOptions(command.optsWithGlobals() as RawFlags);
    await (await import('./run.js')).withdrawFiat(ports(ctx), o);
  });
  examples(cmd, [
    'coinop withdraw fiat',
    'coinop withdraw fiat --fiat-account-id dde1b3c5-d02a-48f6-8d11-16b4f532ea49 --amount 2500 --asset USD',
    'coinop withdraw fiat --fiat-account-id dde1b3c5-... --total 10000 --ref-id payroll-2026-11 --memo "payroll November" --wait',
    'coinop withdraw fiat --fiat-account-id dde1b3c5-... --amount 50000 --approvals payroll.approval-alice.txt --yes',
    'coinop withdraw fiat ... --dry-run -o json',
  ]);
}
