// Local service: deposit addresses, transfer lists with filters and cursors, and sandbox deposits.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO, harness, withdrawal, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
beforeEach(async () => {
  await h.control('POST', '/_local/reset');
});
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
    const r = await h.admin('POST', DA, { profile_id: DEMO.profileId, crypto_network: 'ETHEREUM', ref_id: 'da1', metadata: { a: 'b' }, identity_id: 'id1', account_id: 'acc1', conversion_target_asset: 'USD' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ profile_id: DEMO.profileId, customer_id: DEMO.customerId, crypto_network: 'ETHEREUM', ref_id: 'da1', conversion_target_asset: 'USD', metadata: { a: 'b' } });
    expect(r.body.address).toMatch(/^0x[0-9a-f]{40}$/);
    for (const n of ['BITCOIN', 'LITECOIN', 'BITCOIN_CASH', 'SOLANA', 'STELLAR', 'BASE']) {
      const x = await h.admin('POST', DA, { profile_id: DEMO.profileId, crypto_network: n });
      const { isValidAddress } = await import('../../src/api/catalogue.js');
      expect(isValidAddress(n as any, x.body.address)).toBe(true);
      expect(x.body.conversion_target_asset).toBe('NO_CONVERSION');
    }
    const dup = await h.admin('POST', DA, { profile_id: DEMO.profileId, crypto_network: 'BITCOIN', ref_id: 'da1' });
    expect(dup.status).toBe(409);
    expect(dup.body.meta.existing).toEqual(r.body);
    expect((await h.admin('POST', DA, { profile_id: 'nope', crypto_network: 'BITCOIN' })).status).toBe(404);
    expect((await h.admin('POST', DA, { profile_id: DEMO.profileId })).body.meta.issues[0]).toEqual({ field: 'crypto_network', rule: 'is required' });
    expect((await h.admin('POST', DA, { profile_id: DEMO.profileId, crypto_network: 'BITCOIN', x: 1 })).body.detail).toBe('x: is not a known field');
  });

  it('filters, order, limit and query rules', async () => {
    await h.admin('POST', DA, { profile_id: DEMO.emptyProfileId, crypto_network: 'LITECOIN', ref_id: 'ltc', identity_id: 'idA' });
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
    r = await h.admin('GET', `${DA}?networks=DOGE`);
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
    const made = (await h.admin('POST', DA, { profile_id: DEMO.profileId, crypto_network: 'BITCOIN', ref_id: 'later' })).body;
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
    await h.admin('POST', '/v2/sandbox/fiat-deposits', { amount: '10.00', asset: 'USD', memo_id: DEMO.memoId, fiat_network_instructions: { wire: {} } });
    let r = await h.admin('GET', `${T}?ref_ids=a&ref_ids=b`);
    expect(r.body.items.map((t: any) => t.ref_id)).toEqual(['b', 'a']);
    r = await h.admin('GET', `${T}?type=WIRE_DEPOSIT`);
    expect(r.body.items.length).toBe(1);
    expect(r.body.items[0]).toMatchObject({ type: 'WIRE_DEPOSIT', direction: 'CREDIT', status: 'COMPLETED', amount: '10', asset: 'USD' });
    await h.control('POST', '/_local/clock/advance', { seconds: 26 });
    // a is settled now (30 s), b not yet.
    r = await h.admin('GET', `${T}?statuses=COMPLETED&type=CRYPTO_WITHDRAWAL`);
    expect(r.body.items.map((t: any) => t.id)).toEqual([a.id]);
    const hash = r.body.items[0].crypto_tx_hash;
    r = await h.admin('GET', `${T}?crypto_tx_hashes=${hash}`);
    expect(r.body.items.map((t: any) => t.id)).toEqual([a.id]);
    r = await h.admin('GET', `${T}?statuses=PENDING`);
    expect(r.body.items.map((t: any) => t.id)).toEqual([b.id]);
    r = await h.admin('GET', `${T}?order_by=UPDATED_AT&order=DESC&type=CRYPTO_WITHDRAWAL`);
    // a was updated (settled) after b was created.
    expect(r.body.items.map((t: any) => t.id)).toEqual([a.id, b.id]);
    r = await h.admin('GET', `${T}?updated_at.gt=${b.updated_at}&type=CRYPTO_WITHDRAWAL`);
    expect(r.body.items.map((t: any) => t.id)).toEqual([a.id]);
    r = await h.admin('GET', `${T}?ids=${b.id}&profile_ids=${DEMO.profileId}`);
    expect(r.body.items.map((t: any) => t.id)).toEqual([b.id]);
    r = await h.admin('GET', `${T}?statuses=DONE`);
    expect(r.status).toBe(400);
    r = await h.admin('GET', `${T}?order_by=AMOUNT`);
    expect(r.body.meta.issues[0].field).toBe('order_by');
    r = await h.admin('GET', `${T}?created_at.eq=${a.created_at}&created_at.lt=${a.created_at}`);
    expect(r.body.meta.issues[0].field).toBe('created_at.eq');
  });

  it('cursor pages cover every item exactly once, in both orders', async () => {
    for (let i = 0; i < 25; i++) await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: `p${i}` }));
    const desc = await all(T, 'limit=7');
    expect(desc.map((t) => t.ref_id)).toEqual(Array.from({ length: 25 }, (_, i) => `p${24 - i}`));
    const asc = await all(T, 'limit=4&order=ASC');
    expect(asc.map((t) => t.ref_id)).toEqual(Array.from({ length: 25 }, (_, i) => `p${i}`));
  });

  it('cursors never skip or repeat while items are being created', async () => {
    for (let i = 0; i < 30; i++) await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: `old${i}` }));
    for (const order of ['DESC', 'ASC']) {
      const seen: string[] = [];
      let cursor: string | undefined;
      let n = 0;
      do {
        const page = await h.admin('GET', `${T}?limit=5&order=${order}&type=CRYPTO_WITHDRAWAL${cursor ? `&page_cursor=${cursor}` : ''}`);
        seen.push(...page.body.items.map((t: any) => t.ref_id));
        cursor = page.body.next_page_cursor;
        // New items arrive between pages.
        await Promise.all([0, 1].map((k) => h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: `new-${order}-${n}-${k}` }))));
        n++;
      } while (cursor && n < 100);
      const old = seen.filter((r) => r.startsWith('old'));
      expect(new Set(seen).size).toBe(seen.length);
      expect(old.length).toBe(30);
      expect(old).toEqual(order === 'DESC' ? Array.from({ length: 30 }, (_, i) => `old${29 - i}`) : Array.from({ length: 30 }, (_, i) => `old${i}`));
    }
  });

  it('a cursor that does not decode, or belongs to another query, is a 400 naming page_cursor', async () => {
    for (let i = 0; i < 3; i++) await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: `q${i}` }));
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

