// Safe writes and retries against the local service's faults: a reset after commit is reported once as submitted
// by this command with the money moved once; POSTs without a ref_id are never resent; reads retry 429 and 5xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandbox, type Sandbox } from './helpers.js';
import { DEMO } from '../../src/embedded/demo.js';
import { dec } from '../../src/contract/index.js';
import { transferFlags } from '../support/command-lines.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => sb?.close());

const balance = async (asset: string) => {
  const { items } = await sb.control('GET', '/_local/profiles');
  return items.find((p: { id: string }) => p.id === DEMO.profileId).balances[asset] as string;
};

describe('safe writes', () => {
  it('a withdrawal whose connection reset after the commit is retried, reported once as already submitted, money moved once', async () => {
    await sb.run(['prices', 'BTCUSD', '--limit', '1']); // a token in the cache, so the journal below is only the withdrawal
    const before = await balance('BTC');
    await sb.control('PUT', '/_local/faults', {
      resetAfterRate: 1,
      pathPrefix: '/v2/transfer/crypto-withdrawals',
      method: 'POST',
      budget: 1,
    });
    await sb.sent();
    const r = await sb.run(['withdraw', ...transferFlags('BTC', '0.25'), '--ref-id', 'reset-after-1']);
    await sb.control('PUT', '/_local/faults', {});
    expect(r.code, r.stderr).toBe(0);
    // The 409 answered this command's own retry: it submitted the withdrawal, once, and says so.
    expect(r.stderr.match(/withdrawal submitted by this command/g)).toHaveLength(1);
    expect(r.stderr).not.toMatch(/already submitted|no money moved/);
    const t = JSON.parse(r.stdout);
    expect(t).toMatchObject({ ref_id: 'reset-after-1', amount: '0.25', status: 'PENDING' });
    const posts = (await sb.sent()).filter((e) => e.url === '/v2/transfer/crypto-withdrawals');
    // The first attempt committed but its answer was lost; the retry met the same ref_id.
    expect(posts).toHaveLength(2);
    expect(posts[1].status).toBe(409);
    expect(
      dec(before)
        .minus(await balance('BTC'))
        .toFixed(),
    ).toBe(dec('0.25').plus(t.fee).toFixed());
    const list = await sb.run(['transfers', 'list', '--ref-id', 'reset-after-1']);
    expect(JSON.parse(list.stdout)).toHaveLength(1);
  });

  it('a POST without a ref_id (sandbox deposit) is not resent after a connection reset: exit 5', async () => {
    await sb.control('PUT', '/_local/faults', {
      resetBeforeRate: 1,
      pathPrefix: '/v2/sandbox',
      method: 'POST',
      budget: 5,
    });
    await sb.sent();
    const r = await sb.run(['sandbox', 'deposit', '--amount', '5.00']);
    await sb.control('PUT', '/_local/faults', {});
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/never resent/);
    expect((await sb.sent()).filter((e) => e.url.startsWith('/v2/sandbox'))).toHaveLength(1);
  });

  it('reads retry 429 (Retry-After) and 503, then succeed', async () => {
    await sb.control('PUT', '/_local/faults', { rate429: 0.5, rate503: 0.5, pathPrefix: '/v2/markets', budget: 2 });
    await sb.sent();
    const r = await sb.run(['prices', 'BTCUSD', '--limit', '2']);
    await sb.control('PUT', '/_local/faults', {});
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(2);
    const statuses = (await sb.sent()).filter((e) => e.url.startsWith('/v2/markets')).map((e) => e.status);
    expect(statuses.slice(-1)).toEqual([200]);
    expect(statuses.length).toBe(3);
    expect(statuses.slice(0, 2).every((s) => s === 429 || s === 503)).toBe(true);
  });

  it('a withdrawal that keeps failing with 500 is retried a bounded number of times, then reported once', async () => {
    await sb.control('PUT', '/_local/faults', { rate500: 1, pathPrefix: '/v2/transfer/crypto-withdrawals' });
    await sb.sent();
    const r = await sb.run(['withdraw', ...transferFlags('BTC', '0.01'), '--ref-id', 'five-hundred']);
    await sb.control('PUT', '/_local/faults', {});
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n').pop()).toMatch(/^error: Internal Server Error/);
    expect((await sb.sent()).filter((e) => e.url.startsWith('/v2/transfer/crypto-withdrawals'))).toHaveLength(4);
  });
});
