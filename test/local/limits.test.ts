// Transfer limits of the local service: utilizations worked out from the transfers it holds, a withdrawal over a
// limit refused with the OpenAPI's exceed-max-withdraw-limit problem (nothing debited, nothing recorded), rules set
// through the control API, failed withdrawals and a passing day giving the room back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '../../src/contract/money.js';
import {
  balanceOf,
  BTC_ADDRESS,
  FAILING_ETH_ADDRESS,
  DEMO,
  DEMO_WIRE,
  ETH_ADDRESS,
  harness,
  withdrawal,
  type Harness,
  resetBeforeEach,
} from './helpers.js';
import { PER_WITHDRAWAL_LIMIT } from '../support/limits.js';

const LIMITS = '/v2/transfer/limits/utilizations';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());
resetBeforeEach(() => h);

const limits = async (type = 'CRYPTO_WITHDRAWAL', token?: string) => {
  const r = await h.req('GET', `${LIMITS}?transfer_type=${type}`, { token });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.items as Record<string, unknown>[];
};
const setRules = (rules: unknown[]) => h.control('PUT', '/_local/limits', { rules });
const dayRule = (limit: string, limit_asset = 'USD') => ({
  id: 'day',
  transfer_types: ['CRYPTO_WITHDRAWAL'],
  period_seconds: 86_400,
  limit,
  limit_asset,
});

describe('GET /v2/transfer/limits/utilizations', () => {
  it('lists the demo limits on crypto withdrawals: per transfer (no id) and per 24 h', async () => {
    const items = await limits();
    expect(items).toEqual([
      PER_WITHDRAWAL_LIMIT,
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        rule_id: 'crypto-withdrawal-24h',
        transfer_types: ['CRYPTO_WITHDRAWAL'],
        period_seconds: '86400',
        limit: '50000000',
        remaining: '50000000',
        limit_asset: 'USD',
      },
    ]);
    expect(await limits('WIRE_DEPOSIT')).toEqual([]);
  });

  it('a withdrawal takes its notional value off what remains of the period, to the cent', async () => {
    const w = await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ amount: '1' }));
    expect(w.status).toBe(200);
    const [each, day] = await limits();
    expect(each.remaining).toBe('10000000');
    expect(day.remaining).toBe(dec('50000000').minus(w.body.notional_value).toFixed());
  });

  it('needs transfer_type, one of the OpenAPI transfer types; the read-only client may read', async () => {
    for (const [query, detail] of [
      ['', 'transfer_type: is required'],
      ['?transfer_type=MOON', 'transfer_type: must be one of INTERNAL_TRANSFER_DEBIT'],
      ['?transfer_type=CRYPTO_WITHDRAWAL&profile_id=x', 'profile_id: is not a known field'],
    ]) {
      const r = await h.admin('GET', `${LIMITS}${query}`);
      expect(r.status).toBe(400);
      expect(r.body.detail).toContain(detail);
    }
    const ro = await h.token(DEMO.readonlyClientId);
    expect((await h.req('GET', `${LIMITS}?transfer_type=PAXOS_TRANSFER_DEBIT`, { token: ro })).status).toBe(200);
  });
});

