// coinop completion, and the hidden __complete and __man the scripts and the build use: each writes to stdout what
// the command tree (or the saved configuration) says.
import type { Command } from 'commander';
import type { Connector, Ports } from '../../cli/ports.js';

/**
 * `coinop __complete contexts`: the saved contexts' names, one a line (anything else asked for: nothing). `profiles`,
 * what scripts generated before the rename ask, answers the same. `service-profiles`: the nicknames of the service's
 * profiles the context in use last listed, from the data directory (no service is asked).
 */
export async function complete(
  deps: Pick<Ports, 'display' | 'contexts'> & { service?: Pick<Connector, 'context' | 'dataDir'> },
  what: string,
): Promise<void> {
  if (what === 'service-profiles') return deps.service && completeServiceProfiles({ ...deps, service: deps.service });
  if (what !== 'contexts' && what !== 'profiles') return;
  const { contextNames } = await import('../../config/context.js');
  deps.display.io.out(contextNames(deps.contexts.store()).join('\n').concat('\n'));
}

async function completeServiceProfiles(
  deps: Pick<Ports, 'display'> & { service: Pick<Connector, 'context' | 'dataDir'> },
): Promise<void> {
  const { readProfileNames } = await import('../../config/profile-names.js');
  let context: string;
  try {
    context = deps.service.context().name;
  } catch {
    return;
  }
  const names = readProfileNames(deps.service.dataDir(), context).map((p) => p.nickname);
  if (names.length) deps.display.io.out(`${[...new Set(names)].join('\n')}\n`);
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
