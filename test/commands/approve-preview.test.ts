// coinop approve shows what is signed before it asks (issue 29, items 8 and 2): a batch's rows (row, destination with
// its nickname in the address book, asset, network, amount, a profile by its nickname), a saved request's fields, the
// totals per asset, the environment and the context. The run is called with fakes of its ports over a local service;
// the confirmer keeps what it was shown and answers.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { approve } from '../../src/commands/approve/run.js';
import type { ApproveOptions } from '../../src/commands/approve/options.js';
import { PREVIEW_ROWS } from '../../src/commands/approve/preview.js';
import { summaryText } from '../../src/cli/confirm.js';
import { DEMO } from '../../src/embedded/demo.js';
import { BTC_ADDRESS, ETH_ADDRESS } from '../cli/helpers.js';
import { moneyPortsOf, sharedLocalFixture } from './ports.js';

const local = sharedLocalFixture();
const deps = moneyPortsOf(local);
const dir = mkdtempSync(join(tmpdir(), 'coinop-approve-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const options = (file: string): ApproveOptions => ({
  file,
  showKey: false,
  skipInvalid: false,
  allowRepeat: false,
  yes: false,
});

describe('approve shows what is signed before asking', () => {
  it('a batch: a table of its rows under the environment, context and totals', async () => {
    const file = join(dir, 'payouts.csv');
    writeFileSync(
      file,
      `asset,crypto_network,destination_address,amount\nBTC,BITCOIN,${BTC_ADDRESS},0.1\nBTC,BITCOIN,${BTC_ADDRESS},0.2\nETH,ETHEREUM,${ETH_ADDRESS},4\n`,
    );
    const p = deps({ width: 120 });
    await approve(p, options(file));
    const [shown] = p.confirmer.shown;
    expect(shown.question).toBe('Sign this approval with your key?');
    const rows = Object.fromEntries(shown.rows);
    expect(rows.environment).toMatch(/^local \(http:\/\/127\.0\.0\.1:\d+\)$/);
    expect(rows.context).toBe('local');
    expect(rows['BTC BITCOIN']).toBe('0.3 (2 rows)');
    expect(rows['ETH ETHEREUM']).toBe('4 (1 row)');
    const table = shown.table ?? [];
    expect(table[0]).toMatch(/^ {2}ROW +DESTINATION +ASSET +NETWORK +AMOUNT$/);
    expect(table.slice(1)).toEqual([
      expect.stringMatching(new RegExp(`^ {2}1 +${BTC_ADDRESS} +BTC +BITCOIN +0\\.1$`)),
      expect.stringMatching(new RegExp(`^ {2}2 +${BTC_ADDRESS} +BTC +BITCOIN +0\\.2$`)),
      expect.stringMatching(new RegExp(`^ {2}3 +${ETH_ADDRESS} +ETH +ETHEREUM +4$`)),
    ]);
    // What the operator reads on the terminal before the question: the summary, then the rows.
    const text = summaryText(p.display.io, shown);
    expect(text.indexOf('BTC BITCOIN')).toBeLessThan(text.indexOf(BTC_ADDRESS));
  });

  it('a profile named by its nickname as "payroll (e950ba30)", a destination of the address book with its nickname', async () => {
    const payroll = 'e950ba30-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
    await fetch(`${local.svc.baseUrl}/_local/profiles`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: payroll, customer_id: DEMO.customerId, nickname: 'payroll' }),
    });
    const conn = await local.connector().connect();
    const book = { crypto_network: 'BITCOIN', address: BTC_ADDRESS, nickname: 'cold-store' };
    await conn.client.call('putCryptoDestinationAddress', { body: book });
    const file = join(dir, 'named.csv');
    writeFileSync(
      file,
      `profile_id,asset,crypto_network,destination_address,amount\nPayroll,BTC,BITCOIN,${BTC_ADDRESS},0.1\n,ETH,ETHEREUM,${ETH_ADDRESS},4\n`,
    );
    const p = deps({ width: 160 });
    await approve(p, options(file));
    const [shown] = p.confirmer.shown;
    const table = shown.table ?? [];
    expect(table[0]).toMatch(/^ {2}ROW +DESTINATION +ASSET +NETWORK +AMOUNT +PROFILE$/);
    expect(table.slice(1)).toEqual([
      expect.stringMatching(
        new RegExp(`^ {2}1 +${BTC_ADDRESS} \\(cold-store\\) +BTC +BITCOIN +0\\.1 +payroll \\(e950ba30\\)$`),
      ),
      expect.stringMatching(new RegExp(`^ {2}2 +${ETH_ADDRESS} +ETH +ETHEREUM +4 *$`)),
    ]);
    // The default profile by its nickname too (the list was read for the rows' names).
    expect(Object.fromEntries(shown.rows).profile_id).toBe('demo (5d1f2a3b)');
    // What is signed holds the id the name named, and says which name it was.
    const signed = p.policy.events.at(-1);
    expect(signed?.type === 'approval-signed' && readFileSync(signed.approval_file, 'utf8')).toContain(
      `profile_names: {"payroll":"${payroll}"}`,
    );
  });

  it('a long batch: the first rows, and how many more the totals count', async () => {
    const file = join(dir, 'long.csv');
    const n = PREVIEW_ROWS + 7;
    const lines = Array.from({ length: n }, () => `BTC,BITCOIN,${BTC_ADDRESS},0.001`);
    writeFileSync(file, `asset,crypto_network,destination_address,amount\n${lines.join('\n')}\n`);
    const p = deps({ width: 120 });
    await approve(p, options(file));
    const table = p.confirmer.shown[0].table ?? [];
    expect(table).toHaveLength(PREVIEW_ROWS + 2);
    expect(table.at(-1)).toBe('  … and 7 more rows (the totals above count every row)');
    expect(Object.fromEntries(p.confirmer.shown[0].rows).rows).toBe(String(n));
  });

  it('a saved withdrawal: each of its fields', async () => {
    const file = join(dir, 'payout-7.json');
    const conn = await local.connector().connect();
    const saved = {
      coinop_request: 1,
      kind: 'withdrawal',
      environment: 'local',
      service: conn.context.baseUrl,
      profile_id: conn.context.profileId,
      saved_at: '2026-11-26T12:00:00.000Z',
      request: {
        profile_id: conn.context.profileId,
        asset: 'BTC',
        crypto_network: 'BITCOIN',
        destination_address: BTC_ADDRESS,
        amount: '0.25',
        ref_id: 'payout-7',
      },
    };
    writeFileSync(file, JSON.stringify(saved));
    const p = deps({ width: 120 });
    await approve(p, options(file));
    const rows = Object.fromEntries(p.confirmer.shown[0].rows);
    expect(rows).toMatchObject({
      kind: 'withdrawal',
      destination_address: BTC_ADDRESS,
      asset: 'BTC',
      crypto_network: 'BITCOIN',
      amount: '0.25',
      ref_id: 'payout-7',
      context: 'local',
    });
    expect(p.confirmer.shown[0].table).toBeUndefined();
  });
});
