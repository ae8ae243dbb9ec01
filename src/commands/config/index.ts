// coinop config get|set|list|unset: the defaults kept in the configuration file; the work is in run.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { examples } from '../../cli/help.js';
import { ports } from '../../cli/ports.js';
import { PRECEDENCE } from './options.js';

export function register(program: Command, ctx: Invocation): void {
  const config = examples(
    program
      .command('config')
      .description('defaults kept in the configuration file: output format, pager, context, batch rate, timeouts')
      .addHelpText('after', `\n${PRECEDENCE}\nKeys: coinop config list\n`),
    ['coinop config list', 'coinop config set output table', 'coinop config get pager', 'coinop config unset output'],
  );
  examples(
    config
      .command('list')
      .description('every key with its value and where it comes from (default, config or env)')
      .action(async () => (await import('./run.js')).list(ports(ctx))),
    ['coinop config list', 'coinop config list -o json'],
  );
  examples(
    config
      .command('get')
      .description('the value a command uses now (as plain text; with --json: value and source)')
      .argument('<key>', 'a key of coinop config list')
      .action(async (key: string) => (await import('./run.js')).get(ports(ctx), key)),
    ['coinop config get output', 'coinop config get batch-rate --json'],
  );
  examples(
    config
      .command('set')
      .description('keep a default in the configuration file (checked first)')
      .argument('<key>', 'a key of coinop config list')
      .argument('<value>', 'the value')
      .action(async (key: string, value: string) => (await import('./run.js')).set(ports(ctx), key, value)),
    ['coinop config set output table', 'coinop config set pager "less -R"', 'coinop config set batch-rate 10'],
  );
  examples(
    config
      .command('unset')
      .description('remove a default from the configuration file (its default applies again)')
      .argument('<key>', 'a key of coinop config list')
      .action(async (key: string) => (await import('./run.js')).unset(ports(ctx), key)),
    ['coinop config unset output'],
  );
}
