// Where coinop keeps its files. Configuration: COINOP_CONFIG_DIR, else $XDG_CONFIG_HOME/coinop, else
// ~/.config/coinop. Data (the local service's database, batch journals, the record of sent ref_ids):
// COINOP_DATA_DIR, else $XDG_DATA_HOME/coinop, else ~/.local/share/coinop. readSettings (settings.ts) calls these once.
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
/** The user's home directory; node:os is loaded when first asked (a start whose folders are given never loads it). */
const homedir = (): string => (require('node:os') as typeof import('node:os')).homedir();

export function configDir(env: Record<string, string | undefined>): string {
  if (env.COINOP_CONFIG_DIR) return env.COINOP_CONFIG_DIR;
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'coinop');
}

export function dataDir(env: Record<string, string | undefined>): string {
  if (env.COINOP_DATA_DIR) return env.COINOP_DATA_DIR;
  if (env.XDG_DATA_HOME) return join(env.XDG_DATA_HOME, 'coinop');
  return join(homedir(), '.local', 'share', 'coinop');
}
