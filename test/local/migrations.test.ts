// A database of schema 1 (memo_ids on profiles, no address book, no limits) opened by this service: the memo_ids move
// to deposit instructions, the demo clients get the new scopes, the demo limits come and count the transfers it holds;
// an export of schema 1 is imported the same way.
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/local/store.js';
import { balanceOf, DEMO, DEMO_WIRE, harness, tempDir, type Harness } from './helpers.js';

const require = createRequire(import.meta.url);
const Database = require('better-sqlite3') as typeof BetterSqlite3;

// The tables of schema 1 that this test fills (as src/local/store.ts made them).
const SCHEMA_1 = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE clients (id TEXT PRIMARY KEY, secret TEXT NOT NULL, scopes TEXT NOT NULL, allow_stream INTEGER NOT NULL DEFAULT 0);
CREATE TABLE profiles (id TEXT PRIMARY KEY, customer_id TEXT NOT NULL, memo_id TEXT UNIQUE, nickname TEXT);
CREATE TABLE balances (
  profile_id TEXT NOT NULL, asset TEXT NOT NULL, amount TEXT NOT NULL, PRIMARY KEY (profile_id, asset)) WITHOUT ROWID;
CREATE TABLE transfers (
  seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, ref_id TEXT, profile_id TEXT NOT NULL,
  identity_id TEXT, type TEXT NOT NULL, status TEXT NOT NULL, crypto_tx_hash TEXT, group_id TEXT,
  balance_asset TEXT NOT NULL, total TEXT NOT NULL,
  created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL, settle_ms INTEGER, fails INTEGER NOT NULL DEFAULT 0,
  body TEXT NOT NULL);
