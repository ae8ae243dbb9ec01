// Local service: the control API (health, profiles, credits, clock, state export/import, journal, loopback) and persistence.
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, balanceOf, harness, tempDir, withdrawal, type Harness } from './helpers.js';
import { DEMO_BALANCES } from '../../src/embedded/demo.js';
import { Store } from '../../src/local/store.js';
import { ServiceClock } from '../../src/local/service-clock.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

describe('control API', () => {
  it('health', async () => {
    const r = await h.control('GET', '/_local/health');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'ok', seed: 1, db: ':memory:' });
  });

  it('profiles list ids and balances; credit adds to a balance', async () => {
    let r = await h.control('GET', '/_local/profiles');
    const demo = r.body.items.find((p: any) => p.id === DEMO.profileId);
    expect(demo).toMatchObject({ customer_id: DEMO.customerId, memo_id: DEMO.memoId });
    expect(demo.balances).toEqual(DEMO_BALANCES);
    r = await h.control('POST', `/_local/profiles/${DEMO.emptyProfileId}/balances`, { asset: 'SOL', amount: '1.5' });
    expect(r.body).toEqual({ profile_id: DEMO.emptyProfileId, asset: 'SOL', balance: '1.5' });
    r = await h.control('POST', `/_local/profiles/${DEMO.emptyProfileId}/balances`, { asset: 'SOL', amount: '0.25' });
    expect(r.body.balance).toBe('1.75');
    expect(
      (await h.control('POST', `/_local/profiles/${DEMO.emptyProfileId}/balances`, { asset: 'MOON', amount: '1' })).body
        .meta.issues[0].field,
    ).toBe('asset');
    expect(
      (await h.control('POST', `/_local/profiles/${DEMO.emptyProfileId}/balances`, { asset: 'SOL', amount: '-1' })).body
        .meta.issues[0].field,
    ).toBe('amount');
    expect(
      (await h.control('POST', `/_local/profiles/${DEMO.emptyProfileId}/balances`, { asset: 'SOL', amount: '1', x: 1 }))
        .body.meta.issues[0].field,
    ).toBe('x');
    expect((await h.control('POST', '/_local/profiles/nope/balances', { asset: 'SOL', amount: '1' })).status).toBe(404);
  });

  it('creates profiles', async () => {
    const r = await h.control('POST', '/_local/profiles', { id: 'p-extra', memo_id: 'MEMO-X' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: 'p-extra', memo_id: 'MEMO-X', balances: {} });
    expect((await h.control('POST', '/_local/profiles', { id: 'p-extra' })).status).toBe(409);
  });

  it('clock advance validates seconds', async () => {
    expect((await h.control('POST', '/_local/clock/advance', { seconds: -1 })).status).toBe(400);
    expect((await h.control('POST', '/_local/clock/advance', { seconds: '5' })).status).toBe(400);
    const before = (await h.control('GET', '/_local/health')).body.clock_offset_ms;
    const r = await h.control('POST', '/_local/clock/advance', { seconds: 3600 });
    expect(r.body.clock_offset_ms).toBe(before + 3_600_000);
  });

  it('export then import gives the same state; reset returns to the demo state', async () => {
    await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: 'exp1' }));
    await h.admin('POST', '/v2/transfer/fees/crypto-withdrawal', {
      asset: 'BTC',
      crypto_network: 'BITCOIN',
      destination_address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
      amount: '1',
    });
    await h.admin('POST', '/v2/transfer/deposit-addresses', {
      profile_id: DEMO.profileId,
      crypto_network: 'STELLAR',
      ref_id: 'exp-da',
    });
    const exported = (await h.control('GET', '/_local/state')).body;
    expect(exported.tables.transfers.length).toBeGreaterThan(0);
    const transfers = (await h.admin('GET', '/v2/transfer/transfers')).body;

    await h.control('POST', '/_local/reset');
    expect((await h.admin('GET', '/v2/transfer/transfers')).body.items).toEqual([]);
    expect(await balanceOf(h, DEMO.profileId, 'BTC')).toBe(DEMO_BALANCES.BTC);
    expect((await h.control('GET', '/_local/health')).body.clock_offset_ms).toBe(0);

    const put = await h.control('PUT', '/_local/state', exported);
    expect(put.status).toBe(200);
    expect((await h.control('GET', '/_local/state')).body).toEqual(exported);
    expect((await h.admin('GET', '/v2/transfer/transfers')).body).toEqual(transfers);
    // Sequences continue after import: a new transfer lists first.
    const next = (await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: 'after-import' })))
      .body;
    expect((await h.admin('GET', '/v2/transfer/transfers?limit=1')).body.items[0].id).toBe(next.id);
    // A used ref_id is still known after import.
    expect((await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: 'exp1' }))).status).toBe(409);
  });

  it('import rejects a malformed state naming the part, and keeps the old state', async () => {
    const before = (await h.control('GET', '/_local/state')).body;
    let r = await h.control('PUT', '/_local/state', { version: 99 });
    expect(r.status).toBe(400);
    expect(r.body.meta.issues[0].field).toBe('version');
    r = await h.control('PUT', '/_local/state', { ...before, tables: { ...before.tables, transfers: 'x' } });
    expect(r.body.meta.issues[0].field).toBe('tables.transfers');
    r = await h.control('PUT', '/_local/state', { ...before, tables: { ...before.tables, balances: [{ nope: 1 }] } });
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/tables\.balances\[0\]\.nope: is not a column of balances/);
    r = await h.control('PUT', '/_local/state', {
      ...before,
      tables: { ...before.tables, balances: [{ profile_id: DEMO.profileId, asset: 'BTC', amount: 'lots' }] },
    });
    expect(r.body.detail).toMatch(/tables\.balances\[0\]\.amount: must be a decimal string/);
    r = await h.control('PUT', '/_local/state', {
      ...before,
      tables: { ...before.tables, transfers: [{ ...before.tables.transfers[0], body: '[' }] },
    });
    expect(r.body.detail).toMatch(/tables\.transfers\[0\]\.body: must be a JSON object/);
    expect((await h.control('GET', '/_local/state')).body).toEqual(before);
  });

  it('journal records requests with status and why they were rejected', async () => {
    await h.req('GET', '/v2/transfer/transfers', { token: null });
    await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ amount: undefined }));
    const r = await h.control('GET', '/_local/journal?limit=5');
    const items = r.body.items as any[];
    const unauth = items.find((e) => e.status === 401);
    expect(unauth).toMatchObject({
      method: 'GET',
      url: '/v2/transfer/transfers',
      reason: 'no authorization header set',
    });
    const bad = items[items.length - 1];
    expect(bad).toMatchObject({
      method: 'POST',
      url: '/v2/transfer/crypto-withdrawals',
      status: 400,
      client_id: DEMO.adminClientId,
    });
    expect(bad.reason).toMatch(/amount: give exactly one of amount and total/);
  });

  it('answers loopback clients only', async () => {
    const ip = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
    if (!ip) return; // no other interface on this machine to test from
    const open = await harness({ host: '0.0.0.0' });
    try {
      const r = await fetch(`http://${ip}:${open.svc.port}/_local/health`);
      expect(r.status).toBe(403);
      expect(((await r.json()) as any).detail).toMatch(/loopback/);
      expect((await fetch(`http://127.0.0.1:${open.svc.port}/_local/health`)).status).toBe(200);
    } finally {
      await open.close();
    }
  });
});

