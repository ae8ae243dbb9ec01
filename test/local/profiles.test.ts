// Local service: service profiles (list, get, create) and their balances, which are the ledger withdrawals, deposits
// and internal transfers move; a database and an export of schema 1 are brought to schema 2.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/local/store.js';
import {
  FAILING_ETH_ADDRESS,
  DEMO,
  DEMO_WIRE,
  harness,
  tempDir,
  withdrawal,
  type Harness,
  resetBeforeEach,
} from './helpers.js';

const require = createRequire(import.meta.url);

let h: Harness;
beforeAll(async () => {
  h = await harness({ config: { withdrawalSettleSeconds: 20 } });
});
afterAll(() => h.close());
resetBeforeEach(() => h);

const balances = async (profileId: string, query = '') =>
  (await h.admin('GET', `/v2/profiles/${profileId}/balances${query}`)).body;
const available = async (profileId: string, asset: string) =>
  (await h.admin('GET', `/v2/profiles/${profileId}/balances/${asset}`)).body.available;

describe('service profiles', () => {
  it('lists the demo profiles oldest first: the DEFAULT one, then the empty one', async () => {
    const r = await h.admin('GET', '/v2/profiles');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      items: [
        { id: DEMO.profileId, nickname: 'demo', type: 'DEFAULT' },
        { id: DEMO.emptyProfileId, nickname: 'empty', type: 'NORMAL' },
      ],
    });
  });

  it('creates NORMAL profiles of the default profile customer, with unique nicknames', async () => {
    const r = await h.admin('POST', '/v2/profiles', { nickname: 'Treasury', description: 'cold side' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ nickname: 'Treasury', type: 'NORMAL', description: 'cold side' });
    expect((await h.admin('GET', `/v2/profiles/${r.body.id}`)).body).toEqual(r.body);
    const control = (await h.control('GET', '/_local/profiles')).body.items.find((p: any) => p.id === r.body.id);
    expect(control.customer_id).toBe(DEMO.customerId);
    const again = await h.admin('POST', '/v2/profiles', { nickname: 'Treasury' });
    expect(again.status).toBe(409);
    expect(again.body.type).toMatch(/already-exists$/);
    expect(again.body.meta.existing).toEqual(r.body);
  });

  it('refuses a bad profile naming the field', async () => {
    for (const [body, field] of [
      [{}, 'nickname'],
      [{ nickname: '   ' }, 'nickname'],
      [{ nickname: 'x'.repeat(129) }, 'nickname'],
      [{ nickname: 'ok', type: 'DEFAULT' }, 'type'],
      [{ nickname: 'ok', description: 5 }, 'description'],
    ] as const) {
      const r = await h.admin('POST', '/v2/profiles', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.meta.issues[0].field).toBe(field);
    }
  });

  it('gets one profile by id or by the alias default; an unknown one is a 404', async () => {
    expect((await h.admin('GET', `/v2/profiles/${DEMO.emptyProfileId}`)).body).toEqual({
      id: DEMO.emptyProfileId,
      nickname: 'empty',
      type: 'NORMAL',
    });
    expect((await h.admin('GET', '/v2/profiles/default?include_deactivated=true')).body.id).toBe(DEMO.profileId);
    const missing = await h.admin('GET', '/v2/profiles/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe('profile not found: nope');
    expect((await h.admin('GET', '/v2/profiles/default?include_deactivated=maybe')).body.meta.issues[0].field).toBe(
      'include_deactivated',
    );
  });

  it('filters by nickname prefix (any case) and ids, pages with a cursor, orders both ways', async () => {
    for (const n of ['ops-a', 'ops-b', 'OPS-c', 'payroll'])
      expect((await h.admin('POST', '/v2/profiles', { nickname: n })).status).toBe(200);
    const ops = (await h.admin('GET', '/v2/profiles?nickname=Ops')).body.items.map((p: any) => p.nickname);
    expect(ops).toEqual(['ops-a', 'ops-b', 'OPS-c']);
    const first = await h.admin('GET', '/v2/profiles?nickname=ops&limit=2');
    expect(first.body.items.map((p: any) => p.nickname)).toEqual(['ops-a', 'ops-b']);
    const rest = await h.admin(
      'GET',
      `/v2/profiles?nickname=ops&limit=2&page_cursor=${encodeURIComponent(first.body.next_page_cursor)}`,
    );
    expect(rest.body.items.map((p: any) => p.nickname)).toEqual(['OPS-c']);
    expect(rest.body.next_page_cursor).toBeUndefined();
    const desc = (await h.admin('GET', '/v2/profiles?order=DESC&limit=1')).body.items[0].nickname;
    expect(desc).toBe('payroll');
    const byId = await h.admin('GET', `/v2/profiles?ids=${DEMO.emptyProfileId}`);
    expect(byId.body.items.map((p: any) => p.id)).toEqual([DEMO.emptyProfileId]);
    expect((await h.admin('GET', '/v2/profiles?limit=0')).body.meta.issues[0].field).toBe('limit');
    expect((await h.admin('GET', '/v2/profiles?order_by=NICKNAME')).body.meta.issues[0].field).toBe('order_by');
  });

  it('needs funding:read_profile to read and funding:write_profile to create', async () => {
    const readonly = await h.token(DEMO.readonlyClientId);
    expect((await h.req('GET', '/v2/profiles', { token: readonly })).status).toBe(200);
    expect((await h.req('GET', `/v2/profiles/${DEMO.profileId}/balances`, { token: readonly })).status).toBe(200);
    const write = await h.req('POST', '/v2/profiles', { token: readonly, body: { nickname: 'x' } });
    expect(write.status).toBe(403);
    expect(write.body.detail).toMatch(/required one of '\[funding:write_profile\]'/);
    const narrow = await h.token(DEMO.adminClientId, 'transfer:read_transfer');
    expect((await h.req('GET', '/v2/profiles', { token: narrow })).body.detail).toMatch(/funding:read_profile/);
  });
});