`;
const OLD_ADMIN_SCOPES =
  'transfer:write_crypto_withdrawal fee:write_crypto_withdrawal_fee transfer:read_deposit_address transfer:write_sandbox_fiat_deposit exchange:historical_prices exchange:read_aggregated_marketdata_stream transfer:read_transfer transfer:write_deposit_address';

function schema1Database(file: string, now: number): void {
  const db = new Database(file);
  db.exec(SCHEMA_1);
  const meta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
  for (const [k, v] of [
    ['schema_version', '1'],
    ['seeded', '1'],
    ['instance_id', 'schema-1-ledger'],
    ['clock_offset_ms', '0'],
  ])
    meta.run(k, v);
  const client = db.prepare('INSERT INTO clients (id, secret, scopes, allow_stream) VALUES (?, ?, ?, ?)');
  client.run(DEMO.adminClientId, DEMO.clientSecret, OLD_ADMIN_SCOPES, 1);
  client.run(DEMO.readonlyClientId, DEMO.clientSecret, 'transfer:read_deposit_address exchange:historical_prices', 0);
  client.run('mine', 'my-secret', 'transfer:read_transfer', 0);
  const profile = db.prepare('INSERT INTO profiles (id, customer_id, memo_id, nickname) VALUES (?, ?, ?, ?)');
  profile.run(DEMO.profileId, DEMO.customerId, DEMO.memoId, 'demo');
  profile.run('p-x', DEMO.customerId, 'MEMO-X', null);
  profile.run('p-none', DEMO.customerId, null, null);
  db.prepare('INSERT INTO balances (profile_id, asset, amount) VALUES (?, ?, ?)').run(DEMO.profileId, 'BTC', '10');
  const created = now - 3_600_000;
  const body = {
    id: 't-old',
    customer_id: DEMO.customerId,
    profile_id: DEMO.profileId,
    amount: '0.01998',
    total: '0.02',
    fee: '0.00002',
    asset: 'BTC',
    balance_asset: 'BTC',
    direction: 'DEBIT',
    type: 'CRYPTO_WITHDRAWAL',
    status: 'PENDING',
    created_at: new Date(created).toISOString(),
    updated_at: new Date(created).toISOString(),
    destination_address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
    crypto_network: 'BITCOIN',
    notional_value: '1000.00',
  };
  db.prepare(
    `INSERT INTO transfers (id, profile_id, type, status, balance_asset, total, created_ms, updated_ms, settle_ms, body)
     VALUES ('t-old', ?, 'CRYPTO_WITHDRAWAL', 'COMPLETED', 'BTC', '0.02', ?, ?, ?, ?)`,
  ).run(DEMO.profileId, created, created, created + 30_000, JSON.stringify(body));
  db.close();
}

const scopesOf = async (harness: Harness, client: string, secret: string = DEMO.clientSecret) => {
  const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: client, client_secret: secret });
  const r = await fetch(`${harness.svc.authUrl}/oauth2/token`, { method: 'POST', body: form });
  return String(((await r.json()) as { scope: string }).scope).split(' ');
};

describe('a database of schema 1', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.cleanup());

  it('is brought to the current schema once, keeping its ledger, and works as a new one', async () => {
    const file = `${dir.dir}/old.db`;
    schema1Database(file, Date.now());
    const h = await harness({ dbFile: file });
    try {
      const health = (await h.control('GET', '/_local/health')).body;
      expect(health).toMatchObject({ schema_version: SCHEMA_VERSION, instance_id: 'schema-1-ledger' });
      expect(await scopesOf(h, DEMO.adminClientId)).toEqual(
        expect.arrayContaining(['transfer:write_crypto_destination_address', 'transfer:read_transfer_limit']),
      );
      expect(await scopesOf(h, DEMO.readonlyClientId)).toEqual(
        expect.arrayContaining(['transfer:read_fiat_deposit_instructions', 'exchange:historical_prices']),
      );
      expect(await scopesOf(h, DEMO.readonlyClientId)).not.toContain('transfer:write_fiat_deposit_instructions');
      expect(await scopesOf(h, 'mine', 'my-secret')).toEqual(['transfer:read_transfer']);

      const instructions = (await h.admin('GET', '/v2/transfer/fiat-deposit-instructions?order=ASC')).body.items;
      expect(instructions.map((i: { profile_id: string; memo_id: string }) => [i.profile_id, i.memo_id])).toEqual([
        [DEMO.profileId, DEMO.memoId],
        ['p-x', 'MEMO-X'],
      ]);
      const deposit = await h.admin('POST', '/v2/sandbox/fiat-deposits', {
        amount: '12.00',
        asset: 'USD',
        memo_id: 'MEMO-X',
        fiat_network_instructions: { wire: DEMO_WIRE },
      });
      expect(deposit.status).toBe(200);
      expect(await balanceOf(h, 'p-x', 'USD')).toBe('12');
      const profiles = (await h.control('GET', '/_local/profiles')).body.items;
      expect(profiles.map((p: { id: string; memo_id: string | null }) => [p.id, p.memo_id])).toEqual([
        [DEMO.profileId, DEMO.memoId],
        ['p-x', 'MEMO-X'],
        ['p-none', null],
      ]);

      // The demo limits, with the withdrawal it held an hour ago counted.
      const limits = (await h.admin('GET', '/v2/transfer/limits/utilizations?transfer_type=CRYPTO_WITHDRAWAL')).body;
      expect(limits.items.map((l: { rule_id: string; remaining: string }) => [l.rule_id, l.remaining])).toEqual([
        ['crypto-withdrawal-per-transfer', '10000000'],
        ['crypto-withdrawal-24h', '49999000'],
      ]);
      expect((await h.admin('GET', '/v2/transfer/crypto-destination-addresses')).body).toEqual({ addresses: [] });
    } finally {
      await h.close();
    }
    const again = await harness({ dbFile: file });
    try {
      expect((await again.admin('GET', '/v2/transfer/fiat-deposit-instructions')).body.items).toHaveLength(2);
      expect((await again.control('GET', '/_local/health')).body.instance_id).toBe('schema-1-ledger');
    } finally {
      await again.close();
    }
    const db = new Database(file, { readonly: true });
    const columns = (db.pragma('table_info(profiles)') as { name: string }[]).map((c) => c.name);
    db.close();
    expect(columns).toEqual(['id', 'customer_id', 'nickname', 'type', 'description', 'created_ms']);
  });
});

describe('a database of schema 2 (service profiles, memo_ids still on profiles)', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => dir.cleanup());

  it('keeps its profile types and descriptions, and its memo_ids move to deposit instructions', async () => {
    const file = `${dir.dir}/v2.db`;
    schema1Database(file, Date.now());
    // What schema 2 added to profiles, as a coinop of that schema left it.
    const db = new Database(file);
    db.exec(`ALTER TABLE profiles ADD COLUMN type TEXT NOT NULL DEFAULT 'NORMAL';
      ALTER TABLE profiles ADD COLUMN description TEXT;
      ALTER TABLE profiles ADD COLUMN created_ms INTEGER NOT NULL DEFAULT 0;`);
    db.prepare("UPDATE profiles SET type = 'DEFAULT' WHERE id = ?").run(DEMO.profileId);
    db.prepare("UPDATE profiles SET description = 'ops', created_ms = 1000 WHERE id = 'p-x'").run();
    db.prepare("UPDATE meta SET value = '2' WHERE key = 'schema_version'").run();
    db.close();
    const h = await harness({ dbFile: file });
    try {
      expect((await h.control('GET', '/_local/health')).body.schema_version).toBe(SCHEMA_VERSION);
      // Oldest first: p-x was made last (schema 1 knew no creation times, they are 0).
      const profiles = (await h.admin('GET', '/v2/profiles')).body.items;
      expect(profiles.map((p: { id: string; type: string }) => [p.id, p.type])).toEqual([
        [DEMO.profileId, 'DEFAULT'],
        ['p-none', 'NORMAL'],
        ['p-x', 'NORMAL'],
      ]);
      expect((await h.admin('GET', '/v2/profiles/p-x')).body.description).toBe('ops');
      const instructions = (await h.admin('GET', '/v2/transfer/fiat-deposit-instructions?order=ASC')).body.items;
      expect(instructions.map((i: { profile_id: string; memo_id: string }) => [i.profile_id, i.memo_id])).toEqual([
        [DEMO.profileId, DEMO.memoId],
        ['p-x', 'MEMO-X'],
      ]);
      expect(await scopesOf(h, DEMO.readonlyClientId)).toEqual(
        expect.arrayContaining(['funding:read_profile', 'transfer:read_transfer_limit']),
      );
    } finally {
      await h.close();
    }
  });
});

describe('an export of schema 1', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });
  afterEach(() => h.close());

  it('is imported with its memo_ids as deposit instructions and the demo limits', async () => {
    const now = (await h.control('GET', '/_local/state')).body;
    const { crypto_destination_addresses, fiat_deposit_instructions, transfer_limit_rules, ...old } = now.tables;
    const v1 = {
      ...now,
      version: 1,
      tables: {
        ...old,
        profiles: old.profiles.map((p: { id: string }) => ({
          ...p,
          memo_id: p.id === DEMO.profileId ? 'OLD-MEMO' : null,
        })),
      },
    };
    const r = await h.control('PUT', '/_local/state', v1);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const items = (await h.admin('GET', '/v2/transfer/fiat-deposit-instructions')).body.items;
    expect(items.map((i: { profile_id: string; memo_id: string }) => [i.profile_id, i.memo_id])).toEqual([
      [DEMO.profileId, 'OLD-MEMO'],
    ]);
    expect((await h.control('GET', '/_local/limits')).body.rules.map((x: { id: string }) => x.id)).toEqual([
      'crypto-withdrawal-per-transfer',
      'crypto-withdrawal-24h',
    ]);
    void crypto_destination_addresses;
    void fiat_deposit_instructions;
    void transfer_limit_rules;
  });

  it('a state whose limit rules are wrong is refused naming the rule, and the old state stays', async () => {
    const before = (await h.control('GET', '/_local/state')).body;
    const rules = before.tables.transfer_limit_rules.map((r: Record<string, unknown>, i: number) =>
      i === 1 ? { ...r, transfer_types: 'MOON' } : r,
    );
    const r = await h.control('PUT', '/_local/state', {
      ...before,
      tables: { ...before.tables, transfer_limit_rules: rules },
    });
    expect(r.status).toBe(400);
    expect(r.body.detail).toContain('tables.transfer_limit_rules[1].transfer_types: must be a non-empty list');
    expect((await h.control('GET', '/_local/state')).body).toEqual(before);
  });
});
