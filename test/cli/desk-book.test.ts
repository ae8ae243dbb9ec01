// The operator's desk end to end, piped and on a terminal, against the local service: the address book (destinations
// list and put, withdraw --to NICKNAME), transfer limits (coinop limits) and fiat deposit instructions
// (deposit-instructions create, list and get; sandbox deposit --instructions or picked from a list).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { groupedAmount as grouped } from '../../src/render/output.js';
import { DEMO } from '../../src/embedded/demo.js';
import { BTC_ADDRESS, ETH_ADDRESS, type Sandbox, sandbox } from './helpers.js';
import { KEY, Term } from './terminal.js';
import { apiWithdrawal, transferFlags } from '../support/command-lines.js';
import { adminToken } from '../support/tokens.js';
import { PER_WITHDRAWAL_LIMIT } from '../support/limits.js';
import { postBtcWithdrawal } from '../support/requests.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => sb?.close());
beforeEach(async () => {
  await sb.control('POST', '/_local/reset');
  await sb.sent();
});

const json = (s: string) => JSON.parse(s);
const term = (args: string[]) => new Term(args, { ...sb.env, NO_COLOR: undefined });
const book = (nickname: string, network: string, address: string, ...more: string[]) =>
  sb.runIn(['destinations', 'put', '--network', network, '--address', address, '--nickname', nickname, ...more]);

