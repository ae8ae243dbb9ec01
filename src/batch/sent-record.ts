// What this machine sent: every ref_id a batch let go, per service and profile, with its batch and journal, so a
// later batch can say which of its rows another batch already paid (even one whose journal is gone).
import { privateDatabase } from '../config/private-files.js';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { Database as DatabaseType, Statement } from 'better-sqlite3';
import { WAL_PAGES, WalSync } from './wal-sync.js';
import { WriteError } from './write-error.js';

const require = createRequire(import.meta.url);

export interface SentEntry {
  row: number;
  ref_id: string;
  profile_id: string;
}

export interface EarlierSend {
  batch_id: string;
  journal: string;
  row: number;
  sent_at: string;
}

export class SentRecordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SentRecordError';
  }
}

export function sentRecordPath(dataDir: string): string {
  return join(dataDir, 'sent-ref-ids.db');
}

export class SentRecord {
  private readonly put: Statement;
  private readonly get: Statement;
  private readonly refuse: Statement;
  private readonly wal: WalSync;

  private constructor(
    readonly path: string,
    private readonly db: DatabaseType,
  ) {
    this.wal = new WalSync(path);
    this.put = db.prepare(
      `INSERT INTO sent (service_id, profile_id, ref_id, batch_id, journal, row, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET refused = 0`,
    );
    // A row the service refused outright (a 4xx other than already-exists) moved no money: it is no evidence of a
    // payment, so a later batch may send it.
    this.get = db.prepare(
      'SELECT batch_id, journal, row, sent_at FROM sent WHERE service_id = ? AND profile_id = ? AND ref_id = ? AND batch_id <> ? AND refused = 0',
    );
    this.refuse = db.prepare(
      'UPDATE sent SET refused = 1 WHERE service_id = ? AND profile_id = ? AND ref_id = ? AND batch_id = ?',
    );
  }

  /** Opens (or creates, 0600) the record in the data directory. */
  static open(path: string): SentRecord {
    let db: DatabaseType | undefined;
    try {
      privateDatabase(path);
      const Database = require('better-sqlite3') as typeof import('better-sqlite3');
      db = new Database(path);
      db.pragma('journal_mode = WAL');
      // A commit per window of rows, made durable by an fsync of the WAL off the main thread (record()).
      db.pragma('synchronous = NORMAL');
      db.pragma('busy_timeout = 5000');
      db.pragma(`wal_autocheckpoint = ${WAL_PAGES}`);
      db.exec(`CREATE TABLE IF NOT EXISTS sent (
        service_id TEXT NOT NULL, profile_id TEXT NOT NULL, ref_id TEXT NOT NULL, batch_id TEXT NOT NULL,
        journal TEXT NOT NULL, row INTEGER NOT NULL, sent_at TEXT NOT NULL, refused INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (service_id, profile_id, ref_id, batch_id)) WITHOUT ROWID`);
      return new SentRecord(path, db);
    } catch (e) {
      db?.close();
      const code = (e as { code?: string }).code ?? '';
      if (/^SQLITE_(CORRUPT|NOTADB)/.test(code)) {
        throw new SentRecordError(
          `the record of sent ref_ids ${path} is damaged (${(e as Error).message}); move it aside (mv '${path}' '${path}.damaged') and run again ` +
            '(the service is still asked which rows it holds)',
        );
      }
      throw new WriteError('record of sent ref_ids', path, e);
    }
  }

  /**
   * Records that requests for these rows are about to leave (a window of rows, one transaction), and resolves once
   * they are on disk (one fsync of the WAL, off the main thread).
   */
  async record(serviceId: string, batchId: string, journal: string, entries: SentEntry[], at: string): Promise<void> {
    try {
      this.db.transaction(() => {
        for (const e of entries) this.put.run(serviceId, e.profile_id, e.ref_id, batchId, journal, e.row, at);
      })();
      await this.wal.sync();
    } catch (e) {
      throw new WriteError('record of sent ref_ids', this.path, e);
    }
  }

  /** The service refused this row of this batch outright: nothing was paid under its ref_id. */
  markRefused(serviceId: string, batchId: string, entry: Omit<SentEntry, 'row'>): void {
    try {
      this.refuse.run(serviceId, entry.profile_id, entry.ref_id, batchId);
    } catch (err) {
      throw new WriteError('record of sent ref_ids', this.path, err);
    }
  }

  /** The earliest send of this ref_id by another batch, if any. */
  find(serviceId: string, profileId: string, refId: string, exceptBatch: string): EarlierSend | undefined {
    const all = this.get.all(serviceId, profileId, refId, exceptBatch) as EarlierSend[];
    return all.sort((a, b) => a.sent_at.localeCompare(b.sent_at))[0];
  }

  close(): void {
    this.wal.close();
    try {
      this.db.close();
    } catch {
      /* closed already */
    }
  }
}
