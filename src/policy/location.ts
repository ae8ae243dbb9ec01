// Where a coinop profile's policy lives: <config dir>/policies/<profile>.yaml (or .yml, or .json). Looking costs a
// few stat calls, so every command that moves money looks, and loads the parser only when a file is there.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const POLICY_EXTENSIONS = ['.yaml', '.yml', '.json'] as const;

export const policyDir = (configDir: string): string => join(configDir, 'policies');

/** The profile's policy file: the one that exists, else where `coinop policy init` writes it (exists: false). */
export function policyLocation(
  configDir: string,
  profile: string,
): { path: string; exists: boolean; others: string[] } {
  const candidates = POLICY_EXTENSIONS.map((ext) => join(policyDir(configDir), `${profile}${ext}`));
  const found = candidates.filter((p) => existsSync(p));
  return { path: found[0] ?? candidates[0], exists: found.length > 0, others: found.slice(1) };
}
