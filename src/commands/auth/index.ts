// coinop login, logout, auth status: declarations only; the work is in run.ts, loaded when a command runs.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { examples } from '../../cli/help.js';
import { ports } from '../../cli/ports.js';
import { LOGIN_FLAG_TABLE } from './flags.js';

export function register(program: Command, ctx: Invocation): void {
  examples(
    LOGIN_FLAG_TABLE.declare(program.command('login'))
      .description('save credentials for an environment as a context (proves them by fetching a token first)')
      // With the global flags: --context (or --profile) names the context when --name does not.
      .action(async (_o: unknown, cmd: Command) => (await import('./run.js')).login(ports(ctx), cmd.optsWithGlobals())),
    [
      'coinop login',
      'coinop login --env sandbox --client-id 3f2a... --client-secret-stdin < secret.txt',
      'COINOP_CLIENT_SECRET=... coinop login --env production --client-id 3f2a... --name prod',
    ],
  );
  examples(
    program
      .command('logout')
      .description('forget the credentials and cached tokens of a context')
      .action(async () => (await import('./run.js')).logout(ports(ctx))),
    ['coinop logout', 'coinop logout --context sandbox'],
  );
  const auth = examples(program.command('auth').description('authentication'), ['coinop auth status']);
  examples(
    auth
      .command('status')
      .description(
        'context, environment, addresses, granted scopes and token expiry (exit 4 when it cannot authenticate)',
      )
      .action(async () => (await import('./run.js')).status(ports(ctx))),
    ['coinop auth status', 'coinop auth status --json --context sandbox'],
  );
}
