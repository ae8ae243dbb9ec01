// A batch's rows name their service profile by nickname or id prefix (issue 29, item 2), in process against a local
// service: the names are resolved with one GET /v2/profiles for the whole file, before any row is checked further,
// and each row is journaled and sent with the id its name named; an unknown or ambiguous name is refused per row (its
// row, the column, the nearest names) before anything else is asked or sent, dry runs included. A row by name and the
// same row by id are one payment (one derived ref_id). An approval of a file with names is accepted by the batch, and
// refused when a name names another profile at run time; a resume sends the journal's ids, whatever the names name now.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/embedded/demo.js';
import { BTC_ADDRESS, ETH_ADDRESS, sandbox, type Run, type Sandbox } from '../cli/helpers.js';
import { twoKeyApprovalsPolicy } from '../support/approvals.js';

/** The payroll profile of the demo customer, funded: rows name it "payroll" or by the start of its id. */
const PAYROLL = 'e950ba30-1c2d-4e5f-8a9b-0c1d2e3f4a5b';

let sb: Sandbox;

/** A profile of the demo customer (the one the API's clients act for), with BTC and ETH to pay from. */
async function addProfile(id: string, nickname: string): Promise<void> {
  await sb.control('POST', '/_local/profiles', { id, customer_id: DEMO.customerId, nickname });
  for (const [asset, amount] of [
    ['BTC', '5'],
    ['ETH', '50'],
  ])
    await sb.control('POST', `/_local/profiles/${id}/balances`, { asset, amount });
}

beforeAll(async () => {
  sb = await sandbox();
  await addProfile(PAYROLL, 'payroll');
  // Two profiles that share a nickname: naming them is ambiguous.
  await addProfile('7a7a7a7a-0000-4000-8000-000000000001', 'twins');
  await addProfile('7a7a7a7a-0000-4000-8000-000000000002', 'twins');
});
afterAll(async () => sb?.close());

const apiRequests = async () =>
  (await sb.sent()).filter((e) => e.url.startsWith('/v2/')).map((e) => `${e.method} ${e.url.split('?')[0]}`);
