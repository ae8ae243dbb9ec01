// withdraw batch --allow-partial (issue 29): the rows the balances and the transfer limits cover are sent, in the file's
// order; the first row of an asset that a balance (its amount plus fee) or a limit cannot cover is not sent, nor any
// later row of that asset, and each is reported as skipped with the reason; the run ends with exit 6 and says so, and
// --resume --retry-failed sends them once there is money again. In process, against a local service of its own.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BTC_ADDRESS, ETH_ADDRESS, sandbox, type Sandbox } from '../cli/helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => sb?.close());

/** The demo state again, and no request counted yet. */
async function fresh(): Promise<void> {
  await sb.control('POST', '/_local/reset');
  await sb.sent();
}

/** The withdrawals the service was asked for since the last call, and how it answered each. */
async function withdrawalPosts(): Promise<number[]> {
  return (await sb.sent())
    .filter((e) => e.method === 'POST' && e.url.startsWith('/v2/transfer/crypto-withdrawals'))
    .map((e) => (e as unknown as { status: number }).status);
}

function csv(name: string, rows: string[]): string {
  const f = join(sb.dir, name);
  writeFileSync(f, `profile_id,destination_address,asset,crypto_network,amount\n${rows.join('\n')}\n`);
  return f;
}

const results = (stdout: string) =>
  (JSON.parse(stdout) as { row: number; result: string; problem: string | null }[]).map((r) => [
    r.row,
    r.result,
    r.problem,
  ]);

