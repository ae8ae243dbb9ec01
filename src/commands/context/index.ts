// coinop context list|use|show|rename|delete|set-profile-id: coinop's saved endpoints and credentials (kubectl's and
// docker's word); `coinop profile ...`, their old name, still works (hidden, with a one-line note). Declarations only:
// the work is in ./run.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { examples } from '../../cli/help.js';
import { ports } from '../../cli/ports.js';
import type { RawFlags } from '../../cli/options.js';
import { CONTEXT_DELETE_FLAG_TABLE } from './flags.js';

export function register(program: Command, ctx: Invocation): void {
  declare(
    examples(
      program
        .command('context')
        .description(
          "coinop's saved contexts: an environment's endpoints and credentials (the service's profiles: coinop profiles)",
        ),
      ['coinop context list', 'coinop context use sandbox', 'coinop context show'],
    ),
    'context',
    ctx,
  );
  // The old name: every subcommand works as before, after one line on stderr.
  const old = program
    .command('profile', { hidden: true })
    .description('old name of coinop context')
    .hook('preAction', () => ctx.io.err('note: coinop profile is now coinop context\n'));
  declare(examples(old, ['coinop context list']), 'profile', ctx);
}

/** The subcommands under `group` (`coinop context` or its old name), their examples spelled with `name`. */
function declare(command: Command, group: string, ctx: Invocation): void {
  const ex = (lines: string[]) => lines.map((l) => l.replace(/^coinop context/, `coinop ${group}`));
  examples(
    command
      .command('list')
      .description('every context; the active one is marked')
      .action(async () => (await import('./run.js')).list(ports(ctx))),
    ex(['coinop context list', 'coinop context list -o json']),
  );
  examples(
    command
      .command('use')
      .description('make a context the active one')
      .argument('<name>', 'context name')
      .action(async (name: string) => (await import('./run.js')).use(ports(ctx), name)),
    ex(['coinop context use sandbox', 'coinop context use local']),
  );
  examples(
    command
      .command('show')
      .description('one context (the active one by default), without its secret')
      .argument('[name]', 'context name')
      .action(async (name: string | undefined) => (await import('./run.js')).show(ports(ctx), name)),
    ex(['coinop context show', 'coinop context show sandbox --json']),
  );
  examples(
    command
      .command('rename')
      .description(
        'rename a saved context (its secret and its policy file move with it; the active context follows); refused when the new name has a policy file already',
      )
      .argument('<old>', 'context name')
      .argument('<new>', 'new name')
      .action(async (from: string, to: string) => (await import('./run.js')).rename(ports(ctx), from, to)),
    ex(['coinop context rename sandbox sandbox-eu']),
  );
  examples(
    CONTEXT_DELETE_FLAG_TABLE.declare(command.command('delete'))
      .description(
        'delete a saved context with its secret and cached tokens (asks on a terminal); its policy file is kept, so a context saved again under the name is held to it',
      )
      .argument('<name>', 'context name')
      .action(async (name: string, raw: RawFlags) =>
        (await import('./run.js')).remove(ports(ctx), name, CONTEXT_DELETE_FLAG_TABLE.read(raw).yes),
      ),
    ex(['coinop context delete old-sandbox', 'coinop context delete old-sandbox --yes']),
  );
  examples(
    command
      .command('set-profile-id')
      .description("set the service's profile a saved context defaults to, without logging in again")
      .argument(
        '<profile-id>',
        'the service\'s profile: id, id prefix or nickname (see coinop profiles list); "" clears it',
      )
      .argument('[name]', 'context name (default: the active one)')
      .action(async (id: string, name: string | undefined) =>
        (await import('./run.js')).setProfileId(ports(ctx), id, name),
      ),
    ex([
      'coinop context set-profile-id 2b1e6f9c-5d4a-4f7e-9c3b-8a1d2e3f4a5b',
      'coinop context set-profile-id payroll',
      'coinop context set-profile-id "" sandbox',
    ]),
  );
}
