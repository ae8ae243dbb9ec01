// Durability of an SQLite file in WAL mode without blocking the main thread: commits are made with
// synchronous=NORMAL (written to the WAL, no fsync), then the WAL file is fsynced off the main thread. An fsync of
// the WAL covers every commit written to it before the fsync began, so a caller that awaits it has its rows on disk;
// files fsynced this way at once (the journal, the record of sent ref_ids) are fsynced in parallel.
import { closeSync, fsync, fsyncSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Pages of WAL written before SQLite copies them back into the database (its checkpoint). SQLite's default, 1000,
 * checkpoints every 4 MB: a batch's windows of random ref_ids dirty that much every few windows, and each checkpoint
 * fsyncs the WAL and the database on the main thread, while requests wait. 10,000 (40 MB, removed when the file is
 * closed) holds a 10,000-row batch's writes with a checkpoint or two. Durability does not depend on it: every commit
 * awaited is in the WAL, fsynced (sync()).
 */
export const WAL_PAGES = 10_000;

/**
 * How a file written this way is opened: WAL, commits without an fsync (NORMAL: the WalSync fsync makes them durable,
 * off the main thread), a writer beside it waited for, checkpoints every WAL_PAGES, and a page cache of `cacheKib`
 * KiB. The SQLite that better-sqlite3 builds caches 16 MB per connection by default, and a batch's two files filled
 * theirs: the record's with the pages its lookups and folds touch, more with every batch it holds (3 MB a batch of
 * 10,000 rows, up to the 16 MB), the journal's with the batch's rows. That was the batch's peak memory growing from
 * one run to the next (136.7 -> 148.5 MB over five runs, docs/performance.md), past 150 MB once the record held
 * 60,000 rows.
 */
export function walPragmas(db: { pragma(source: string): unknown }, cacheKib: number): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma(`wal_autocheckpoint = ${WAL_PAGES}`);
  db.pragma(`cache_size = -${cacheKib}`);
}

export class WalSync {
  private fd?: number;
  private inFlight = 0;
  private closed = false;
  constructor(private readonly dbPath: string) {}

  /** Resolves once everything committed so far is on disk. Call after a commit (the WAL file exists then). */
  sync(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('closed'));
    let fd: number;
    try {
      fd = this.open();
    } catch (e) {
      return Promise.reject(e);
    }
    this.inFlight++;
    return new Promise<void>((resolve, reject) =>
      fsync(fd, (error) => {
        this.inFlight--;
        if (this.closed && !this.inFlight) this.release();
        if (error) reject(error);
        else resolve();
      }),
    );
  }

  /** Before the database closes (its WAL may be removed then); an fsync under way keeps the descriptor until it ends. */
  close(): void {
    this.closed = true;
    if (!this.inFlight) this.release();
  }

  private open(): number {
    if (this.fd !== undefined) return this.fd;
    const fd = openSync(`${this.dbPath}-wal`, 'r');
    // The WAL's name in its folder made durable once, as SQLite itself does not for a WAL file.
    let dir: number | undefined;
    try {
      dir = openSync(dirname(this.dbPath), 'r');
      fsyncSync(dir);
    } catch {
      /* not every file system lets a folder be fsynced */
    } finally {
      if (dir !== undefined) closeSync(dir);
    }
    this.fd = fd;
    return fd;
  }

  private release(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      /* closed already */
    }
    this.fd = undefined;
  }
}
