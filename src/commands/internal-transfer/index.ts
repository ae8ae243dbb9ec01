// coinop transfer internal: money between two of the service's profiles; coinop transfer paxos: to a profile of
// another customer of the service. Declarations; the flags are checked in options.ts, the work is in run.ts.
// (coinop transfers, plural, lists and follows transfers.)
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { examples } from '../../cli/help.js';
import type { RawFlags } from '../../cli/options.js';
import { INTERNAL_TRANSFER_FLAG_TABLE, PAXOS_TRANSFER_FLAG_TABLE } from './flags.js';

export function register(program: Command, ctx: Invocation): void {
  const transfer = examples(
    program
      .command('transfer')
      .description('move money within the service (to list and follow transfers: coinop transfers)'),
    [
      'coinop transfer internal --to-profile-id e3a0c9d1-... --asset USD --amount 2500',
      'coinop transfer paxos --to-profile-id 37867177-... --asset BTC --amount 0.05',
    ],
  );
  examples(
    INTERNAL_TRANSFER_FLAG_TABLE.declare(
      transfer
        .command('internal')
        .description(
          "move an asset between two of one customer's service profiles (asks for missing values on a terminal)",
        ),
    ).action(async (raw: RawFlags) => {
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
  examples(
    PAXOS_TRANSFER_FLAG_TABLE.declare(
      transfer
        .command('paxos')
        .description(
          "send an asset to another customer of the service, to the recipient's profile id (asks for missing values on a terminal)",
        ),
    ).action(async (raw: RawFlags) => {
      const { parseInternalTransferOptions } = await import('./options.js');
      await (await import('./run.js')).paxos(ports(ctx), parseInternalTransferOptions(raw));
    }),
    [
      'coinop transfer paxos',
      'coinop transfer paxos --to-profile-id 37867177-... --asset BTC --amount 0.05 --ref-id invoice-1042',
      'coinop transfer paxos --to-profile-id 37867177-... --asset USD --amount 2500 --meta invoice=1042 --recipient-meta from=acme --yes',
      'coinop transfer paxos ... --dry-run -o json',
    ],
  );
}
