// What this machine sent: every ref_id a batch let go, per service and profile, with its batch and journal, so a
// later batch can say which of its rows another batch already paid (even one whose journal is gone).
import { privateDatabase } from '../config/private-files.js';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type { Database as DatabaseType, Statement } from 'better-sqlite3';
import { nextTurn } from './pacing.js';
import { WalSync, walPragmas } from './wal-sync.js';
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

/**
 * Rows appended since the last fold at which a batch folds the log while it sends (in a turn of its own, after a
 * window is durable), so that closing it after the last answer moves a few rows, not the whole batch.
 */
const FOLD_AT = 2048;

/**
 * The record is two tables. `sent`, keyed by ref_id, is what a lookup reads. `sent_log` is where a batch appends as it
 * sends (rowid order: each window's commit writes a page or two at the end of the file, where the keyed table's
 * random ref_ids rewrote a page per row, about 4 KB of WAL a row). The log is moved into `sent` in one transaction
 * (fold): by a lookup, which reads under the same write lock so nothing appended can slip between, by a batch every
 * FOLD_AT rows it appends, and when the record is closed. A crash leaves the log as it was; the next fold moves it.
 */
export class SentRecord {
  private readonly append: Statement;
  private readonly get: Statement;
  private readonly fold: () => void;
  private readonly wal: WalSync;
  /** Rows appended since the last fold. */
  private appended = 0;

  private constructor(
    readonly path: string,
    private readonly db: DatabaseType,
  ) {
    this.wal = new WalSync(path);
    this.append = db.prepare(
      'INSERT INTO sent_log (service_id, profile_id, ref_id, batch_id, journal, row, sent_at, refused) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    // A row the service refused outright (a 4xx other than already-exists) moved no money: it is no evidence of a
    // payment, so a later batch may send it.
    this.get = db.prepare(
      'SELECT batch_id, journal, row, sent_at FROM sent WHERE service_id = ? AND profile_id = ? AND ref_id = ? AND batch_id <> ? AND refused = 0',
    );
    // In the log's order: a send clears an earlier refusal of the same row (sent again), a refusal marks the send.
    const move = db.prepare(
      `INSERT INTO sent (service_id, profile_id, ref_id, batch_id, journal, row, sent_at, refused)
       SELECT service_id, profile_id, ref_id, batch_id, journal, row, sent_at, refused FROM sent_log WHERE true ORDER BY seq
       ON CONFLICT DO UPDATE SET refused = excluded.refused`,
    );
    const clear = db.prepare('DELETE FROM sent_log');
    const any = db.prepare('SELECT 1 FROM sent_log LIMIT 1').pluck();
    this.fold = () => {
      if (any.get() === undefined) return;
      move.run();
      clear.run();
    };
  }

  /** Opens (or creates, 0600) the record in the data directory. */
  static open(path: string): SentRecord {
    let db: DatabaseType | undefined;
    try {
      privateDatabase(path);
      const Database = require('better-sqlite3') as typeof import('better-sqlite3');
      db = new Database(path);
      // A commit per window of rows, made durable by an fsync of the WAL off the main thread (record()). A cache of
      // 4 MB, whatever the record's size: a batch's lookups and folds touch its pages once each.
      walPragmas(db, 4000);
      db.exec(`CREATE TABLE IF NOT EXISTS sent (
        service_id TEXT NOT NULL, profile_id TEXT NOT NULL, ref_id TEXT NOT NULL, batch_id TEXT NOT NULL,
        journal TEXT NOT NULL, row INTEGER NOT NULL, sent_at TEXT NOT NULL, refused INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (service_id, profile_id, ref_id, batch_id)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS sent_log (seq INTEGER PRIMARY KEY,
        service_id TEXT NOT NULL, profile_id TEXT NOT NULL, ref_id TEXT NOT NULL, batch_id TEXT NOT NULL,
        journal TEXT NOT NULL, row INTEGER NOT NULL, sent_at TEXT NOT NULL, refused INTEGER NOT NULL)`);
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
   * Records that requests for these rows are about to leave (a window of rows, one transaction, appended to the log),
   * and resolves once they are on disk (one fsync of the WAL, off the main thread).
   */
  async record(serviceId: string, batchId: string, journal: string, entries: SentEntry[], at: string): Promise<void> {
    try {
      this.db.transaction(() => {
        for (const e of entries) this.append.run(serviceId, e.profile_id, e.ref_id, batchId, journal, e.row, at, 0);
      })();
      await this.wal.sync();
    } catch (e) {
      throw new WriteError('record of sent ref_ids', this.path, e);
    }
    this.appended += entries.length;
    if (this.appended >= FOLD_AT) await this.foldNow();
  }

  /** Moves the log into the keyed table now, in a turn of its own; one that fails is left for the next fold. */
  private async foldNow(): Promise<void> {
    this.appended = 0;
    await nextTurn();
    try {
      this.db.transaction(this.fold).immediate();
    } catch {
      /* left in the log for the next fold */
    }
  }

  /** The service refused this row of this batch outright: nothing was paid under its ref_id. */
  markRefused(serviceId: string, batchId: string, entry: Omit<SentEntry, 'row'>): void {
    try {
      this.append.run(serviceId, entry.profile_id, entry.ref_id, batchId, '', 0, '', 1);
    } catch (err) {
      throw new WriteError('record of sent ref_ids', this.path, err);
    }
  }

  /** The earliest send of this ref_id by another batch, if any. */
  find(serviceId: string, profileId: string, refId: string, exceptBatch: string): EarlierSend | undefined {
    return this.findEach(serviceId, exceptBatch, [{ profile_id: profileId, ref_id: refId }])[0];
  }

  /** For each of these rows, the earliest send of its ref_id by another batch, if any (the log folded first). */
  findEach(
    serviceId: string,
    exceptBatch: string,
    rows: readonly Omit<SentEntry, 'row'>[],
  ): (EarlierSend | undefined)[] {
    const read = () => {
      this.fold();
      return rows.map((row) => {
        const all = this.get.all(serviceId, row.profile_id, row.ref_id, exceptBatch) as EarlierSend[];
        return all.sort((a, b) => a.sent_at.localeCompare(b.sent_at))[0];
      });
    };
    try {
      return this.db.transaction(read).immediate();
    } catch (err) {
      throw new WriteError('record of sent ref_ids', this.path, err);
    }
  }

  close(): void {
    this.wal.close();
    try {
      // What this batch appended moves to the keyed table now, not in the next batch's lookups.
      this.db.transaction(this.fold).immediate();
    } catch {
      /* left in the log for the next fold */
    }
    try {
      this.db.close();
    } catch {
      /* closed already */
    }
  }
}
