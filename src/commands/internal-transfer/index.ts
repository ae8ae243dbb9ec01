// coinop transfer internal: money between two of the service's profiles. Declarations; the flags are checked in
// options.ts, the work is in run.ts. (coinop transfers, plural, lists and follows transfers.)
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { examples } from '../../cli/help.js';
import { type RawFlags, repeat, waitTimeoutOption } from '../../cli/options.js';

export function register(program: Command, ctx: Invocation): void {
  const transfer = examples(
    program
      .command('transfer')
      .description('move money within the service (to list and follow transfers: coinop transfers)'),
    ['coinop transfer internal --to-profile-id e3a0c9d1-... --asset USD --amount 2500'],
  );
  examples(
    transfer
      .command('internal')
      .description(
        "move an asset between two of one customer's service profiles (asks for missing values on a terminal)",
      )
      .option('--from-profile-id <id>', "the service's profile to debit (default: the coinop profile's)")
      .option('--to-profile-id <id>', "the service's profile to credit")
      .option('--asset <asset>', 'asset to move, such as BTC or USD')
      .option('--amount <amount>', 'amount to move (no fee)')
      .option('--ref-id <id>', 'client id for replay protection (default: generated and printed)')
      .option('--meta <key=value>', "metadata pair of the sender's side (repeatable, at most 6)", repeat)
      .option('--recipient-meta <key=value>', "metadata pair of the recipient's side (repeatable, at most 6)", repeat)
      .option('--dry-run', 'validate and show what would be sent; send nothing')
      .option('-y, --yes', 'do not ask for confirmation')
      .option('--wait', 'follow the transfer until COMPLETED or FAILED (exit 6 on FAILED)')
      .addOption(waitTimeoutOption())
      .action(async (raw: RawFlags) => {
        const { parseInternalTransferOptions } = await import('./options.js');
        await (await import('./run.js')).internal(ports(ctx), parseInternalTransferOptions(raw));
      }),
    [
      'coinop transfer internal',
      'coinop transfer internal --to-profile-id e3a0c9d1-... --asset BTC --amount 0.5',
      'coinop transfer internal --from-profile-id A --to-profile-id B --asset USD --amount 2500 --meta reason=payroll --yes',
      'coinop transfer internal ... --dry-run -o json',
    ],
  );
}
