// Batches held for approvals as one, in the gateway's store on both engines: a store at schema version 1 migrates to
// the version with their rows; a batch and its rows are held in one transaction; the same batch held twice at once
// is one batch; a row is found by its ref_id while its batch is live, and its outcome kept. A store at version 2
// migrates to the version with a sending batch's lease, and every move of the lease is a compare-and-set: one sender
// starts, only the holder renews and finishes, one of several instances taking over an expired lease gets it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, STORE_SCHEMA_VERSION, storeSchemaVersion } from '../../src/gateway/migrations.js';
import { BatchStore, GatewayStore } from '../../src/gateway/store.js';
import { ENGINES, type TestStore } from './support.js';

const ROWS = [
  { refId: 'bs-1', body: { asset: 'BTC', crypto_network: 'BITCOIN', amount: '0.1', ref_id: 'bs-1' } },
  { refId: 'bs-2', body: { asset: 'ETH', crypto_network: 'ETHEREUM', amount: '2', ref_id: 'bs-2' } },
];

for (const [engine, open] of ENGINES) {
  describe(`batches held as one, in the store on ${engine}`, () => {
    let t: TestStore;
    let store: GatewayStore;
    let batches: BatchStore;
    beforeEach(async () => {
      t = await open();
      store = new GatewayStore(t.sql);
      batches = new BatchStore(store);
    });
    afterEach(async () => t.drop());

    it('a store made at version 1 migrates to the batch rows', async () => {
      await t.sql.exclusive('setup', async (tx) => {
        await tx.query('CREATE TABLE gw_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
        for (const statement of MIGRATIONS[0]) await tx.query(statement);
        await tx.query("INSERT INTO gw_meta (key, value) VALUES ('schema_version', '1')");
      });
      expect(await storeSchemaVersion(t.sql)).toBe(1);
      await store.init();
      expect(await storeSchemaVersion(t.sql)).toBe(STORE_SCHEMA_VERSION);
      expect(await batches.rows('none')).toEqual([]);
    });

    it('a store made at version 2 migrates to the lease columns, its sending batches without a lease', async () => {
      await t.sql.exclusive('setup', async (tx) => {
        await tx.query('CREATE TABLE gw_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
        for (const statement of [...MIGRATIONS[0], ...MIGRATIONS[1]]) await tx.query(statement);
        await tx.query("INSERT INTO gw_meta (key, value) VALUES ('schema_version', '2')");
        await tx.query(
          `INSERT INTO gw_pending (id, operator, operation, body, content, status, created_at, expires_at)
           VALUES ('old', 'ivy', 'batch', '{}', '[]', 'sending', 1, 2)`,
        );
      });
      await store.init();
      expect(await storeSchemaVersion(t.sql)).toBe(3);
      expect((await store.pending('old'))?.lease).toBeNull();
      // A batch left sending before leases were kept: taken over as one whose lease is long gone.
      expect(await batches.takeOver('old', { holder: 'x', until: 1 }, { holder: 'b', until: 10 })).toBe(false);
      expect(await batches.takeOver('old', null, { holder: 'b', until: 10 })).toBe(true);
      expect((await store.pending('old'))?.lease).toEqual({ holder: 'b', until: 10 });
    });

    it('the lease: one starts sending, only its holder renews and finishes, one taker of an expired lease', async () => {
      await store.init();
      const pending = { operator: 'ivy', body: {}, content: ['lease'], expiresAt: 9e12 };
      const { held } = await batches.hold(pending, ROWS, 1);
      const starts = await Promise.all(
        ['a', 'b'].map((holder) => batches.startSending(held.id, { holder, until: 1000 })),
      );
      expect(starts.sort()).toEqual([false, true]);
      const holder = (await store.pending(held.id))!.lease!.holder;
      const other = holder === 'a' ? 'b' : 'a';
      expect(await batches.renewLease(held.id, { holder: other, until: 2000 })).toBe(false);
      expect(await batches.renewLease(held.id, { holder, until: 2000 })).toBe(true);
      expect(await batches.finishSending(held.id, other, 'sent')).toBe(false);
      // Taking over names the lease as it was: a stale reading (until 1000) changes nothing.
      expect(await batches.takeOver(held.id, { holder, until: 1000 }, { holder: 'c', until: 5000 })).toBe(false);
      const takers = await Promise.all(
        ['c', 'd', 'e'].map((h) => batches.takeOver(held.id, { holder, until: 2000 }, { holder: h, until: 5000 })),
      );
      expect(takers.filter(Boolean)).toHaveLength(1);
      const taker = (await store.pending(held.id))!.lease!.holder;
      expect(['c', 'd', 'e']).toContain(taker);
      // The one it was taken from can neither renew nor finish it now.
      expect(await batches.renewLease(held.id, { holder, until: 9000 })).toBe(false);
      expect(await batches.finishSending(held.id, holder, 'sent')).toBe(false);
      expect(await batches.finishSending(held.id, taker, 'sent', { rows: 2 })).toBe(true);
      const done = await store.pending(held.id);
      expect([done?.status, done?.lease, done?.result]).toEqual(['sent', null, { rows: 2 }]);
      expect(await batches.takeOver(held.id, null, { holder: 'f', until: 1 })).toBe(false);
    });

    it('holds a batch once, however many hold it at once; finds its rows by ref_id and keeps their outcome', async () => {
      await store.init();
      const pending = { operator: 'ivy', body: { rows: ROWS.map((r) => r.body) }, content: ['c1'], expiresAt: 9e12 };
      const both = await Promise.all([batches.hold(pending, ROWS, 1), batches.hold(pending, ROWS, 1)]);
      expect(both.map((b) => b.created).sort()).toEqual([false, true]);
      expect(both[0].held.id).toBe(both[1].held.id);
      const id = both[0].held.id;
      expect((await batches.rows(id)).map((r) => [r.idx, r.refId, r.status])).toEqual([
        [0, 'bs-1', 'planned'],
        [1, 'bs-2', 'planned'],
      ]);
      await batches.settleRow(id, 1, 'sent', { id: 'transfer-2' });
      const found = await batches.byRef('bs-2');
      expect([found?.batch.id, found?.row.status, found?.row.result]).toEqual([id, 'sent', { id: 'transfer-2' }]);
      await t.sql.exclusive('reject', (tx) => store.transition(tx, id, 'pending', 'rejected'));
      expect(await batches.byRef('bs-2')).toBeUndefined();
      expect(await batches.byContent(['c1'])).toBeUndefined();
    });
  });
}
