// Preflights before money moves, end to end against the local service (coinop as a child process): the transfer
// limits (GET /v2/transfer/limits/utilizations) for withdraw and batches, and testnet destinations by environment.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BTC_ADDRESS, ETH_ADDRESS, sandbox, type Sandbox } from './helpers.js';
import { saveContext } from '../support/contexts.js';
import { TLS_ENV, tlsFront, type TlsFront } from '../support/tls.js';
import { transferFlags } from '../support/command-lines.js';

let sb: Sandbox;
let dir: string;
beforeAll(async () => {
  sb = await sandbox();
  dir = mkdtempSync(join(tmpdir(), 'coinop-preflight-'));
});
afterAll(async () => {
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
});

const posts = async () => (await sb.sent()).filter((e) => e.method === 'POST' && e.url.endsWith('/crypto-withdrawals'));

const btc = (amount: string, ...more: string[]) => ['withdraw', ...transferFlags('BTC', amount), ...more];

/**
 * Limits far from what is sent either way (BTC trades around 40,000 to 65,000 USD in the price model): 1000 USD on
 * each transfer, 3000 USD a day, and 0.02 BTC a day (counted exactly, in BTC).
 */
const RULES = [
  { id: 'per-transfer', transfer_types: ['CRYPTO_WITHDRAWAL'], period_seconds: 0, limit: '1000', limit_asset: 'USD' },
  { id: 'daily-usd', transfer_types: ['CRYPTO_WITHDRAWAL'], period_seconds: 86_400, limit: '3000', limit_asset: 'USD' },
  { id: 'daily-btc', transfer_types: ['CRYPTO_WITHDRAWAL'], period_seconds: 86_400, limit: '0.02', limit_asset: 'BTC' },
];

beforeEach(async () => {
  await sb.control('POST', '/_local/reset');
  await sb.control('PUT', '/_local/limits', { rules: RULES });
  await sb.control('PUT', '/_local/faults', {});
  await sb.sent();
});

function csv(name: string, rows: string[]): string {
  const f = join(dir, name);
  writeFileSync(f, `destination_address,asset,crypto_network,amount\n${rows.join('\n')}\n`);
  return f;
}

describe('withdraw: the transfer limits before sending', () => {
  it('refuses, before sending, an amount over what is left of a limit, naming the limit (exit 2)', async () => {
    // 0.1 BTC is thousands of USD: over 1000 USD on each transfer and the 3000 USD left today.
    const r = await sb.run(btc('0.1', '--yes'));
    expect(r.code, r.stderr).toBe(2);
    const line = r.stderr.split('\n').find((l) => l.startsWith('error: '));
    expect(line).toMatch(
      /^error: over a transfer limit: limit per-transfer \(1000 USD on each transfer\): this withdrawal \(amount\), BTC 0\.1 \(about \d+(\.\d+)? USD\), is over it by \d+(\.\d+)? USD; limit daily-usd \(3000 USD per 24 h, 3000 USD left\): this withdrawal \(amount\), BTC 0\.1 \(about \d+(\.\d+)? USD\); short by \d+(\.\d+)? USD/,
    );
    expect(await posts()).toEqual([]);
    // Within every limit: sent, and the limits it was checked against are in the preview.
    const dry = await sb.run(btc('0.005', '--quote', '--dry-run', '-o', 'table'));
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toMatch(/limits\s+within per-transfer, daily-usd, daily-btc/);
    const ok = await sb.run(btc('0.005', '--yes'));
    expect(ok.code, ok.stderr).toBe(0);
    expect(await posts()).toHaveLength(1);
  });

  it('a limit in an asset counts that asset exactly: what is left of it today', async () => {
    await sb.control('PUT', '/_local/limits', { rules: [RULES[2]] });
    expect((await sb.run(btc('0.015', '--quote', '--yes'))).code).toBe(0);
    await sb.sent();
    // 0.02 - 0.01502 = 0.00498 BTC left: 0.005 plus its fee is over it by 0.00004.
    const r = await sb.run(btc('0.005', '--quote', '--yes'));
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      'error: over a transfer limit: limit daily-btc (0.02 BTC per 24 h, 0.00498 BTC left): this withdrawal (amount plus fee), BTC 0.00502; short by 0.00004 BTC',
    );
    expect(await posts()).toEqual([]);
  });

  it('limits that cannot be read are unknown: noted, and the withdrawal goes on', async () => {
    await sb.control('PUT', '/_local/faults', { rate500: 1, pathPrefix: '/v2/transfer/limits', method: 'GET' });
    const r = await sb.run(btc('0.005', '--yes'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^note: transfer limits unknown \(.*\); not checked before sending$/m);
    expect(await posts()).toHaveLength(1);
  });
});

