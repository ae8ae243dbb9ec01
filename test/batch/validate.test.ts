// Row validation over whole files: every problem with row, line, field and rule; missing columns named once; totals.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scanFile } from '../../src/batch/scan.js';
import { formatRowIssue, type RowIssue } from '../../src/batch/rows.js';
import type { BatchFormat } from '../../src/batch/reader.js';
import { BTC_ADDRESS as BTC, ETH_ADDRESS as ETH } from '../support/addresses.js';

const dir = mkdtempSync(join(tmpdir(), 'coinop-batch-validate-'));

async function scan(
  name: string,
  text: string,
  format: BatchFormat = 'csv',
  defaultProfileId: string | null = 'prof-1',
) {
  const f = join(dir, name);
  writeFileSync(f, text);
  const issues: RowIssue[] = [];
  const rows: any[] = [];
  const r = await scanFile(f, {
    format,
    defaultProfileId: defaultProfileId ?? undefined,
    onIssue: (i) => issues.push(i),
    onRow: (row) => void rows.push(row),
  });
  return { r, issues: issues.map(formatRowIssue), rows };
}

describe('batch validation', () => {
  it('accepts a good CSV with metadata columns and a default profile', async () => {
    const { r, issues, rows } = await scan(
      'good.csv',
      `destination_address,asset,crypto_network,amount,total,meta.invoice,ref_id\n${BTC},BTC,BITCOIN,0.01,,inv-1,\n${ETH},ETH,ETHEREUM,,1.5,,my-ref\n`,
    );
    expect(issues).toEqual([]);
    expect(r).toMatchObject({ rows: 2, valid: 2, invalid: 0 });
    // A row without ref_id gets its derived one once the whole file is read (Stage.finish).
    expect(rows[0].body).toEqual({
      destination_address: BTC,
      asset: 'BTC',
      crypto_network: 'BITCOIN',
      amount: '0.01',
      metadata: { invoice: 'inv-1' },
      profile_id: 'prof-1',
    });
    expect(rows[0].derived).toBe(true);
    expect(rows[1].body.ref_id).toBe('my-ref');
    expect(r.totals.map((t) => [t.asset, t.rows, t.amount.toFixed(), t.total.toFixed()])).toEqual([
      ['BTC', 1, '0.01', '0'],
      ['ETH', 1, '0', '1.5'],
    ]);
  });

  it('refuses a key a JSON row gives twice, in any case, as a repeated CSV header is (issue 23)', async () => {
    const row = (extra: string) =>
      `{"destination_address":"${BTC}","asset":"BTC","crypto_network":"BITCOIN","amount":"0.01"${extra}}`;
    const lines = [
      row(''),
      row(',"amount":"7"'),
      row(',"Amount":"7"'),
      row(',"AMOUNT":"0.01"'),
      row(',"metadata":{"invoice":"A","invoice":"B"}'),
      row(',"meta.invoice":"A","metadata":{"invoice":"B"}'),
      row(',"am\\u006funt":"7"'),
      row(',"meta.Invoice":"A","meta.invoice":"B"'),
    ];
    for (const [format, text] of [
      ['jsonl', lines.join('\n')],
      ['json', `[\n${lines.join(',\n')}\n]`],
    ] as [BatchFormat, string][]) {
      const { r, issues } = await scan(`twice.${format}`, text, format);
      // The array's rows start on line 2.
      const at = (row: number) => `row ${row}${format === 'json' ? ` (line ${row + 1})` : ''}`;
      expect(issues, format).toEqual([
        `${at(2)}: amount: is given twice in the row: JSON keeps one of them silently, so give each field once`,
        `${at(3)}: Amount: is given twice in the row ("amount" and "Amount"): JSON keeps one of them silently, so give each field once`,
        `${at(4)}: AMOUNT: is given twice in the row ("amount" and "AMOUNT"): JSON keeps one of them silently, so give each field once`,
        `${at(5)}: metadata.invoice: is given twice in the row: JSON keeps one of them silently, so give each field once`,
        `${at(6)}: meta.invoice: is given twice in the row (as meta.KEY and in metadata)`,
        `${at(7)}: amount: is given twice in the row: JSON keeps one of them silently, so give each field once`,
      ]);
      // Metadata keys keep their case: meta.Invoice and meta.invoice are two keys.
      expect(r, format).toMatchObject({ rows: 8, valid: 2, invalid: 6 });
    }
  });

  it('checks each destination by its checksum: a mistyped character names the row and destination_address', async () => {
    const text = [
      'destination_address,asset,crypto_network,amount',
      `${BTC},BTC,BITCOIN,0.1`,
      '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3,BTC,BITCOIN,0.1',
      'bc1qqqqqqqqqqqqqq,BTC,BITCOIN,0.1',
      '0xF0Aa84466e353E5390be37FE2934301c07c19A55,ETH,ETHEREUM,0.1',
      `${ETH.toLowerCase()},ETH,BASE,0.1`,
      'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6c,BCH,BITCOIN_CASH,0.1',
      'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ,XLM,STELLAR,10',
    ].join('\n');
    const { r, issues } = await scan('addresses.csv', text);
    expect(issues).toEqual([
      'row 2 (line 3): destination_address: checksum does not match: a character is mistyped',
      'row 3 (line 4): destination_address: checksum does not match: a character is mistyped',
      'row 4 (line 5): destination_address: checksum does not match: a character is mistyped (EIP-55 upper/lower case)',
      'row 6 (line 7): destination_address: checksum does not match: a character is mistyped',
    ]);
    expect(r).toMatchObject({ rows: 7, valid: 3, invalid: 4 });
  });

  it('reports every problem of a bad CSV at once, with row, field and rule', async () => {
    const meta = Array.from({ length: 7 }, (_, i) => `meta.k${i}`).join(',');
    const text = [
      `destination_address,asset,crypto_network,amount,total,${meta},ref-id`,
      `${BTC},BTC,BITCOIN,-1,,,,,,,,,red`,
      `${BTC},BTC,BITCOIN,0.1,0.2,,,,,,,,`,
      `${BTC},BTC,MOONCHAIN,0.1,,,,,,,,,`,
      `${BTC},BTC,BITCOIN,0.1,,a,b,c,d,e,f,g,`,
      `${BTC},BTC,BITCOIN,"0.1"x,,,,,,,,,`,
      `nope,BTC,BITCOIN,0.1,,,,,,,,,`,
      `${BTC},BTC,BITCOIN,1e3,,,,,,,,,`,
      `${ETH},ETH,BITCOIN,0.1,,,,,,,,,`,
      `${BTC},BTC,BITCOIN,0.5,,,,,,,,,`,
    ].join('\n');
    const { r, issues } = await scan('bad.csv', text);
    expect(issues).toEqual([
      'line 1: ref-id: is not a withdrawal field (did you mean ref_id?); columns are profile_id, destination_address, asset, crypto_network, amount, total, ref_id, identity_id, account_id, balance_asset, fee_id, memo, beneficiary.first_name, beneficiary.last_name, beneficiary.institution and meta.KEY',
      'row 1 (line 2): amount: must be a plain decimal number such as 0.05 (digits and one point, no sign or exponent)',
      'row 2 (line 3): amount: give exactly one of amount and total, not both',
      'row 3 (line 4): crypto_network: must be one of BITCOIN, ETHEREUM, BITCOIN_CASH, LITECOIN, SOLANA, POLYGON_POS, BASE, ARBITRUM_ONE, STELLAR, INK, XLAYER, AVALANCHE, DOGECOIN, SUI, ROBINHOOD, BNB',
      'row 4 (line 5): metadata: must have at most 6 pairs',
      'row 5 (line 6): text after a closing quote in field 4 (a quote inside a quoted field is written "")',
      'row 6 (line 7): destination_address: wrong length: not a 20-byte hash with its version byte and checksum',
      'row 7 (line 8): amount: must be a plain decimal number such as 0.05 (digits and one point, no sign or exponent)',
      'row 8 (line 9): crypto_network: ETH cannot be withdrawn on BITCOIN (use ETHEREUM, BASE, ARBITRUM_ONE, INK, XLAYER, ROBINHOOD)',
      // The network is one the catalogue knows: the address is checked against it too, so the row's every problem shows.
      `row 8 (line 9): destination_address: ${ETH} is not a BITCOIN address (it looks like an EVM address)`,
    ]);
    expect(r).toMatchObject({ rows: 9, valid: 1, invalid: 8 });
  });

  it('takes column names and asset and network names in any case, and sends their one spelling', async () => {
    const csv = `Destination_Address,ASSET,Crypto_Network,Amount,META.Invoice,balance_ASSET\n${BTC},btc,bitcoin,0.01,inv-1,\n${ETH},usdp,Ethereum,5,,usd\n`;
    const { issues, rows } = await scan('cases.csv', csv);
    expect(issues).toEqual([]);
    expect(rows.map((r) => r.body)).toEqual([
      {
        destination_address: BTC,
        asset: 'BTC',
        crypto_network: 'BITCOIN',
        amount: '0.01',
        metadata: { Invoice: 'inv-1' },
        profile_id: 'prof-1',
      },
      {
        destination_address: ETH,
        asset: 'USDP',
        crypto_network: 'ETHEREUM',
        amount: '5',
        balance_asset: 'USD',
        profile_id: 'prof-1',
      },
    ]);
    const jsonl = `{"Destination_Address":"${BTC}","asset":"Btc","crypto_network":"bitcoin","amount":"0.01"}\n`;
    const json = await scan('cases.jsonl', jsonl, 'jsonl');
    expect(json.issues).toEqual([]);
    expect(json.rows[0].body).toMatchObject({ destination_address: BTC, asset: 'BTC', crypto_network: 'BITCOIN' });
  });

  it('reports every problem of one row, not only the first', async () => {
    const text = `destination_address,asset,crypto_network,amount,ref_id\n1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3,eth,bitcoin,-2,${'r'.repeat(300)}\n`;
    const { issues } = await scan('one-row.csv', text);
    expect(issues).toEqual([
      'row 1 (line 2): ref_id: must be at most 128 characters',
      'row 1 (line 2): amount: must be a plain decimal number such as 0.05 (digits and one point, no sign or exponent)',
      'row 1 (line 2): crypto_network: ETH cannot be withdrawn on BITCOIN (use ETHEREUM, BASE, ARBITRUM_ONE, INK, XLAYER, ROBINHOOD)',
      'row 1 (line 2): destination_address: checksum does not match: a character is mistyped',
    ]);
  });

  it('names missing columns once, not on every row', async () => {
    const { issues } = await scan('nohdr.csv', `address,asset,amount\nx,BTC,1\ny,BTC,2\n`, 'csv', null);
    expect(issues).toEqual([
      expect.stringMatching(/^line 1: address: is not a withdrawal field/),
      'line 1: destination_address: column is required',
      'line 1: crypto_network: column is required',
      'line 1: profile_id: column is required (or give --profile-id)',
    ]);
  });

  it('reports an unterminated quote and what came before it', async () => {
    const { r, issues } = await scan(
      'quote.csv',
      `destination_address,asset,crypto_network,amount\n${BTC},BTC,BITCOIN,x\n${BTC},BTC,"BITCOIN,0.1\n${BTC},BTC,BITCOIN,0.1\n`,
    );
    expect(issues[0]).toMatch(/^row 1 \(line 2\): amount: must be a plain decimal/);
    expect(issues[1]).toBe(
      'row 2 (line 3): the quote opened on line 3 is never closed; the rest of the file was not read',
    );
    expect(r.fatal).toBeDefined();
  });

  it('a runaway quote stops reading, and the rows before it are still checked', async () => {
    const { r, issues } = await scan(
      'runaway.csv',
      `destination_address,asset,crypto_network,amount\n${BTC},BTC,BITCOIN,x\n${BTC},BTC,"BITCOIN${'z'.repeat(70_000)}\n`,
    );
    expect(issues[0]).toMatch(/^row 1 \(line 2\): amount: must be a plain decimal/);
    expect(issues[1]).toMatch(/^row 2 \(line 3\): a quoted field opened on line 3 runs past 65536 characters/);
    expect(r.fatal).toBeDefined();
  });

  it('checks JSON Lines and JSON arrays the same way, repeated ref_ids included', async () => {
    const good = { destination_address: BTC, asset: 'BTC', crypto_network: 'BITCOIN', amount: '0.01', ref_id: 'r1' };
    const lines = [
      good,
      { ...good, amount: 0.5, ref_id: 'r2' },
      { ...good },
      { ...good, ref_id: 'r3', 'meta.a': 'x', metadata: { b: 'y' } },
      ['x'],
    ];
    const { issues, rows } = await scan('b.jsonl', lines.map((l) => JSON.stringify(l)).join('\n'), 'jsonl');
    expect(issues).toEqual([
      'row 2: amount: must be a string such as "0.5" (JSON numbers lose precision)',
      'row 3: ref_id: repeats the ref_id of row 1 (each withdrawal needs its own)',
      'row 5: must be a JSON object of withdrawal fields',
    ]);
    expect(rows.map((r) => r.body.metadata)).toEqual([undefined, { a: 'x', b: 'y' }]);
    const arr = await scan('b.json', JSON.stringify(lines), 'json');
    expect(arr.issues.map((i) => i.replace(/ \(line \d+\)/, ''))).toEqual(issues);
  });
});