describe('withdrawals over a limit', () => {
  it('are refused with exceed-max-withdraw-limit once the period has no room: nothing debited or recorded', async () => {
    // Room for two and a half withdrawals like the first: the second fits, the third does not.
    const amount = '0.01';
    const first = await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ amount }));
    const limit = dec(first.body.notional_value).times('2.5').toFixed();
    await setRules([dayRule(limit)]);
    expect((await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ amount }))).status).toBe(200);
    const before = await balanceOf(h, DEMO.profileId, 'BTC');
    const [day] = await limits();
    const r = await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ amount, ref_id: 'over' }));
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body).toMatchObject({
      type: 'https://developer.paxos.com/docs/v2/problems/exceed-max-withdraw-limit',
      title: 'Withdrawal Amount Too Large',
      meta: { limit, remaining: day.remaining, limit_asset: 'USD', rule_id: 'day', period_seconds: '86400' },
    });
    expect(r.body.detail).toBe(
      `withdrawal of ${r.body.meta.amount} USD notional exceeds the ${day.remaining} USD left of the limit of ${limit} USD per 24 h (transfer limit rule day)`,
    );
    expect(await balanceOf(h, DEMO.profileId, 'BTC')).toBe(before);
    expect((await h.admin('GET', '/v2/transfer/transfers?ref_ids=over')).body.items).toEqual([]);
    expect((await limits())[0].remaining).toBe(day.remaining);
  });

  it('a limit on each transfer refuses one too large, whatever was sent before', async () => {
    await setRules([
      { id: 'each', transfer_types: ['CRYPTO_WITHDRAWAL'], period_seconds: 0, limit: '100', limit_asset: 'USD' },
    ]);
    const r = await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ amount: '0.01' }));
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/exceeds the limit of 100 USD on each transfer \(transfer limit rule each\)$/);
    expect(r.body.meta).toMatchObject({ limit: '100', remaining: '100', period_seconds: '0' });
    expect((await limits())[0]).toMatchObject({ remaining: '100' });
    expect((await limits())[0].id).toBeUndefined();
  });

  it('a limit in one asset counts only that asset, in its units (the total, fee included)', async () => {
    await setRules([dayRule('0.05', 'BTC')]);
    expect((await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ amount: '0.02998' }))).status).toBe(
      200,
    );
    expect((await limits())[0].remaining).toBe('0.02');
    const eth = { asset: 'ETH', crypto_network: 'ETHEREUM', destination_address: ETH_ADDRESS, amount: '10' };
    expect((await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal(eth))).status).toBe(200);
    expect((await limits())[0].remaining).toBe('0.02');
    const over = await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ amount: '0.01999' }));
    expect(over.status).toBe(400);
    expect(over.body.meta).toMatchObject({ amount: '0.02001', remaining: '0.02', limit_asset: 'BTC' });
    expect(
      (await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ amount: undefined, total: '0.02' })))
        .status,
    ).toBe(200);
    expect((await limits())[0].remaining).toBe('0');
  });

  it('a failed withdrawal gives its room back, and so does the passing of the period, to the minute', async () => {
    await setRules([dayRule('0.01', 'ETH')]);
    const dead = {
      asset: 'ETH',
      crypto_network: 'ETHEREUM',
      destination_address: FAILING_ETH_ADDRESS,
      amount: undefined,
      total: '0.01',
    };
    expect((await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal(dead))).status).toBe(200);
    expect((await limits())[0].remaining).toBe('0');
    await h.control('POST', '/_local/clock/advance', { seconds: 60 });
    expect((await limits())[0].remaining).toBe('0.01');
    const ok = { ...dead, destination_address: ETH_ADDRESS };
    expect((await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal(ok))).status).toBe(200);
    expect((await limits())[0].remaining).toBe('0');
    // Tokens live an hour: a day later, fresh ones (another scope each, so the harness asks for a new one).
    const scope = 'transfer:read_transfer_limit';
    await h.control('POST', '/_local/clock/advance', { seconds: 86_400 - 120 });
    expect((await limits('CRYPTO_WITHDRAWAL', await h.token(DEMO.adminClientId, scope)))[0].remaining).toBe('0');
    await h.control('POST', '/_local/clock/advance', { seconds: 120 });
    const later = await h.token(DEMO.adminClientId, `${scope} transfer:read_transfer`);
    expect((await limits('CRYPTO_WITHDRAWAL', later))[0].remaining).toBe('0.01');
  });

  it('a rule over several types lists them in order and counts each', async () => {
    await setRules([
      {
        id: 'both',
        transfer_types: ['WIRE_DEPOSIT', 'CRYPTO_WITHDRAWAL'],
        period_seconds: 3600,
        limit: '10',
        limit_asset: 'USD',
      },
    ]);
    const [rule] = await limits('WIRE_DEPOSIT');
    expect(rule.transfer_types).toEqual(['CRYPTO_WITHDRAWAL', 'WIRE_DEPOSIT']);
    await h.admin('POST', '/v2/sandbox/fiat-deposits', {
      amount: '4.50',
      asset: 'USD',
      memo_id: DEMO.memoId,
      fiat_network_instructions: { wire: DEMO_WIRE },
    });
    expect((await limits('CRYPTO_WITHDRAWAL'))[0].remaining).toBe('5.5');
    const w = await h.admin(
      'POST',
      '/v2/transfer/crypto-withdrawals',
      withdrawal({ destination_address: BTC_ADDRESS }),
    );
    expect(w.status).toBe(400);
  });
});

describe('PUT /_local/limits', () => {
  it('replaces the rules; PUT [] removes every limit', async () => {
    const r = await setRules([dayRule('5')]);
    expect(r.body.rules).toEqual([{ ...dayRule('5'), limit_id: expect.any(String) }]);
    expect((await h.control('GET', '/_local/limits')).body.rules).toEqual(r.body.rules);
    await setRules([]);
    expect(await limits()).toEqual([]);
    expect((await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ amount: '100' }))).status).toBe(200);
  });

  it.each([
    [{ rules: [{ ...dayRule('5'), period_seconds: 90 }] }, 'rules[0].period_seconds: must be 0'],
    [{ rules: [{ ...dayRule('5'), transfer_types: ['MOON'] }] }, 'rules[0].transfer_types: must be a non-empty list'],
    [{ rules: [{ ...dayRule('-5') }] }, 'rules[0].limit: must be a decimal string'],
    [{ rules: [dayRule('5', 'MOON')] }, 'rules[0].limit_asset: must be USD or an asset'],
    [{ rules: [dayRule('5'), dayRule('6')] }, 'rules[1].id: day is given twice'],
    [{ rules: [{ ...dayRule('5'), colour: 1 }] }, 'rules[0].colour: is not a known field'],
    [{ rules: {} }, 'rules: must be a list'],
  ])('refuses %j', async (body, detail) => {
    const r = await h.req('PUT', '/_local/limits', {
      body,
      token: null,
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(400);
    expect(r.body.detail).toContain(detail);
    expect(await limits()).toHaveLength(2);
  });
});
