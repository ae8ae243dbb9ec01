// Batches held for approvals as one, in the gateway's store on both engines: a store at schema version 1 migrates to
// the version with their rows; a batch and its rows are held in one transaction; the same batch held twice at once
// is one batch; a row is found by its ref_id while its batch is live, and its outcome kept.
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
