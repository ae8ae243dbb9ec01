// Output for people and for scripts, end to end: tables that never cut an id at 80 columns, --columns and --wide,
// the pager on a terminal (never when piped or for JSON), the next page's cursor and command, the CSV of transfers
// and of a batch, readable status details, conflicting output flags, and a chart that fills the terminal.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BTC_ADDRESS, ETH_ADDRESS, FAILING_ETH_ADDRESS, sandbox, type Sandbox } from './helpers.js';
import { Term } from './terminal.js';

let sb: Sandbox;
/** A pager that keeps what it was given in a file (named by PAGER_LOG) and says how many lines it got. */
let pagerScript: string;
beforeAll(async () => {
  sb = await sandbox({ withdrawalSettleSeconds: 1 });
  pagerScript = join(sb.dir, 'pager.cjs');
  writeFileSync(
    pagerScript,
    `let t = '';
process.stdin.on('data', (d) => (t += d));
process.stdin.on('end', () => {
  require('node:fs').writeFileSync(process.env.PAGER_LOG, t);
  process.stdout.write('[test pager: ' + t.split('\\n').length + ' lines]\\n');
});
`,
  );
  // 60 withdrawals in one batch: enough for several pages and more than a screenful.
  const rows = Array.from({ length: 60 }, (_, i) => `${BTC_ADDRESS},BTC,BITCOIN,0.0${(i % 9) + 1},out-${i}`);
  const csv = join(sb.dir, 'sixty.csv');
  writeFileSync(csv, `destination_address,asset,crypto_network,amount,ref_id\n${rows.join('\n')}\n`);
  const b = await sb.run(['withdraw', 'batch', csv, '--yes', '-o', 'json']);
  expect(b.code, b.stderr).toBe(0);
}, 60_000);
afterAll(async () => sb?.close());

const json = (s: string) => JSON.parse(s);
/**
 * coinop on a pseudo-terminal of the given size, with the sandbox's environment (and a test pager when asked). A pty
 * may lose the last of a long output when the process exits, so what a test reads from the screen is short, or read
 * while the process still runs; long outputs are checked piped or through the pager's file.
 */
const term = (args: string[], cols: number, rows: number, env: Record<string, string | undefined> = {}) =>
  new Term(args, { ...sb.env, ...env }, cols, rows);
const pagerEnv = (log: string) => ({ COINOP_PAGER: `'${process.execPath}' '${pagerScript}'`, PAGER_LOG: log });

