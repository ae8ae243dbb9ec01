// A scratch SQLite database in a private temporary folder, for what must be sorted or indexed without being held in
// memory (a month's movements, a reconciliation's book): no journal, no fsync, removed when closed.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database as DatabaseType } from 'better-sqlite3';

const require = createRequire(import.meta.url);

export interface ScratchDb {
  db: DatabaseType;
  /** Closes the database and removes its folder. */
  close(): void;
}

/** A new scratch database (`prefix` names its folder: coinop-reconcile-…), with `schema` run once. */
export function scratchDb(prefix: string, schema: string): ScratchDb {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const Database = require('better-sqlite3') as typeof import('better-sqlite3');
  const db = new Database(join(dir, 'scratch.db'));
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec(schema);
  return {
    db,
    close: () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
