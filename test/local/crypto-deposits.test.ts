// Simulated incoming crypto deposits (POST /_local/crypto-deposits): a PENDING CRYPTO_DEPOSIT CREDIT transfer on the
// deposit address's profile, COMPLETED and credited on the service clock, listed with the transfers; bad input is a
// 400 naming the field, an unknown address a 404, and the control API's protections hold.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { responseViolations } from '../support/openapi.js';
import { balanceOf, DEMO, harness, type Harness } from './helpers.js';

let h: Harness;
let btc: { address: string; id: string };
let eth: { address: string; id: string };

beforeAll(async () => {
  h = await harness({ config: { cryptoDepositSettleSeconds: 60 } });
  const list = (await h.admin('GET', '/v2/transfer/deposit-addresses?ref_ids=demo-btc&ref_ids=demo-eth')).body.items;
  btc = list.find((a: any) => a.ref_id === 'demo-btc');
  eth = list.find((a: any) => a.ref_id === 'demo-eth');
});
afterAll(() => h.close());

const deposit = (body: unknown) => h.control('POST', '/_local/crypto-deposits', body);

describe('crypto deposits', () => {
  it('arrive PENDING, are listed, then COMPLETED and credited once the service clock passes the confirmations', async () => {
    const before = await balanceOf(h, DEMO.profileId, 'BTC');
    const r = await deposit({ address: btc.address, amount: '0.125' });
    expect(r.status).toBe(200);
    const t = r.body;
    expect(t).toMatchObject({
      profile_id: DEMO.profileId,
      customer_id: DEMO.customerId,
      type: 'CRYPTO_DEPOSIT',
      direction: 'CREDIT',
      status: 'PENDING',
      asset: 'BTC',
      balance_asset: 'BTC',
      amount: '0.125',
      total: '0.125',
      fee: '0',
      destination_address: btc.address,
      crypto_network: 'BITCOIN',
    });
    expect(t.crypto_tx_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await balanceOf(h, DEMO.profileId, 'BTC')).toBe(before);
    const pending = (await h.admin('GET', '/v2/transfer/transfers?type=CRYPTO_DEPOSIT')).body.items;
    expect(pending.map((x: any) => [x.id, x.status])).toContainEqual([t.id, 'PENDING']);

    await h.control('POST', '/_local/clock/advance', { seconds: 59 });
    expect((await h.admin('GET', `/v2/transfer/transfers/${t.id}`)).body.status).toBe('PENDING');
    await h.control('POST', '/_local/clock/advance', { seconds: 1 });
    const done = (await h.admin('GET', `/v2/transfer/transfers/${t.id}`)).body;
    expect(done.status).toBe('COMPLETED');
    expect(done.crypto_tx_hash).toBe(t.crypto_tx_hash);
    expect(Date.parse(done.updated_at) - Date.parse(done.created_at)).toBe(60_000);
    expect(await balanceOf(h, DEMO.profileId, 'BTC')).toBe(String(Number(before) + 0.125));
    // Credited once: reading again settles nothing more.
    await h.control('POST', '/_local/clock/advance', { seconds: 600 });
    expect(await balanceOf(h, DEMO.profileId, 'BTC')).toBe(String(Number(before) + 0.125));
    // The Transfer validates against the OpenAPI, pending and completed.
    expect(responseViolations('POST', '/v2/transfer/crypto-withdrawals', 200, t)).toEqual([]);
    expect(responseViolations('GET', `/v2/transfer/transfers/${t.id}`, 200, done)).toEqual([]);
    expect(responseViolations('GET', '/v2/transfer/transfers', 200, { items: pending })).toEqual([]);
  });

  it("by the deposit address's ref_id, another asset of its network, an EVM address in any case", async () => {
    const a = await deposit({ ref_id: 'demo-eth', amount: '250.5', asset: 'USDP' });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ asset: 'USDP', balance_asset: 'USDP', crypto_network: 'ETHEREUM' });
    expect(a.body.crypto_tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    const b = await deposit({ address: eth.address.toUpperCase().replace(/^0X/, '0x'), amount: '1' });
    expect(b.status).toBe(200);
    expect(b.body).toMatchObject({ asset: 'ETH', destination_address: eth.address });
  });

  it("copies the address's identity, account and metadata; an address converting to USD credits a stablecoin as USD", async () => {
    const addr = (
      await h.admin('POST', '/v2/transfer/deposit-addresses', {
        profile_id: DEMO.emptyProfileId,
        crypto_network: 'SOLANA',
        conversion_target_asset: 'USD',
        identity_id: 'idn-1',
        account_id: 'acc-1',
        metadata: { customer: 'c-42' },
      })
    ).body;
    const usd = await balanceOf(h, DEMO.emptyProfileId, 'USD');
    const r = await deposit({ address: addr.address, amount: '99.99', asset: 'PYUSD' });
    expect(r.body).toMatchObject({
      profile_id: DEMO.emptyProfileId,
      asset: 'PYUSD',
      balance_asset: 'USD',
      identity_id: 'idn-1',
      account_id: 'acc-1',
      metadata: { customer: 'c-42' },
    });
    const sol = await deposit({ address: addr.address, amount: '2' });
    expect(sol.body).toMatchObject({ asset: 'SOL', balance_asset: 'SOL' });
    await h.control('POST', '/_local/clock/advance', { seconds: 60 });
    expect(await balanceOf(h, DEMO.emptyProfileId, 'USD')).toBe(String(Number(usd) + 99.99));
    expect(await balanceOf(h, DEMO.emptyProfileId, 'SOL')).toBe('2');
    expect(await balanceOf(h, DEMO.emptyProfileId, 'PYUSD')).toBe('0');
  });

  it('bad input is a 400 naming the field, an unknown address a 404; nothing is recorded', async () => {
    const count = async () =>
      (await h.admin('GET', '/v2/transfer/transfers?type=CRYPTO_DEPOSIT&limit=1000')).body.items.length;
    const n = await count();
    const cases: [unknown, number, RegExp][] = [
      [{ address: btc.address, amount: '0.000000001' }, 400, /^amount: has more than the 8 decimals BTC allows$/],
      [{ address: btc.address, amount: '0' }, 400, /^amount: must be a positive decimal string/],
      [{ address: btc.address, amount: '-1' }, 400, /^amount: must be a positive decimal string/],
      [{ address: btc.address, amount: 1 }, 400, /^amount: must be a positive decimal string/],
      [{ address: btc.address, amount: '1e3' }, 400, /^amount: must be a positive decimal string/],
      [{ address: btc.address, amount: '1000000000000000.1' }, 400, /^amount: must be at most/],
      [
        { address: btc.address, amount: '1', asset: 'ETH' },
        400,
        /^asset: must be an asset that arrives on BITCOIN: BTC$/,
      ],
      [{ address: btc.address, amount: '1', asset: 'constructor' }, 400, /^asset: /],
      [
        { ref_id: 'demo-eth', amount: '1', asset: 'USD' },
        400,
        /^asset: must be an asset that arrives on ETHEREUM: ETH, /,
      ],
      [{ address: btc.address, ref_id: 'demo-btc', amount: '1' }, 400, /^address: give address or ref_id, not both$/],
      [{ amount: '1' }, 400, /^address: give address or ref_id \(of a deposit address\)$/],
      [{ address: '', amount: '1' }, 400, /^address: must be a string of 1 to 200 characters$/],
      [{ ref_id: 7, amount: '1' }, 400, /^ref_id: must be a string/],
      [{ address: btc.address, amount: '1', memo: 'x' }, 400, /^memo: is not a known field$/],
      [[], 400, /the body must be a JSON object/],
      [{ address: 'bc1qnosuchaddress', amount: '1' }, 404, /^no deposit address has address bc1qnosuchaddress$/],
      [{ ref_id: 'no-such-ref', amount: '1' }, 404, /^no deposit address has ref_id no-such-ref$/],
    ];
    for (const [body, status, detail] of cases) {
      const r = await deposit(body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(r.body.detail, JSON.stringify(body)).toMatch(detail);
    }
    expect(await count()).toBe(n);
  });

  it("the control API's protections: JSON only, no cross-site Origin", async () => {
    const body = JSON.stringify({ address: btc.address, amount: '1' });
    const form = await fetch(`${h.svc.baseUrl}/_local/crypto-deposits`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body,
    });
    expect(form.status).toBe(415);
    const site = await fetch(`${h.svc.baseUrl}/_local/crypto-deposits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body,
    });
    expect(site.status).toBe(403);
  });
});
