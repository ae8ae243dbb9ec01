// The event feed of the local service (GET /v2/events, GET /v2/events/{id}): an event for every state change of a
// transfer and for every deposit address created, with the resource as GET answered it then, dated on the service
// clock, recorded by a running service when the change is due even while no request comes; listed with filters,
// order and cursors, under their own read scope; every answer held to the OpenAPI by the harness.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCryptoDeposit, depositTarget } from '../../src/local/crypto-deposits.js';
import { createWithdrawal, sandboxDeposit } from '../../src/local/ledger.js';
import { makeConfig } from '../../src/local/config.js';
import { migrate } from '../../src/local/migrations.js';
import { ServiceClock } from '../../src/local/service-clock.js';
import { ensureDemo } from '../../src/local/state.js';
import { SCHEMA_VERSION, Store } from '../../src/local/store.js';
import { responseViolations } from '../support/openapi.js';
import {
  BTC_ADDRESS,
  FAILING_ETH_ADDRESS,
  DEMO,
  DEMO_WIRE,
  ETH_ADDRESS,
  harness,
  tempDir,
  withdrawal,
  type Harness,
} from './helpers.js';
import { until } from '../support/wait.js';

const require = createRequire(import.meta.url);
const Database = require('better-sqlite3') as typeof BetterSqlite3;

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

type Ev = { id: string; type: string; object_type: string; object: any; created_at: string };

