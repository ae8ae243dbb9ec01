// coinop completion, and the hidden __complete and __man the scripts and the build use: each writes to stdout what
// the command tree (or the saved configuration) says.
import type { Command } from 'commander';
import type { Ports } from '../../cli/ports.js';

type CompleteDeps = Pick<Ports, 'display' | 'contexts'> & { service: Pick<Ports['service'], 'dataDir'> };

/** The context the words are for: --context or COINOP_CONTEXT or the active one (its name only, nothing started). */
async function contextName(deps: CompleteDeps): Promise<string> {
  const { activeContextName } = await import('../../config/context.js');
  return activeContextName(deps.contexts.store(), deps.contexts.flag(), deps.contexts.settings());
}

/**
 * What each `coinop __complete KIND` says, one word a line, from this machine only (never a request): the completion
 * scripts ask it for the values of the flags src/commands/completion/generate.ts's COMPLETERS names.
 */
const COMPLETERS: Record<string, (deps: CompleteDeps) => Promise<string[]>> = {
  contexts: async (deps) => (await import('../../config/context.js')).contextNames(deps.contexts.store()),
  // What scripts generated before the rename of profiles to contexts ask: the contexts.
  profiles: async (deps) => (await import('../../config/context.js')).contextNames(deps.contexts.store()),
  // The address book's nicknames this context's commands have seen (destinations list and put, withdraw --to).
  destinations: async (deps) =>
    (await import('../../config/completion-words.js')).completionWords(
      deps.service.dataDir(),
      await contextName(deps),
      'destinations',
    ),
  // The service's profiles' nicknames this context last listed (src/cli/service-profiles.ts keeps them).
  'service-profiles': async (deps) =>
    (await import('../../config/completion-words.js')).completionWords(
      deps.service.dataDir(),
      await contextName(deps),
      'service-profiles',
    ),
};

/** `coinop __complete KIND`: the words of that kind (anything else asked for: nothing). */
export async function complete(deps: CompleteDeps, what: string): Promise<void> {
  if (!Object.hasOwn(COMPLETERS, what)) return;
  const words = await COMPLETERS[what](deps);
  if (words.length) deps.display.io.out(`${words.join('\n')}\n`);
}

/** `coinop __man`: the man page (roff) of the command tree. */
export async function man(deps: Pick<Ports, 'display' | 'version'>, program: Command): Promise<void> {
  const { manPage } = await import('../../cli/man.js');
  deps.display.io.out(manPage(program, deps.version));
}

/** `coinop completion SHELL`: the completion script of the command tree for that shell. */
export async function completion(
  deps: Pick<Ports, 'display'>,
  shell: 'bash' | 'zsh' | 'fish',
  program: Command,
): Promise<void> {
  const { completionScript } = await import('./generate.js');
  deps.display.io.out(completionScript(shell, program));
}