describe('coinop destinations', () => {
  it('put adds an address and changes it; list filters the book, in every format', async () => {
    const a = await book('treasury', 'ethereum', ETH_ADDRESS, '--bookmark');
    expect(a.code, a.stderr).toBe(0);
    expect(json(a.stdout)).toMatchObject({ nickname: 'treasury', crypto_network: 'ETHEREUM', bookmarked: true });
    const id = json(a.stdout).id;
    const b = await sb.runIn(['destinations', 'put', '--id', id, '--nickname', 'cold', '--no-bookmark']);
    expect(json(b.stdout)).toMatchObject({ id, nickname: 'cold', bookmarked: false });
    await book('btc-ops', 'BITCOIN', BTC_ADDRESS, '--bookmark');
    const all = await sb.runIn(['destinations', 'list']);
    expect(json(all.stdout).map((d: { nickname: string }) => d.nickname)).toEqual(['btc-ops', 'cold']);
    const marked = await sb.runIn(['destinations', 'list', '--bookmarked', '-o', 'ndjson']);
    expect(
      marked.stdout
        .trim()
        .split('\n')
        .map((l) => json(l).nickname),
    ).toEqual(['btc-ops']);
    const csv = await sb.runIn(['destinations', 'list', '--network', 'ETHEREUM', '-o', 'csv']);
    expect(csv.stdout.split('\r\n')[0]).toBe(
      'nickname,crypto_network,address,bookmarked,status,identity_id,id,created_at',
    );
    expect(csv.stdout).toContain(`cold,ETHEREUM,${ETH_ADDRESS},false,APPROVED,,${id},`);
    const table = await sb.runIn(['destinations', 'list', '-o', 'table', '--nickname', 'cold']);
    expect(table.stdout).toMatch(/^NICKNAME\s+NETWORK\s+ADDRESS\s+BOOKMARKED/);
    expect(table.stderr).toContain('1 destination address');
    const sent = await sb.sent();
    expect(sent.some((e) => e.url.includes('nicknames=cold'))).toBe(true);
  });

  it('a nickname the book holds already is refused by the service (exit 1, the other address named)', async () => {
    await book('treasury', 'ETHEREUM', ETH_ADDRESS);
    const r = await book('treasury', 'BITCOIN', BTC_ADDRESS);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error: Already Exists: nickname already exists: treasury names destination address/);
  });

  it('bad input is refused before anything is sent (exit 2, one line)', async () => {
    for (const [args, message] of [
      [['destinations', 'put', '--network', 'BITCOIN'], 'missing --address'],
      [
        ['destinations', 'put', '--network', 'BITCOIN', '--address', ETH_ADDRESS],
        `--address: ${ETH_ADDRESS} is not a BITCOIN address (it looks like an EVM address)`,
      ],
      [['destinations', 'put', '--id', 'x', '--address', ETH_ADDRESS], '--id and --network/--address: give one'],
      [
        ['destinations', 'put', '--id', 'x', '--travel-rule', '{"vasp":{"custom_vasp_name":"A"}}'],
        '--travel-rule.vasp: custom_vasp_name and custom_vasp_website go together',
      ],
      [['destinations', 'list', '--bookmarked', '--not-bookmarked'], '--bookmarked and --not-bookmarked'],
      [['limits', '--type', 'NOPE'], '--type: must be one of INTERNAL_TRANSFER_DEBIT, '],
      [
        ['deposit-instructions', 'create', '--network', 'RTP', '--routing-type', 'ABA'],
        '--routing-type: is for --network WIRE only',
      ],
      [['deposit-instructions', 'get'], 'missing ID'],
      [
        ['sandbox', 'deposit', '--amount', '1.234', '--instructions', 'x'],
        '--amount: must be a plain decimal number with at most 2 decimals',
      ],
    ] as [string[], string][]) {
      const r = await sb.runIn(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(await sb.sent()).toEqual([]);
  });
});

describe('coinop withdraw --to NICKNAME', () => {
  beforeEach(async () => {
    await book('treasury', 'ETHEREUM', ETH_ADDRESS);
    await book('btc-cold', 'BITCOIN', BTC_ADDRESS);
  });

  it("pays the book's address on its network; the asset is the network's only one unless --asset says", async () => {
    const r = await sb.runIn(['withdraw', '--to', 'btc-cold', '--amount', '0.001', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(json(r.stdout)).toMatchObject({ asset: 'BTC', crypto_network: 'BITCOIN', destination_address: BTC_ADDRESS });
    const e = await sb.runIn(['withdraw', '--to', 'treasury', '--asset', 'USDP', '--amount', '5', '--yes']);
    expect(e.code, e.stderr).toBe(0);
    expect(json(e.stdout)).toMatchObject({
      asset: 'USDP',
      crypto_network: 'ETHEREUM',
      destination_address: ETH_ADDRESS,
    });
  });

  it('the dry run and the confirmation show the nickname next to the address', async () => {
    const r = await sb.runIn([
      'withdraw',
      '--to',
      'treasury',
      '--asset',
      'ETH',
      '--amount',
      '0.1',
      '--dry-run',
      '-o',
      'table',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`destination\\s+${ETH_ADDRESS} \\(treasury\\)`));
    const t = term(['withdraw', '--to', 'treasury', '--amount', '0.1']);
    await t.waitFor('Asset to send on ETHEREUM');
    t.type(KEY.enter); // ETH, first of the assets ETHEREUM carries
    await t.waitFor('Send this withdrawal?');
    expect(t.screen()).toMatch(new RegExp(`destination\\s+${ETH_ADDRESS} \\(treasury\\)`));
    t.type(`n${KEY.enter}`);
    expect(await t.exit()).toBe(3);
    expect((await sb.sent()).filter((x) => x.method === 'POST' && x.url.includes('crypto-withdrawals'))).toEqual([]);
  });

  it('an unknown nickname is a usage error naming a close one; nothing is sent', async () => {
    await sb.sent();
    const r = await sb.runIn(['withdraw', '--to', 'Tresury', '--asset', 'ETH', '--amount', '0.1', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: --to: no address in the address book is called "Tresury" (did you mean treasury?) (hint: see coinop destinations list, or add it with coinop destinations put)\n',
    );
    const far = await sb.runIn(['withdraw', '--to', 'payroll', '--asset', 'ETH', '--amount', '0.1', '--yes']);
    expect(far.stderr).toMatch(/is called "payroll" \(hint/);
    const sent = await sb.sent();
    expect(sent.filter((x) => x.method !== 'GET' && x.url.startsWith('/v2'))).toEqual([]);
  });

  it('a network, an asset or an address at odds with the book is a usage error', async () => {
    for (const [args, message] of [
      [['--to', 'btc-cold', '--network', 'LITECOIN'], '--network: "btc-cold" is a BITCOIN address, not LITECOIN'],
      [
        ['--to', 'btc-cold', '--asset', 'ETH'],
        '--asset: ETH cannot be sent on BITCOIN, the network of "btc-cold" (it carries BTC)',
      ],
      [['--to', 'treasury'], 'missing --asset: ETHEREUM carries ETH, PAXG'],
      [['--to', 'treasury', '--address', ETH_ADDRESS], '--to and --address: give one'],
    ] as [string[], string][]) {
      const r = await sb.runIn(['withdraw', ...args, '--amount', '1', '--yes']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });
});

describe('coinop limits', () => {
  it('shows each limit with what is used and left; a withdrawal over one is refused by the service', async () => {
    await sb.runIn(['withdraw', ...transferFlags('BTC', '0.01'), '--yes']);
    const r = await sb.runIn(['limits']);
    expect(r.code, r.stderr).toBe(0);
    const [each, day] = json(r.stdout);
    expect(each).toEqual(PER_WITHDRAWAL_LIMIT);
    expect(day).toMatchObject({ rule_id: 'crypto-withdrawal-24h', period_seconds: '86400', limit: '50000000' });
    expect(day.used).toMatch(/^[1-9][0-9]*(\.[0-9]+)?$/);
    const table = await sb.runIn(['limits', '-o', 'table']);
    expect(table.stdout).toMatch(
      /crypto-withdrawal-per-transfer\s+each transfer\s+10,000,000\s+-\s+10,000,000\s+USD\s+CRYPTO_WITHDRAWAL/,
    );
    expect(table.stdout).toMatch(
      new RegExp(
        `crypto-withdrawal-24h\\s+24 h\\s+50,000,000\\s+${grouped(day.used)}\\s+${grouped(day.remaining)}\\s+USD`,
      ),
    );
    expect(table.stderr).toContain('CRYPTO_WITHDRAWAL now: at most 10000000 USD in one transfer');
    const csv = await sb.runIn(['limits', '-o', 'csv']);
    expect(csv.stdout.split('\r\n')[0]).toBe('rule_id,period_seconds,limit,used,remaining,limit_asset,transfer_types');
    const none = await sb.runIn(['limits', '--type', 'WIRE_DEPOSIT', '-o', 'table']);
    expect(none.stderr).toContain('no limits on WIRE_DEPOSIT');

    await sb.control('PUT', '/_local/limits', {
      rules: [
        { id: 'tiny', transfer_types: ['CRYPTO_WITHDRAWAL'], period_seconds: 3600, limit: '5', limit_asset: 'USD' },
      ],
    });
    const over = await sb.runIn(['withdraw', ...transferFlags('BTC', '0.01'), '--yes']);
    // coinop refuses it before sending (the limits preflight, test/cli/preflight.test.ts); the service refuses it too.
    expect(over.code).toBe(2);
    expect(over.stderr).toMatch(
      /error: over a transfer limit: limit tiny \(5 USD per 1 h, 0 USD left\): this withdrawal \(amount\), BTC 0\.01 \(about [\d.]+ USD\); short by [\d.]+ USD/,
    );
    // coinop api goes through the same gate: refused by the same preflight (and it needs a ref_id).
    const raw = apiWithdrawal('0.001', 'raw-over-limit');
    const viaApi = await sb.runIn(raw);
    expect(viaApi.code).toBe(2);
    expect(viaApi.stderr).toMatch(/error: over a transfer limit: limit tiny/);
    // The service refuses it too, asked straight (no coinop between).
    const token = await adminToken(sb.svc.authUrl, 'transfer:write_crypto_withdrawal');
    const direct = await postBtcWithdrawal(sb.svc.baseUrl, token, '0.001', 'direct-over-limit');
    expect(direct.status).toBe(400);
    expect(JSON.stringify(await direct.json())).toMatch(/exceed-max-withdraw-limit|exceeds the limit/);
    // The withdrawal of a moment ago used the whole hour's 5 USD.
    expect(json((await sb.runIn(['limits'])).stdout)[0]).toMatchObject({ rule_id: 'tiny', remaining: '0', used: '5' });
  });
});

describe('coinop deposit-instructions and sandbox deposit', () => {
  it('create, list and get; a sandbox deposit takes the memo id from --instructions', async () => {
    const create = [
      'deposit-instructions',
      'create',
      '--network',
      'WIRE',
      '--profile-id',
      DEMO.emptyProfileId,
      '--ref-id',
      'cust-1',
    ];
    const c = await sb.runIn(create);
    expect(c.code, c.stderr).toBe(0);
    const made = json(c.stdout);
    expect(made).toMatchObject({ profile_id: DEMO.emptyProfileId, ref_id: 'cust-1', status: 'VALID' });
    const again = await sb.runIn(create);
    expect(again.stderr).toContain('already exists: ref_id cust-1 was used before');
    expect(json(again.stdout).memo_id).toBe(made.memo_id);
    const list = await sb.runIn(['deposit-instructions', 'list', '-o', 'csv']);
    expect(list.stdout.split('\r\n')[0]).toBe('id,status,memo_id,fiat_network,profile_id,ref_id,created_at');
    expect(list.stdout).toContain(`${made.id},VALID,${made.memo_id},WIRE,${DEMO.emptyProfileId},cust-1,`);
    const get = await sb.runIn(['deposit-instructions', 'get', made.id, '-o', 'table']);
    expect(get.stdout).toMatch(new RegExp(`memo_id\\s+${made.memo_id}`));
    expect(get.stdout).toMatch(/wire\.routing_details\.bank_name\s+Coinop Local Bank/);

    const d = await sb.runIn(['sandbox', 'deposit', '--amount', '75.00', '--instructions', made.id]);
    expect(d.code, d.stderr).toBe(0);
    expect(json(d.stdout)).toMatchObject({ initiated: true, memo_id: made.memo_id });
    const profiles = (await sb.control('GET', '/_local/profiles')).items;
    expect(profiles.find((p: { id: string }) => p.id === DEMO.emptyProfileId).balances.USD).toBe('75');
    const missing = await sb.runIn([
      'sandbox',
      'deposit',
      '--amount',
      '1.00',
      '--instructions',
      'f190b163-208f-4d73-8deb-4fb8b24add00',
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('not found');
  });

  it('on a terminal, sandbox deposit picks the instructions from a list (the own profile first)', async () => {
    const c = await sb.runIn([
      'deposit-instructions',
      'create',
      '--network',
      'RTP',
      '--profile-id',
      DEMO.emptyProfileId,
    ]);
    const made = json(c.stdout);
    const t = term(['sandbox', 'deposit', '--amount', '9.00']);
    await t.waitFor('Memo id (of the deposit instructions to credit)');
    expect(t.screen()).toContain(`${made.memo_id}  RTP  profile ${DEMO.emptyProfileId}`);
    expect(t.screen()).toContain('another memo id (type it)');
    // The default is the demo profile's own; the newest instructions are first in the list.
    await t.waitFor(new RegExp(`❯ ${DEMO.memoId}`));
    t.type(KEY.up + KEY.up + KEY.enter);
    for (const label of ['Sending account number', 'Routing number type', 'Routing number (ABA)', 'Bank name']) {
      await t.waitFor(label);
      t.type(KEY.enter);
    }
    expect(await t.exit()).toBe(0);
    expect(t.screen()).toContain(`deposit of 9.00 USD initiated for memo ${made.memo_id}`);
  });

  it('on a terminal, destinations put asks for the network, address and nickname', async () => {
    const t = term(['destinations', 'put']);
    await t.waitFor('Network');
    t.type(KEY.down + KEY.enter); // ETHEREUM
    await t.waitFor('Destination address (ETHEREUM)');
    t.type(ETH_ADDRESS + KEY.enter);
    await t.waitFor('Nickname');
    t.type(`desk-test${KEY.enter}`);
    expect(await t.exit()).toBe(0);
    expect(t.screen()).toContain('saved in the address book as desk-test');
    const r = await sb.runIn(['destinations', 'list', '--nickname', 'desk-test']);
    expect(json(r.stdout)[0]).toMatchObject({ crypto_network: 'ETHEREUM', address: ETH_ADDRESS });
  });
});
