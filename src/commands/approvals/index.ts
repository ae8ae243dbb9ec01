// coinop approvals: a coinop gateway's approvals inbox, for approvers on their own machines (run.ts does the work).
import type { Command } from 'commander';
import { examples } from '../../cli/help.js';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { choiceOption, type RawFlags } from '../../cli/options.js';

const STATUSES = ['pending', 'sending', 'sent', 'failed', 'rejected', 'expired'];

export function register(program: Command, ctx: Invocation): void {
  const approvals = examples(
    program
      .command('approvals')
      .description("a coinop gateway's requests held for approvals: list, show, approve, reject"),
    ['coinop approvals list --status pending', 'coinop approvals approve 2f0c…'],
  );
  const run = () => import('./run.js');
  examples(
    approvals
      .command('list')
      .description('the requests the gateway holds, newest first')
      .addOption(choiceOption('--status <status>', 'only those in this status', STATUSES))
      .action(async (raw: RawFlags) => (await run()).list(ports(ctx), raw.status as string | undefined)),
    ['coinop approvals list --status pending', 'coinop approvals list -o json'],
  );
  examples(
    approvals
      .command('show <id>')
      .description('one held request: every field, destination, amount, and the approvals so far')
      .action(async (id: string) => (await run()).show(ports(ctx), id)),
    ['coinop approvals show 2f0c5a1e-…', 'coinop approvals show 2f0c5a1e-… -o json'],
  );
  examples(
    approvals
      .command('approve <id>')
      .description('sign an approval of a held request with your approver key (the last one needed sends it)')
      .option('--yes', 'sign without asking (the content is still checked)')
      .action(async (id: string, raw: RawFlags) => (await run()).approve(ports(ctx), id, raw.yes === true)),
    ['coinop approvals approve 2f0c5a1e-…'],
  );
  examples(
    approvals
      .command('reject <id>')
      .description('reject a held request: it is never sent')
      .option('--reason <text>', 'why (kept with it and in the audit chain)')
      .action(async (id: string, raw: RawFlags) =>
        (await run()).reject(ports(ctx), id, raw.reason as string | undefined),
      ),
    ['coinop approvals reject 2f0c5a1e-… --reason "not our vendor"'],
  );
}
