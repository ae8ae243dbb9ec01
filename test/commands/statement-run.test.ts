// coinop statement's run against a local service in this process: deposits, withdrawals with fees (one failing and
// given back), internal transfers both ways, before, during and after the period. The closing balance is the
// service's balance read at the period's end; the opening the one read at its start.
import { beforeAll, describe, expect, it } from 'vitest';
import { statement } from '../../src/commands/statement/run.js';
import { parseStatementOptions } from '../../src/commands/statement/options.js';
import { dec } from '../../src/contract/index.js';
import { DEMO } from '../../src/embedded/demo.js';
import { ETH_ADDRESS, FAILING_ETH_ADDRESS } from '../support/addresses.js';
import { readPorts, sharedLocalFixture } from './ports.js';
import { usageMessage } from './support.js';

const local = sharedLocalFixture();
const BTC_ADDRESS = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';

async function control(path: string, body: unknown): Promise<any> {
  const r = await fetch(new URL(path, local.svc.baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(r.status, path).toBe(200);
  return r.json();
}

/** The service's time now, and then (by its clock) `seconds` later. */
const advance = async (seconds: number): Promise<string> => (await control('/_local/clock/advance', { seconds })).now;

let seq = 0;
async function moves(): Promise<void> {
  const conn = await local.connector().connect();
  const ref = () => `stmt-${++seq}`;
  const usdp = (address: string) => ({
    profile_id: DEMO.profileId,
    asset: 'USDP',
    balance_asset: 'USD',
    crypto_network: 'ETHEREUM',
    destination_address: address,
    amount: '10',
    ref_id: ref(),
    metadata: { invoice: `inv-${seq}` },
  });
  await conn.client.call('createCryptoWithdrawal', { body: usdp(ETH_ADDRESS) });
  await conn.client.call('createCryptoWithdrawal', { body: usdp(FAILING_ETH_ADDRESS) });
  await conn.client.call('createCryptoWithdrawal', {
    body: {
      profile_id: DEMO.profileId,
      asset: 'BTC',
      crypto_network: 'BITCOIN',
      destination_address: BTC_ADDRESS,
      amount: '0.001',
      ref_id: ref(),
    },
  });
  for (const [from, to] of [
    [DEMO.profileId, DEMO.emptyProfileId],
    [DEMO.emptyProfileId, DEMO.profileId],
  ])
    await conn.client.call('createInternalTransfer', {
      body: { from_profile_id: from, to_profile_id: to, asset: 'USD', amount: '3.25', ref_id: ref() },
    });
  await control('/_local/crypto-deposits', { ref_id: 'demo-btc', amount: '0.02' });
  // Past every settle time: the withdrawals complete or fail, the deposit completes.
  await advance(3600);
}

/** The service's balances of the demo profile now, available plus trading. */
async function balancesNow(profileId = DEMO.profileId): Promise<Record<string, string>> {
  const conn = await local.connector().connect();
  const { data } = await conn.client.call('listProfileBalances', { params: { profile_id: profileId } });
  return Object.fromEntries((data.items ?? []).map((b) => [b.asset, dec(b.available).plus(b.trading).toString()]));
}

interface Doc {
  profile_id: string;
  assets: { asset: string; opening: string; credits: string; debits: string; fees: string; closing: string }[];
  movements: { asset: string; kind: string; change: string; balance: string; fee: string; ref_id?: string }[];
}

let from: string;
let to: string;
let atFrom: Record<string, string>;
let atTo: Record<string, string>;

beforeAll(async () => {
  await control(`/_local/profiles/${DEMO.profileId}/balances`, { asset: 'USD', amount: '1000' });
  await control(`/_local/profiles/${DEMO.profileId}/balances`, { asset: 'BTC', amount: '1' });
  await moves();
  from = await advance(1);
  atFrom = await balancesNow();
  await moves();
  to = await advance(1);
  atTo = await balancesNow();
  await moves();
});

async function run(format: 'json' | 'csv' | 'table', args = ['--from', from, '--to', to]) {
  const d = readPorts(local, { format });
  await statement(d, parseStatementOptions(argvFlags(args), Date.now()));
  return d.display;
}

/** --flag value pairs as commander's raw flags. */
function argvFlags(args: string[]): Record<string, string> {
  const raw: Record<string, string> = {};
  for (let i = 0; i < args.length; i += 2)
    raw[args[i].slice(2).replace(/-(\w)/g, (_, c: string) => c.toUpperCase())] = args[i + 1];
  return raw;
}

describe('statement run', () => {
  it("closing is the service's balance at the period's end, opening the one at its start", async () => {
    const doc = JSON.parse((await run('json')).stdout) as Doc;
    expect(doc.profile_id).toBe(DEMO.profileId);
    const by = Object.fromEntries(doc.assets.map((a) => [a.asset, a]));
    // Every asset the profile holds is listed; only BTC and USD moved.
    expect(Object.keys(by)).toEqual(expect.arrayContaining(['BTC', 'USD', 'ETH']));
    for (const a of doc.assets.filter((x) => !['BTC', 'USD'].includes(x.asset))) {
      expect([a.opening, a.credits, a.debits]).toEqual([a.closing, '0', '0']);
      expect(dec(a.closing).eq(atTo[a.asset])).toBe(true);
    }
    for (const asset of ['BTC', 'USD']) {
      expect(dec(by[asset].closing).eq(atTo[asset]), `${asset} closing`).toBe(true);
      expect(dec(by[asset].opening).eq(atFrom[asset]), `${asset} opening`).toBe(true);
      expect(dec(by[asset].opening).plus(by[asset].credits).minus(by[asset].debits).eq(by[asset].closing)).toBe(true);
    }
    // One round of moves in the period: three withdrawals (one refunded), two internal transfers, one deposit.
    const kinds = doc.movements.map((m) => `${m.asset}:${m.kind}`).sort();
    expect(kinds).toEqual([
      'BTC:credit',
      'BTC:debit',
      'USD:credit',
      'USD:debit',
      'USD:debit',
      'USD:debit',
      'USD:refund',
    ]);
    // The fees: the withdrawals' fees, less the failed one's given back.
    for (const asset of ['BTC', 'USD']) {
      const mine = doc.movements.filter((m) => m.asset === asset && m.kind !== 'credit');
      const fees = mine.reduce((s, m) => (m.kind === 'debit' ? s.plus(m.fee) : s.minus(m.fee)), dec(0));
      expect(fees.gt(0), `${asset} fees`).toBe(true);
      expect(dec(by[asset].fees).eq(fees)).toBe(true);
    }
    // The running balance ends at the closing balance.
    const lastUsd = doc.movements.filter((m) => m.asset === 'USD').at(-1)!;
    expect(dec(lastUsd.balance).eq(atTo.USD)).toBe(true);
    // Every withdrawal's reference is on its line.
    expect(doc.movements.filter((m) => m.kind === 'debit').every((m) => m.ref_id?.startsWith('stmt-'))).toBe(true);
  });

  it('CSV for accountants: opening rows, the movements with their references and metadata, closing rows', async () => {
    const lines = (await run('csv')).stdout.trim().split('\r\n');
    const held = Object.keys(atTo).filter((a) => !dec(atTo[a]).isZero()).length;
    expect(lines[0].split(',').slice(0, 5)).toEqual(['record', 'time', 'asset', 'kind', 'change']);
    expect(lines.filter((l) => l.startsWith('opening,'))).toHaveLength(held);
    expect(lines.filter((l) => l.startsWith('closing,'))).toHaveLength(held);
    expect(lines.filter((l) => l.startsWith('movement,'))).toHaveLength(7);
    expect(lines.some((l) => l.includes('""invoice"":""inv-'))).toBe(true);
    const closingUsd = lines.find((l) => l.startsWith('closing,') && l.includes(',USD,'))!;
    expect(closingUsd).toContain(`,${atTo.USD},`);
  });

  it('a table for people: the summary, then the movements', async () => {
    const d = await run('table');
    expect(d.stdout).toMatch(/ASSET\s+OPENING\s+CREDITS\s+DEBITS\s+FEES\s+CLOSING/);
    expect(d.stderr).toContain(`service profile ${DEMO.profileId}`);
  });

  it('a month with nothing in it: the balances as they were, no movements', async () => {
    const doc = JSON.parse((await run('json', ['--month', '2001-01'])).stdout) as Doc;
    expect(doc.movements).toEqual([]);
    for (const a of doc.assets) expect([a.opening, a.credits, a.debits, a.fees]).toEqual([a.closing, '0', '0', '0']);
  });

  it('the period is checked before anything is sent', () => {
    expect(usageMessage(() => parseStatementOptions({ month: '2026-13' }, Date.now()))).toBe(
      '--month: "2026-13" is not a month; give YYYY-MM, such as 2026-11',
    );
    expect(usageMessage(() => parseStatementOptions({ month: '2026-11', from: '2026-11-01' }, Date.now()))).toBe(
      '--month and --from/--to: give one, not both',
    );
    expect(usageMessage(() => parseStatementOptions({}, Date.now()))).toMatch(/^--month or --from/);
    expect(usageMessage(() => parseStatementOptions({ from: '2026-11-02', to: '2026-11-01' }, Date.now()))).toBe(
      '--from: must be before --to',
    );
    expect(parseStatementOptions({ month: '2026-11' }, Date.now()).period).toEqual({
      from: '2026-11-01T00:00:00.000Z',
      to: '2026-12-01T00:00:00.000Z',
    });
  });
});