const write = (name: string, text: string) => {
  const f = join(sb.dir, name);
  writeFileSync(f, text);
  return f;
};
/** The service's crypto withdrawals by ref_id: the profile each was paid from. */
async function paidFrom(): Promise<Map<string, string>> {
  const r = await sb.runIn(['transfers', 'list', '--type', 'CRYPTO_WITHDRAWAL', '--all', '-o', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return new Map(
    (JSON.parse(r.stdout) as { ref_id: string; profile_id: string }[]).map((t) => [t.ref_id, t.profile_id]),
  );
}
const report = (r: Run) => JSON.parse(r.stdout) as { row: number; ref_id: string; result: string }[];

describe('withdraw batch: profile_id by nickname or id prefix', () => {
  const CSV = [
    'profile_id,destination_address,asset,crypto_network,amount,meta.n',
    `Payroll,${BTC_ADDRESS},BTC,BITCOIN,0.01,1`,
    `demo,${ETH_ADDRESS},ETH,ETHEREUM,0.2,2`,
    `,${BTC_ADDRESS},BTC,BITCOIN,0.02,3`,
    `e950ba30,${ETH_ADDRESS},ETH,ETHEREUM,0.3,4`,
    '',
  ].join('\n');

  it('CSV: names resolved with one GET /v2/profiles, each row sent and journaled with the id its name names', async () => {
    const file = write('named.csv', CSV);
    await sb.sent();
    const r = await sb.runIn(['withdraw', 'batch', file, '--yes', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const sent = await apiRequests();
    expect(sent.filter((s) => s === 'GET /v2/profiles')).toHaveLength(1);
    expect(sent.indexOf('GET /v2/profiles')).toBe(0);
    expect(sent.filter((s) => s === 'POST /v2/transfer/crypto-withdrawals')).toHaveLength(4);
    const rows = report(r);
    expect(rows.map((x) => x.result)).toEqual(['created', 'created', 'created', 'created']);
    const from = await paidFrom();
    expect(rows.map((x) => from.get(x.ref_id))).toEqual([PAYROLL, DEMO.profileId, DEMO.profileId, PAYROLL]);
  });

  it('JSON: the same rows by id are the same payments (one ref_id each): refused as already paid', async () => {
    const rows = [
      {
        Profile_ID: PAYROLL,
        destination_address: BTC_ADDRESS,
        asset: 'BTC',
        crypto_network: 'BITCOIN',
        amount: '0.01',
      },
      { profile_id: DEMO.profileId, destination_address: ETH_ADDRESS, asset: 'ETH', crypto_network: 'ETHEREUM' },
    ].map((x, i) => ({ amount: '0.2', ...x, 'meta.n': String(i + 1) }));
    const file = write('by-id.jsonl', `${rows.map((x) => JSON.stringify(x)).join('\n')}\n`);
    const again = await sb.runIn(['withdraw', 'batch', file, '--yes']);
    expect(again.code, again.stderr).toBe(2);
    expect(again.stderr).toContain('2 of 2 rows were already paid by another batch');
    // And by name in JSON: new rows, sent from the profiles they name.
    const named = rows.map((x, i) => ({ ...x, Profile_ID: undefined, profile_id: ['payroll', 'E950BA30-1C2D'][i] }));
    named[0].amount = '0.015';
    named[1].amount = '0.4';
    const jfile = write('named.json', JSON.stringify(named));
    await sb.sent();
    const r = await sb.runIn(['withdraw', 'batch', jfile, '--yes', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect((await apiRequests()).filter((s) => s === 'GET /v2/profiles')).toHaveLength(1);
    const from = await paidFrom();
    expect(report(r).map((x) => from.get(x.ref_id))).toEqual([PAYROLL, PAYROLL]);
  });

  it('an unknown or ambiguous name: refused per row with the column and the nearest names, nothing else asked (dry run too)', async () => {
    const file = write(
      'typo.csv',
      [
        'profile_id,destination_address,asset,crypto_network,amount',
        `payroll,${BTC_ADDRESS},BTC,BITCOIN,0.01`,
        `payrol,${BTC_ADDRESS},BTC,BITCOIN,0.01`,
        `Twins,${BTC_ADDRESS},BTC,BITCOIN,0.01`,
        '',
      ].join('\n'),
    );
    for (const more of [['--yes'], ['--dry-run']]) {
      await sb.sent();
      const r = await sb.runIn(['withdraw', 'batch', file, ...more, '-o', 'table']);
      expect(r.code, more.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(
        'row 2 (line 3): profile_id: no service profile of this context is "payrol" (by nickname, id or id prefix); did you mean "payroll"? (coinop profiles lists them)',
      );
      expect(r.stderr).toContain(
        'row 3 (line 4): profile_id: "Twins" names 2 service profiles: twins (7a7a7a7a), twins (7a7a7a7a); give the whole id, or more of it',
      );
      expect(r.stderr).toContain('2 of 3 rows are invalid (listed above); nothing was sent');
      expect(await apiRequests(), more.join(' ')).toEqual(['GET /v2/profiles']);
    }
    // -o json: each problem as an object naming its row and the column.
    const json = await sb.runIn(['withdraw', 'batch', file, '--dry-run', '-o', 'json']);
    const problems = json.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((p) => p.row);
    expect(problems.map((p) => [p.row, p.field])).toEqual([
      [2, 'profile_id'],
      [3, 'profile_id'],
    ]);
  });

  it('a file of whole ids asks for no list; --profile-id by nickname is the default of rows without one', async () => {
    const file = write(
      'default.csv',
      `destination_address,asset,crypto_network,amount,meta.n\n${BTC_ADDRESS},BTC,BITCOIN,0.03,d1\n`,
    );
    await sb.sent();
    const r = await sb.runIn(['withdraw', 'batch', file, '--profile-id', 'PAYROLL', '--yes', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const sent = await apiRequests();
    expect(sent.filter((s) => s === 'GET /v2/profiles')).toHaveLength(1);
    expect((await paidFrom()).get(report(r)[0].ref_id)).toBe(PAYROLL);
    const ids = write(
      'ids.csv',
      `profile_id,${CSV.split('\n')[0].split(',').slice(1).join(',')}\n${PAYROLL},${BTC_ADDRESS},BTC,BITCOIN,0.04,i1\n`,
    );
    await sb.sent();
    const byId = await sb.runIn(['withdraw', 'batch', ids, '--yes', '-o', 'json']);
    expect(byId.code, byId.stderr).toBe(0);
    expect(await apiRequests()).not.toContain('GET /v2/profiles');
  });
});

describe('a resumed batch sends the ids its journal holds', () => {
  it('rows named by an id prefix, refused for funds, resumed after the prefix became another profile nickname', async () => {
    const first = 'c3d4e5f6-0000-4000-8000-00000000000a';
    await sb.control('POST', '/_local/profiles', { id: first, customer_id: DEMO.customerId, nickname: 'later' });
    const file = write(
      'resume.csv',
      [
        'profile_id,destination_address,asset,crypto_network,amount,meta.n',
        `c3d4e5f6,${BTC_ADDRESS},BTC,BITCOIN,0.01,r1`,
        `c3d4e5f6,${ETH_ADDRESS},ETH,ETHEREUM,0.1,r2`,
        '',
      ].join('\n'),
    );
    // The profile holds BTC only: --allow-partial sends the BTC row and leaves the ETH row for later.
    await sb.control('POST', `/_local/profiles/${first}/balances`, { asset: 'BTC', amount: '1' });
    const partial = await sb.runIn(['withdraw', 'batch', file, '--yes', '--allow-partial', '-o', 'json']);
    expect(partial.code, partial.stderr).toBe(6);
    expect(report(partial).map((x) => x.result)).toEqual(['created', 'skipped']);
    // Now the prefix is another profile's nickname (nicknames come before id prefixes), and both can pay.
    await addProfile('0d0d0d0d-0000-4000-8000-000000000001', 'c3d4e5f6');
    const named = await sb.runIn(['balances', '--profile-id', 'c3d4e5f6', '-o', 'table']);
    expect(named.stderr).toContain('service profile c3d4e5f6 (0d0d0d0d)');
    await sb.control('POST', `/_local/profiles/${first}/balances`, { asset: 'ETH', amount: '1' });
    const resumed = await sb.runIn(['withdraw', 'batch', file, '--resume', '--retry-failed', '--yes', '-o', 'json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    const from = await paidFrom();
    expect(report(resumed).map((x) => from.get(x.ref_id))).toEqual([first, first]);
  });
});

describe('approvals of a file with names', () => {
  /** Each approver's machine: configuration and data directories of their own. */
  const machine = (name: string) => ({
    COINOP_CONFIG_DIR: join(sb.dir, `config-${name}`),
    COINOP_DATA_DIR: join(sb.dir, `data-${name}`),
  });
  const keys: Record<string, { key: string; key_id: string }> = {};
  const approveAs = async (who: string, file: string) => {
    const r = await sb.runIn(['approve', file, '--yes', '-o', 'json'], { env: machine(who) });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout).approval_file as string;
  };
  const posts = async () => (await apiRequests()).filter((s) => s === 'POST /v2/transfer/crypto-withdrawals').length;

  beforeAll(async () => {
    for (const who of ['alice', 'bob']) {
      const r = await sb.runIn(['approve', '--show-key'], { env: machine(who) });
      keys[who] = JSON.parse(r.stdout);
    }
    const dir = join(sb.env.COINOP_CONFIG_DIR, 'policies');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'local.yaml'), twoKeyApprovalsPolicy(keys as Record<'alice' | 'bob', { key: string }>));
  });
  afterAll(() => writeFileSync(join(sb.env.COINOP_CONFIG_DIR, 'policies', 'local.yaml'), ''));

  it('approved with its names resolved as the batch resolves them: the batch goes', async () => {
    const file = write(
      'approved.csv',
      `profile_id,destination_address,asset,crypto_network,amount,meta.n\npayroll,${BTC_ADDRESS},BTC,BITCOIN,0.5,a1\nE950BA30,${BTC_ADDRESS},BTC,BITCOIN,0.25,a2\n`,
    );
    const signed = await approveAs('alice', file);
    await approveAs('bob', file);
    expect(readFileSync(signed, 'utf8')).toContain(`profile_names: {"payroll":"${PAYROLL}","e950ba30":"${PAYROLL}"}`);
    await sb.sent();
    const r = await sb.runIn(['withdraw', 'batch', file, '--yes', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(await posts()).toBe(2);
    const from = await paidFrom();
    expect(report(r).map((x) => from.get(x.ref_id))).toEqual([PAYROLL, PAYROLL]);
  });

  it('refused when a name names another profile at run time, saying which', async () => {
    const before = 'b2c3d4e5-0000-4000-8000-00000000000b';
    await addProfile(before, 'reserve');
    const file = write(
      'moved.csv',
      `profile_id,destination_address,asset,crypto_network,amount,meta.n\nb2c3d4e5,${BTC_ADDRESS},BTC,BITCOIN,0.5,m1\n`,
    );
    await approveAs('alice', file);
    await approveAs('bob', file);
    // Another profile now has the prefix as its nickname: the row names that one.
    const now = '0e0e0e0e-0000-4000-8000-000000000001';
    await addProfile(now, 'b2c3d4e5');
    await sb.sent();
    const r = await sb.runIn(['withdraw', 'batch', file, '--yes', '-o', 'json']);
    expect(r.code, r.stderr).toBe(8);
    const said = r.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).message as string);
    expect(said.filter((m) => m?.includes(': not counted: '))).toEqual([
      expect.stringContaining(
        `not counted: approves rows whose profile_id "b2c3d4e5" named the service profile ${before}, and it names ${now} now: the rows would be paid from another profile`,
      ),
      expect.stringContaining(`profile_id "b2c3d4e5" named the service profile ${before}, and it names ${now} now`),
    ]);
    expect(await posts()).toBe(0);
  });
});