describe('tables at 80 columns', () => {
  it('addresses list keeps every deposit address whole and says which columns it left out', async () => {
    for (const n of ['ETHEREUM', 'POLYGON_POS', 'BITCOIN']) {
      const r = await sb.run(['addresses', 'create', '--network', n, '-o', 'json']);
      expect(r.code, r.stderr).toBe(0);
    }
    const all = json((await sb.run(['addresses', 'list'])).stdout) as { address: string; id: string }[];
    const t = term(['addresses', 'list'], 80, 40);
    await t.waitFor(/^\d+ deposit addresses$/m);
    expect(await t.exit()).toBe(0);
    const s = t.screen();
    for (const a of all) expect(s).toContain(a.address);
    expect(s).not.toContain('…');
    expect(s).toMatch(/^NETWORK\s+ADDRESS\s+CREATED\s*$/m);
    expect(s).toMatch(
      /^left out to fit 80 columns: id, conversion, ref_id\n\(see all: --wide, --columns, -o json or a wider terminal\)$/m,
    );
  });

  it('transfers list shows ids by their first 8 characters, and its type; --wide every column whole, --columns the named', async () => {
    const ids = (json((await sb.run(['transfers', 'list', '--limit', '5'])).stdout) as { id: string }[]).map(
      (x) => x.id,
    );
    const t = term(['transfers', 'list', '--limit', '5'], 80, 40);
    await t.waitFor(/^5 transfers · next cursor/m);
    expect(await t.exit()).toBe(0);
    for (const id of ids) expect(t.screen()).toMatch(new RegExp(`^${id.slice(0, 8)}  \\w+\\s+CRYPTO_`, 'm'));
    // With the ids shortened, the ref ids fit again.
    expect(t.screen()).toMatch(/^ID\s+STATUS\s+TYPE\s+ASSET\s+AMOUNT\s+CREATED\s+REF ID$/m);
    expect(t.screen()).toMatch(
      /^ids shown by their first 8 characters\n\(see all: --wide, --columns, -o json or a wider terminal\)$/m,
    );

    const wide = await sb.run(['transfers', 'list', '--limit', '2', '--wide', '-o', 'table']);
    expect(wide.stdout.split('\n')[0]).toMatch(
      /^ID\s+STATUS\s+TYPE\s+ASSET\s+AMOUNT\s+CREATED\s+REF ID\s+FEE\s+TOTAL\s+NETWORK\s+DESTINATION\s+TX HASH\s/,
    );
    const named = await sb.run([
      'transfers',
      'list',
      '--limit',
      '2',
      '--columns',
      'ref_id,fee,destination',
      '-o',
      'table',
    ]);
    expect(named.code, named.stderr).toBe(0);
    expect(named.stdout.split('\n')[0].split(/\s{2,}/)).toEqual(['REF ID', 'FEE', 'DESTINATION']);
    expect(named.stdout).toMatch(new RegExp(`^out-\\d+\\s+0\\.00002\\s+${BTC_ADDRESS}$`, 'm'));
  });

  it('an unknown column is a usage error that lists the valid ones; nothing is sent', async () => {
    await sb.sent();
    const r = await sb.run(['addresses', 'list', '--columns', 'address,colour', '-o', 'table']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /--columns: "colour" is not a column of this table \(id, network, address, conversion, ref_id, created\)/,
    );
    expect(await sb.sent()).toEqual([]);
  });
});