/** Every event of the feed, oldest first, page by page (limit 7, so paging is exercised). */
async function allEvents(query = ''): Promise<Ev[]> {
  const out: Ev[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 1000; guard++) {
    const q = `limit=7${query ? `&${query}` : ''}${cursor ? `&page_cursor=${encodeURIComponent(cursor)}` : ''}`;
    const r = await h.admin('GET', `/v2/events?${q}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    out.push(...r.body.events);
    cursor = r.body.next_page_cursor;
    if (!cursor) return out;
  }
  throw new Error('the feed did not end');
}

const eventsOf = (all: Ev[], objectId: string) => all.filter((e) => e.object.id === objectId);
const advance = (seconds: number) => h.control('POST', '/_local/clock/advance', { seconds });

describe('the event feed', () => {
  it('is held to the OpenAPI by a validator that catches a wrong answer', () => {
    expect(responseViolations('GET', '/v2/events', 200, { events: [{ id: 5, object: 'x' }] })).not.toEqual([]);
    expect(responseViolations('GET', '/v2/events/x', 200, { id: 'x', created_at: 'yesterday' })).not.toEqual([]);
    expect(responseViolations('GET', '/v2/events', 200, { events: [] }, 'application/json')).toEqual([]);
  });

  it('starts with the demo deposit addresses, oldest first', async () => {
    const all = await allEvents();
    expect(all.slice(0, 3).map((e) => [e.type, e.object_type, e.object.ref_id])).toEqual([
      ['deposit_address.created', 'deposit_address', 'demo-btc'],
      ['deposit_address.created', 'deposit_address', 'demo-eth'],
      ['deposit_address.created', 'deposit_address', 'demo-sol'],
    ]);
  });

  it('records each step of a withdrawal with the transfer as GET answers it then', async () => {
    const w = (await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: 'ev-w1' }))).body;
    const failing = (
      await h.admin(
        'POST',
        '/v2/transfer/crypto-withdrawals',
        withdrawal({
          asset: 'ETH',
          crypto_network: 'ETHEREUM',
          destination_address: FAILING_ETH_ADDRESS,
          ref_id: 'ev-w2',
        }),
      )
    ).body;
    let all = await allEvents();
    const [pending] = eventsOf(all, w.id);
    expect(pending).toMatchObject({
      type: 'transfer.crypto_withdrawal.pending',
      object_type: 'transfer_status_change',
    });
    expect(pending.object).toEqual((await h.admin('GET', `/v2/transfer/transfers/${w.id}`)).body);
    expect(pending.created_at).toBe(w.created_at);

    await advance(31);
    all = await allEvents();
    const done = eventsOf(all, w.id);
    expect(done.map((e) => e.type)).toEqual([
      'transfer.crypto_withdrawal.pending',
      'transfer.crypto_withdrawal.completed',
    ]);
    const now = (await h.admin('GET', `/v2/transfer/transfers/${w.id}`)).body;
    expect(done[1].object).toEqual(now);
    expect(done[1].object.crypto_tx_hash).toBeTruthy();
    // Dated when it completed on the service clock (its settle time), not when somebody looked.
    expect(done[1].created_at).toBe(now.updated_at);
    expect(Date.parse(done[1].created_at) - Date.parse(done[0].created_at)).toBe(30_000);
    expect(eventsOf(all, failing.id).map((e) => [e.type, e.object.status])).toEqual([
      ['transfer.crypto_withdrawal.pending', 'PENDING'],
      ['transfer.crypto_withdrawal.failed', 'FAILED'],
    ]);
    // GET /v2/events/{id} answers the same event.
    const one = await h.admin('GET', `/v2/events/${done[1].id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ ...done[1], undelivered_webhooks: 0 });
  });

  it('records deposits, internal transfers and deposit addresses', async () => {
    const addr = (
      await h.admin('POST', '/v2/transfer/deposit-addresses', {
        profile_id: DEMO.profileId,
        crypto_network: 'ETHEREUM',
        ref_id: 'ev-addr',
      })
    ).body;
    await h.admin('POST', '/v2/sandbox/fiat-deposits', {
      amount: '12.00',
      asset: 'USD',
      memo_id: DEMO.memoId,
      fiat_network_instructions: { wire: DEMO_WIRE },
    });
    const internal = (
      await h.admin('POST', '/v2/transfer/internal', {
        from_profile_id: DEMO.profileId,
        to_profile_id: DEMO.emptyProfileId,
        asset: 'USD',
        amount: '5',
        ref_id: 'ev-int',
      })
    ).body;
    const crypto = (await h.control('POST', '/_local/crypto-deposits', { address: addr.address, amount: '0.5' })).body;
    await advance(31);
    const all = await allEvents();
    expect(eventsOf(all, addr.id).map((e) => [e.type, e.object_type])).toEqual([
      ['deposit_address.created', 'deposit_address'],
    ]);
    expect(eventsOf(all, addr.id)[0].object).toEqual(addr);
    expect(all.some((e) => e.type === 'transfer.wire_deposit.completed' && e.object.amount === '12')).toBe(true);
    const group = all.filter((e) => e.object.group_id === internal.group_id);
    expect(group.map((e) => [e.type, e.object.direction])).toEqual([
      ['transfer.internal_transfer_debit.completed', 'DEBIT'],
      ['transfer.internal_transfer_credit.completed', 'CREDIT'],
    ]);
    expect(eventsOf(all, crypto.id).map((e) => [e.type, e.object.status])).toEqual([
      ['transfer.crypto_deposit.pending', 'PENDING'],
      ['transfer.crypto_deposit.completed', 'COMPLETED'],
    ]);
  });

  it('filters by type and created_at, in either order, and pages without gaps or repeats', async () => {
    const all = await allEvents();
    expect(all.length).toBeGreaterThan(10);
    const times = all.map((e) => Date.parse(e.created_at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    const desc = await allEvents('order=DESC');
    expect(desc.map((e) => e.id)).toEqual(all.map((e) => e.id).reverse());
    const completed = await allEvents('type=transfer.crypto_withdrawal.completed');
    expect(completed.length).toBeGreaterThan(0);
    expect(completed.every((e) => e.type === 'transfer.crypto_withdrawal.completed')).toBe(true);
    const middle = all[Math.floor(all.length / 2)].created_at;
    const from = await allEvents(`created_at.gte=${middle}`);
    expect(from.map((e) => e.id)).toEqual(all.filter((e) => e.created_at >= middle).map((e) => e.id));
    const before = await allEvents(`created_at.lt=${middle}`);
    expect(before.length + from.length).toBe(all.length);
    expect((await h.admin('GET', '/v2/events?is_test=true')).body.events).toEqual([]);
    expect((await h.admin('GET', '/v2/events?type=identity.approved')).body.events).toEqual([]);
    // Without a limit, a page holds 100 at most.
    expect((await h.admin('GET', '/v2/events')).body.events.length).toBe(Math.min(100, all.length));
  });

  it('answers bad requests and unknown events with problems', async () => {
    const limit = await h.admin('GET', '/v2/events?limit=101');
    expect(limit.status).toBe(400);
    expect(limit.body.detail).toMatch(/limit/);
    expect((await h.admin('GET', '/v2/events?order=SIDEWAYS')).status).toBe(400);
    expect((await h.admin('GET', '/v2/events?type=Not%20A%20Type')).status).toBe(400);
    const cursor = await h.admin('GET', '/v2/events?page_cursor=nonsense');
    expect(cursor.status).toBe(400);
    expect(cursor.body.detail).toMatch(/page_cursor/);
    const missing = await h.admin('GET', '/v2/events/00000000-0000-0000-0000-000000000000');
    expect(missing.status).toBe(404);
    // A problem object, sent as application/json: the content type the OpenAPI documents for these two operations.
    expect(missing.body).toMatchObject({ status: 404, title: 'Not Found' });
    expect(missing.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('needs the events:read_event scope, which the read-only demo client has', async () => {
    const other = await h.token(DEMO.adminClientId, 'transfer:read_transfer');
    const refused = await h.req('GET', '/v2/events', { token: other });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/events:read_event/);
    expect((await h.req('GET', '/v2/events', { token: null })).status).toBe(401);
    const readonly = await h.token(DEMO.readonlyClientId);
    expect((await h.req('GET', '/v2/events?limit=1', { token: readonly })).status).toBe(200);
  });

  it('fills quickly from the control API (count deposits in one request)', async () => {
    const before = (await allEvents()).length;
    const r = await h.control('POST', '/_local/crypto-deposits', { ref_id: 'demo-btc', amount: '0.001', count: 25 });
    expect(r.status).toBe(200);
    expect(r.body.items).toHaveLength(25);
    expect((await allEvents()).length).toBe(before + 25);
    expect(
      (await h.control('POST', '/_local/crypto-deposits', { ref_id: 'demo-btc', amount: '1', count: 0 })).status,
    ).toBe(400);
  });
});

describe('events of a running service', () => {
  it('are written when a change is due on the service clock, with no request to the service', async () => {
    const dir = tempDir();
    const file = join(dir.dir, 'timer.db');
    const svc = await harness({ dbFile: file, config: { withdrawalSettleSeconds: 1 } });
    const reader = new Database(file, { readonly: true });
    try {
      const w = (await svc.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: 'timer-1' }))).body;
      // From here on nothing asks the service anything: only the database is read, by another connection.
      const row = await until(
        'the completed event in the database',
        () =>
          reader
            .prepare("SELECT * FROM events WHERE object_id = ? AND type = 'transfer.crypto_withdrawal.completed'")
            .get(w.id) as { created_ms: number; object: string } | undefined,
        { timeoutMs: 60_000 },
      );
      expect(row.created_ms - Date.parse(w.created_at)).toBe(1000);
      expect(JSON.parse(row.object)).toMatchObject({ id: w.id, status: 'COMPLETED' });
    } finally {
      reader.close();
      await svc.close();
      dir.cleanup();
    }
  }, 120_000);
});

