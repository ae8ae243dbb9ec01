// coinop policy show|check|init: declarations; the flags are checked in options.ts, the work is in run.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { examples } from '../../cli/help.js';
import type { RawFlags } from '../../cli/options.js';
import { POLICY_INIT_FLAG_TABLE } from './flags.js';

export function register(program: Command, ctx: Invocation): void {
  const policy = examples(
    program
      .command('policy')
      .description(
        "the context's policy: the rules checked before any money moves, in <config dir>/policies/<context>.yaml",
      ),
    ['coinop policy show', 'coinop policy check', 'coinop policy init'],
  );
  examples(
    policy
      .command('show')
      .description("the context's policy, rule by rule (no policy file: no rules)")
      .action(async () => (await import('./run.js')).show(ports(ctx))),
    ['coinop policy show', 'coinop --context prod policy show -o json'],
  );
  examples(
    policy
      .command('check')
      .description("validate a policy file (default: the context's): every problem with its line, exit 2")
      .argument('[file]', 'a policy file, YAML or JSON')
      .action(async (file: string | undefined) => {
        const { parsePolicyCheckArgs } = await import('./options.js');
        await (await import('./run.js')).check(ports(ctx), parsePolicyCheckArgs(file));
      }),
    ['coinop policy check', 'coinop policy check team-policy.yaml'],
  );
  examples(
    POLICY_INIT_FLAG_TABLE.declare(policy.command('init'))
      .description("write a commented starter policy (no rules yet) where the context's policy lives")
      .action(async (raw: RawFlags) => {
        const { parsePolicyInitOptions } = await import('./options.js');
        await (await import('./run.js')).init(ports(ctx), parsePolicyInitOptions(raw));
      }),
    ['coinop policy init', 'coinop --context prod policy init'],
  );
}
