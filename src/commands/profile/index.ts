// coinop profile list|use|show: declarations; the work is in run.ts.
import type { Command } from 'commander';
import type { CliContext } from '../../cli/context.js';
import { examples } from '../../cli/help.js';

export function register(program: Command, ctx: CliContext): void {
  const profile = examples(
    program
      .command('profile')
      .description("coinop's saved profiles: environments and credentials (the service's profiles: coinop profiles)"),
    ['coinop profile list', 'coinop profile use sandbox', 'coinop profile show'],
  );
  examples(
    profile
      .command('list')
      .description('every profile; the active one is marked')
      .action(async () => (await import('./run.js')).list(ctx)),
    ['coinop profile list', 'coinop profile list -o json'],
  );
  examples(
    profile
      .command('use')
      .description('make a profile the active one')
      .argument('<name>', 'profile name')
      .action(async (name: string) => (await import('./run.js')).use(ctx, name)),
    ['coinop profile use sandbox', 'coinop profile use local'],
  );
  examples(
    profile
      .command('show')
      .description('one profile (the active one by default), without its secret')
      .argument('[name]', 'profile name')
      .action(async (name: string | undefined) => (await import('./run.js')).show(ctx, name)),
    ['coinop profile show', 'coinop profile show sandbox --json'],
  );
}