describe('balances', () => {
  it('lists every asset of the catalogue (or those asked for) as exact decimal strings', async () => {
    const all = await balances(DEMO.profileId);
    expect(all.items.map((b: any) => b.asset)).toContain('MXN');
    expect(all.items.find((b: any) => b.asset === 'ETH')).toEqual({ asset: 'ETH', available: '20000', trading: '0' });
    expect((await balances(DEMO.emptyProfileId)).items.every((b: any) => b.available === '0')).toBe(true);
    expect(await balances(DEMO.profileId, '?assets=USD&assets=BTC')).toEqual({
      items: [
        { asset: 'USD', available: '10000000', trading: '0' },
        { asset: 'BTC', available: '1000', trading: '0' },
      ],
    });
    expect((await h.admin('GET', `/v2/profiles/${DEMO.profileId}/balances/SOL`)).body).toEqual({
      asset: 'SOL',
      available: '1000000',
      trading: '0',
    });
  });

  it('refuses unknown assets (400 naming the field) and unknown profiles (404)', async () => {
    const bad = await h.admin('GET', `/v2/profiles/${DEMO.profileId}/balances?assets=BTC&assets=MOON`);
    expect(bad.status).toBe(400);
    expect(bad.body.meta.issues[0]).toMatchObject({ field: 'assets', rule: expect.stringMatching(/^MOON is not/) });
    const one = await h.admin('GET', `/v2/profiles/${DEMO.profileId}/balances/MOON`);
    expect(one.body.meta.issues[0].field).toBe('asset');
    expect((await h.admin('GET', '/v2/profiles/nope/balances')).status).toBe(404);
    expect((await h.admin('GET', '/v2/profiles/nope/balances/BTC')).status).toBe(404);
    const many = Array.from({ length: 101 }, () => 'assets=BTC').join('&');
    expect((await h.admin('GET', `/v2/profiles/${DEMO.profileId}/balances?${many}`)).body.meta.issues[0].field).toBe(
      'assets',
    );
  });

  it('a withdrawal is held at once, a FAILED one refunded, a deposit credited', async () => {
    await h.control('POST', `/_local/profiles/${DEMO.emptyProfileId}/balances`, { asset: 'ETH', amount: '3' });
    const ok = await h.admin('POST', '/v2/transfer/crypto-withdrawals', {
      ...withdrawal({ profile_id: DEMO.emptyProfileId, asset: 'ETH', crypto_network: 'ETHEREUM' }),
      destination_address: '0xF0Aa84466e353E5390be37FE2934301c07c19a55',
      amount: '1',
    });
    expect(ok.status).toBe(200);
    const dead = await h.admin('POST', '/v2/transfer/crypto-withdrawals', {
      ...withdrawal({ profile_id: DEMO.emptyProfileId, asset: 'ETH', crypto_network: 'ETHEREUM' }),
      destination_address: FAILING_ETH_ADDRESS,
      amount: '1',
    });
    expect(dead.status).toBe(200);
    // Both pending: each total (1 + the 0.0005 fee) is held already.
    expect(await available(DEMO.emptyProfileId, 'ETH')).toBe('0.999');
    await h.control('POST', '/_local/clock/advance', { seconds: 30 });
    expect(await available(DEMO.emptyProfileId, 'ETH')).toBe('1.9995');
    await h.admin('POST', '/v2/sandbox/fiat-deposits', {
      amount: '12.34',
      asset: 'USD',
      memo_id: DEMO.emptyMemoId,
      fiat_network_instructions: { wire: DEMO_WIRE },
    });
    expect(await available(DEMO.emptyProfileId, 'USD')).toBe('12.34');
  });
});

