// The service profiles' names each context last listed, kept for shell completion: `coinop __complete
// service-profiles` reads this file (owner-only, in the data directory) and asks no service at TAB time. Written
// whenever a command lists the profiles (GET /v2/profiles); only ids and nicknames are kept.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './lock.js';
import { privateDir } from './private-files.js';

export interface ProfileName {
  id: string;
  nickname: string;
}

type NamesFile = Record<string, { profiles: ProfileName[] }>;

export const profileNamesFile = (dataDir: string): string => join(dataDir, 'profile-names.json');

function readAll(dataDir: string): NamesFile {
  try {
    const all = JSON.parse(readFileSync(profileNamesFile(dataDir), 'utf8')) as unknown;
    return all && typeof all === 'object' && !Array.isArray(all) ? (all as NamesFile) : {};
  } catch {
    // Missing or damaged: only a cache.
    return {};
  }
}

/** The names the context last listed (none known: empty). */
export function readProfileNames(dataDir: string, context: string): ProfileName[] {
  const list = readAll(dataDir)[context]?.profiles;
  return Array.isArray(list) ? list.filter((p) => p && typeof p.id === 'string' && typeof p.nickname === 'string') : [];
}

/** Keeps the context's names (a failure to write is no failure of the command: it is only a cache). */
export function writeProfileNames(dataDir: string, context: string, profiles: readonly ProfileName[]): void {
  try {
    privateDir(dataDir);
    const all = readAll(dataDir);
    all[context] = { profiles: profiles.map((p) => ({ id: p.id, nickname: p.nickname })) };
    writeFileAtomic(profileNamesFile(dataDir), `${JSON.stringify(all, null, 2)}\n`);
  } catch {
    // A read-only data directory: completion keeps what it had.
  }
}