describe('withdraw batch: the transfer limits before the first row', () => {
  it('a dry run reports each limit the batch would go over (exit 2); a real run is refused unless --allow-partial', async () => {
    await sb.control('PUT', '/_local/limits', { rules: [RULES[2]] });
    const f = csv('btc-limit.csv', [
      `${BTC_ADDRESS},BTC,BITCOIN,0.008`,
      `${BTC_ADDRESS},BTC,BITCOIN,0.007`,
      `${BTC_ADDRESS},BTC,BITCOIN,0.006`,
    ]);
    const dry = await sb.run(['withdraw', 'batch', f, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(2);
    // 0.021 plus three fees of 0.00002 against 0.02 BTC.
    expect(dry.stderr).toContain(
      'limit daily-btc (0.02 BTC per 24 h, 0.02 BTC left): amounts plus quoted fees, BTC 0.02106; short by 0.00106 BTC\n',
    );
    expect(dry.stderr).toContain(
      'error: over the transfer limits: this batch cannot complete within what is left of them (shortfalls above)',
    );
    const real = await sb.run(['withdraw', 'batch', f, '--yes']);
    expect(real.code, real.stderr).toBe(2);
    expect(real.stderr).toContain(
      'limit daily-btc (0.02 BTC per 24 h, 0.02 BTC left): amounts (fees on top), BTC 0.021; short by 0.001 BTC\n',
    );
    expect(real.stderr).toMatch(/over the transfer limits: .*; nothing was sent/);
    expect(await posts()).toEqual([]);
    // --allow-partial sends the rows in order while the limit covers them (amount plus fee); the first it does not
    // is not sent, and says why.
    const partial = await sb.run(['withdraw', 'batch', f, '--yes', '--allow-partial', '-o', 'ndjson']);
    expect(partial.code, partial.stderr).toBe(6);
    const rows = partial.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((r) => r.result)).toEqual(['created', 'created', 'skipped']);
    // 0.02 - 0.00802 - 0.00702 is left.
    expect(rows[2].problem).toBe(
      'Not sent (--allow-partial): limit daily-btc (0.02 BTC per 24 h, 0.02 BTC left): the amount plus fee, BTC 0.00602, is over the 0.00496 BTC left of it by 0.00106 BTC',
    );
    expect(await posts()).toHaveLength(2);
    // Run again: it ran to the end, and the way to send the row not sent is given.
    const again = await sb.run(['withdraw', 'batch', f, '--yes', '--concurrency', '1']);
    expect(again.code, again.stderr).toBe(6);
    expect(again.stderr).toMatch(/this batch already ran to the end \(.*\); nothing was sent/);
    expect(again.stderr).toContain(
      `1 row was refused; to send them again: coinop withdraw batch ${f} --resume --retry-failed`,
    );
  });

  it('a limit in USD counts every asset of the batch by its notional; on each transfer, the largest row', async () => {
    // Over each limit even at half the model's usual prices (BTC about 50,000 USD, ETH about 3,000 USD).
    const f = csv('usd-limit.csv', [
      `${BTC_ADDRESS},BTC,BITCOIN,0.001`,
      `${BTC_ADDRESS},BTC,BITCOIN,0.08`,
      `${ETH_ADDRESS},ETH,BASE,2`,
    ]);
    const dry = await sb.run(['withdraw', 'batch', f, '--dry-run', '-o', 'json']);
    expect(dry.code, dry.stderr).toBe(2);
    const usd = String.raw`\d+(\.\d+)? USD`;
    expect(dry.stderr).toMatch(
      new RegExp(
        String.raw`^limit daily-usd \(3000 USD per 24 h, 3000 USD left\): amounts plus quoted fees, BTC 0\.08104 \(about ${usd}\) and ETH 2\.00001 \(about ${usd}\) come to about ${usd}; short by ${usd}$`,
        'm',
      ),
    );
    for (const asset of ['BTC 0.08002', 'ETH 2.00001'])
      expect(dry.stderr).toMatch(
        new RegExp(
          String.raw`^limit per-transfer \(1000 USD on each transfer\): the largest row \(amount plus quoted fee\), ${asset.replace('.', '\\.')} \(about ${usd}\), is over it by ${usd}$`,
          'm',
        ),
      );
    expect(await posts()).toEqual([]);
  });
});

describe('testnet destinations', () => {
  const TESTNET = 'tb1qcrh3yqn4nlleplcez2yndq2ry8h9ncg3qh7n54';
  const withdrawTo = (address: string, ...more: string[]) => [
    'withdraw',
    ...transferFlags('BTC', '0.001', address),
    ...more,
  ];
  let front: TlsFront;
  beforeAll(async () => {
    front = await tlsFront(sb.svc.baseUrl);
    await saveContext(sb.env, 'prodlike', { environment: 'production', baseUrl: front.url });
    await saveContext(sb.env, 'sandboxlike', { environment: 'sandbox', baseUrl: front.url });
  });
  afterAll(async () => front?.close());
  // The saved https addresses, not the sandbox's plain ones.
  const env = () => ({ ...TLS_ENV, COINOP_BASE_URL: undefined, COINOP_AUTH_URL: undefined });

  it('the local service and the sandbox take one (the confirmation says it is a testnet address)', async () => {
    const local = await sb.run(withdrawTo(TESTNET, '--dry-run', '-o', 'table'));
    expect(local.code, local.stderr).toBe(0);
    expect(local.stderr).toContain(`destination  ${TESTNET} (BITCOIN testnet)`);
    const sandboxed = await sb.run(['--context', 'sandboxlike', ...withdrawTo(TESTNET, '--yes')], { env: env() });
    expect(sandboxed.code, sandboxed.stderr).toBe(0);
    expect(await posts()).toHaveLength(1);
  });

  it('production refuses one before anything is sent, a batch row too; mainnet addresses go', async () => {
    const r = await sb.run(['--context', 'prodlike', ...withdrawTo(TESTNET, '--yes')], { env: env() });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      'error: --address: a testnet address in production: coinop sends to BITCOIN testnet addresses only in the sandbox and on the local service',
    );
    const f = csv('testnet.csv', [`${BTC_ADDRESS},BTC,BITCOIN,0.001`, `${TESTNET},BTC,BITCOIN,0.001`]);
    const batch = await sb.run(['--context', 'prodlike', 'withdraw', 'batch', f, '--yes'], { env: env() });
    expect(batch.code, batch.stderr).toBe(2);
    const issue = JSON.parse(batch.stderr.split('\n')[0]);
    expect(issue).toEqual({
      row: 2,
      line: 3,
      field: 'destination_address',
      rule: 'a testnet address in production: coinop sends to BITCOIN testnet addresses only in the sandbox and on the local service',
    });
    expect(await posts()).toEqual([]);
    const fee = await sb.run(['--context', 'prodlike', 'fee', 'quote', ...withdrawTo(TESTNET).slice(1)], {
      env: env(),
    });
    expect(fee.code, fee.stderr).toBe(2);
    expect((await sb.sent()).filter((e) => e.url.includes('/fees/'))).toEqual([]);
    const mainnet = await sb.run(['--context', 'prodlike', ...withdrawTo(BTC_ADDRESS, '--yes')], { env: env() });
    expect(mainnet.code, mainnet.stderr).toBe(0);
    expect(await posts()).toHaveLength(1);
  });
});
