// coinop approve: declarations; the flags are checked in options.ts, the work is in run.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { examples } from '../../cli/help.js';
import type { RawFlags } from '../../cli/options.js';
import { APPROVE_FLAG_TABLE } from './flags.js';

export function register(program: Command, ctx: Invocation): void {
  examples(
    APPROVE_FLAG_TABLE.declare(program.command('approve'))
      .description(
        'sign a batch file, or a withdrawal saved by withdraw --dry-run --save, with your Ed25519 key (four-eyes approvals)',
      )
      .argument('[file]', 'the batch file or saved withdrawal to approve')
      .addHelpText(
        'after',
        `
The approval is written next to the file as FILE.approval-<key id>.txt: plain text that can travel by email or in
a pull request. It signs the file's content as withdraw batch (or withdraw --request) will send it: every row, the
totals per asset and network, the default service profile, the environment and the API address. A changed row, amount or
destination voids it. The private key is <config dir>/approval-key.pem (0600), made on first use.

A repeat run (withdraw batch --allow-repeat) needs approvals of its own, signed with --allow-repeat: they state
"repeat: true", and the rows paid again are sent under ref_ids salted by that content's digest, so the sender, the
dry run and every approver work out the same ref_ids offline, and the same repeat run a second time pays nothing.`,
      )
      .action(async (file: string | undefined, raw: RawFlags) => {
        const { parseApproveOptions } = await import('./options.js');
        await (await import('./run.js')).approve(ports(ctx), parseApproveOptions(file, raw), ctx.env.USER);
      }),
    [
      'coinop approve --show-key',
      'coinop approve payouts.csv',
      'coinop approve payout-7.json --yes         # saved by withdraw --dry-run --save payout-7.json',
      'coinop approve june-again.csv --allow-repeat   # for withdraw batch june-again.csv --allow-repeat',
    ],
  );
}