describe('conflicting output flags', () => {
  it('--json with -o csv, or --columns with JSON, is a usage error naming both; nothing is sent', async () => {
    await sb.sent();
    const both = await sb.run(['transfers', 'list', '--json', '-o', 'csv']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--json and -o csv');
    const cols = await sb.run(['transfers', 'list', '--columns', 'id']);
    expect(cols.code).toBe(2);
    expect(cols.stderr).toContain('--columns and -o json (the default when stdout is not a terminal)');
    const colsJson = await sb.run(['balances', '--columns', 'asset', '-o', 'ndjson']);
    expect(colsJson.code).toBe(2);
    expect(colsJson.stderr).toContain('--columns and -o ndjson');
    expect(await sb.sent()).toEqual([]);
    // The same format twice is no conflict.
    expect((await sb.run(['markets', '--json', '-o', 'json'])).code).toBe(0);
  });
});

describe('the next page', () => {
  it('a page shows the next cursor and the exact command for the next page, which shows the next items', async () => {
    const first = await sb.run(['transfers', 'list', '--limit', '4', '--type', 'crypto_withdrawal']);
    const four = (json(first.stdout) as { id: string }[]).map((x) => x.id);
    const t = term(['transfers', 'list', '--limit', '2', '--type', 'crypto_withdrawal'], 200, 40);
    await t.waitFor('(or --all for every page)');
    expect(await t.exit()).toBe(0);
    const s = t.screen();
    const m =
      /^next page: (coinop transfers list --limit 2 --type crypto_withdrawal --cursor (\S+)) \(or --all for every page\)$/m.exec(
        s,
      );
    expect(m, s).not.toBeNull();
    expect(s).toContain(`2 transfers · next cursor ${m![2]}`);
    const next = await sb.run([...m![1].split(' ').slice(1), '-o', 'json']);
    expect((json(next.stdout) as { id: string }[]).map((x) => x.id)).toEqual(four.slice(2, 4));
    // Every page asked for: no next page to show.
    const all = await sb.run(['transfers', 'list', '--limit', '20', '--all', '-o', 'table']);
    expect(all.code).toBe(0);
    expect(all.stderr).toMatch(/^6\d transfers\n$/);
  });
});

describe('the pager', () => {
  it('pages a table longer than the screen, with its footer, on a terminal only', async () => {
    const log = join(sb.dir, 'paged-1.txt');
    const t = term(['transfers', 'list', '--limit', '40'], 120, 24, pagerEnv(log));
    expect(await t.exit()).toBe(0);
    const paged = readFileSync(log, 'utf8');
    expect(paged).toMatch(/^ID\s+STATUS\s+TYPE/);
    expect(paged.split('\n').filter((l) => /^[0-9a-f]{8}-/.test(l))).toHaveLength(40);
    // The footer follows the table in the pager (stderr is the same terminal).
    expect(paged).toMatch(/40 transfers · next cursor \S+\nnext page: coinop transfers list --limit 40 --cursor /);
  });

  it('never pages a short table, a piped one, JSON (coinop api too), or with --no-pager', async () => {
    const log = join(sb.dir, 'paged-never.txt');
    const cases = [
      term(['transfers', 'list', '--limit', '3'], 120, 24, pagerEnv(log)),
      term(['transfers', 'list', '--limit', '40', '-o', 'json'], 120, 24, pagerEnv(log)),
      term(['transfers', 'list', '--limit', '40', '--no-pager'], 120, 24, pagerEnv(log)),
      term(['api', 'GET', '/transfer/transfers', '-f', 'limit=40'], 120, 24, pagerEnv(log)),
    ];
    for (const t of cases) expect(await t.exit()).toBe(0);
    expect(cases[0].screen()).toMatch(/^3 transfers · next cursor/m);
    const piped = await sb.run(['transfers', 'list', '--limit', '40', '-o', 'table'], { env: pagerEnv(log) });
    expect(piped.code).toBe(0);
    expect(piped.stdout.split('\n').filter((l) => /^[0-9a-f]{8}-/.test(l))).toHaveLength(40);
    expect(existsSync(log)).toBe(false);
  });

  it('a pager quit early ends the list quietly: exit 0, no broken pipe, no more pages fetched', async () => {
    await sb.sent();
    // head reads five lines and quits: the rest of the writes find the pipe closed.
    const t = term(['transfers', 'list', '--limit', '1', '--all'], 120, 24, { COINOP_PAGER: 'head -n 5' });
    // What head shows: the header and the first rows (read while coinop still runs or has just ended).
    await t.waitFor(/^ID\s+STATUS/m);
    expect(await t.exit()).toBe(0);
    expect(t.screen()).not.toMatch(/EPIPE|error/i);
    const pages = (await sb.sent()).filter((e) => e.url.startsWith('/v2/transfer/transfers')).length;
    // 60+ transfers at one a page: it stopped soon after the screenful the pager was given.
    expect(pages).toBeGreaterThanOrEqual(20);
    expect(pages).toBeLessThan(50);
  });

  it('the default is less -FRX: a long table waits for q, then the terminal is back', async (ctx) => {
    if (spawnSync('sh', ['-c', 'command -v less']).status !== 0) ctx.skip();
    const t = term(['transfers', 'list', '--limit', '40'], 120, 24, { PAGER: undefined, COINOP_PAGER: undefined });
    await t.waitFor(/^:\s*$/m);
    expect(t.screen()).toMatch(/^ID\s+STATUS\s+TYPE/m);
    t.type('q');
    expect(await t.exit()).toBe(0);
  });

  it('a pager that cannot be found is said once and skipped', async () => {
    const t = term(['transfers', 'list', '--limit', '30'], 120, 24, { COINOP_PAGER: 'no-such-pager-here -x' });
    await t.waitFor('the pager "no-such-pager-here -x" was not found: writing directly');
    expect(await t.exit()).toBe(0);
    expect(t.screen().match(/was not found/g)).toHaveLength(1);
  });
});

describe('transfers for export and for reading', () => {
  it('transfers list -o csv has every useful column in a stable order, with the tx hash once completed', async () => {
    const w = await sb.run([
      'withdraw',
      ...['--asset', 'ETH', '--network', 'ETHEREUM', '--address', ETH_ADDRESS, '--amount', '0.2', '--yes', '--wait'],
    ]);
    expect(w.code, w.stderr).toBe(0);
    const id = json(w.stdout).id as string;
    const r = await sb.run(['transfers', 'list', '--id', id, '-o', 'csv']);
    const [head, row] = r.stdout.trim().split('\r\n');
    expect(head).toBe(
      'id,status,type,asset,amount,created_at,ref_id,fee,total,crypto_network,destination_address,crypto_tx_hash,' +
        'crypto_tx_index,updated_at,direction,balance_asset,profile_id,identity_id,account_id,group_id,memo,' +
        'notional_value,secondary_status.name,status_details,metadata',
    );
    const cells = row.split(',');
    expect(cells.slice(0, 5)).toEqual([id, 'COMPLETED', 'CRYPTO_WITHDRAWAL', 'ETH', '0.2']);
    expect(cells[9]).toBe('ETHEREUM');
    expect(cells[10]).toBe(ETH_ADDRESS);
    expect(cells[11]).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('status_details reads as words in a table, as JSON in CSV', async () => {
    const w = await sb.run([
      'withdraw',
      ...['--asset', 'ETH', '--network', 'ETHEREUM', '--address', FAILING_ETH_ADDRESS, '--amount', '0.1', '--yes'],
      '--wait',
    ]);
    expect(w.code).toBe(6);
    const id = json(w.stdout).id as string;
    const one = await sb.run(['transfers', 'get', id, '-o', 'table']);
    expect(one.stdout).toMatch(
      /^status_details\.invalid_destination_address\.message\s+the destination address cannot receive this asset/m,
    );
    expect(one.stdout).not.toContain('{"');
    const list = await sb.run(['transfers', 'list', '--id', id, '--columns', 'id,status,details', '-o', 'table']);
    expect(list.stdout).toMatch(/FAILED\s+invalid_destination_address: the destination address cannot receive/);
    const csv = await sb.run(['transfers', 'list', '--id', id, '--columns', 'id,details', '-o', 'csv']);
    expect(csv.stdout).toContain('""invalid_destination_address"":{""message""');
  });

  it('a batch CSV report keeps the ref_id, asset, network, address and amount of rows it skipped', async () => {
    const file = join(sb.dir, 'skips.csv');
    writeFileSync(
      file,
      'destination_address,asset,crypto_network,amount,ref_id\n' +
        `${BTC_ADDRESS},BTC,BITCOIN,0.01,keep-1\n${BTC_ADDRESS},BTC,BITCOIN,-5,skip-2\nxx,DOGEX,BITCOIN,1,skip-3\n`,
    );
    const r = await sb.run(['withdraw', 'batch', file, '--yes', '--skip-invalid', '-o', 'csv']);
    expect(r.code).toBe(6);
    const lines = r.stdout.trim().split('\r\n');
    expect(lines[0]).toBe(
      'row,ref_id,result,transfer_id,status,asset,crypto_network,amount,fee,total,destination_address,problem',
    );
    expect(lines[2]).toMatch(new RegExp(`^2,skip-2,invalid,,,BTC,BITCOIN,-5,,,${BTC_ADDRESS},"?Invalid row: amount:`));
    expect(lines[3]).toMatch(/^3,skip-3,invalid,,,DOGEX,BITCOIN,1,,,xx,"?Invalid row: asset:/);
  });
});

describe('the price chart', () => {
  it('fills the terminal width whatever the number of points', async () => {
    // Three points, so the output is short (a pty may lose the end of a long one at exit).
    const t = term(['prices', 'BTCUSD', '--increment', 'ONE_HOUR', '--limit', '3', '--no-pager'], 120, 30);
    await t.waitFor(/^\s+\d{4}-\d\d-\d\d \d\d:\d\dZ\s+\d{4}/m);
    expect(await t.exit()).toBe(0);
    const axis =
      t
        .screen()
        .split('\n')
        .find((l) => /└─/.test(l)) ?? '';
    // Three points used to make a 10-character chart (one column a point, at least 10); now the width less the labels.
    expect(axis.length).toBeGreaterThan(110);
    expect(axis.length).toBeLessThanOrEqual(120);
    const dots = t
      .screen()
      .split('\n')
      .filter((l) => /┤/.test(l));
    expect(Math.max(...dots.map((l) => l.length))).toBeGreaterThan(110);
  });
});
