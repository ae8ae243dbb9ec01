// How a batch's two durable SQLite files are opened (walPragmas): WAL, commits fsynced by WalSync off the main thread,
// rare checkpoints, and a page cache of a few MB each, not the 16 MB per connection that better-sqlite3's SQLite
// defaults to (the batch's memory grew with the record of sent ref_ids until it passed its 150 MB target).
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal } from '../../src/batch/journal.js';
import { SentRecord } from '../../src/batch/sent-record.js';
import { WAL_PAGES } from '../../src/batch/wal-sync.js';

const dir = mkdtempSync(join(tmpdir(), 'coinop-wal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The settings of an open connection that walPragmas makes. */
function settings(db: Database) {
  const get = (name: string) => db.pragma(name, { simple: true });
  return {
    journal_mode: get('journal_mode'),
    synchronous: get('synchronous'),
    busy_timeout: get('busy_timeout'),
    wal_autocheckpoint: get('wal_autocheckpoint'),
    cache_size: get('cache_size'),
  };
}

const connection = (owner: Journal | SentRecord) => (owner as unknown as { db: Database }).db;

describe('the batch files opened for durable writes: WAL, NORMAL, checkpoints every WAL_PAGES, a small page cache', () => {
  const files = [
    { name: 'a journal', cacheSize: -2000, open: () => Journal.open(join(dir, 'a.journal'), 'hash-a') },
    {
      name: 'the record of sent ref_ids, whatever it holds',
      cacheSize: -4000,
      open: () => SentRecord.open(join(dir, 'sent.db')),
    },
  ];
  it.each(files)('$name: a cache of $cacheSize KiB', ({ cacheSize, open }) => {
    const file = open();
    try {
      expect(settings(connection(file))).toEqual({
        journal_mode: 'wal',
        synchronous: 1,
        busy_timeout: 5000,
        wal_autocheckpoint: WAL_PAGES,
        cache_size: cacheSize,
      });
    } finally {
      file.close();
    }
  });
});