describe('the order of the feed', () => {
  it('stores events in the order of their times, whatever was due when a write came', async () => {
    const store = new Store(null);
    const clock = new ServiceClock(store);
    const core = { store, clock, config: makeConfig({ withdrawalSettleSeconds: 30 }), seed: 1 };
    migrate(core);
    ensureDemo(core);
    try {
      const wire = { wire: DEMO_WIRE } as never;
      const deposit = () =>
        sandboxDeposit(core, { amount: '1.00', asset: 'USD', memo_id: DEMO.memoId, fiat_network_instructions: wire });
      for (let i = 0; i < 5; i++) {
        await createWithdrawal(core, withdrawal({ ref_id: `order-${i}`, destination_address: BTC_ADDRESS }) as never);
        await createWithdrawal(
          core,
          withdrawal({
            asset: 'ETH',
            crypto_network: 'ETHEREUM',
            destination_address: ETH_ADDRESS,
            ref_id: `order-e${i}`,
          }) as never,
        );
        // The clock moves past the settle times with nobody settling; the next writes come first.
        store.immediate(() => store.setMeta('clock_offset_ms', String(clock.offsetMs() + 45_000)));
        deposit();
        createCryptoDeposit(core, depositTarget(core, { ref_id: 'demo-eth' }), 'ETH', '0.1');
      }
      const rows = store.db.prepare('SELECT type, created_ms, object FROM events ORDER BY seq').all() as {
        type: string;
        created_ms: number;
        object: string;
      }[];
      expect(rows.filter((r) => r.type.endsWith('.completed')).length).toBeGreaterThanOrEqual(10);
      for (let i = 1; i < rows.length; i++) expect(rows[i].created_ms).toBeGreaterThanOrEqual(rows[i - 1].created_ms);
      // And each is dated when it happened: a settled transfer at its settle time, never later for the order's sake.
      for (const r of rows)
        expect(new Date(r.created_ms).toISOString()).toBe(
          JSON.parse(r.object).updated_at ?? JSON.parse(r.object).created_at,
        );
    } finally {
      store.close();
    }
  });
});

describe('a database of schema 3', () => {
  it('gets the events table and the read scope for its demo clients when opened', async () => {
    const dir = tempDir();
    const file = join(dir.dir, 'v3.db');
    try {
      // A database as schema 3 left it: made now, then without the feed and with the demo scopes of then.
      const made = await harness({ dbFile: file });
      await made.close();
      const db = new Database(file);
      db.exec("DROP TABLE events; UPDATE meta SET value = '3' WHERE key = 'schema_version'");
      for (const c of db.prepare('SELECT id, scopes FROM clients').all() as { id: string; scopes: string }[])
        db.prepare('UPDATE clients SET scopes = ? WHERE id = ?').run(c.scopes.replace(/ ?events:read_event/, ''), c.id);
      db.close();
      const h3 = await harness({ dbFile: file });
      try {
        expect((await h3.control('GET', '/_local/health')).body.schema_version).toBe(SCHEMA_VERSION);
        expect((await h3.admin('GET', '/v2/events')).body.events).toEqual([]);
        await h3.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: 'v3-w' }));
        const readonly = await h3.token(DEMO.readonlyClientId);
        const r = await h3.req('GET', '/v2/events', { token: readonly });
        expect(r.body.events.map((e: Ev) => e.type)).toEqual(['transfer.crypto_withdrawal.pending']);
      } finally {
        await h3.close();
      }
    } finally {
      dir.cleanup();
    }
  });
});
