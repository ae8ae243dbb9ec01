// Where coinop keeps its files. Configuration: COINOP_CONFIG_DIR, else $XDG_CONFIG_HOME/coinop, else
// ~/.config/coinop. Data (the local service's database, batch journals, the record of sent ref_ids):
// COINOP_DATA_DIR, else $XDG_DATA_HOME/coinop, else ~/.local/share/coinop. readSettings (settings.ts) calls these once.
import { homedir } from 'node:os';
import { join } from 'node:path';

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
