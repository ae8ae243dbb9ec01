// Files that hold payout data or credentials (batch journals, the record of sent ref_ids, reports, the local
// database and its WAL/SHM, config, tokens, secrets) are created 0600 in 0700 folders. One that already exists and
// is open to other users is not refused: a one-line warning on stderr gives the chmod that fixes it (once per path
// and process).
import { closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

export type Warn = (line: string) => void;

const toStderr: Warn = (line) => void process.stderr.write(`${line}\n`);
const warned = new Set<string>();

/** The path as a shell word, for the chmod line. */
const shellWord = (p: string): string => (/^[\w@%+=:,./-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`);

/** Warns (once) when an existing file or folder can be read or written by others; silent when it does not exist. */
export function warnIfOpen(path: string, warn: Warn = toStderr): void {
  if (warned.has(path)) return;
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch {
    return;
  }
  if ((mode & 0o077) === 0) return;
  warned.add(path);
  const want = (mode & 0o170000) === 0o040000 ? '700' : '600';
  warn(
    `warning: ${path} is open to other users (mode ${(mode & 0o777).toString(8)}) and holds private data; fix: chmod ${want} ${shellWord(path)}`,
  );
}

/** The folder, created 0700 when missing (its missing parents too); an existing one too open is warned about. */
export function privateDir(dir: string, warn: Warn = toStderr): void {
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return;
  }
  warnIfOpen(dir, warn);
}

/** The file, created empty 0600 (in a 0700 folder) when missing; an existing one too open is warned about. */
export function privateFile(path: string, warn: Warn = toStderr): void {
  privateDir(dirname(path), warn);
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (e) {
    if ((e as { code?: string }).code !== 'EEXIST') throw e;
    warnIfOpen(path, warn);
  }
}

/** A SQLite database file made private, and its WAL and SHM files warned about when they exist too open. */
export function privateDatabase(path: string, warn: Warn = toStderr): void {
  privateFile(path, warn);
  for (const suffix of ['-wal', '-shm']) warnIfOpen(`${path}${suffix}`, warn);
}
