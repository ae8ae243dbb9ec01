// coinop policy show|check|init: declarations; the flags are checked in options.ts, the work is in run.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { examples } from '../../cli/help.js';
import type { RawFlags } from '../../cli/options.js';

export function register(program: Command, ctx: Invocation): void {
  const policy = examples(
    program
      .command('policy')
      .description(
        "the profile's policy: the rules checked before any money moves, in <config dir>/policies/<profile>.yaml",
      ),
    ['coinop policy show', 'coinop policy check', 'coinop policy init'],
  );
  examples(
    policy
      .command('show')
      .description("the profile's policy, rule by rule (no policy file: no rules)")
      .action(async () => (await import('./run.js')).show(ports(ctx))),
    ['coinop policy show', 'coinop --context prod policy show -o json'],
  );
  examples(
    policy
      .command('check')
      .description("validate a policy file (default: the profile's): every problem with its line, exit 2")
      .argument('[file]', 'a policy file, YAML or JSON')
      .action(async (file: string | undefined) => {
        const { parsePolicyCheckArgs } = await import('./options.js');
        await (await import('./run.js')).check(ports(ctx), parsePolicyCheckArgs(file));
      }),
    ['coinop policy check', 'coinop policy check team-policy.yaml'],
  );
  examples(
    policy
      .command('init')
      .description("write a commented starter policy (no rules yet) where the profile's policy lives")
      .option('--force', 'replace the policy file the profile has')
      .action(async (raw: RawFlags) => {
        const { parsePolicyInitOptions } = await import('./options.js');
        await (await import('./run.js')).init(ports(ctx), parsePolicyInitOptions(raw));
      }),
    ['coinop policy init', 'coinop --context prod policy init'],
  );
}
