// Local service: deposit addresses, transfer lists with filters and cursors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, DEMO_WIRE, harness, withdrawal, type Harness, resetBeforeEach } from './helpers.js';
import { eip55, isValidAddress } from '../../src/contract/addresses.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
resetBeforeEach(() => h);
afterAll(() => h.close());

const DA = '/v2/transfer/deposit-addresses';
const T = '/v2/transfer/transfers';

async function all(path: string, query: string): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 1000; i++) {
    const r = await h.admin('GET', `${path}?${query}${cursor ? `&page_cursor=${cursor}` : ''}`);
    expect(r.status).toBe(200);
    items.push(...r.body.items);
    cursor = r.body.next_page_cursor;
    if (!cursor) return items;
  }
  throw new Error('too many pages');
}

describe('deposit addresses', () => {
  it('the demo profile has deposit addresses on a fresh database', async () => {
    const r = await h.admin('GET', DA);
    expect(r.body.items.map((a: any) => a.ref_id).sort()).toEqual(['demo-btc', 'demo-eth', 'demo-sol']);
  });

  it('creates one in the network format, 409 on a reused ref_id', async () => {
    const r = await h.admin('POST', DA, {
      profile_id: DEMO.profileId,
      crypto_network: 'ETHEREUM',
      ref_id: 'da1',
      metadata: { a: 'b' },
      identity_id: 'id1',
      account_id: 'acc1',
      conversion_target_asset: 'USD',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      profile_id: DEMO.profileId,
      customer_id: DEMO.customerId,
      crypto_network: 'ETHEREUM',
      ref_id: 'da1',
      conversion_target_asset: 'USD',
      metadata: { a: 'b' },
    });
    expect(r.body.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(r.body.address).toBe(eip55(r.body.address.slice(2)));
    for (const n of ['BITCOIN', 'LITECOIN', 'BITCOIN_CASH', 'SOLANA', 'STELLAR', 'BASE']) {
      const x = await h.admin('POST', DA, { profile_id: DEMO.profileId, crypto_network: n });
      expect(isValidAddress(n as any, x.body.address)).toBe(true);
      expect(x.body.conversion_target_asset).toBe('NO_CONVERSION');
    }
    const dup = await h.admin('POST', DA, { profile_id: DEMO.profileId, crypto_network: 'BITCOIN', ref_id: 'da1' });
    expect(dup.status).toBe(409);
    expect(dup.body.detail).toBe("deposit address already exists with ref_id 'da1'");
    expect(dup.body.meta.existing).toEqual(r.body);
    expect((await h.admin('POST', DA, { profile_id: 'nope', crypto_network: 'BITCOIN' })).status).toBe(404);
    expect((await h.admin('POST', DA, { profile_id: DEMO.profileId })).body.meta.issues[0]).toEqual({
      field: 'crypto_network',
      rule: 'is required',
    });
    expect(
      (await h.admin('POST', DA, { profile_id: DEMO.profileId, crypto_network: 'BITCOIN', x: 1 })).body.detail,
    ).toBe('x: is not a known field');
  });

  it('filters, order, limit and query rules', async () => {
    await h.admin('POST', DA, {
      profile_id: DEMO.emptyProfileId,
      crypto_network: 'LITECOIN',
      ref_id: 'ltc',
      identity_id: 'idA',
    });
    let r = await h.admin('GET', `${DA}?profile_ids=${DEMO.emptyProfileId}`);
    expect(r.body.items.map((a: any) => a.ref_id)).toEqual(['ltc']);
    r = await h.admin('GET', `${DA}?networks=BITCOIN&networks=SOLANA`);
    expect(r.body.items.map((a: any) => a.crypto_network).sort()).toEqual(['BITCOIN', 'SOLANA']);
    r = await h.admin('GET', `${DA}?ref_ids=demo-eth&ref_ids=ltc&identity_ids=idA`);
    expect(r.body.items.map((a: any) => a.ref_id)).toEqual(['ltc']);
    r = await h.admin('GET', `${DA}?order=ASC&limit=1`);
    expect(r.body.items[0].ref_id).toBe('demo-btc');
    expect(r.body.next_page_cursor).toBeTruthy();
    r = await h.admin('GET', `${DA}?limit=1`);
    expect(r.body.items[0].ref_id).toBe('ltc');
    r = await h.admin('GET', `${DA}?limit=1001`);
    expect(r.status).toBe(400);
    expect(r.body.meta.issues[0]).toEqual({ field: 'limit', rule: 'must be at most 1000' });
    r = await h.admin('GET', `${DA}?limit=0`);
    expect(r.body.meta.issues[0].field).toBe('limit');
    r = await h.admin('GET', `${DA}?order=UP`);
    expect(r.body.meta.issues[0].field).toBe('order');
    r = await h.admin('GET', `${DA}?networks=MOON`);
    expect(r.body.meta.issues[0].field).toBe('networks.0');
    r = await h.admin('GET', `${DA}?${Array.from({ length: 101 }, (_, i) => `ids=i${i}`).join('&')}`);
    expect(r.body.meta.issues[0]).toEqual({ field: 'ids', rule: 'must have at most 100 entries' });
    r = await h.admin('GET', `${DA}?created_at.gt=yesterday`);
    expect(r.body.meta.issues[0].field).toBe('created_at.gt');
    r = await h.admin('GET', `${DA}?unknown=1`);
    expect(r.body.detail).toBe('unknown: is not a known field');
  });

  it('created_at comparisons', async () => {
    await h.control('POST', '/_local/clock/advance', { seconds: 10 });
    const made = (await h.admin('POST', DA, { profile_id: DEMO.profileId, crypto_network: 'BITCOIN', ref_id: 'later' }))
      .body;
    const at = made.created_at as string;
    const refs = async (q: string) => (await h.admin('GET', `${DA}?${q}`)).body.items.map((a: any) => a.ref_id);
    expect(await refs(`created_at.eq=${at}`)).toEqual(['later']);
    expect(await refs(`created_at.gte=${at}`)).toEqual(['later']);
    expect(await refs(`created_at.gt=${at}`)).toEqual([]);
    expect((await refs(`created_at.lt=${at}`)).length).toBe(3);
    expect((await refs(`created_at.lte=${at}`)).length).toBe(4);
  });
});

describe('transfers', () => {
  it('lists with filters, statuses, types and updated_at order', async () => {
    const a = (await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: 'a' }))).body;
    await h.control('POST', '/_local/clock/advance', { seconds: 5 });
    const b = (await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: 'b' }))).body;
    await h.admin('POST', '/v2/sandbox/fiat-deposits', {
      amount: '10.00',
      asset: 'USD',
      memo_id: DEMO.memoId,
      fiat_network_instructions: { wire: DEMO_WIRE },
    });
    let r = await h.admin('GET', `${T}?ref_ids=a&ref_ids=b`);
    expect(r.body.items.map((t: any) => t.ref_id)).toEqual(['b', 'a']);
    r = await h.admin('GET', `${T}?type=WIRE_DEPOSIT`);
    expect(r.body.items.length).toBe(1);
    expect(r.body.items[0]).toMatchObject({
      type: 'WIRE_DEPOSIT',
      direction: 'CREDIT',
      status: 'COMPLETED',
      amount: '10',
      asset: 'USD',
    });
    await h.control('POST', '/_local/clock/advance', { seconds: 26 });
    // a is settled now (30 s), b not yet.
    r = await h.admin('GET', `${T}?statuses=COMPLETED`);
    expect(r.body.items.map((t: any) => t.type)).toEqual(['WIRE_DEPOSIT', 'CRYPTO_WITHDRAWAL']);
    expect(r.body.items[1].id).toBe(a.id);
    const hash = r.body.items[1].crypto_tx_hash;
    r = await h.admin('GET', `${T}?crypto_tx_hashes=${hash}`);
    expect(r.body.items.map((t: any) => t.id)).toEqual([a.id]);
    r = await h.admin('GET', `${T}?statuses=PENDING`);
    expect(r.body.items.map((t: any) => t.id)).toEqual([b.id]);
    r = await h.admin('GET', `${T}?order_by=UPDATED_AT&order=DESC&type=CRYPTO_WITHDRAWAL`);
    // a was updated (settled) after b was created.
    expect(r.body.items.map((t: any) => t.id)).toEqual([a.id, b.id]);
    r = await h.admin('GET', `${T}?updated_at.gt=${b.updated_at}&type=CRYPTO_WITHDRAWAL`);
    expect(r.body.items.map((t: any) => t.id)).toEqual([a.id]);
    r = await h.admin('GET', `${T}?ids=${b.id}&created_at.gte=${b.created_at}`);
    expect(r.body.items.map((t: any) => t.id)).toEqual([b.id]);
    r = await h.admin('GET', `${T}?statuses=DONE`);
    expect(r.status).toBe(400);
    r = await h.admin('GET', `${T}?order_by=AMOUNT`);
    expect(r.body.meta.issues[0].field).toBe('order_by');
    // order_by names the kind of the timestamp filters given with it (the OpenAPI's rule).
    for (const [q, rule] of [
      [`order_by=CREATED_AT&updated_at.gt=${b.updated_at}`, 'must be UPDATED_AT with updated_at filters'],
      [`order_by=UPDATED_AT&created_at.gt=${b.updated_at}`, 'must be CREATED_AT with created_at filters'],
      [
        `order_by=UPDATED_AT&created_at.gt=${b.updated_at}&updated_at.gt=${b.updated_at}`,
        'cannot be given with both created_at and updated_at filters',
      ],
    ]) {
      r = await h.admin('GET', `${T}?${q}`);
      expect(r.body.meta?.issues, q).toEqual([{ field: 'order_by', rule }]);
    }
    expect((await h.admin('GET', `${T}?order_by=UPDATED_AT&updated_at.gt=${b.updated_at}`)).status).toBe(200);
    expect((await h.admin('GET', `${T}?created_at.gt=${b.updated_at}&updated_at.gt=${b.updated_at}`)).status).toBe(200);
    // Ordered by update time, the list ascends unless told otherwise (the OpenAPI's default for UPDATED_AT).
    r = await h.admin('GET', `${T}?order_by=UPDATED_AT&type=CRYPTO_WITHDRAWAL`);
    expect(r.body.items.map((t: any) => t.id)).toEqual([b.id, a.id]);
    // created_at.eq goes with the other comparisons (the OpenAPI does not forbid it): all of them hold.
    r = await h.admin('GET', `${T}?created_at.eq=${a.created_at}&created_at.lt=${a.created_at}`);
    expect(r.status).toBe(200);
    expect(r.body.items).toEqual([]);
    r = await h.admin(
      'GET',
      `${T}?created_at.eq=${a.created_at}&created_at.lte=${a.created_at}&type=CRYPTO_WITHDRAWAL`,
    );
    expect(r.body.items.map((t: any) => t.id)).toEqual([a.id]);
    r = await h.admin('GET', `${DA}?created_at.eq=2026-01-01T00:00:00Z&created_at.gt=2025-01-01T00:00:00Z`);
    expect(r.status).toBe(200);
  });

  it('filters by account_ids, identity_ids and secondary_statuses, as the OpenAPI names them', async () => {
    const W = '/v2/transfer/crypto-withdrawals';
    const a = (await h.admin('POST', W, withdrawal({ ref_id: 'acc-a', account_id: 'acc-1', identity_id: 'id-1' })))
      .body;
    const b = (await h.admin('POST', W, withdrawal({ ref_id: 'acc-b', account_id: 'acc-2', identity_id: 'id-1' })))
      .body;
    await h.admin('POST', W, withdrawal({ ref_id: 'acc-c' }));
    const ids = async (query: string) => {
      const r = await h.admin('GET', `${T}?${query}&order=ASC`);
      expect(r.status, query).toBe(200);
      return r.body.items.map((t: any) => t.id);
    };
    expect(await ids('account_ids=acc-1')).toEqual([a.id]);
    expect(await ids('account_ids=acc-1&account_ids=acc-2')).toEqual([a.id, b.id]);
    expect(await ids('identity_ids=id-1')).toEqual([a.id, b.id]);
    // The local service sets no secondary status itself; a state that has one (imported) is filtered by it.
    expect(await ids('secondary_statuses=TRAVEL_RULE_INFO_REQUESTED')).toEqual([]);
    const state = (await h.control('GET', '/_local/state')).body;
    const row = state.tables.transfers.find((t: any) => t.id === b.id);
    row.body = JSON.stringify({ ...JSON.parse(row.body), secondary_status: { name: 'TRAVEL_RULE_INFO_REQUESTED' } });
    expect((await h.control('PUT', '/_local/state', state)).status).toBe(200);
    expect(await ids('secondary_statuses=TRAVEL_RULE_INFO_REQUESTED')).toEqual([b.id]);
    expect(await ids('secondary_statuses=CUSTOMER_REJECTED&secondary_statuses=TRAVEL_RULE_INFO_REQUESTED')).toEqual([
      b.id,
    ]);
    const bad = await h.admin('GET', `${T}?secondary_statuses=STUCK`);
    expect(bad.status).toBe(400);
    expect(bad.body.meta.issues[0].field).toBe('secondary_statuses.0');
  });

  it('takes ids, ref_ids, profile_ids, identity_ids, account_ids and type each with the time filters only, as the OpenAPI says', async () => {
    const a = (await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: 'lone-a' }))).body;
    const lone = [
      `ids=${a.id}`,
      'ref_ids=lone-a',
      'account_ids=acc-1',
      'identity_ids=id-1',
      `profile_ids=${DEMO.profileId}`,
      'type=CRYPTO_WITHDRAWAL',
    ];
    const others = ['statuses=PENDING', 'secondary_statuses=CUSTOMER_REJECTED', 'crypto_tx_hashes=h', 'group_ids=g'];
    for (const [i, first] of lone.entries()) {
      const name = first.split('=')[0];
      for (const other of [...lone.slice(i + 1), ...others]) {
        const r = await h.admin('GET', `${T}?${first}&${other}`);
        expect(r.status, `${first}&${other}`).toBe(400);
        expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(r.body.meta.issues).toEqual([
          {
            field: other.split('=')[0],
            rule: `cannot be given with ${name}: ${name} goes with the created_at and updated_at filters only`,
          },
        ]);
      }
      // The time filters, the page's size, its order and its cursor go with any of them.
      const ok = await h.admin(
        'GET',
        `${T}?${first}&created_at.gte=${a.created_at}&updated_at.gte=${a.updated_at}&limit=5&order=ASC`,
      );
      expect(ok.status, first).toBe(200);
    }
    // The others go together.
    expect((await h.admin('GET', `${T}?${others.join('&')}`)).status).toBe(200);
    const r = await h.admin('GET', `${T}?ref_ids=lone-a&order_by=CREATED_AT&created_at.lte=${a.created_at}`);
    expect(r.body.items.map((t: any) => t.id)).toEqual([a.id]);
  });

  it('cursor pages cover every item exactly once, in both orders', async () => {
    for (let i = 0; i < 25; i++)
      await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: `p${i}` }));
    const desc = await all(T, 'limit=7');
    expect(desc.map((t) => t.ref_id)).toEqual(Array.from({ length: 25 }, (_, i) => `p${24 - i}`));
    const asc = await all(T, 'limit=4&order=ASC');
    expect(asc.map((t) => t.ref_id)).toEqual(Array.from({ length: 25 }, (_, i) => `p${i}`));
  });

  it('cursors never skip or repeat while items are being created', async () => {
    for (let i = 0; i < 30; i++)
      await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: `old${i}` }));
    for (const order of ['DESC', 'ASC']) {
      const seen: string[] = [];
      let cursor: string | undefined;
      let n = 0;
      do {
        const page = await h.admin(
          'GET',
          `${T}?limit=5&order=${order}&type=CRYPTO_WITHDRAWAL${cursor ? `&page_cursor=${cursor}` : ''}`,
        );
        seen.push(...page.body.items.map((t: any) => t.ref_id));
        cursor = page.body.next_page_cursor;
        // New items arrive between pages.
        await Promise.all(
          [0, 1].map((k) =>
            h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: `new-${order}-${n}-${k}` })),
          ),
        );
        n++;
      } while (cursor && n < 100);
      const old = seen.filter((r) => r.startsWith('old'));
      expect(new Set(seen).size).toBe(seen.length);
      expect(old.length).toBe(30);
      expect(old).toEqual(
        order === 'DESC'
          ? Array.from({ length: 30 }, (_, i) => `old${29 - i}`)
          : Array.from({ length: 30 }, (_, i) => `old${i}`),
      );
    }
  });

  it('a cursor that does not decode, or belongs to another query, is a 400 naming page_cursor', async () => {
    for (let i = 0; i < 3; i++)
      await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: `q${i}` }));
    const first = await h.admin('GET', `${T}?limit=1&order=ASC`);
    const cursor = first.body.next_page_cursor;
    let r = await h.admin('GET', `${T}?limit=1&order=DESC&page_cursor=${cursor}`);
    expect(r.status).toBe(400);
    expect(r.body.meta.issues[0].field).toBe('page_cursor');
    r = await h.admin('GET', `${T}?limit=1&page_cursor=garbage!!`);
    expect(r.status).toBe(400);
    r = await h.admin('GET', `${T}?limit=1&page_cursor=${Buffer.from('{"v":1}').toString('base64url')}`);
    expect(r.status).toBe(400);
    // A different page size keeps the cursor valid.
    r = await h.admin('GET', `${T}?limit=2&order=ASC&page_cursor=${cursor}`);
    expect(r.status).toBe(200);
    const dcur = (await h.admin('GET', `${DA}?limit=1`)).body.next_page_cursor;
    expect((await h.admin('GET', `${T}?page_cursor=${dcur}`)).status).toBe(400);
  });
});
