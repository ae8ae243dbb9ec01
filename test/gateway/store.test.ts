// The gateway store on both engines: migrations, operators with hashed secrets, policy versions, the audit chain
// (verifiable by the same verifier as a machine's log), reservations under one exclusive section.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyLog } from '../../src/audit/verify.js';
import { migrateStore, STORE_SCHEMA_VERSION, storeSchemaVersion } from '../../src/gateway/migrations.js';
import { secretMatches } from '../../src/gateway/operators.js';
import { openSql } from '../../src/gateway/sql.js';
import { GatewayStore } from '../../src/gateway/store.js';
import { ENGINES, type TestStore } from './support.js';

for (const [engine, open] of ENGINES) {
  describe(`gateway store on ${engine}`, () => {
    let t: TestStore;
    let store: GatewayStore;
    beforeEach(async () => {
      t = await open();
      store = new GatewayStore(t.sql);
      await store.init();
    });
    afterEach(async () => t.drop());

    it('migrates once to the current version; a second init changes nothing', async () => {
      expect(await storeSchemaVersion(t.sql)).toBe(STORE_SCHEMA_VERSION);
      const key = await store.tokenKey();
      expect(await store.init()).toBe(false);
      expect(await migrateStore(t.sql)).toBe(STORE_SCHEMA_VERSION);
      expect((await store.tokenKey()).equals(key)).toBe(true);
    });

    it('keeps an operator secret only as a scrypt hash', async () => {
      const { clientId, secret } = await store.addOperator('ana', 'initiator');
      const found = await store.credentials(clientId);
      expect(found?.operator).toMatchObject({ name: 'ana', role: 'initiator', disabled: false });
      expect(found?.secretHash).not.toContain(secret);
      expect(found?.secretHash.startsWith('scrypt$')).toBe(true);
      expect(await secretMatches(secret, found!.secretHash)).toBe(true);
      expect(await secretMatches(`${secret}x`, found!.secretHash)).toBe(false);
      expect(await store.setDisabled('ana', true)).toBe(true);
      expect((await store.operator('ana'))?.disabled).toBe(true);
      expect(await store.setDisabled('nobody', true)).toBe(false);
      await expect(store.addOperator('ana', 'viewer')).rejects.toThrow();
    });

    it('keeps every version of the policy', async () => {
      expect(await store.policy()).toBeUndefined();
      expect(await store.setPolicy('assets: [BTC]\n', 'a1', 'root')).toBe(1);
      expect(await store.setPolicy('assets: [ETH]\n', 'b2', 'root')).toBe(2);
      expect((await store.policy())?.body).toBe('assets: [ETH]\n');
      expect((await store.policyHistory()).map((p) => p.version)).toEqual([1, 2]);
    });

    it('chains the audit trail as a machine log is chained: the same verifier finds it whole, and an edit', async () => {
      const who = { os_user: 'gateway', profile: 'gw' };
      for (let i = 0; i < 3; i++)
        await store.appendAudit([
          {
            who,
            event: { kind: 'withdrawal', ref_id: `r${i}`, what: { amount: '1' }, outcome: { result: 'attempt' } },
          },
        ]);
      const lines = await store.auditLines();
      expect(lines.map((l) => l.seq)).toEqual([1, 2, 3]);
      const file = join(tmpdir(), `gw-audit-${engine}-${process.pid}.jsonl`);
      writeFileSync(file, `${lines.map((l) => l.line).join('\n')}\n`);
      const head = await store.auditHead();
      expect(verifyLog(file, { seq: head.seq, sha256: head.sha256 } as never).problems).toEqual([]);
      writeFileSync(file, `${lines.map((l) => l.line.replace('"amount":"1"', '"amount":"2"')).join('\n')}\n`);
      expect(verifyLog(file).problems.length).toBeGreaterThan(0);
    });

    it('keeps one whole chain when several writers append at once, each after the head it last knew', async () => {
      // A second instance on the same store: a connection of its own, its own idea of where the chain ends.
      const other = new GatewayStore(await openSql(t.url));
      const who = { os_user: 'gateway', profile: 'gw' };
      const entry = (ref: string): Parameters<GatewayStore['appendAudit']>[0] => [
        { who, event: { kind: 'withdrawal', ref_id: ref, what: { amount: '1' }, outcome: { result: 'attempt' } } },
      ];
      try {
        await store.appendAudit(entry('a0'));
        await other.appendAudit(entry('b0'));
        // `store` last wrote entry 1; entry 2 is the other's: its next entry follows 2, never a second 2.
        await Promise.all(
          Array.from({ length: 10 }, (_, i) => [
            store.appendAudit(entry(`a${i + 1}`)),
            other.appendAudit(entry(`b${i + 1}`)),
          ]).flat(),
        );
        // An entry written in a section that then fails is gone with it; the next follows the last one kept.
        await expect(
          t.sql.exclusive('gw_caps', async (tx) => {
            await store.appendAudit(entry('gone'), tx);
            throw new Error('rolled back');
          }),
        ).rejects.toThrow('rolled back');
        await store.appendAudit(entry('after'));
        await other.appendAudit([...entry('x'), ...entry('y')]);
      } finally {
        await other.sql.close();
      }
      const lines = await store.auditLines();
      expect(lines.map((l) => l.seq)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
      expect(lines.filter((l) => l.line.includes('"gone"'))).toEqual([]);
      const file = join(tmpdir(), `gw-audit-writers-${engine}-${process.pid}.jsonl`);
      writeFileSync(file, `${lines.map((l) => l.line).join('\n')}\n`);
      expect(verifyLog(file, (await store.auditHead()) as never).problems).toEqual([]);
    });

    it("takes a section's key as a name, whatever its characters (on Postgres it is quoted into the lock's statement)", async () => {
      const key = "gw_pending:it's \\'); DROP TABLE gw_audit; --";
      expect(await t.sql.exclusive(key, async (tx) => (await tx.query('SELECT 1 AS one'))[0])).toEqual({ one: 1 });
      expect(await store.auditHead()).toEqual({ seq: 0, sha256: expect.any(String) });
    });

    it('reserves and releases inside one exclusive section', async () => {
      await t.sql.exclusive('gw_caps', async (tx) => {
        await store.reserve(tx, { ref_id: 'a', operator: 'ana', asset: 'BTC', amount: '1', at: Date.now() });
        await store.reserve(tx, { ref_id: 'b', operator: 'bo', asset: 'BTC', amount: '2', at: Date.now() });
      });
      await t.sql.exclusive('gw_caps', async (tx) => {
        expect((await store.reservations(tx)).map((r) => r.ref_id).sort()).toEqual(['a', 'b']);
        // An admission reads its own asset's only: a cap counts nothing else.
        expect((await store.reservations(tx, 'BTC')).map((r) => r.ref_id).sort()).toEqual(['a', 'b']);
        expect(await store.reservations(tx, 'ETH')).toEqual([]);
        await store.release(tx, ['a']);
        expect((await store.reservations(tx)).map((r) => r.ref_id)).toEqual(['b']);
      });
    });
  });
}