describe('persistence', () => {
  it('state survives a restart on a database file, and the lifecycle moves on while no server runs', async () => {
    const d = tempDir();
    const file = `${d.dir}/nested/local.db`;
    try {
      const a = await harness({ dbFile: file, config: { withdrawalSettleSeconds: 1 } });
      const w = (await a.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: 'persist' }))).body;
      await a.control('POST', `/_local/profiles/${DEMO.emptyProfileId}/balances`, { asset: 'LTC', amount: '7' });
      await a.close();
      // Time passes while no server runs: the service's clock (kept in its database) moves past the settle time.
      const offline = new Store(file);
      new ServiceClock(offline).advance(2);
      offline.close();
      const b = await harness({ dbFile: file });
      try {
        const t = (await b.admin('GET', `/v2/transfer/transfers/${w.id}`)).body;
        expect(t.status).toBe('COMPLETED');
        expect(await balanceOf(b, DEMO.emptyProfileId, 'LTC')).toBe('7');
        expect(
          (await b.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: 'persist' }))).status,
        ).toBe(409);
        // The demo data is seeded once, not again on reopening.
        expect((await b.admin('GET', '/v2/transfer/deposit-addresses')).body.items.length).toBe(3);
      } finally {
        await b.close();
      }
    } finally {
      d.cleanup();
    }
  });
});

describe('instance_id', () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  const idOf = async (x: Harness) => (await x.control('GET', '/_local/health')).body.instance_id as string;

  it('is kept across a restart over the same database, differs for another database, and is new after reset or import', async () => {
    const d = tempDir();
    try {
      const a = await harness({ dbFile: `${d.dir}/a.db` });
      const first = await idOf(a);
      expect(first).toMatch(UUID);
      await a.close();
      const again = await harness({ dbFile: `${d.dir}/a.db` });
      const other = await harness({ dbFile: `${d.dir}/b.db` });
      try {
        expect(await idOf(again)).toBe(first);
        expect(await idOf(other)).toMatch(UUID);
        expect(await idOf(other)).not.toBe(first);
        const state = (await again.control('GET', '/_local/state')).body;
        await again.control('POST', '/_local/reset');
        const afterReset = await idOf(again);
        expect(afterReset).toMatch(UUID);
        expect(afterReset).not.toBe(first);
        expect((await again.control('PUT', '/_local/state', state)).status).toBe(200);
        const afterImport = await idOf(again);
        expect([first, afterReset]).not.toContain(afterImport);
        // A refused import replaces nothing, so the instance stays the same one.
        expect((await again.control('PUT', '/_local/state', { version: 99 })).status).toBe(400);
        expect(await idOf(again)).toBe(afterImport);
      } finally {
        await again.close();
        await other.close();
      }
    } finally {
      d.cleanup();
    }
  });
});
