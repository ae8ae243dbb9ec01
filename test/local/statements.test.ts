// Statements of the local service: once a month of the customer's activity is over, its USDG rewards statement is
// generated from the ledger (the daily closing holdings of the dollar stablecoins), GENERATED with a PENDING payment,
// then PAID when the payment is COMPLETED a day later; kept once generated. Every answer is checked against the
// OpenAPI by the harness.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, harness, type Harness, resetBeforeEach } from './helpers.js';

const DAY = 24 * 3600;
let h: Harness;
beforeAll(async () => {
  // Tokens that outlive the months the clock is moved by.
  h = await harness({ config: { tokenLifetimeSeconds: 400 * 24 * 3600 } });
});
afterAll(() => h.close());
resetBeforeEach(() => h);

/** Moves the service clock to the given UTC time (it only goes forward). */
async function clockTo(iso: string): Promise<void> {
  const health = await h.control('GET', '/_local/health');
  const now = Date.parse(health.body.now);
  const seconds = Math.ceil((Date.parse(iso) - now) / 1000);
  if (seconds > 0) await h.control('POST', '/_local/clock/advance', { seconds });
}

/** The first day of the month after next, from the service clock now: a month of activity is surely over then. */
async function monthAfterNext(): Promise<{ at: string; period: string }> {
  const health = await h.control('GET', '/_local/health');
  const now = new Date(Date.parse(health.body.now));
  const period = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 2)).toISOString();
  return { at, period };
}

describe('statements', () => {
  it('none before a month is over; then GENERATED with a PENDING payment; PAID a day later', async () => {
    const none = await h.admin('GET', '/v2/statements');
    expect(none.status, JSON.stringify(none.body)).toBe(200);
    expect(none.body.statements).toEqual([]);
    const { at, period } = await monthAfterNext();
    await clockTo(at);
    const list = await h.admin('GET', `/v2/statements?customer_id=${DEMO.customerId}`);
    expect(list.body.statements).toHaveLength(1);
    const s = list.body.statements[0];
    expect(s).toMatchObject({
      customer_id: DEMO.customerId,
      type: 'STATEMENT_TYPE_USDG_REWARD',
      product: 'USDG_REWARDS',
      status: 'STATEMENT_STATUS_GENERATED',
      period_start: period,
    });
    expect(s.ref_id).toBe(`USDG_REWARDS-${DEMO.customerId}-${period.slice(0, 7)}`);
    const owed = s.statement_balances[0].total_amount_owed;
    expect(Number(owed)).toBeGreaterThan(0);
    expect(s.statement_balances[0]).toMatchObject({ asset: 'USDG', amount_paid: '0' });
    const payments = await h.admin('GET', '/v2/statements/payments');
    expect(payments.body.payments).toHaveLength(1);
    expect(payments.body.payments[0]).toMatchObject({
      ref_id: s.statement_balances[0].next_payment_ref_id,
      payment_status: 'PAYMENT_STATUS_PENDING',
      payment_asset: 'USDG',
      payment_amount: owed,
      payment_type: 'PAYMENT_TYPE_CRYPTO_WITHDRAWAL',
    });
    await h.control('POST', '/_local/clock/advance', { seconds: DAY });
    const paid = (await h.admin('GET', '/v2/statements')).body.statements[0];
    expect(paid).toMatchObject({
      id: s.id,
      status: 'STATEMENT_STATUS_PAID',
      statement_balances: [{ amount_paid: owed }],
    });
    expect(paid.paid_at).toBeDefined();
    const done = (await h.admin('GET', '/v2/statements/payments?payment_status=PAYMENT_STATUS_COMPLETED')).body;
    expect(done.payments).toHaveLength(1);
    expect(done.payments[0].processed_at).toBe(paid.paid_at);
    expect((await h.admin('GET', '/v2/statements?statuses=STATEMENT_STATUS_GENERATED')).body.statements).toHaveLength(
      0,
    );
  });

  it('the reward follows the ledger: a stablecoin sent away mid-month lowers it; kept once generated', async () => {
    const { at } = await monthAfterNext();
    const base = await (async () => {
      await clockTo(at);
      return (await h.admin('GET', '/v2/statements')).body.statements[0].statement_balances[0].total_amount_owed;
    })();
    await h.control('POST', '/_local/reset');
    // The same month again, with half the PYUSD held withdrawn (an internal transfer between the customer's own
    // profiles would change nothing: both count).
    const profiles = (await h.control('GET', '/_local/profiles')).body.items;
    const held = profiles.find((p: { id: string }) => p.id === DEMO.profileId).balances.PYUSD;
    expect(held).toBeDefined();
    const w = await h.admin('POST', '/v2/transfer/crypto-withdrawals', {
      profile_id: DEMO.profileId,
      asset: 'PYUSD',
      crypto_network: 'ETHEREUM',
      destination_address: '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23',
      amount: String(Math.floor(Number(held) / 2)),
    });
    expect(w.status, JSON.stringify(w.body)).toBe(200);
    await clockTo(at);
    const lower = (await h.admin('GET', '/v2/statements')).body.statements[0];
    expect(Number(lower.statement_balances[0].total_amount_owed)).toBeLessThan(Number(base));
    await h.control('POST', `/_local/profiles/${DEMO.profileId}/balances`, { asset: 'PYUSD', amount: '1000000' });
    const again = (await h.admin('GET', '/v2/statements')).body.statements[0];
    expect(again.statement_balances[0].total_amount_owed).toBe(lower.statement_balances[0].total_amount_owed);
  });

  it('payments: ref_ids and payment_ids go with no other filter; scopes are checked', async () => {
    const bad = await h.admin('GET', '/v2/statements/payments?ref_ids=a&customer_id=b');
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/customer_id: cannot be given with ref_ids/);
    const badStatus = await h.admin('GET', '/v2/statements?statuses=PAID');
    expect(badStatus.status).toBe(400);
    const token = await h.token('local-readonly');
    expect((await h.req('GET', '/v2/statements', { token })).status).toBe(200);
    expect((await h.req('GET', '/v2/statements/payments', { token })).status).toBe(200);
  });
});
