// withdraw batch end to end against the local service: bad files send nothing and list every problem at once;
// dry run totals; exit codes for all succeeded, some failed, none sent; stdin and JSON input; --wait.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO } from '../../src/embedded/demo.js';
import { ethCsv, journalEntries, run, startEnv, withdrawals, type Env, inputFile } from './support/harness.js';
import { saveContext } from '../support/contexts.js';
import { TLS_ENV, tlsFront } from '../support/tls.js';
import { BTC_ADDRESS as BTC, ETH_ADDRESS as ETH } from '../support/addresses.js';

let e: Env;
beforeAll(async () => {
  e = await startEnv({ withdrawalSettleSeconds: 1, journalSize: 5000 });
});
afterAll(async () => {
  await e?.svc.close();
});

const file = (name: string, text: string) => inputFile(e, name, text);

async function v2Requests(): Promise<string[]> {
  return (await journalEntries(e.svc)).filter((j) => j.url.startsWith('/v2/')).map((j) => `${j.method} ${j.url}`);
}

describe('withdraw batch: bad files', () => {
  it('lists every problem of every bad file at once and sends nothing', async () => {
    const before = await v2Requests();
    const meta = Array.from({ length: 7 }, (_, i) => `meta.k${i}`).join(',');
    const cases: [string, string, RegExp[]][] = [
      [
        'header.csv',
        `address,asset,network,amout\n${BTC},BTC,BITCOIN,0.1\n`,
        [
          /line 1: address: is not a withdrawal field/,
          /line 1: amout: is not a withdrawal field \(did you mean amount\?\)/,
          /line 1: destination_address: column is required/,
          /line 1: crypto_network: column is required/,
        ],
      ],
      [
        'rows.csv',
        [
          `destination_address,asset,crypto_network,amount,total,${meta}`,
          `${BTC},BTC,BITCOIN,12abc,,,,,,,,`,
          `${BTC},BTC,BITCOIN,0.1,0.2,,,,,,,`,
          `${BTC},BTC,BITCOIN_SV,0.1,,,,,,,,`,
          `${BTC},BTC,BITCOIN,0.1,,a,b,c,d,e,f,g`,
          `${BTC},BTC,BITCOIN,0.1,,x"y,,,,,,`,
          `${BTC},BTC,BITCOIN,0.123456789,,,,,,,,`,
          `${BTC},BTC,BITCOIN,0.5,,,,,,,,`,
        ].join('\r\n'),
        [
          /row 1 \(line 2\): amount: must be a plain decimal number/,
          /row 2 \(line 3\): amount: give exactly one of amount and total, not both/,
          /row 3 \(line 4\): crypto_network: "BITCOIN_SV" is not one of the 16 choices \(did you mean BITCOIN or BITCOIN_CASH\?\)/,
          /row 4 \(line 5\): metadata: must have at most 6 pairs/,
          /row 5 \(line 6\): a quote inside an unquoted field 6/,
          /row 6 \(line 7\): amount: has more than the 8 decimals BTC allows/,
        ],
      ],
      [
        'quote.csv',
        `destination_address,asset,crypto_network,amount\n${BTC},BTC,BITCOIN,-5\n${BTC},BTC,"BITCOIN,0.1\n`,
        [
          /row 1 \(line 2\): amount: must be a plain decimal/,
          /row 2 \(line 3\): the quote opened on line 3 is never closed/,
        ],
      ],
      [
        'rows.jsonl',
        [
          JSON.stringify({ destination_address: ETH, asset: 'ETH', crypto_network: 'ETHEREUM', amount: 0.5 }),
          JSON.stringify({
            destination_address: ETH,
            asset: 'ETH',
            crypto_network: 'ETHEREUM',
            amount: '1',
            metadata: { ['k'.repeat(101)]: 'v' },
          }),
          '{"destination_address": "oops"',
        ].join('\n'),
        [/row 1: amount: must be a string such as "0.5"/, /row 2: metadata/, /row 3: is not valid JSON/],
      ],
    ];
    for (const [name, text, expected] of cases) {
      const r = await run(e, ['withdraw', 'batch', file(name, text), '--yes', '-o', 'table']);
      expect(r.code, `${name}: ${r.stderr}`).toBe(2);
      for (const re of expected) expect(r.stderr, name).toMatch(re);
      expect(r.stderr).toMatch(/nothing was sent/);
      expect(r.stdout).toBe('');
      // For scripts (-o json, or piped by default) every problem is a JSON object on its own line.
      const j = await run(e, ['withdraw', 'batch', join(e.dir, name), '--yes', '-o', 'json']);
      expect(j.code).toBe(2);
      const lines = j.stderr
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines.length).toBeGreaterThan(expected.length);
      for (const l of lines.slice(0, -1))
        expect(Object.keys(l)).toEqual(expect.arrayContaining(['row', 'field', 'rule']));
      expect(lines.at(-1).error.exit_code).toBe(2);
    }
    // No request reached the API, and no journal was started.
    expect(await v2Requests()).toEqual(before);
    expect(
      existsSync(join(e.dir, 'data', 'batches'))
        ? readdirSync(join(e.dir, 'data', 'batches')).filter((f) => f.endsWith('.journal'))
        : [],
    ).toEqual([]);
  });

  it('rejects bad flags with the usage code', async () => {
    const f = file('ok.csv', ethCsv(2));
    for (const args of [
      ['--concurrency', '0'],
      ['--rate', 'fast'],
      ['--format', 'xml'],
      ['--dry-run', '--resume'],
    ]) {
      const r = await run(e, ['withdraw', 'batch', f, '--yes', ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect((await run(e, ['withdraw', 'batch', join(e.dir, 'missing.csv'), '--yes'])).code).toBe(2);
  });

  it("refuses a single withdrawal's flags, before or after `batch`, instead of ignoring them", async () => {
    const f = file('ok.csv', ethCsv(2));
    const before = await v2Requests();
    for (const argv of [
      ['withdraw', 'batch', f, '--dry-run', '--amount', '999'],
      ['withdraw', '--asset', 'BTC', 'batch', f, '--dry-run'],
    ]) {
      const r = await run(e, argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^error: --(amount|asset): not a flag of withdraw batch/);
    }
    expect(await v2Requests()).toEqual(before);
    // The flags both have still reach batch from before `batch`.
    expect((await run(e, ['withdraw', '--dry-run', 'batch', f])).code).toBe(0);
  });
});

describe('withdraw batch: sending', () => {
  it('--dry-run quotes every row and prints totals per asset and network, sending nothing', async () => {
    const text = `destination_address,asset,crypto_network,amount,total\n${BTC},BTC,BITCOIN,0.01,\n${BTC},BTC,BITCOIN,,0.02\n${ETH},ETH,BASE,1.5,\n`;
    const r = await run(e, ['withdraw', 'batch', file('dry.csv', text), '--dry-run', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const totals = JSON.parse(r.stdout);
    // Catalogue fees: BTC on BITCOIN 0.00002, ETH on BASE 0.00001.
    expect(totals).toEqual([
      { asset: 'BTC', crypto_network: 'BITCOIN', rows: 2, amount: '0.02998', fee: '0.00004', total: '0.03002' },
      { asset: 'ETH', crypto_network: 'BASE', rows: 1, amount: '1.5', fee: '0.00001', total: '1.50001' },
    ]);
    expect((await v2Requests()).filter((x) => x.startsWith('POST /v2/transfer/crypto-withdrawals'))).toEqual([]);
  });

  it('reads JSON from stdin, reports every row, and a second run of the same content sends nothing new', async () => {
    const rows = [1, 2, 3].map((i) => ({
      destination_address: ETH,
      asset: 'ETH',
      crypto_network: 'ETHEREUM',
      amount: `0.00${i}`,
      'meta.batch': 'stdin',
    }));
    const first = await run(e, ['withdraw', 'batch', '-', '--yes', '-o', 'json'], { input: JSON.stringify(rows) });
    expect(first.code, first.stderr).toBe(0);
    const report = JSON.parse(first.stdout);
    expect(report.map((r: any) => [r.row, r.result, r.status, r.amount])).toEqual([
      [1, 'created', 'PENDING', '0.001'],
      [2, 'created', 'PENDING', '0.002'],
      [3, 'created', 'PENDING', '0.003'],
    ]);
    // Same content, journal gone: the rows are refused as already paid, even under a new --journal...
    for (const f of readdirSync(join(e.dir, 'data', 'batches')))
      if (f.endsWith('.journal')) writeFileSync(join(e.dir, 'data', 'batches', f), '');
    const refused = await run(
      e,
      ['withdraw', 'batch', '-', '--yes', '-o', 'table', '--journal', join(e.dir, 'second.journal')],
      { input: JSON.stringify(rows) },
    );
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(
      /row 1: 0\.001 ETH .* already paid.*3 of 3 rows were already paid by another batch/s,
    );
    // ...and with --resume (this batch, its journal lost) the derived ref_ids make the service answer already-exists.
    const second = await run(
      e,
      ['withdraw', 'batch', '-', '--yes', '--resume', '-o', 'ndjson', '--journal', join(e.dir, 'second.journal')],
      { input: JSON.stringify(rows) },
    );
    expect(second.code, second.stderr).toBe(0);
    const again = second.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      // NDJSON lines come as rows finish: in the order the answers came, each with its row.
      .sort((a: any, b: any) => a.row - b.row);
    expect(again.map((r: any) => r.result)).toEqual(['already submitted', 'already submitted', 'already submitted']);
    expect(again.map((r: any) => r.transfer_id)).toEqual(report.map((r: any) => r.transfer_id));
    const mine = (await withdrawals(e.svc)).filter((t) => report.some((r: any) => r.ref_id === t.ref_id));
    expect(mine).toHaveLength(3);
  });

  it('a damaged journal is named with the way out', async () => {
    const f = file('damaged.csv', ethCsv(2, 'damaged-'));
    const jpath = join(e.dir, 'damaged.journal');
    writeFileSync(jpath, 'this is not a journal'.repeat(100));
    const r = await run(e, ['withdraw', 'batch', f, '--yes', '--journal', jpath]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/journal .*damaged.*mv .*run the batch again/s);
  });

  it('exit 6 when some rows fail (--skip-invalid, a refused row, a transfer that ends FAILED under --wait)', async () => {
    const text = [
      'profile_id,destination_address,asset,crypto_network,amount',
      `,${ETH},ETH,ETHEREUM,0.01`,
      `${DEMO.emptyProfileId},${ETH},ETH,ETHEREUM,0.01`,
      `,0x000000000000000000000000000000000000dEaD,ETH,ETHEREUM,0.01`,
      `,${ETH},ETH,ETHEREUM,lots`,
    ].join('\n');
    const r = await run(e, [
      'withdraw',
      'batch',
      file('mixed.csv', text),
      '--yes',
      '--skip-invalid',
      // A row the balance cannot cover is not sent, and the batch is not refused up front.
      '--allow-partial',
      '--wait',
      '-o',
      'csv',
    ]);
    expect(r.code, r.stderr).toBe(6);
    const lines = r.stdout.trim().split(/\r?\n/);
    expect(lines[0]).toBe(
      'row,ref_id,result,transfer_id,status,asset,crypto_network,amount,fee,total,destination_address,problem',
    );
    expect(lines[1]).toMatch(
      /^1,batch-[0-9a-f]{24}-1,created,[0-9a-f-]{36},COMPLETED,ETH,ETHEREUM,0.01,0.0005,0.0105,/,
    );
    expect(lines[2]).toMatch(
      /^2,batch-[0-9a-f]{24}-1,skipped,,,ETH,ETHEREUM,0.01,,,0x\w+,"Not sent \(--allow-partial\): the amount plus fee, 0.0105 ETH, is more than the 0 ETH left of the available balance \(service profile e3a0c9d1-2b4f-4e6a-9c8d-7f6e5d4c3b2a\)"$/,
    );
    expect(lines[3]).toMatch(/^3,batch-[0-9a-f]{24}-1,failed,[0-9a-f-]{36},FAILED,/);
    expect(lines[4]).toMatch(/^4,,invalid,.*amount: must be a plain decimal/);
    expect(r.stderr).toMatch(
      /4 rows: 1 created, 1 failed, 1 invalid \(skipped\), 1 skipped \(--allow-partial: a balance or a limit ran out\)/,
    );
  });

  it('refuses production without a terminal unless --yes is given', async () => {
    // A production profile saved with an https front of this service: a production secret goes only where login saved it.
    const front = await tlsFront(e.svc.baseUrl);
    onTestFinished(() => front.close());
    await saveContext(e.env, 'prodlike', { environment: 'production', baseUrl: front.url });
    const prodEnv = { ...TLS_ENV, COINOP_BASE_URL: undefined } as unknown as Record<string, string>;
    const f = file('prod.csv', ethCsv(3, 'prod-'));
    const before = (await v2Requests()).filter((x) => x.startsWith('POST /v2/transfer/crypto-withdrawals')).length;
    const r = await run(e, ['withdraw', 'batch', f, '--context', 'prodlike'], { env: prodEnv });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/refusing to move money in production/);
    expect((await v2Requests()).filter((x) => x.startsWith('POST /v2/transfer/crypto-withdrawals')).length).toBe(
      before,
    );
    const y = await run(e, ['withdraw', 'batch', f, '--context', 'prodlike', '--yes', '-o', 'json'], { env: prodEnv });
    expect(y.code, y.stderr).toBe(0);
    expect(JSON.parse(y.stdout).map((x: any) => x.result)).toEqual(['created', 'created', 'created']);
  });

  it('Ctrl-C stops the batch with a way to go on; --resume sends the rest', async () => {
    const f = file('int.csv', ethCsv(120, 'int-'));
    const sentSoFar = async () =>
      (await v2Requests()).filter((x) => x.startsWith('POST /v2/transfer/crypto-withdrawals')).length;
    const base = await sentSoFar();
    const r = await run(e, ['withdraw', 'batch', f, '--yes', '--rate', '40', '-o', 'json'], {
      signal: 'SIGINT',
      killWhen: async () => (await sentSoFar()) >= base + 10,
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/interrupted: .*run the same command with --resume/);
    // The batch's own line only, not the single withdrawal's.
    expect(r.stderr).not.toMatch(/a withdrawal in flight may have gone through/);
    const rest = await run(e, ['withdraw', 'batch', f, '--yes', '--rate', '0', '--resume', '-o', 'json']);
    expect(rest.code, rest.stderr).toBe(0);
    const report = JSON.parse(rest.stdout);
    expect(report).toHaveLength(120);
    expect(new Set(report.map((x: any) => x.transfer_id)).size).toBe(120);
  });

  it('the same file in another environment keeps its own journal', async () => {
    // A production profile pointed at this same local service.
    const front = await tlsFront(e.svc.baseUrl);
    onTestFinished(() => front.close());
    await saveContext(e.env, 'prod-two', { environment: 'production', baseUrl: front.url });
    const f = file('two-envs.csv', ethCsv(2, 'two-envs-'));
    expect((await run(e, ['withdraw', 'batch', f, '--yes', '--context', 'local'])).code).toBe(0);
    // The same service here holds the rows already: only --resume (the same batch going on) sends them.
    const prod = await run(e, ['withdraw', 'batch', f, '--yes', '--resume', '--context', 'prod-two', '-o', 'json'], {
      env: { ...TLS_ENV, COINOP_BASE_URL: undefined } as unknown as Record<string, string>,
    });
    expect(prod.code, prod.stderr).toBe(0);
    expect(prod.stderr, prod.stderr).not.toMatch(/already ran to the end/);
    // Same service here, so the ref_ids are found: nothing moved twice.
    expect(JSON.parse(prod.stdout).map((x: any) => x.result)).toEqual(['already submitted', 'already submitted']);
    expect(
      readdirSync(join(e.dir, 'data', 'batches')).filter((n) => n.includes('.production-')).length,
    ).toBeGreaterThan(0);
  });

  it('an edited file that was run before: the rows it already paid keep their ref_ids and are refused', async () => {
    const f = file('edited.csv', ethCsv(2, 'edit-'));
    expect((await run(e, ['withdraw', 'batch', f, '--yes'])).code).toBe(0);
    writeFileSync(f, ethCsv(3, 'edit-'));
    const r = await run(e, ['withdraw', 'batch', f, '--yes', '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^row 1: .*already paid/m);
    expect(r.stderr).toMatch(/^row 2: .*already paid/m);
    expect(r.stderr).not.toMatch(/^row 3:/m);
    expect(r.stderr).toMatch(/2 of 3 rows were already paid by another batch.*--allow-repeat.*--resume/s);
    // --resume sends the rest: the rows paid before are answered already-exists, only the new one is created.
    const rest = await run(e, ['withdraw', 'batch', f, '--yes', '--resume', '-o', 'json']);
    expect(rest.code, rest.stderr).toBe(0);
    expect(JSON.parse(rest.stdout).map((x: any) => x.result)).toEqual([
      'already submitted',
      'already submitted',
      'created',
    ]);
  });

  it('an unreachable service or bad credentials stop the batch before anything is planned or sent', async () => {
    const f = file('early.csv', ethCsv(3, 'early-'));
    const down = await run(e, ['withdraw', 'batch', f, '--yes'], { env: { COINOP_BASE_URL: 'http://127.0.0.1:1' } });
    expect(down.code, down.stderr).toBe(5);
    const badToken = await run(e, ['withdraw', 'batch', f, '--yes'], { env: { COINOP_TOKEN: 'not-a-token' } });
    expect(badToken.code, badToken.stderr).toBe(4);
    // Nothing was recorded as begun: the next run is a plain first run.
    const ok = await run(e, ['withdraw', 'batch', f, '--yes', '-o', 'json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).map((x: any) => x.result)).toEqual(['created', 'created', 'created']);
  });

  it('exit 7 when no row was sent; after a top-up --retry-failed sends the refused rows', async () => {
    const eth = `profile_id,destination_address,asset,crypto_network,amount\n${DEMO.emptyProfileId},${ETH},ETH,ETHEREUM,0.01\n${DEMO.emptyProfileId},${ETH},ETH,ETHEREUM,0.02\n`;
    // Up front the batch is refused (nothing planned); with --allow-partial too, when not even its first row fits.
    const refused = await run(e, ['withdraw', 'batch', file('none-eth.csv', eth), '--yes', '-o', 'json']);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toMatch(/insufficient funds/);
    const none = await run(e, ['withdraw', 'batch', file('none-eth.csv', eth), '--yes', '--allow-partial']);
    expect(none.code, none.stderr).toBe(2);
    expect(none.stderr).toContain('row 1: not sent: the amount plus fee, 0.0105 ETH, is more than the 0 ETH left');
    expect(none.stderr).toContain('row 2: not sent: ETH ran out at row 1 (rows of an asset go in order)');
    expect(none.stderr).toMatch(
      /error: insufficient funds or over the transfer limits: no row can be sent.*nothing was sent/,
    );
    // Rows debited from another asset's balance (USDP paid from USD) are not counted up front: the service refuses them.
    const text = `profile_id,destination_address,asset,crypto_network,amount,balance_asset\n${DEMO.emptyProfileId},${ETH},USDP,ETHEREUM,5,USD\n${DEMO.emptyProfileId},${ETH},USDP,ETHEREUM,6,USD\n`;
    const f = file('none.csv', text);
    const r = await run(e, ['withdraw', 'batch', f, '--yes', '--allow-partial', '-o', 'json']);
    expect(r.code, r.stderr).toBe(7);
    expect(JSON.parse(r.stdout).map((x: any) => x.result)).toEqual(['failed', 'failed']);
    // Without --retry-failed a finished batch sends nothing, refused rows included.
    expect((await run(e, ['withdraw', 'batch', f, '--yes', '-o', 'json'])).code).toBe(7);
    const topUp = await fetch(`${e.svc.baseUrl}/_local/profiles/${DEMO.emptyProfileId}/balances`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ asset: 'USD', amount: '100' }),
    });
    expect(topUp.status).toBe(200);
    const again = await run(e, ['withdraw', 'batch', f, '--yes', '--retry-failed', '-o', 'json']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).map((x: any) => x.result)).toEqual(['created', 'created']);
  });
});
