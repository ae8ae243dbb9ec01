// coinop profiles, balances and transfer internal end to end against the local service: piped (JSON by default),
// as tables and CSV, and on a terminal (prompts and the confirmation).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/embedded/demo.js';
import { ASSETS } from '../../src/contract/index.js';
import { saveContext } from '../support/contexts.js';
import { TLS_ENV, tlsFront } from '../support/tls.js';
import { sandbox, type Sandbox } from './helpers.js';
import { KEY, Term } from './terminal.js';
import { internalTransfer } from '../support/command-lines.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => sb?.close());

const json = (s: string) => JSON.parse(s);
const held = async (profileId: string, asset: string) => {
  const { items } = await sb.control('GET', '/_local/profiles');
  return (items.find((p: { id: string }) => p.id === profileId).balances[asset] ?? '0') as string;
};
const internalSent = async () => (await sb.sent()).filter((e) => e.url.includes('/transfer/internal'));

describe('coinop profiles', () => {
  it('lists, gets (the coinop profile one by default, or "default") and creates service profiles', async () => {
    const list = await sb.run(['profiles', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(json(list.stdout)).toEqual([
      { id: DEMO.profileId, nickname: 'demo', type: 'DEFAULT' },
      { id: DEMO.emptyProfileId, nickname: 'empty', type: 'NORMAL' },
    ]);
    expect(json((await sb.runIn(['profiles', 'get'])).stdout).id).toBe(DEMO.profileId);
    expect(json((await sb.runIn(['profiles', 'get', DEMO.emptyProfileId])).stdout).nickname).toBe('empty');
    const made = await sb.run(['profiles', 'create', '--nickname', 'payroll', '--description', 'salaries']);
    expect(made.code, made.stderr).toBe(0);
    expect(json(made.stdout)).toMatchObject({ nickname: 'payroll', type: 'NORMAL', description: 'salaries' });
    const table = await sb.runIn(['profiles', 'list', '--nickname', 'PAY', '-o', 'table']);
    expect(table.stdout).toMatch(/^ID\s+NICKNAME\s+TYPE\s+DESCRIPTION\n\S+\s+payroll\s+NORMAL\s+salaries\n$/);
    const again = await sb.runIn(['profiles', 'create', '--nickname', 'payroll']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/Already Exists: nickname payroll already exists/);
  });

  it('a missing or bad value is a usage error (exit 2) and nothing is sent', async () => {
    await sb.sent();
    for (const args of [
      ['profiles', 'create'],
      ['profiles', 'create', '--nickname', ' '],
      ['profiles', 'list', '--limit', '1001'],
      ['profiles', 'get', 'x'.repeat(200)],
    ]) {
      const r = await sb.runIn(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(await sb.sent()).toEqual([]);
  });

  it('says in its help which profiles it is about', async () => {
    expect((await sb.runIn(['profiles', '--help'])).stdout).toMatch(/the service's profiles.*coinop context\)/s);
    expect((await sb.runIn(['context', '--help'])).stdout).toMatch(/coinop's saved contexts.*coinop profiles\)/s);
  });
});

describe('coinop balances', () => {
  it('shows the coinop profile balances with something in them, or the assets named, in every format', async () => {
    const all = await sb.run(['balances']);
    expect(all.code, all.stderr).toBe(0);
    const rows = json(all.stdout);
    expect(rows.find((b: any) => b.asset === 'BTC')).toEqual({ asset: 'BTC', available: '1000', trading: '0' });
    // The demo profile holds some of every asset of the catalogue.
    expect(rows.map((b: any) => b.asset)).toEqual(Object.keys(ASSETS));
    expect(json((await sb.runIn(['balances', 'eth', 'USD'])).stdout)).toEqual([
      { asset: 'ETH', available: '20000', trading: '0' },
      { asset: 'USD', available: '10000000', trading: '0' },
    ]);
    const csv = await sb.runIn(['balances', 'BTC', '-o', 'csv']);
    expect(csv.stdout).toBe('asset,available,trading\r\nBTC,1000,0\r\n');
    const empty = await sb.runIn(['balances', '--profile-id', DEMO.emptyProfileId, '-o', 'table']);
    expect(empty.stdout).toBe('');
    expect(empty.stderr).toMatch(/add --include-zero/);
    const zeros = await sb.runIn(['balances', '--profile-id', DEMO.emptyProfileId, '--include-zero']);
    expect(json(zeros.stdout).every((b: any) => b.available === '0')).toBe(true);
  });

  it('--all-profiles: one table of every profile balances', async () => {
    const r = await sb.runIn(['balances', 'USD', '--all-profiles', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout.trim().split('\n').map(json);
    expect(rows.slice(0, 2)).toEqual([
      { profile_id: DEMO.profileId, nickname: 'demo', asset: 'USD', available: '10000000', trading: '0' },
      { profile_id: DEMO.emptyProfileId, nickname: 'empty', asset: 'USD', available: '0', trading: '0' },
    ]);
    const table = await sb.runIn(['balances', 'BTC', '--all-profiles', '-o', 'table']);
    expect(table.stdout.split('\n')[0]).toMatch(/^PROFILE\s+NICKNAME\s+ASSET\s+AVAILABLE\s+TRADING$/);
  });

  it('refuses an unknown asset and two profile choices before sending anything', async () => {
    await sb.sent();
    const bad = await sb.runIn(['balances', 'BTC', 'MOON']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: ASSET: MOON is not an asset of this service/);
    // With --all-profiles too: the profiles are not listed first.
    expect((await sb.runIn(['balances', 'MOON', '--all-profiles'])).code).toBe(2);
    const both = await sb.runIn(['balances', '--all-profiles', '--profile-id', DEMO.profileId]);
    expect(both.code).toBe(2);
    expect(await sb.sent()).toEqual([]);
  });
});

describe('coinop transfer internal', () => {
  const args = (extra: string[] = []) => internalTransfer('USD', '2500.50', ...extra);

  it('moves money once per ref_id: the generated one is printed first, a repeat is already submitted', async () => {
    const before = await held(DEMO.profileId, 'USD');
    const r = await sb.run(args(['--meta', 'reason=payroll']));
    expect(r.code, r.stderr).toBe(0);
    const ref = /^ref_id (coinop-[0-9a-f-]{36}) \(generated/.exec(r.stderr)?.[1];
    expect(ref).toBeTruthy();
    const t = json(r.stdout);
    expect(t).toMatchObject({
      type: 'INTERNAL_TRANSFER_DEBIT',
      ref_id: ref,
      amount: '2500.5',
      profile_id: DEMO.profileId,
    });
    expect(await held(DEMO.emptyProfileId, 'USD')).toBe('2500.5');
    const pair = json((await sb.runIn(['transfers', 'list', '--group-id', t.group_id])).stdout);
    expect(pair.map((x: any) => x.type).sort()).toEqual(['INTERNAL_TRANSFER_CREDIT', 'INTERNAL_TRANSFER_DEBIT']);
    const again = await sb.run(args(['--ref-id', ref as string]));
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/already submitted: ref_id coinop-\S+ was sent before; no money moved this time/);
    expect(json(again.stdout).id).toBe(t.id);
    const { dec } = await import('../../src/contract/index.js');
    expect(
      dec(before)
        .minus(await held(DEMO.profileId, 'USD'))
        .toFixed(),
    ).toBe('2500.5');
  });

  it('--dry-run shows the request and what the sender has, and sends nothing', async () => {
    await sb.sent();
    const r = await sb.runIn(args(['--dry-run', '--ref-id', 'plan-1']));
    expect(r.code, r.stderr).toBe(0);
    expect(json(r.stdout)).toEqual({
      dry_run: true,
      method: 'POST',
      path: '/v2/transfer/internal',
      body: {
        from_profile_id: DEMO.profileId,
        to_profile_id: DEMO.emptyProfileId,
        asset: 'USD',
        amount: '2500.50',
        ref_id: 'plan-1',
      },
      // The policy's verdict (this profile has no policy file: every rule off).
      policy: expect.objectContaining({ allowed: true, file: null, requests: 1 }),
    });
    const table = await sb.runIn(args(['--dry-run', '--ref-id', 'plan-1', '-o', 'table']));
    expect(table.stderr).toMatch(/Dry run: nothing sent \(local\)/);
    expect(table.stderr).toMatch(/available\s+\d+(\.\d+)? USD/);
    expect(await internalSent()).toEqual([]);
  });

  it('refuses bad input (exit 2), another customer (exit 1) and too little money (exit 2 before sending, with a hint)', async () => {
    await sb.sent();
    for (const bad of [
      ['transfer', 'internal', '--to-profile-id', DEMO.profileId, '--asset', 'USD', '--amount', '1'],
      ['transfer', 'internal', '--asset', 'USD', '--amount', '1'],
      args(['--amount', '1.001']),
      args(['--amount', '0']),
      ['transfer', 'internal', '--to-profile-id', 'x', '--asset', 'u-sd', '--amount', '1'],
    ]) {
      const r = await sb.runIn(bad);
      expect(r.code, bad.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(await internalSent()).toEqual([]);
    await sb.control('POST', '/_local/profiles', { id: 'stranger', customer_id: 'someone-else' });
    const foreign = await sb.runIn([
      'transfer',
      'internal',
      '--to-profile-id',
      'stranger',
      '--asset',
      'USD',
      '--amount',
      '1',
    ]);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toMatch(/belong to different customers/);
    const poor = await sb.runIn([
      'transfer',
      'internal',
      '--from-profile-id',
      DEMO.emptyProfileId,
      '--to-profile-id',
      DEMO.profileId,
      '--asset',
      'EUR',
      '--amount',
      '1',
    ]);
    // coinop's own preflight (the gate's) refuses it before anything is sent, as it does a withdrawal.
    expect(poor.code).toBe(2);
    expect(poor.stderr).toMatch(
      /insufficient funds: the amount 1 EUR is more than the available 0 EUR \(short by 1\) \(hint: nothing was sent; check coinop balances/,
    );
  });

  it('refuses to move money in production without a terminal and without --yes', async () => {
    const front = await tlsFront(sb.svc.baseUrl);
    try {
      await saveContext(sb.env, 'prodlike', { environment: 'production', baseUrl: front.url });
      const env = { ...TLS_ENV, COINOP_BASE_URL: undefined, COINOP_AUTH_URL: undefined };
      await sb.sent();
      const r = await sb.run([...args(), '--context', 'prodlike'], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/refusing to move money in production/);
      expect(await internalSent()).toEqual([]);
    } finally {
      await front.close();
    }
  });

  it('in production on a terminal: the amount is typed out, as for a withdrawal; another value cancels', async () => {
    const front = await tlsFront(sb.svc.baseUrl);
    try {
      await saveContext(sb.env, 'prodterm', { environment: 'production', baseUrl: front.url });
      const env = {
        ...sb.env,
        ...TLS_ENV,
        COINOP_BASE_URL: undefined,
        COINOP_AUTH_URL: undefined,
        NO_COLOR: undefined,
      };
      await sb.sent();
      const wrong = new Term([...args(), '--context', 'prodterm'], env);
      await wrong.waitFor('PRODUCTION: type the amount (USD)');
      expect(await internalSent()).toEqual([]);
      wrong.type(`10${KEY.enter}`);
      expect(await wrong.exit()).toBe(3);
      expect(wrong.screen()).toContain('cancelled: that is not the amount (USD) (2500.50); nothing was sent');
      expect(await internalSent()).toEqual([]);
      const right = new Term([...args(), '--context', 'prodterm'], env);
      await right.waitFor('PRODUCTION: type the amount (USD)');
      right.type(`2500.5${KEY.enter}`);
      expect(await right.exit()).toBe(0);
      expect((await internalSent()).map((e) => e.status)).toEqual([200]);
    } finally {
      await front.close();
    }
  });

  it('on a terminal: asks for what is missing, shows the confirmation, and sends on yes', async () => {
    await sb.sent();
    const t = new Term(['transfer', 'internal', '--asset', 'BTC'], { ...sb.env, NO_COLOR: undefined });
    // A picker of the service's profiles, the sender left out: typing filters it, Enter takes the one left.
    await t.waitFor("The service's profile to credit");
    t.type('empt');
    await t.waitFor('empty  e3a0c9d1');
    t.type(KEY.enter);
    await t.waitFor('Amount of BTC');
    t.type(`0.25${KEY.enter}`);
    await t.waitFor('Send this internal transfer?');
    const summary = t.screen();
    for (const want of ['Move 0.25 BTC between service profiles', 'demo (5d1f2a3b)', 'empty (e3a0c9d1)', 'available'])
      expect(summary).toContain(want);
    expect(await internalSent()).toEqual([]);
    t.type(`y${KEY.enter}`);
    expect(await t.exit()).toBe(0);
    expect(t.screen()).toMatch(/status\s+COMPLETED/);
    expect((await internalSent()).map((e) => e.status)).toEqual([200]);
  });
});