describe('schema 1 databases and exports', () => {
  it('a database of schema 1 is migrated: profile types, and the demo clients get the new scopes', async () => {
    const d = tempDir();
    const file = `${d.dir}/old.db`;
    try {
      const made = await harness({ dbFile: file });
      await made.close();
      // Back to what a coinop of schema 1 left: no profile columns of schema 2, the demo clients' old scopes.
      const Database = require('better-sqlite3');
      const db = new Database(file);
      for (const c of ['type', 'description', 'created_ms']) db.exec(`ALTER TABLE profiles DROP COLUMN ${c}`);
      db.prepare("UPDATE meta SET value = '1' WHERE key = 'schema_version'").run();
      db.prepare("UPDATE clients SET scopes = 'transfer:read_transfer' WHERE id = ?").run(DEMO.readonlyClientId);
      db.close();
      const old = await harness({ dbFile: file });
      try {
        expect((await old.control('GET', '/_local/health')).body.schema_version).toBe(SCHEMA_VERSION);
        expect((await old.admin('GET', '/v2/profiles')).body.items.map((p: any) => p.type)).toEqual([
          'DEFAULT',
          'NORMAL',
        ]);
        const t = await old.token(DEMO.readonlyClientId);
        expect((await old.req('GET', '/v2/profiles', { token: t })).status).toBe(200);
      } finally {
        await old.close();
      }
    } finally {
      d.cleanup();
    }
  });

  it('an export of schema 1 is imported: each customer first profile becomes its DEFAULT', async () => {
    const state = (await h.control('GET', '/_local/state')).body;
    expect(state.version).toBe(SCHEMA_VERSION);
    const v1 = {
      ...state,
      version: 1,
      tables: {
        ...state.tables,
        profiles: state.tables.profiles.map(({ type, description, created_ms, ...rest }: any) => rest),
      },
    };
    const put = await h.control('PUT', '/_local/state', v1);
    expect(put.status).toBe(200);
    expect((await h.admin('GET', '/v2/profiles/default')).body.id).toBe(DEMO.profileId);
    expect((await h.admin('GET', `/v2/profiles/${DEMO.emptyProfileId}`)).body.type).toBe('NORMAL');
  });
});
