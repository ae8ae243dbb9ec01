// coinop approvals: a coinop gateway's approvals inbox, for approvers on their own machines (run.ts does the work).
import { ports } from '../../cli/ports.js';
import type { Command } from 'commander';
import { examples } from '../../cli/help.js';
import type { Invocation } from '../../cli/invocation.js';
import type { RawFlags } from '../../cli/options.js';
import { APPROVALS_APPROVE_FLAG_TABLE, APPROVALS_LIST_FLAG_TABLE, APPROVALS_REJECT_FLAG_TABLE } from './flags.js';

export function register(program: Command, ctx: Invocation): void {
  const approvals = examples(
    program
      .command('approvals')
      .description("a coinop gateway's requests (and policy changes) held for approvals: list, show, approve, reject"),
    ['coinop approvals list --status pending', 'coinop approvals approve 2f0c…'],
  );
  const run = () => import('./run.js');
  examples(
    APPROVALS_LIST_FLAG_TABLE.declare(approvals.command('list'))
      .description('the requests the gateway holds, newest first')
      .action(async (raw: RawFlags) => (await run()).list(ports(ctx), APPROVALS_LIST_FLAG_TABLE.read(raw).status)),
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
    APPROVALS_APPROVE_FLAG_TABLE.declare(approvals.command('approve <id>'))
      .description('sign an approval of a held request with your approver key (the last one needed sends it)')
      .action(async (id: string, raw: RawFlags) =>
        (await run()).approve(ports(ctx), id, APPROVALS_APPROVE_FLAG_TABLE.read(raw).yes),
      ),
    ['coinop approvals approve 2f0c5a1e-…'],
  );
  examples(
    APPROVALS_REJECT_FLAG_TABLE.declare(approvals.command('reject <id>'))
      .description('reject a held request: it is never sent')
      .action(async (id: string, raw: RawFlags) =>
        (await run()).reject(ports(ctx), id, APPROVALS_REJECT_FLAG_TABLE.read(raw).reason),
      ),
    ['coinop approvals reject 2f0c5a1e-… --reason "not our vendor"'],
  );
}
