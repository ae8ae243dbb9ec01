// coinop completion bash|zsh|fish: declarations; the script is generated from the command tree itself.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { examples } from '../../cli/help.js';
import { choiceArgument } from '../../cli/options.js';

export function register(program: Command, ctx: Invocation): void {
  // What the completion scripts ask coinop while completing: the saved profiles' names (read from the configuration,
  // nothing else started), one a line. Hidden: for the scripts, not for people.
  examples(
    program
      .command('__complete', { hidden: true })
      .description("words for the completion scripts: the saved contexts' names, one a line")
      .argument('<what>', 'profiles')
      .action(async (what: string) => {
        if (what !== 'profiles') return;
        const { contextNames: profileNames } = await import('../../config/context.js');
        ctx.io.out(profileNames(ctx.store()).join('\n').concat('\n'));
      }),
    ['coinop __complete profiles'],
  );
  // The man page from the command tree (man/generate.mjs writes man/coinop.1 with it). Hidden: for the build.
  examples(
    program
      .command('__man', { hidden: true })
      .description('print the man page (roff), generated from the command tree')
      .action(async () => {
        const { manPage } = await import('../../cli/man.js');
        ctx.io.out(manPage(program, ctx.version));
      }),
    ['coinop __man > man/coinop.1'],
  );
  examples(
    program
      .command('completion')
      .description('print a shell completion script (the same scripts are in completions/)')
      .addArgument(choiceArgument('<shell>', 'shell', ['bash', 'zsh', 'fish']))
      .action(async (shell: 'bash' | 'zsh' | 'fish') => {
        const { completionScript } = await import('./generate.js');
        ctx.io.out(completionScript(shell, program));
      }),
    [
      'source <(coinop completion bash)',
      'coinop completion zsh > "${fpath[1]}/_coinop"',
      'coinop completion fish > ~/.config/fish/completions/coinop.fish',
    ],
  );
}
