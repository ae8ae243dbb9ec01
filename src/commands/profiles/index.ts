// coinop profiles list|get|create: the service's profiles, which hold the balances (coinop context, once coinop profile, is
// coinop's own saved credentials). Declarations; the flags are checked in options.ts, the work is in run.ts.
import type { Command } from 'commander';
import { LIST_ORDERS } from '../../contract/enums.js';
import type { Invocation } from '../../cli/invocation.js';
import { examples } from '../../cli/help.js';
import { tableOptions } from '../../cli/list-flags.js';
import { choiceOption, collect, type RawFlags, TIME_HELP } from '../../cli/options.js';
import { ports } from '../../cli/ports.js';

export function register(program: Command, ctx: Invocation): void {
  const profiles = examples(
    program
      .command('profiles')
      .description(
        "the service's profiles, which hold balances (coinop's own saved endpoints and credentials: coinop context)",
      ),
    ['coinop profiles list', 'coinop profiles get default', 'coinop profiles create --nickname payroll'],
  );
  const list = profiles
    .command('list')
    .description("the service's profiles, oldest first; --all follows every page")
    .option('--id <id>', 'profile ids (repeatable or comma separated, at most 100)', collect)
    .option('--nickname <prefix>', 'nicknames starting with this (any case)')
    .option('--created-before <time>', `created_at.lt: ${TIME_HELP}`)
    .option('--created-until <time>', 'created_at.lte')
    .option('--created-at <time>', 'created_at.eq')
    .option('--created-from <time>', 'created_at.gte')
    .option('--created-after <time>', 'created_at.gt')
    .option('--limit <n>', 'items per page (1 to 1000, default 1000)')
    .addOption(choiceOption('--order <order>', 'sort direction (default ASC)', LIST_ORDERS))
    .option('--cursor <cursor>', 'start from this page cursor')
    .option('--all', 'every page')
    .action(async (raw: RawFlags) => {
      const { parseProfilesListOptions } = await import('./options.js');
      await (await import('./run.js')).list(ports(ctx), parseProfilesListOptions(raw, ctx.now()));
    });
  tableOptions(list);
  examples(list, ['coinop profiles list', 'coinop profiles list --nickname ops -o csv']);
  examples(
    profiles
      .command('get')
      .description('one service profile (default: the context\'s; "default" names the default profile)')
      .argument('[id]', 'profile id, or default')
      .option('--include-deactivated', 'find it even when it was deactivated')
      .action(async (id: string | undefined, raw: RawFlags) => {
        const { parseProfilesGetOptions } = await import('./options.js');
        await (await import('./run.js')).get(ports(ctx), parseProfilesGetOptions(id, raw));
      }),
    ['coinop profiles get', 'coinop profiles get default', 'coinop profiles get 5d1f2a3b-... -o json'],
  );
  examples(
    profiles
      .command('create')
      .description('create a service profile (asks for its nickname on a terminal)')
      .option('--nickname <name>', 'its name, unique among the profiles')
      .option('--description <text>', 'what it is for')
      .action(async (raw: RawFlags) => {
        const { parseProfilesCreateOptions } = await import('./options.js');
        await (await import('./run.js')).create(ports(ctx), parseProfilesCreateOptions(raw));
      }),
    [
      'coinop profiles create --nickname payroll',
      'coinop profiles create --nickname cold --description "cold storage"',
    ],
  );
}
