// Local service store: group commit semantics, and the schema SQL run once per text of it.
import { describe, expect, it, vi } from 'vitest';
import BetterSqlite3 from 'better-sqlite3';
import { SCHEMA_SQL_KEY, Store } from '../../src/local/store.js';
import { tempDir } from './helpers.js';

describe('store group commit', () => {
  it('a job that throws rolls back only its own writes; the others commit together', async () => {
    const s = new Store(null);
    try {
      const a = s.grouped(() => s.setMeta('a', '1'));
      const b = s.grouped(() => {
        s.setMeta('b', '1');
        throw new Error('no');
      });
      const c = s.grouped(() => s.setMeta('c', '1'));
      await a;
      await expect(b).rejects.toThrow('no');
      await c;
      expect([s.getMeta('a'), s.getMeta('b'), s.getMeta('c')]).toEqual(['1', undefined, '1']);
    } finally {
      s.close();
    }
  });

  it('closing commits queued work first', async () => {
    const d = tempDir();
    try {
      const s = new Store(`${d.dir}/g.db`);
      const done = s.grouped(() => s.setMeta('queued', 'yes'));
      s.close();
      await done;
      const again = new Store(`${d.dir}/g.db`);
      expect(again.getMeta('queued')).toBe('yes');
      again.close();
    } finally {
      d.cleanup();
    }
  });
});

describe('store schema', () => {
  it('a database runs the schema SQL once per text of it: reopened, it is not parsed again; changed, it runs again', () => {
    const d = tempDir();
    const file = `${d.dir}/s.db`;
    const exec = vi.spyOn(BetterSqlite3.prototype, 'exec');
    const schemaRuns = () => exec.mock.calls.filter(([sql]) => sql.includes('CREATE TABLE IF NOT EXISTS meta')).length;
    try {
      new Store(file).close();
      expect(schemaRuns()).toBe(1);
      new Store(file).close();
      expect(schemaRuns()).toBe(1);
      // A database that took another text (an older build's): a table that text lacked, and the schema runs again.
      const old = new Store(file);
      old.db.exec('DROP TABLE tokens');
      old.setMeta(SCHEMA_SQL_KEY, 'an older schema');
      old.close();
      const again = new Store(file);
      expect(schemaRuns()).toBe(2);
      expect(again.hasTable('tokens')).toBe(true);
      again.close();
    } finally {
      exec.mockRestore();
      d.cleanup();
    }
  });
});
