// Where coinop keeps its configuration: COINOP_CONFIG_DIR, else $XDG_CONFIG_HOME/coinop, else ~/.config/coinop.
import { homedir } from 'node:os';
import { join } from 'node:path';

export function configDir(env: Record<string, string | undefined>): string {
  if (env.COINOP_CONFIG_DIR) return env.COINOP_CONFIG_DIR;
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'coinop');
}
