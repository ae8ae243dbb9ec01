// The control API's transfers: POST /_local/transfers/seed (a month of completed withdrawals at once) and
// POST /_local/transfers/{id}/amend (a fee changed, a failure after the fact), with their bad input as 400s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/embedded/demo.js';
import { BTC_ADDRESS, type Sandbox, sandbox } from '../cli/helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(() => sb?.close());

const SEED = {
  count: 3,
  ref_prefix: 'seeded',
  start: 10,
  profile_id: DEMO.profileId,
  asset: 'BTC',
  crypto_network: 'BITCOIN',
  destination_address: BTC_ADDRESS,
  amount: '0.001',
  fee: '0.00002',
  from: '2026-10-01T00:00:00Z',
  to: '2026-10-01T00:03:00Z',
};

async function listed(refs: string[]) {
  const r = await sb.runIn(['transfers', 'list', '--ref-id', refs.join(','), '--order', 'ASC', '-o', 'json']);
  return JSON.parse(r.stdout) as Record<string, string>[];
}

describe('control API: transfers', () => {
  it('seed: completed withdrawals spread over the period, ref_ids from the prefix and start', async () => {
    expect(await sb.control('POST', '/_local/transfers/seed', SEED)).toEqual({ count: 3 });
    const t = await listed(['seeded-10', 'seeded-11', 'seeded-12']);
    expect(t.map((x) => [x.ref_id, x.status, x.created_at, x.total])).toEqual([
      ['seeded-10', 'COMPLETED', '2026-10-01T00:00:00.000Z', '0.00102'],
      ['seeded-11', 'COMPLETED', '2026-10-01T00:01:00.000Z', '0.00102'],
      ['seeded-12', 'COMPLETED', '2026-10-01T00:02:00.000Z', '0.00102'],
    ]);
  });

  it('amend: a fee changes the total; FAILED refunds and says why; a FAILED transfer cannot change', async () => {
    const [t] = await listed(['seeded-10']);
    const fee = await sb.control('POST', `/_local/transfers/${t.id}/amend`, { fee: '0.0001' });
    expect(fee).toMatchObject({ fee: '0.0001', total: '0.0011', status: 'COMPLETED' });
    const failed = await sb.control('POST', `/_local/transfers/${t.id}/amend`, { status: 'FAILED', reason: 'reorg' });
    expect(failed).toMatchObject({ status: 'FAILED', status_details: { failed_after: { message: 'reorg' } } });
    const again = await sb.control('POST', `/_local/transfers/${t.id}/amend`, { fee: '0.1' });
    expect(again.detail).toBe('status: the transfer is FAILED already: it cannot change');
  });

  it.each([
    [{ ...SEED, count: 0 }, 'count: must be 1 to 100000'],
    [{ ...SEED, from: SEED.to }, 'from: must be before to'],
    [{ ...SEED, destination_address: 'nope' }, 'destination_address: must be an address of crypto_network'],
    [{ ...SEED, extra: 1 }, 'extra: is not a known field'],
  ])('seed refuses %j', async (body, detail) => {
    expect((await sb.control('POST', '/_local/transfers/seed', body)).detail).toBe(detail);
  });

  it('amend refuses an unknown id (404) and bad fields (400)', async () => {
    expect((await sb.control('POST', '/_local/transfers/nope/amend', { fee: '1' })).status).toBe(404);
    expect((await sb.control('POST', '/_local/transfers/nope/amend', { status: 'DONE' })).detail).toBe(
      'status: must be FAILED',
    );
    expect((await sb.control('POST', '/_local/transfers/nope/amend', {})).detail).toBe(': give fee or status');
  });
});
