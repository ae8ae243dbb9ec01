// Where a coinop context's policy lives: <config dir>/policies/<context>.yaml (or .yml, or .json). Looking costs a
// few stat calls, so every command that moves money looks, and loads the parser only when a file is there.
//
// Only a name that is certainly not there (ENOENT, of the name itself and of a real folder) means "no policy": a
// symbolic link whose target is gone, a folder that cannot be looked into, a policies "folder" that is a file or a
// dangling link, a name that is not a file all leave `problem` set, and a command that moves money refuses on it.
// A policy is never lost by a change that is not a change of the policy file.
import { lstatSync, readlinkSync, type Stats, statSync } from 'node:fs';
import { join } from 'node:path';

export const POLICY_EXTENSIONS = ['.yaml', '.yml', '.json'] as const;

export const policyDir = (configDir: string): string => join(configDir, 'policies');

/** The calls a lookup makes (tests put in their own to see an EACCES that root never gets). */
export interface LookFs {
  /** undefined: nothing there (ENOENT, without the cost of an error); any other failure throws. */
  lstat(path: string): Stats | undefined;
  stat(path: string): Stats;
  readlink(path: string): string;
}

const REAL_FS: LookFs = {
  lstat: (p) => lstatSync(p, { throwIfNoEntry: false }),
  stat: statSync,
  readlink: (p) => readlinkSync(p),
};

export interface PolicyLocation {
  /** The policy file: the one there, else where `coinop policy init` writes it. */
  path: string;
  /** Something is at the path (or may be: see problem); false only when nothing certainly is. */
  exists: boolean;
  /** More files for the same context (.yml next to .yaml): a problem for the caller. */
  others: string[];
  /** Why whether and what the policy is cannot be known: such a context moves no money. */
  problem?: string;
}

const codeOf = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? String(e);

const kindOf = (st: Stats): string =>
  st.isDirectory() ? 'a folder' : st.isSymbolicLink() ? 'a symbolic link' : st.isFile() ? 'a file' : 'not a file';

/** What is at a path: nothing (certainly), something sound of the kind wanted, or a problem. */
function look(fs: LookFs, path: string, want: 'file' | 'folder'): { found: boolean; problem?: string } {
  let st: Stats | undefined;
  try {
    st = fs.lstat(path);
  } catch (e) {
    const code = codeOf(e);
    if (code === 'ENOENT') return { found: false };
    return { found: true, problem: `${path} cannot be looked at (${code}), so whether there is a policy is not known` };
  }
  if (!st) return { found: false };
  if (st.isSymbolicLink()) {
    let target = '?';
    try {
      target = fs.readlink(path);
    } catch {
      /* named as ? */
    }
    try {
      st = fs.stat(path);
    } catch (e) {
      return {
        found: true,
        problem: `${path} is a symbolic link to ${target}, which cannot be followed (${codeOf(e)})`,
      };
    }
  }
  const right = want === 'file' ? st.isFile() : st.isDirectory();
  return right ? { found: true } : { found: true, problem: `${path} is ${kindOf(st)}, not a ${want}` };
}

/** The context's policy file: the one that exists, else where `coinop policy init` writes it (exists: false). */
export function policyLocation(configDir: string, context: string, fs: LookFs = REAL_FS): PolicyLocation {
  const dir = policyDir(configDir);
  const candidates = POLICY_EXTENSIONS.map((ext) => join(dir, `${context}${ext}`));
  const folder = look(fs, dir, 'folder');
  if (!folder.found) return { path: candidates[0], exists: false, others: [] };
  if (folder.problem) return { path: candidates[0], exists: true, others: [], problem: folder.problem };
  const looks = candidates.map((p) => ({ path: p, ...look(fs, p, 'file') }));
  const bad = looks.find((l) => l.problem);
  if (bad) return { path: bad.path, exists: true, others: [], problem: bad.problem };
  const found = looks.filter((l) => l.found);
  return { path: found[0]?.path ?? candidates[0], exists: found.length > 0, others: found.slice(1).map((l) => l.path) };
}
