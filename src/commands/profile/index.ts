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
  examples(
    profile
      .command('rename')
      .description('rename a saved profile (its secret moves with it; the active profile follows)')
      .argument('<old>', 'profile name')
      .argument('<new>', 'new name')
      .action(async (from: string, to: string) => (await import('./run.js')).rename(ctx, from, to)),
    ['coinop profile rename sandbox sandbox-eu'],
  );
  examples(
    profile
      .command('delete')
      .description('delete a saved profile with its secret and cached tokens (asks on a terminal)')
      .argument('<name>', 'profile name')
      .option('-y, --yes', 'do not ask')
      .action(async (name: string, o: { yes?: boolean }) => (await import('./run.js')).remove(ctx, name, !!o.yes)),
    ['coinop profile delete old-sandbox', 'coinop profile delete old-sandbox --yes'],
  );
  examples(
    profile
      .command('set-profile-id')
      .description("set the service's profile id a saved profile defaults to, without logging in again")
      .argument('<profile-id>', 'the service\'s profile id (see coinop profiles list); "" clears it')
      .argument('[name]', 'profile name (default: the active one)')
      .action(async (id: string, name: string | undefined) => (await import('./run.js')).setProfileId(ctx, id, name)),
    ['coinop profile set-profile-id 2b1e6f9c-5d4a-4f7e-9c3b-8a1d2e3f4a5b', 'coinop profile set-profile-id "" sandbox'],
  );
}
