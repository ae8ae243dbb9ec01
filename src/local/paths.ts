// Where the local service keeps its database by default: the user's XDG data directory.
import { homedir } from 'node:os';
import { join } from 'node:path';

export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.COINOP_DATA_DIR) return env.COINOP_DATA_DIR;
  if (env.XDG_DATA_HOME) return join(env.XDG_DATA_HOME, 'coinop');
  return join(homedir(), '.local', 'share', 'coinop');
}

export function defaultDbFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(dataDir(env), 'local.db');
}
