// Where the local service keeps its database by default: local.db in coinop's data directory (src/config/paths.ts).
import { join } from 'node:path';
import { dataDir } from '../config/paths.js';

/** The database file in `dir`; without one, in the data directory the process environment names. */
export function defaultDbFile(dir: string = dataDir(process.env)): string {
  return join(dir, 'local.db');
}