describe('withdraw batch --allow-partial', () => {
  it('sends the rows the balances cover; the first an asset cannot cover, and the rest of that asset, are skipped', async () => {
    await fresh();
    const p = (await sb.control('POST', '/_local/profiles', { nickname: 'partial' })) as { id: string };
    await sb.control('POST', `/_local/profiles/${p.id}/balances`, { asset: 'BTC', amount: '0.5' });
    await sb.control('POST', `/_local/profiles/${p.id}/balances`, { asset: 'ETH', amount: '0.7' });
    // Fees: 0.00002 BTC on BITCOIN, 0.0005 ETH on ETHEREUM.
    const f = csv('balances.csv', [
      `${p.id},${BTC_ADDRESS},BTC,BITCOIN,0.2`,
      `${p.id},${ETH_ADDRESS},ETH,ETHEREUM,0.3`,
      `${p.id},${BTC_ADDRESS},BTC,BITCOIN,0.2`,
      `${p.id},${BTC_ADDRESS},BTC,BITCOIN,0.2`,
      `${p.id},${ETH_ADDRESS},ETH,ETHEREUM,0.3`,
      `${p.id},${BTC_ADDRESS},BTC,BITCOIN,0.01`,
      `${p.id},${ETH_ADDRESS},ETH,ETHEREUM,0.3`,
    ]);
    const r = await sb.runIn(['withdraw', 'batch', f, '--yes', '--allow-partial', '-o', 'json']);
    expect(r.code, r.stderr).toBe(6);
    const over = (leaving: string, left: string, asset: string) =>
      `Not sent (--allow-partial): the amount plus fee, ${leaving} ${asset}, is more than the ${left} ${asset} left of the available balance (service profile ${p.id})`;
    expect(results(r.stdout)).toEqual([
      [1, 'created', null],
      [2, 'created', null],
      [3, 'created', null],
      [4, 'skipped', over('0.20002', '0.09996', 'BTC')],
      [5, 'created', null],
      // It would fit, but BTC ran out at row 4: rows of an asset are never sent out of order.
      [6, 'skipped', 'Not sent (--allow-partial): BTC ran out at row 4 (rows of an asset go in order)'],
      [7, 'skipped', over('0.3005', '0.099', 'ETH')],
    ]);
    // Before anything was sent, the rows not covered were said; the service was asked for the rest only, all taken.
    expect(r.stderr).toContain(`row 4: not sent: ${over('0.20002', '0.09996', 'BTC').replace(/^Not sent.*?: /, '')}\n`);
    expect(r.stderr).toContain('row 6: not sent: BTC ran out at row 4 (rows of an asset go in order)\n');
    expect(await withdrawalPosts()).toEqual([200, 200, 200, 200]);
    expect(r.stderr).toContain('7 rows: 4 created, 3 skipped (--allow-partial: a balance or a limit ran out)');
    const cont = `coinop withdraw batch ${f} --resume --retry-failed`;
    expect(r.stderr.trim().split('\n').at(-1)).toBe(`continue it: ${cont}`);
    const audit = readFileSync(join(sb.env.COINOP_DATA_DIR, 'audit', 'audit.log'), 'utf8')
      .trim()
      .split('\n');
    expect(JSON.parse(audit.at(-1) as string).outcome.counts).toMatchObject({ created: 4, failed: 0, skipped: 3 });

    // Topped up: the command it gave sends the rows skipped, and only them.
    await sb.control('POST', `/_local/profiles/${p.id}/balances`, { asset: 'BTC', amount: '1' });
    await sb.control('POST', `/_local/profiles/${p.id}/balances`, { asset: 'ETH', amount: '1' });
    const rest = await sb.runIn([...cont.split(' ').slice(1), '--yes', '-o', 'json']);
    expect(rest.code, rest.stderr).toBe(0);
    expect(results(rest.stdout).map(([row, result]) => [row, result])).toEqual(
      [1, 2, 3, 4, 5, 6, 7].map((row) => [row, 'created']),
    );
    expect(await withdrawalPosts()).toEqual([200, 200, 200]);
  });

  it('a transfer limit: on each transfer, or what is left of a period; a limit of an asset leaves the others alone', async () => {
    await fresh();
    await sb.control('PUT', '/_local/limits', {
      rules: [
        { id: 'each', transfer_types: ['CRYPTO_WITHDRAWAL'], period_seconds: 0, limit: '10000', limit_asset: 'USD' },
        {
          id: 'eth-day',
          transfer_types: ['CRYPTO_WITHDRAWAL'],
          period_seconds: 86400,
          limit: '0.05',
          limit_asset: 'ETH',
        },
      ],
    });
    const demo = '';
    const f = csv('limits.csv', [
      `${demo},${ETH_ADDRESS},ETH,ETHEREUM,0.02`,
      `${demo},${BTC_ADDRESS},BTC,BITCOIN,0.001`,
      `${demo},${BTC_ADDRESS},BTC,BITCOIN,1`,
      `${demo},${ETH_ADDRESS},ETH,ETHEREUM,0.03`,
      `${demo},${BTC_ADDRESS},BTC,BITCOIN,0.001`,
      `${demo},${ETH_ADDRESS},ETH,ETHEREUM,0.001`,
    ]);
    const r = await sb.runIn(['withdraw', 'batch', f, '--yes', '--allow-partial', '-o', 'json']);
    expect(r.code, r.stderr).toBe(6);
    const rows = results(r.stdout);
    expect(rows.map(([row, result]) => [row, result])).toEqual([
      [1, 'created'],
      [2, 'created'],
      [3, 'skipped'],
      [4, 'skipped'],
      [5, 'skipped'],
      [6, 'skipped'],
    ]);
    // 1 BTC is some 50,000 USD: over the limit on each transfer; the BTC after it waits with it.
    expect(rows[2][2]).toMatch(
      /^Not sent \(--allow-partial\): limit each \(10000 USD on each transfer\): the amount plus fee, BTC 1\.00002 \(about [\d.]+ USD\), is over it by [\d.]+ USD$/,
    );
    expect(rows[4][2]).toBe('Not sent (--allow-partial): BTC ran out at row 3 (rows of an asset go in order)');
    // 0.0205 ETH of the 0.05 a day taken by row 1: row 4 would go over what is left.
    expect(rows[3][2]).toBe(
      'Not sent (--allow-partial): limit eth-day (0.05 ETH per 24 h, 0.05 ETH left): the amount plus fee, ETH 0.0305, is over the 0.0295 ETH left of it by 0.001 ETH',
    );
    expect(rows[5][2]).toBe('Not sent (--allow-partial): ETH ran out at row 4 (rows of an asset go in order)');
    expect(await withdrawalPosts()).toEqual([200, 200]);
  });

  it('not even the first row of each asset: refused before anything is planned (exit 2), nothing sent', async () => {
    await fresh();
    const p = (await sb.control('POST', '/_local/profiles', { nickname: 'dry' })) as { id: string };
    const f = csv('none.csv', [`${p.id},${BTC_ADDRESS},BTC,BITCOIN,0.1`, `${p.id},${BTC_ADDRESS},BTC,BITCOIN,0.2`]);
    const r = await sb.runIn(['withdraw', 'batch', f, '--yes', '--allow-partial']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('row 2: not sent: BTC ran out at row 1 (rows of an asset go in order)\n');
    expect(r.stderr).toMatch(
      /error: insufficient funds or over the transfer limits: no row can be sent, not even the first of each asset \(listed above\); nothing was sent/,
    );
    expect(await withdrawalPosts()).toEqual([]);
  });
});
