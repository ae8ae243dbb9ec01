// A context's policy file goes where the context goes: `context rename` carries it to the new name, and `context
// delete` keeps it (a context saved again under the name is held to it). The policy file is named after the
// context, so without this a rename would leave the rules behind and the renamed context would have none.
import { linkSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CoinopError, usageError } from '../../cli/errors.js';
import { POLICY_EXTENSIONS, policyLocation } from '../../policy/location.js';

const extOf = (file: string) => POLICY_EXTENSIONS.find((e) => file.endsWith(e)) ?? '.yaml';

export interface PolicyMove {
  /** Each file as it was and as it is now named: nothing when the context has no policy file. */
  files: { from: string; to: string }[];
  /** Drops the old names: call once the context itself is renamed; the ones that could not be dropped, said. */
  commit(): string[];
  /** Drops the new names: call when the context could not be renamed. */
  undo(): void;
}

/**
 * Gives `to` the policy of `from` under its own name (a hard link: both names hold the same file, so neither context
 * is ever without its rules), refusing when `to` has a policy file already or `from`'s cannot be looked at.
 */
export function linkPolicy(configDir: string, from: string, to: string): PolicyMove {
  const target = policyLocation(configDir, to);
  if (target.exists || target.problem)
    throw usageError(
      `context rename: the name "${to}" has a policy file already (${target.path}); nothing was renamed`,
      'move or remove that file first: a context is renamed with its policy, never onto another one',
    );
  const source = policyLocation(configDir, from);
  if (source.problem)
    throw new CoinopError(
      'policy',
      `context rename: the policy of "${from}" cannot be read (${source.problem}); nothing was renamed`,
      { hint: 'fix it first, so that the policy goes with the context (coinop doctor checks it)' },
    );
  if (!source.exists) return { files: [], commit: () => [], undo() {} };
  const files = [source.path, ...source.others].map((f) => ({
    from: f,
    to: join(dirname(f), `${to}${extOf(basename(f))}`),
  }));
  const made: string[] = [];
  try {
    // link() never replaces a file (EEXIST): a policy that appeared meanwhile is not overwritten.
    for (const f of files) {
      linkSync(f.from, f.to);
      made.push(f.to);
    }
  } catch (e) {
    for (const m of made) unlinkSync(m);
    throw new CoinopError(
      'file',
      `context rename: the policy ${files[made.length].from} cannot be given the name ${files[made.length].to} (${(e as NodeJS.ErrnoException).code ?? e}); nothing was renamed`,
    );
  }
  return {
    files,
    commit: () =>
      files.flatMap((file) => {
        try {
          unlinkSync(file.from);
          return [];
        } catch (e) {
          return [`${file.from} (${(e as NodeJS.ErrnoException).code ?? e})`];
        }
      }),
    undo: () => {
      for (const m of made) unlinkSync(m);
    },
  };
}

/** What deleting a context does to its policy, in words (it is kept). */
export function keptPolicyNote(configDir: string, name: string): string | undefined {
  const loc = policyLocation(configDir, name);
  if (!loc.exists) return undefined;
  return `Its policy ${loc.path} is kept: a context saved again as "${name}" is held to it (remove the file to drop it).`;
}
