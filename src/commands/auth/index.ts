// coinop login, logout, auth status: declarations only; the work is in run.ts, loaded when a command runs.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { examples } from '../../cli/help.js';
import { choiceOption } from '../../cli/options.js';
import { ENVIRONMENTS } from '../../config/environments.js';

export function register(program: Command, ctx: Invocation): void {
  examples(
    program
      .command('login')
      .description('save credentials for an environment as a profile (proves them by fetching a token first)')
      .addOption(choiceOption('--env <environment>', 'environment', ENVIRONMENTS))
      .option('--client-id <id>', 'OAuth client id')
      .option('--client-secret-stdin', 'read the client secret from stdin (or set COINOP_CLIENT_SECRET)')
      .option('--scopes <list>', 'scopes to request, comma separated (default: all)')
      .option('--name <context>', 'context name to save under (default: --context, else the environment)')
      .option('--profile-id <id>', "the service's profile id that withdrawals and deposit addresses use by default")
      .option('--base-url <url>', 'API address (custom environment; sandbox and production: instead of the hosted one)')
      .option('--auth-url <url>', 'token endpoint host (custom; sandbox and production: instead of the hosted one)')
      .option('--ws-url <url>', 'stream address (custom; sandbox and production: instead of the hosted one)')
      .option('--activate', 'make a production profile the active one without asking (other environments always are)')
      // With the global flags: --context (or --profile) names the context when --name does not.
      .action(async (_o: unknown, cmd: Command) => (await import('./run.js')).login(ctx, cmd.optsWithGlobals())),
    [
      'coinop login',
      'coinop login --env sandbox --client-id 3f2a... --client-secret-stdin < secret.txt',
      'COINOP_CLIENT_SECRET=... coinop login --env production --client-id 3f2a... --name prod',
    ],
  );
  examples(
    program
      .command('logout')
      .description('forget the credentials and cached tokens of a profile')
      .action(async () => (await import('./run.js')).logout(ctx)),
    ['coinop logout', 'coinop logout --context sandbox'],
  );
  const auth = examples(program.command('auth').description('authentication'), ['coinop auth status']);
  examples(
    auth
      .command('status')
      .description(
        'profile, environment, addresses, granted scopes and token expiry (exit 4 when it cannot authenticate)',
      )
      .action(async () => (await import('./run.js')).status(ctx)),
    ['coinop auth status', 'coinop auth status --json --context sandbox'],
  );
}
