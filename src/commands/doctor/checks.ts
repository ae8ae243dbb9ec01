// The checks of coinop doctor that need no service: file permissions, the completion scripts.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { shellQuote } from '../../cli/help.js';

export type Status = 'ok' | 'warn' | 'fail';

export interface Check {
  check: string;
  status: Status;
  message: string;
  /** What to do about a warn or a fail. */
  fix?: string;
  /** The saved context the check is about (the JSON field keeps its old name). */
  profile?: string;
}

/** Private files and folders under `root` (depth-limited), each one open to other users named with its chmod. */
function openPaths(root: string, depth: number, out: string[]): void {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(root);
  } catch {
    return;
  }
  if ((st.mode & 0o077) !== 0) out.push(root);
  if (!st.isDirectory() || depth === 0) return;
  let names: string[] = [];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const n of names) if (n !== '.lock') openPaths(join(root, n), depth - 1, out);
}

/**
 * The configuration folder (config, secrets, tokens, approver key, policies) and the data folder (database, batch
 * journals, sent ref_ids, audit log) must be 0700 folders of 0600 files.
 */
export function permissionChecks(configDir: string, dataDir: string): Check[] {
  return [
    ['config', configDir],
    ['data', dataDir],
  ].map(([what, dir]) => {
    const open: string[] = [];
    openPaths(dir, 4, open);
    if (!existsSync(dir)) return { check: `permissions (${what})`, status: 'ok', message: `${dir} does not exist yet` };
    if (!open.length)
      return { check: `permissions (${what})`, status: 'ok', message: `${dir}: folders 0700, files 0600` };
    const fix = open.map((p) => `chmod ${statSync(p).isDirectory() ? '700' : '600'} ${shellQuote(p)}`).join('; ');
    const shown = open.map((p) => `${p} (${(statSync(p).mode & 0o777).toString(8)})`).join(', ');
    return { check: `permissions (${what})`, status: 'fail', message: `open to other users: ${shown}`, fix };
  });
}

/**
 * Where each shell's completion for coinop is usually found (a file, or a line of a startup file that sources it).
 * The system-wide places follow the shells' own variables: XDG_DATA_DIRS (bash-completion, zsh's site functions,
 * fish's vendor completions) and BASH_COMPLETION_COMPAT_DIR (/etc/bash_completion.d by default).
 */
function completionPlaces(env: Record<string, string | undefined>): Record<string, string[]> {
  const home = env.HOME || homedir();
  const data = env.XDG_DATA_HOME || join(home, '.local/share');
  const config = env.XDG_CONFIG_HOME || join(home, '.config');
  const system = (env.XDG_DATA_DIRS || '/usr/local/share:/usr/share').split(':').filter(Boolean);
  const under = (tail: string) => system.map((dir) => join(dir, tail));
  return {
    bash: [
      join(data, 'bash-completion/completions/coinop'),
      ...under('bash-completion/completions/coinop'),
      join(env.BASH_COMPLETION_COMPAT_DIR || '/etc/bash_completion.d', 'coinop'),
      join(home, '.bashrc'),
      join(home, '.bash_profile'),
    ],
    zsh: [
      join(home, '.zsh/completions/_coinop'),
      join(home, '.zfunc/_coinop'),
      ...under('zsh/site-functions/_coinop'),
      ...under('zsh/vendor-completions/_coinop'),
      join(home, '.zshrc'),
    ],
    fish: [join(config, 'fish/completions/coinop.fish'), ...under('fish/vendor_completions.d/coinop.fish')],
  };
}

const FIXES: Record<string, string> = {
  bash: 'coinop completion bash > ~/.local/share/bash-completion/completions/coinop',
  zsh: `coinop completion zsh > "\${fpath[1]}/_coinop" (then start a new shell)`,
  fish: 'coinop completion fish > ~/.config/fish/completions/coinop.fish',
};

/** A startup file counts when it mentions `coinop completion`; a completion file counts when it exists. */
function installed(place: string): boolean {
  if (!existsSync(place)) return false;
  if (!/\.(bashrc|bash_profile|zshrc)$/.test(place)) return true;
  try {
    return readFileSync(place, 'utf8').includes('coinop completion');
  } catch {
    return false;
  }
}

/** Completion for any shell found: ok (naming where); none: a warning with the fix for the login shell. */
export function completionCheck(env: Record<string, string | undefined>): Check {
  const places = completionPlaces(env);
  const found = Object.entries(places).flatMap(([shell, ps]) => ps.filter(installed).map((p) => `${shell}: ${p}`));
  if (found.length) return { check: 'completion', status: 'ok', message: `installed (${found.join(', ')})` };
  const shell = Object.keys(FIXES).find((s) => (env.SHELL ?? '').endsWith(`/${s}`)) ?? 'bash';
  return {
    check: 'completion',
    status: 'warn',
    message: 'no completion script found for bash, zsh or fish in the usual places',
    fix: FIXES[shell],
  };
}
