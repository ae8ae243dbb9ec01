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

describe('store keyset listing', () => {
  /** 24 transfers of p1 and 6 of p2, three to each updated_ms from 1000 on (ties the seq orders). */
  function seeded(): Store {
    const s = new Store(null);
    for (let i = 0; i < 30; i++) {
      const ms = 1000 + Math.floor(i / 3);
      s.insertTransfer({
        id: `t-${i}`,
        ref_id: null,
        profile_id: i % 5 === 4 ? 'p2' : 'p1',
        identity_id: null,
        type: 'WITHDRAWAL',
        status: 'COMPLETED',
        crypto_tx_hash: null,
        group_id: null,
        balance_asset: 'BTC',
        total: '1',
        created_ms: ms,
        updated_ms: ms,
        settle_ms: null,
        fails: 0,
        body: '{}',
      });
    }
    return s;
  }

  /** Every page of the listing, each after the last row of the one before; the ids in the order listed. */
  function paged(store: Store, order: 'ASC' | 'DESC', timeFilter: Record<string, number>, start?: [number, number]) {
    const ids: string[] = [];
    let after = start;
    for (let pages = 0; pages < 50; pages++) {
      const rows = store.listTransfers({
        inFilters: { profile_id: ['p1'] },
        timeFilters: { updated_ms: timeFilter },
        sortColumn: 'updated_ms',
        order,
        after,
        limit: 4,
      });
      if (!rows.length) break;
      ids.push(...rows.map((r) => r.id));
      const last = rows[rows.length - 1];
      after = [last.updated_ms, last.seq];
    }
    return ids;
  }

  const p1 = (from: number, to: number) =>
    Array.from({ length: 30 }, (_, i) => i).filter(
      (i) => i % 5 !== 4 && 1000 + Math.floor(i / 3) >= from && 1000 + Math.floor(i / 3) <= to,
    );

  it('pages through ties in both directions, each row once, within the time filter', () => {
    const s = seeded();
    try {
      expect(paged(s, 'ASC', { gte: 1002 })).toEqual(p1(1002, 1009).map((i) => `t-${i}`));
      expect(paged(s, 'DESC', { lte: 1007, gt: 1001 })).toEqual(
        p1(1002, 1007)
          .reverse()
          .map((i) => `t-${i}`),
      );
    } finally {
      s.close();
    }
  });

  it('a position before the filter (a cursor made by hand) still lists only rows within it', () => {
    const s = seeded();
    try {
      expect(paged(s, 'ASC', { gte: 1005 }, [999, 0])).toEqual(p1(1005, 1009).map((i) => `t-${i}`));
      expect(paged(s, 'ASC', { gt: 1004 }, [1004, 1])).toEqual(p1(1005, 1009).map((i) => `t-${i}`));
      expect(paged(s, 'DESC', { lt: 1003 }, [2000, 99])).toEqual(
        p1(1000, 1002)
          .reverse()
          .map((i) => `t-${i}`),
      );
    } finally {
      s.close();
    }
  });
});