describe('sandbox fiat deposits', () => {
  const dep = (extra: Record<string, unknown> = {}) =>
    h.admin('POST', '/v2/sandbox/fiat-deposits', {
      amount: '125.50', asset: 'USD', memo_id: DEMO.memoId,
      fiat_network_instructions: { wire: { account_number: '123', routing_details: { routing_number_type: 'ABA', routing_number: '021000021', bank_name: 'B' } } },
      ...extra,
    });

  it('credits the profile that owns memo_id and answers {}', async () => {
    const { balanceOf } = await import('./helpers.js');
    const before = await balanceOf(h, DEMO.profileId, 'USD');
    const r = await dep();
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
    expect(Number(await balanceOf(h, DEMO.profileId, 'USD'))).toBe(Number(before) + 125.5);
    await dep({ memo_id: DEMO.emptyMemoId, amount: '3' });
    expect(await balanceOf(h, DEMO.emptyProfileId, 'USD')).toBe('3');
  });

  it('rules: 2 decimals, USD only, instructions required, memo known', async () => {
    expect((await dep({ amount: '1.234' })).body.meta.issues[0].field).toBe('amount');
    expect((await dep({ asset: 'EUR' })).body.meta.issues[0]).toEqual({ field: 'asset', rule: 'must be USD (the only asset sandbox deposits support)' });
    expect((await dep({ fiat_network_instructions: undefined })).body.meta.issues[0]).toEqual({ field: 'fiat_network_instructions', rule: 'is required' });
    expect((await dep({ fiat_network_instructions: { wire: { swift: 'x' } } })).body.meta.issues[0].field).toBe('fiat_network_instructions.wire.swift');
    const r = await dep({ memo_id: 'UNKNOWN' });
    expect(r.status).toBe(404);
  });
});
