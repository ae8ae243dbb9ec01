// Several processes on one database file: balances stay exact and never negative, because correctness comes from
// SQLite transactions (BEGIN IMMEDIATE, WAL) and not from any one process's memory.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { dec } from '../../src/contract/money.js';
import { BTC_ADDRESS, DEMO, balanceOf, harness, tempDir } from './helpers.js';
import { ROOT } from '../support/paths.js';

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill();
});

function child(file: string, count: number) {
  const c = spawn(
    process.execPath,
    [
      `${ROOT}/node_modules/vite-node/vite-node.mjs`,
      `${ROOT}/test/local/fixtures/child-service.ts`,
      file,
      DEMO.emptyProfileId,
      String(count),
    ],
    {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  children.push(c);
  const lines = createInterface({ input: c.stdout! })[Symbol.asyncIterator]();
  const next = async () => JSON.parse(((await lines.next()).value as string) ?? 'null');
  return { c, next };
}

describe('several processes on one database file', () => {
  it('withdrawals racing from three processes debit exactly what the balance allows', async () => {
    const d = tempDir();
    const file = `${d.dir}/shared.db`;
    // Three processes open a new database file at about the same time: the demo data is seeded exactly once.
    const kids = [child(file, 60), child(file, 60)];
    const h = await harness({ dbFile: file });
    try {
      for (const k of kids) expect((await k.next()).ready).toBe(true);
      expect((await h.control('GET', '/_local/profiles')).body.items.length).toBe(2);
      expect((await h.admin('GET', '/v2/transfer/deposit-addresses')).body.items.length).toBe(3);
      // 1.00 LTC; each withdrawal takes 0.01 + 0.0001: 99 fit (0.9999), the 100th does not.
      await h.control('POST', `/_local/profiles/${DEMO.emptyProfileId}/balances`, { asset: 'LTC', amount: '1' });
      for (const k of kids) k.c.stdin!.write('go\n');
      const local = Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          h.admin('POST', '/v2/transfer/crypto-withdrawals', {
            profile_id: DEMO.emptyProfileId,
            asset: 'LTC',
            crypto_network: 'LITECOIN',
            destination_address: 'LW98ceYNxYki9e9QxDACLn82TtVEPm4qmy',
            amount: '0.01',
            ref_id: `parent-${i}`,
          }),
        ),
      );
      const [mine, ...theirs] = await Promise.all([local, ...kids.map((k) => k.next())]);
      const ok = mine.filter((r) => r.status === 200).length + theirs.reduce((n, t) => n + t.ok, 0);
      const refused = mine.filter((r) => r.status === 403).length + theirs.reduce((n, t) => n + t.refused, 0);
      for (const t of theirs) expect(t.other).toEqual([]);
      expect(ok).toBe(99);
      expect(refused).toBe(81);
      expect(await balanceOf(h, DEMO.emptyProfileId, 'LTC')).toBe(dec(1).minus(dec('0.0101').times(99)).toFixed());
      const listed = (await h.admin('GET', `/v2/transfer/transfers?profile_ids=${DEMO.emptyProfileId}&limit=1000`)).body
        .items;
      expect(listed.length).toBe(99);
    } finally {
      await h.close();
      d.cleanup();
    }
  });
});

describe('a database held by another process', () => {
  it('a write that cannot get the lock is a 503 problem, and works once the lock is released', async () => {
    const d = tempDir();
    const file = `${d.dir}/busy.db`;
    const h = await harness({ dbFile: file, config: { dbBusyTimeoutMs: 100 } });
    const { createRequire } = await import('node:module');
    const Database = createRequire(import.meta.url)('better-sqlite3');
    const other = new Database(file);
    try {
      await h.token();
      other.exec('BEGIN IMMEDIATE');
      const withdraw = () =>
        h.admin('POST', '/v2/transfer/crypto-withdrawals', {
          profile_id: DEMO.profileId,
          asset: 'BTC',
          crypto_network: 'BITCOIN',
          destination_address: BTC_ADDRESS,
          amount: '0.01',
          ref_id: 'busy',
        });
      const r = await withdraw();
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('1');
      expect(r.body.detail).toMatch(/busy/);
      other.exec('ROLLBACK');
      const again = await withdraw();
      expect(again.status).toBe(200);
    } finally {
      other.close();
      await h.close();
      d.cleanup();
    }
  });
});
