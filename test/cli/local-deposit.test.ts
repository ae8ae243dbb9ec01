// coinop local deposit: crypto arriving at a deposit address of the local service, PENDING until the service clock
// passes its confirmations, then COMPLETED and credited; bad input exits 2 naming the flag, before or after asking.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/embedded/demo.js';
import { saveContext } from '../support/contexts.js';
import { sandbox, type Sandbox } from './helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox({ cryptoDepositSettleSeconds: 30 });
});
afterAll(() => sb?.close());

const balance = async (asset: string) =>
  ((await sb.control('GET', '/_local/profiles')).items as any[]).find((p) => p.id === DEMO.profileId).balances[asset];

describe('coinop local deposit', () => {
  it('by ref_id or address: a PENDING CRYPTO_DEPOSIT, listed, then COMPLETED and credited', async () => {
    const before = await balance('BTC');
    const r = await sb.runIn(['local', 'deposit', '--ref-id', 'demo-btc', '--amount', '0.25']);
    expect(r.code, r.stderr).toBe(0);
    const t = JSON.parse(r.stdout);
    expect(t).toMatchObject({
      type: 'CRYPTO_DEPOSIT',
      direction: 'CREDIT',
      status: 'PENDING',
      asset: 'BTC',
      amount: '0.25',
    });
    const list = await sb.runIn(['transfers', 'list', '--type', 'CRYPTO_DEPOSIT']);
    expect(JSON.parse(list.stdout).map((x: any) => [x.id, x.status])).toEqual([[t.id, 'PENDING']]);
    await sb.control('POST', '/_local/clock/advance', { seconds: 30 });
    const done = await sb.runIn(['transfers', 'get', t.id]);
    expect(JSON.parse(done.stdout)).toMatchObject({ id: t.id, status: 'COMPLETED' });
    expect(await balance('BTC')).toBe(String(Number(before) + 0.25));

    const eth = JSON.parse((await sb.runIn(['addresses', 'list', '--ref-id', 'demo-eth'])).stdout)[0];
    const usdp = await sb.runIn([
      'local',
      'deposit',
      '--address',
      eth.address,
      '--amount',
      '100',
      '--asset',
      'USDP',
      '-o',
      'table',
    ]);
    expect(usdp.code, usdp.stderr).toBe(0);
    expect(usdp.stdout).toMatch(/^type\s+CRYPTO_DEPOSIT$/m);
    expect(usdp.stdout).toMatch(/^asset\s+USDP$/m);
    expect(usdp.stderr).toMatch(/100 USDP arriving at 0x[0-9a-fA-F]{40}: PENDING .* coinop transfers watch /);
  });

  it('bad input: exit 2, one line naming the flag; an unknown deposit address is the service answer (exit 1)', async () => {
    const count = async () =>
      JSON.parse((await sb.runIn(['transfers', 'list', '--type', 'CRYPTO_DEPOSIT', '--limit', '1000'])).stdout).length;
    const n = await count();
    const cases: [string[], number, RegExp][] = [
      [['--address', 'x', '--ref-id', 'y', '--amount', '1'], 2, /^error: --address and --ref-id: give one, not both$/],
      [['--ref-id', 'demo-btc', '--amount', '1.5.0'], 2, /^error: --amount: must be a plain decimal number/],
      [['--ref-id', 'demo-btc', '--amount', '0'], 2, /^error: --amount: must be greater than 0$/],
      [
        ['--ref-id', 'demo-btc', '--amount', '1', '--asset', 'USD'],
        2,
        /^error: --asset: must be a crypto asset \(BTC, /,
      ],
      [
        ['--ref-id', 'demo-sol', '--amount', '1.0000000001', '--asset', 'SOL'],
        2,
        /^error: --amount: at most 9 decimals for SOL$/,
      ],
      // Checked by the service (the asset is the address's network's coin): nothing recorded, the flag named.
      [
        ['--ref-id', 'demo-btc', '--amount', '0.000000001'],
        2,
        /^error: --amount: has more than the 8 decimals BTC allows$/,
      ],
      [
        ['--ref-id', 'demo-btc', '--amount', '1', '--asset', 'ETH'],
        2,
        /^error: --asset: must be an asset that arrives on BITCOIN: BTC$/,
      ],
      [['--amount', '1'], 2, /^error: missing --address \(or --ref-id\)/],
      [
        ['--ref-id', 'no-such-ref', '--amount', '1'],
        1,
        /^error: Not Found: no deposit address has ref_id no-such-ref$/,
      ],
    ];
    for (const [args, code, message] of cases) {
      const r = await sb.runIn(['local', 'deposit', ...args]);
      expect(r.code, args.join(' ')).toBe(code);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr.trim()).toMatch(message);
    }
    expect(await count()).toBe(n);
  });

  it('is refused for a profile of the hosted service, before anything is sent', async () => {
    await saveContext(sb.env, 'sb', { environment: 'sandbox', baseUrl: 'https://api.sandbox.example' });
    const r = await sb.runIn(['local', 'deposit', '--context', 'sb', '--ref-id', 'demo-btc', '--amount', '1'], {
      env: { COINOP_BASE_URL: undefined, COINOP_AUTH_URL: undefined },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: local deposit: only the local service takes it \(context "sb" is sandbox\)/);
  });
});
