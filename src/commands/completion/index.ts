// coinop completion bash|zsh|fish: declarations; the script is generated from the command tree itself.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { examples } from '../../cli/help.js';
import { ports } from '../../cli/ports.js';
import { choiceArgument } from '../../cli/options.js';

export function register(program: Command, ctx: Invocation): void {
  // What the completion scripts ask coinop while completing, one word a line, from this machine only (no request):
  // the saved contexts' names, the address book's nicknames seen last (run.ts's COMPLETERS); `profiles` is what
  // scripts installed before the rename of profiles to contexts ask, and answers the contexts. Hidden: for the scripts.
  examples(
    program
      .command('__complete', { hidden: true })
      .description("words for the completion scripts: the saved contexts' names, the address book's nicknames")
      .argument('<what>', 'contexts or destinations (profiles: the old name of contexts)')
      .action(async (what: string) => (await import('./run.js')).complete(ports(ctx), what)),
    ['coinop __complete contexts', 'coinop __complete destinations'],
  );
  // The man page from the command tree (man/generate.mjs writes man/coinop.1 with it). Hidden: for the build.
  examples(
    program
      .command('__man', { hidden: true })
      .description('print the man page (roff), generated from the command tree')
      .action(async () => (await import('./run.js')).man(ports(ctx), program)),
    ['coinop __man > man/coinop.1'],
  );
  examples(
    program
      .command('completion')
      .description('print a shell completion script (the same scripts are in completions/)')
      .addArgument(choiceArgument('<shell>', 'shell', ['bash', 'zsh', 'fish']))
      .action(async (shell: 'bash' | 'zsh' | 'fish') =>
        (await import('./run.js')).completion(ports(ctx), shell, program),
      ),
    [
      'source <(coinop completion bash)',
      'coinop completion zsh > "${fpath[1]}/_coinop"',
      'coinop completion fish > ~/.config/fish/completions/coinop.fish',
    ],
  );
}
