// Service profiles by nickname, id prefix or id (src/cli/service-profiles.ts), in process against a local service:
// each resolved with one GET /v2/profiles at most, an ambiguous or unknown one refused (naming the flag, with a "did
// you mean") before anything is asked, confirmed or sent, dry runs included; the names kept owner-only for shell
// completion. And contexts right after login (src/commands/auth/run.ts): the service profile taken or said how to set,
// a read-only client's context not made active silently, and a command its saved scopes cannot do refused before
// anything is printed or sent (src/cli/scope-check.ts). withdraw batch's confirmation and dry run name the default
// profile "nickname (short id)" as approve does (issue 29, item 2).
import { statSync, writeFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingScope } from '../../src/cli/scope-check.js';
import type { ResolvedContext } from '../../src/config/context.js';
import { DEMO } from '../../src/embedded/demo.js';
import { BTC_ADDRESS, sandbox, type Sandbox } from './helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => sb?.close());

const json = (s: string) => JSON.parse(s);
const internal = (to: string, ...more: string[]) => [
  'transfer',
  'internal',
  '--to-profile-id',
  to,
  '--asset',
  'USD',
  '--amount',
  '1',
  ...more,
];
const requests = async () => (await sb.sent()).map((e) => `${e.method} ${e.url.split('?')[0]}`);

