// coinop profiles list|get|create: the service's profiles, which hold the balances (coinop context, once coinop profile, is
// coinop's own saved credentials). Declarations; the flags are checked in options.ts, the work is in run.ts.
import { ports } from '../../cli/ports.js';
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { examples } from '../../cli/help.js';
import type { RawFlags } from '../../cli/options.js';
import { declareProfilesList, PROFILES_CREATE_FLAG_TABLE, PROFILES_GET_FLAG_TABLE } from './flags.js';

export function register(program: Command, ctx: Invocation): void {
  const profiles = examples(
    program
      .command('profiles')
      .description(
        "the service's profiles, which hold balances (coinop's own saved endpoints and credentials: coinop context)",
      ),
    ['coinop profiles list', 'coinop profiles get default', 'coinop profiles create --nickname payroll'],
  );
  const list = declareProfilesList(
    profiles.command('list').description("the service's profiles, oldest first; --all follows every page"),
  ).action(async (raw: RawFlags) => {
    const { parseProfilesListOptions } = await import('./options.js');
    await (await import('./run.js')).list(ports(ctx), parseProfilesListOptions(raw, ctx.now()));
  });
  examples(list, ['coinop profiles list', 'coinop profiles list --nickname ops -o csv']);
  examples(
    PROFILES_GET_FLAG_TABLE.declare(
      profiles
        .command('get')
        .description('one service profile (default: the context\'s; "default" names the default profile)')
        .argument('[id]', 'profile id, or default'),
    ).action(async (id: string | undefined, raw: RawFlags) => {
      const { parseProfilesGetOptions } = await import('./options.js');
      await (await import('./run.js')).get(ports(ctx), parseProfilesGetOptions(id, raw));
    }),
    ['coinop profiles get', 'coinop profiles get default', 'coinop profiles get 5d1f2a3b-... -o json'],
  );
  examples(
    PROFILES_CREATE_FLAG_TABLE.declare(
      profiles.command('create').description('create a service profile (asks for its nickname on a terminal)'),
    ).action(async (raw: RawFlags) => {
      const { parseProfilesCreateOptions } = await import('./options.js');
      await (await import('./run.js')).create(ports(ctx), parseProfilesCreateOptions(raw));
    }),
    [
      'coinop profiles create --nickname payroll',
      'coinop profiles create --nickname cold --description "cold storage"',
    ],
  );
}
