// Words the completion scripts offer that only a service knows (the address book's nicknames, for withdraw --to): kept
// per context in the data directory when a command has read them from the service, and read back by
// `coinop __complete KIND` without any request. Only a cache: a missing or damaged file is an empty one, and failing
// to write it never fails the command that read the words.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './lock.js';

/** The most words kept of one kind for one context. */
const MOST = 2000;

type Words = Record<string, Record<string, string[]>>;

export const completionWordsFile = (dataDir: string) => join(dataDir, 'completion-words.json');

function read(dataDir: string): Words {
  try {
    const words = JSON.parse(readFileSync(completionWordsFile(dataDir), 'utf8')) as unknown;
    return words && typeof words === 'object' && !Array.isArray(words) ? (words as Words) : {};
  } catch {
    return {};
  }
}

/** The words of `kind` kept for `context` (none when nothing was kept). */
export function completionWords(dataDir: string, context: string, kind: string): string[] {
  const all = read(dataDir);
  const words = Object.hasOwn(all, context) ? all[context]?.[kind] : undefined;
  return Array.isArray(words) ? words.filter((w): w is string => typeof w === 'string') : [];
}

/**
 * Keeps `words` of `kind` for `context`: added to those kept (`replace`: instead of them, when the command read the
 * whole list). Words with a space or a control character are left out: a shell would split them.
 */
export function keepCompletionWords(
  dataDir: string,
  context: string,
  kind: string,
  words: string[],
  replace = false,
): void {
  const usable = words.filter((w) => w && !/[\s\p{Cc}]/u.test(w));
  try {
    const all = read(dataDir);
    const own = Object.hasOwn(all, context) && all[context] && typeof all[context] === 'object' ? all[context] : {};
    const before = Array.isArray(own[kind]) ? own[kind] : [];
    // Nothing new: the file is left as it is (a listing writes only when the book changed).
    if (!replace && usable.every((w) => before.includes(w))) return;
    const kept = [...new Set([...(replace ? [] : before), ...usable])].sort().slice(0, MOST);
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    writeFileAtomic(
      completionWordsFile(dataDir),
      `${JSON.stringify({ ...all, [context]: { ...own, [kind]: kept } }, null, 2)}\n`,
    );
  } catch {
    // Only a cache: the command that read the words goes on.
  }
}