describe('service profiles by name', () => {
  it('a nickname (any case): resolved with one GET /v2/profiles, sent by id', async () => {
    await sb.sent();
    const r = await sb.runIn([...internal('EMPTY', '--yes'), '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const sent = await requests();
    expect(sent.filter((s) => s === 'GET /v2/profiles')).toHaveLength(1);
    expect(sent).toContain('POST /v2/transfer/internal');
    expect(json(r.stdout)).toMatchObject({ type: 'INTERNAL_TRANSFER_DEBIT', profile_id: DEMO.profileId });
    const dry = await sb.runIn([...internal('Empty', '--dry-run'), '-o', 'json']);
    expect(json(dry.stdout).body).toMatchObject({ to_profile_id: DEMO.emptyProfileId });
  });

  it('a unique id prefix: the dry run names the profile "nickname (short id)", the request has the whole id', async () => {
    const r = await sb.runIn([...internal(DEMO.emptyProfileId.slice(0, 8), '--dry-run'), '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(json(r.stdout).body).toMatchObject({ to_profile_id: DEMO.emptyProfileId, from_profile_id: DEMO.profileId });
    const table = await sb.runIn([...internal('e3a0c9d1', '--dry-run'), '-o', 'table']);
    expect(table.stderr).toMatch(/to\s+service profile empty \(e3a0c9d1\)/);
    expect(table.stderr).toMatch(/from\s+service profile demo \(5d1f2a3b\)/);
  });

  it('an unknown nickname: a usage error naming the flag, with a "did you mean", before anything is sent (dry run too)', async () => {
    await sb.sent();
    for (const more of [['--dry-run'], ['--yes']]) {
      const r = await sb.runIn(internal('emty', ...more));
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('--to-profile-id: no service profile of this context is "emty"');
      expect(r.stderr).toContain('did you mean "empty"?');
    }
    expect(await requests()).toEqual(['GET /v2/profiles', 'GET /v2/profiles']);
  });

  it("the lists' filters take names too: transfers, addresses, reconcile and statement send the ids", async () => {
    await sb.sent();
    const r = await sb.runIn(['transfers', 'list', '--profile-id', 'Demo,e3a0c9d1', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const sent = await sb.sent();
    expect(sent.map((e) => `${e.method} ${e.url.split('?')[0]}`)).toEqual([
      'GET /v2/profiles',
      'GET /v2/transfer/transfers',
    ]);
    const asked = new URL(sent[1].url, 'http://x').searchParams.getAll('profile_ids');
    expect(asked).toEqual([DEMO.profileId, DEMO.emptyProfileId]);
    const addresses = await sb.runIn(['addresses', 'list', '--profile-id', 'demo', '-o', 'json']);
    expect(addresses.code, addresses.stderr).toBe(0);
    const statement = await sb.runIn(['statement', '--profile-id', 'empty', '--month', '2026-10', '-o', 'table']);
    expect(statement.code, statement.stderr).toBe(0);
    expect(statement.stderr).toContain('service profile empty (e3a0c9d1)');
    for (const args of [
      ['transfers', 'list', '--profile-id', 'payrol'],
      ['addresses', 'list', '--profile-id', 'payrol'],
      ['reconcile', '--from', '2026-10-01', '--to', '2026-11-01', '--profile-id', 'payrol'],
    ]) {
      await sb.sent();
      const bad = await sb.runIn(args);
      expect(bad.code, args.join(' ')).toBe(2);
      expect(bad.stderr).toContain('--profile-id: no service profile of this context is "payrol"');
      expect(await requests(), args.join(' ')).toEqual(['GET /v2/profiles']);
    }
    // A full id is sent as given: a filter needs no check (an unknown id matches nothing).
    await sb.sent();
    const byId = await sb.runIn(['transfers', 'list', '--profile-id', DEMO.emptyProfileId, '-o', 'json']);
    expect(byId.code, byId.stderr).toBe(0);
    expect(await requests()).toEqual(['GET /v2/transfer/transfers']);
  });

  it('an unknown UUID is refused before the dry run shows anything (the service would answer Not Found after y)', async () => {
    const r = await sb.runIn(internal('00000000-0000-4000-8000-000000000000', '--dry-run'));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toContain('Dry run');
    expect(r.stderr).toContain(
      '--to-profile-id: no service profile of this context is "00000000-0000-4000-8000-000000000000"',
    );
  });

  it('a nickname two profiles share, or a prefix of two ids: ambiguous, both named', async () => {
    for (const id of ['a1b2c3d4-0000-4000-8000-000000000001', 'a1b2c3d4-0000-4000-8000-000000000002'])
      await sb.control('POST', '/_local/profiles', { id, customer_id: DEMO.customerId, nickname: 'payroll' });
    const byName = await sb.runIn(internal('Payroll', '--dry-run'));
    expect(byName.code).toBe(2);
    expect(byName.stderr).toContain(
      '--to-profile-id: "Payroll" names 2 service profiles: payroll (a1b2c3d4), payroll (a1b2c3d4)',
    );
    const byPrefix = await sb.runIn(internal('a1b2c3d4', '--dry-run'));
    expect(byPrefix.code).toBe(2);
    expect(byPrefix.stderr).toContain('"a1b2c3d4" names 2 service profiles');
    const whole = await sb.runIn([...internal('a1b2c3d4-0000-4000-8000-000000000002', '--dry-run'), '-o', 'json']);
    expect(whole.code, whole.stderr).toBe(0);
  });

  it('withdraw and balances take a nickname for --profile-id; an unknown one is refused first', async () => {
    const b = await sb.runIn(['balances', '--profile-id', 'empty', '-o', 'json']);
    expect(b.code, b.stderr).toBe(0);
    const w = ['withdraw', '--asset', 'BTC', '--network', 'BITCOIN', '--address', BTC_ADDRESS, '--amount', '0.001'];
    const dry = await sb.runIn([...w, '--profile-id', 'DEMO', '--dry-run', '-o', 'json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(json(dry.stdout).body).toMatchObject({ profile_id: DEMO.profileId });
    const bad = await sb.runIn([...w, '--profile-id', 'dmeo', '--yes']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--profile-id: no service profile of this context is "dmeo"');
    expect(bad.stderr).toContain('did you mean "demo"?');
  });

  it('transfer paxos keeps ids: a name is refused by its form before anything is asked or sent', async () => {
    await sb.sent();
    const r = await sb.runIn(['transfer', 'paxos', '--to-profile-id', 'payee', '--asset', 'USD', '--amount', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--to-profile-id: "payee" is not a profile id (a UUID)');
    expect(await requests()).toEqual([]);
  });

  it('completion: the nicknames last listed, from an owner-only file, no service asked', async () => {
    await sb.sent();
    const r = await sb.runIn(['__complete', 'service-profiles']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toEqual(expect.arrayContaining(['demo', 'empty', 'payroll']));
    expect(await requests()).toEqual([]);
    expect(statSync(join(sb.env.COINOP_DATA_DIR, 'completion-words.json')).mode & 0o777).toBe(0o600);
  });
});

describe('withdraw batch names its default profile as approve does: nickname (short id)', () => {
  const csv = (dir: string, name: string) => {
    const file = join(dir, name);
    writeFileSync(file, `destination_address,asset,crypto_network,amount\n${BTC_ADDRESS},BTC,BITCOIN,0.001\n`);
    return file;
  };

  /** withdraw batch on a terminal (stdin and stderr are one), the confirmation answered no. */
  async function declined(args: string[]): Promise<{ code: number; stderr: string }> {
    const { runCli } = await import('../../src/commands/main.js');
    const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin });
    // A prompt ends its output stream once answered: a terminal stays open.
    const err = Object.assign(new PassThrough(), { isTTY: true, columns: 120, rows: 40, end: () => err });
    let stderr = '';
    err.on('data', (chunk) => {
      stderr += chunk;
      if (/Send 1 withdrawal\?/.test(stderr) && !stderr.includes('answered')) {
        stderr += '(answered)';
        // Once the question is drawn, as a person answers it.
        setImmediate(() => stdin.write('n\r'));
      }
    });
    const code = await runCli(['node', 'coinop', ...args], {
      stdin,
      stdout: new PassThrough(),
      stderr: err,
      env: sb.env,
    });
    return { code, stderr: stderr.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '') };
  }

  it("the context's default profile: named on the confirmation and in the dry run, with one GET /v2/profiles", async () => {
    const file = csv(sb.dir, 'named-default.csv');
    await sb.sent();
    const asked = await declined(['withdraw', 'batch', file]);
    expect(asked.code, asked.stderr).toBe(3);
    expect(asked.stderr).toMatch(/profile\s+local, default profile_id demo \(5d1f2a3b\)\n/);
    expect((await requests()).filter((r) => r === 'GET /v2/profiles')).toHaveLength(1);
    const dry = await sb.runIn(['withdraw', 'batch', file, '--dry-run', '-o', 'json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain(
      'dry run: 1 of 1 rows quoted; nothing was sent (context local, default profile_id demo (5d1f2a3b))',
    );
  });

  it('--profile-id by id prefix: the profile it was looked up as is named, the list read once', async () => {
    const file = csv(sb.dir, 'named-flag.csv');
    await sb.sent();
    const asked = await declined(['withdraw', 'batch', file, '--profile-id', DEMO.profileId.slice(0, 8)]);
    expect(asked.code, asked.stderr).toBe(3);
    expect(asked.stderr).toMatch(/profile\s+local, default profile_id demo \(5d1f2a3b\)\n/);
    expect((await requests()).filter((r) => r === 'GET /v2/profiles')).toHaveLength(1);
  });

  it('with --yes nothing is shown, and no list is read for it', async () => {
    const file = csv(sb.dir, 'named-yes.csv');
    await sb.sent();
    const r = await sb.runIn(['withdraw', 'batch', file, '--yes', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(await requests()).not.toContain('GET /v2/profiles');
  });
});

describe('contexts after login', () => {
  const custom = () => ['login', '--env', 'custom', '--base-url', sb.svc.baseUrl, '--auth-url', sb.svc.authUrl];
  const env = { COINOP_CLIENT_SECRET: DEMO.clientSecret, COINOP_BASE_URL: '', COINOP_AUTH_URL: '' };
  const show = async (name: string) => json((await sb.runIn(['context', 'show', name, '-o', 'json'], { env })).stdout);

  it('several profiles, no terminal: saved without one, and a line says how to set it; --profile-id takes a nickname', async () => {
    const r = await sb.runIn([...custom(), '--client-id', DEMO.adminClientId, '--name', 'admin'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('context "admin" has no default service profile');
    expect(r.stderr).toContain('coinop context set-profile-id ID admin');
    expect((await show('admin')).service_profile_id).toBeUndefined();
    const named = await sb.runIn(
      [...custom(), '--client-id', DEMO.adminClientId, '--name', 'admin2', '--profile-id', 'Empty'],
      { env },
    );
    expect(named.code, named.stderr).toBe(0);
    expect(await show('admin2')).toMatchObject({ service_profile_id: DEMO.emptyProfileId });
  });

  it('context set-profile-id takes a nickname with the context in use; another context needs its id or --context', async () => {
    const r = await sb.runIn(['context', 'set-profile-id', 'empty', 'admin', '--context', 'admin'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('now uses the service profile empty (e3a0c9d1)');
    expect((await show('admin')).service_profile_id).toBe(DEMO.emptyProfileId);
    const other = await sb.runIn(['context', 'set-profile-id', 'demo', 'admin2', '--context', 'admin'], { env });
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('run with --context admin2');
    const unknown = await sb.runIn(['context', 'set-profile-id', 'payrol', 'admin', '--context', 'admin'], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no service profile of this context is "payrol"');
    expect((await show('admin')).service_profile_id).toBe(DEMO.emptyProfileId);
  });

  it('a read-only client: its context is saved, not made active without --activate (said on stderr)', async () => {
    const before = json((await sb.runIn(['context', 'list', '-o', 'json'], { env })).stdout);
    const active = before.find((c: { active: boolean }) => c.active)?.name;
    const ro = await sb.runIn([...custom(), '--client-id', DEMO.readonlyClientId, '--name', 'ro'], { env });
    expect(ro.code, ro.stderr).toBe(0);
    expect(ro.stderr).toContain('read-only context "ro"');
    expect(ro.stderr).toContain('is saved, not active');
    const after = json((await sb.runIn(['context', 'list', '-o', 'json'], { env })).stdout);
    expect(after.find((c: { active: boolean }) => c.active)?.name).toBe(active);
    const on = await sb.runIn([...custom(), '--client-id', DEMO.readonlyClientId, '--name', 'ro2', '--activate'], {
      env,
    });
    expect(on.code, on.stderr).toBe(0);
    expect(on.stderr).toContain('"ro2" is now active');
  });

  it('a command the saved scopes cannot do: refused before anything is printed or sent, naming the scope', async () => {
    await sb.sent();
    const w = ['withdraw', '--asset', 'BTC', '--network', 'BITCOIN', '--address', BTC_ADDRESS, '--amount', '0.001'];
    const r = await sb.runIn([...w, '--yes', '--context', 'ro'], { env });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('withdraw: context "ro" cannot do this');
    expect(r.stderr).toContain('transfer:write_crypto_withdrawal');
    expect(r.stderr).toContain('log in with a client that has');
    expect(await requests()).toEqual([]);
    const read = await sb.runIn(['balances', '--context', 'ro', '--profile-id', DEMO.profileId, '-o', 'json'], { env });
    expect(read.code, read.stderr).toBe(0);
  });

  it('a context without saved scopes (an older one) or with a given token is not blocked', () => {
    const context = { name: 'old', scopes: [] as string[] } as unknown as ResolvedContext;
    expect(missingScope('withdraw', context)).toBeUndefined();
    const ro = { name: 'ro', scopes: ['transfer:read_transfer'] } as unknown as ResolvedContext;
    expect(missingScope('withdraw', ro)).toBe('transfer:write_crypto_withdrawal');
    expect(missingScope('withdraw', { ...ro, envToken: 't' })).toBeUndefined();
    expect(missingScope('transfers list', ro)).toBeUndefined();
  });
});
