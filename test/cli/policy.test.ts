// The policy end to end: coinop as child processes against a local service, each trying to get around a rule.
// A refusal exits 8, names the rule and sends nothing (the service's journal shows no withdrawal); a dry run shows
// each rule's verdict; the 24-hour limit counts the service's transfers, so a second machine (another config and
// data directory) sees the first one's; the hours follow the service's clock, moved with /_local/clock/advance.
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinLocalContext } from '../../src/config/context.js';
import { DEMO } from '../../src/embedded/demo.js';
import { BTC_ADDRESS, ETH_ADDRESS, FAILING_ETH_ADDRESS, sandbox, type Run, type Sandbox } from './helpers.js';
import { transferFlags } from '../support/command-lines.js';

const BTC2 = 'bc1qaf3e3jk48cp6fzyyyssgxzshvqnsg8z356z7xm';
const W = (amount: string, address = BTC_ADDRESS) => ['withdraw', ...transferFlags('BTC', amount, address), '--yes'];

function writePolicy(env: Record<string, string>, text: string): string {
  const dir = join(env.COINOP_CONFIG_DIR, 'policies');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'local.yaml');
  writeFileSync(path, text);
  return path;
}

/** Withdrawals the service was sent since the last look. */
async function withdrawalsSent(sb: Sandbox): Promise<number> {
  return (await sb.sent()).filter((e) => e.method === 'POST' && e.url.startsWith('/v2/transfer/crypto-withdrawals'))
    .length;
}

const lastError = (r: Run) => JSON.parse(r.stderr.trim().split('\n').at(-1)!).error;

describe('coinop policy show, check and init', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await sandbox();
  });
  afterAll(async () => sb?.close());

  it('no policy file: no rules, and show says so', async () => {
    const table = await sb.run(['policy', 'show', '-o', 'table']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain('none: without a policy file coinop enforces no rules for this context');
    expect(JSON.parse((await sb.runIn(['policy', 'show'])).stdout)).toEqual({
      profile: 'local',
      file: join(sb.env.COINOP_CONFIG_DIR, 'policies', 'local.yaml'),
      found: false,
      sha256: null,
      policy: null,
    });
  });

  it('init writes a commented starter that loads with no rules, and never overwrites one without --force', async () => {
    const init = await sb.run(['policy', 'init']);
    expect(init.code, init.stderr).toBe(0);
    const path = join(sb.env.COINOP_CONFIG_DIR, 'policies', 'local.yaml');
    expect(readFileSync(path, 'utf8')).toMatch(/^# coinop policy for context "local"[\s\S]*\n# approvals:\n/);
    const check = await sb.run(['policy', 'check']);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stderr).toContain(`✓ ${path}: a valid policy (no rules set)`);
    expect(JSON.parse(check.stdout).policy).toMatchObject({ destinations: null, approvals: null });
    const again = await sb.runIn(['policy', 'init']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('the context has a policy file already');
    expect((await sb.runIn(['policy', 'init', '--force'])).code).toBe(0);
    rmSync(path);
  });

  it('a typo in the file: check names the line (exit 2), and every command that moves money refuses (exit 8)', async () => {
    const path = writePolicy(sb.env, 'version: 1\nassets: [BTC]\nmax_per_withdrawl:\n  BTC: 1\n');
    const check = await sb.run(['policy', 'check']);
    expect(check.code).toBe(2);
    expect(check.stderr).toContain(`${path}:3: max_per_withdrawl: is not a known field (the rules are version,`);
    const other = join(sb.dir, 'team.json');
    writeFileSync(other, '{\n  "assets": ["BTC"],\n  "hours": "9-5"\n}\n');
    const named = await sb.runIn(['policy', 'check', other]);
    expect(named.code).toBe(2);
    expect(named.stderr).toMatch(new RegExp(`${other}:3: hours: must be a window such as`));
    await sb.sent();
    for (const args of [
      W('0.01'),
      ['withdraw', 'batch', join(sb.dir, 'none.csv'), '--dry-run'],
      ['transfer', 'internal', '--to-profile-id', DEMO.emptyProfileId, '--asset', 'USD', '--amount', '1', '--yes'],
    ]) {
      const r = await sb.run([...args, '-o', 'json']);
      expect(r.code, args.join(' ')).toBe(8);
      expect(lastError(r)).toMatchObject({ category: 'policy', exit_code: 8 });
      expect(lastError(r).message).toContain(
        `the policy file does not load, so nothing that moves money runs: ${path}:3`,
      );
    }
    expect(await sb.sent()).toEqual([]);
    rmSync(path);
  });
});

describe('the rules', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await sandbox();
  });
  afterAll(async () => sb?.close());

  it('a withdrawal over the most per withdrawal is refused naming the rule; a dry run shows every verdict', async () => {
    const path = writePolicy(sb.env, 'networks: [BITCOIN]\nmax_per_withdrawal:\n  BTC: 0.5\n');
    await sb.sent();
    const r = await sb.run(W('0.6'));
    expect(r.code).toBe(8);
    expect(r.stderr).toContain(
      `error: refused by policy: rule max_per_withdrawal: 0.6 BTC is over the most one withdrawal may send, 0.5 BTC (policy ${path}); nothing was sent`,
    );
    expect(await withdrawalsSent(sb)).toBe(0);
    const dry = await sb.run([...W('0.6'), '--dry-run', '-o', 'table']);
    expect(dry.code).toBe(8);
    // This policy needs no time: the verdict is stamped by this machine's clock (hours and 24 hours use the service's).
    expect(dry.stderr).toMatch(/Policy .*local\.yaml \(refuses this run; machine clock /);
    expect(dry.stderr).toMatch(/\n {2}networks +pass {2}every request keeps it\n/);
    expect(dry.stderr).toMatch(
      /\n {2}max_per_withdrawal fail {2}\n {6}0\.6 BTC is over the most one withdrawal may send/,
    );
    expect(dry.stderr).toMatch(/\n {2}hours +off {3}not set by the policy\n/);
    const json = await sb.runIn([...W('0.5'), '--dry-run', '-o', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const verdict = JSON.parse(json.stdout).policy;
    expect(verdict).toMatchObject({ allowed: true, file: path, clock: 'machine', environment: 'local', requests: 1 });
    expect(verdict.rules.map((x: { rule: string; status: string }) => `${x.rule} ${x.status}`)).toEqual([
      'destinations off',
      'verified_only off',
      'networks pass',
      'assets off',
      'max_per_withdrawal pass',
      'max_per_24h off',
      'hours off',
      'approvals off',
    ]);
    expect(await withdrawalsSent(sb)).toBe(0);
    const ok = await sb.run(W('0.5'));
    expect(ok.code, ok.stderr).toBe(0);
    expect(await withdrawalsSent(sb)).toBe(1);
  });

  it('bookmarked_only: an address the book holds but has not bookmarked is refused until it is bookmarked', async () => {
    writePolicy(sb.env, 'destinations: bookmarked_only\n');
    const put = await sb.run(['destinations', 'put', '--network', 'BITCOIN', '--address', BTC2, '--nickname', 'hot']);
    expect(put.code, put.stderr).toBe(0);
    await sb.sent();
    for (const address of [BTC2, BTC_ADDRESS]) {
      const r = await sb.run([...W('0.01', address), '-o', 'json']);
      expect(r.code).toBe(8);
      expect(lastError(r).message).toMatch(/^refused by policy: rule destinations: /);
    }
    expect(await withdrawalsSent(sb)).toBe(0);
    const bookmark = await sb.run(['destinations', 'put', '--network', 'BITCOIN', '--address', BTC2, '--bookmark']);
    expect(bookmark.code, bookmark.stderr).toBe(0);
    const ok = await sb.run(W('0.01', BTC2));
    expect(ok.code, ok.stderr).toBe(0);
    expect(await withdrawalsSent(sb)).toBe(1);
  });

  it('a list of destinations: a nickname of the address book, or an address as written', async () => {
    writePolicy(sb.env, `destinations: [hot, ${ETH_ADDRESS}]\n`);
    await sb.sent();
    const other = await sb.run([...W('0.01', BTC_ADDRESS), '-o', 'json']);
    expect(other.code).toBe(8);
    expect(lastError(other).message).toContain(`${BTC_ADDRESS} (BITCOIN) is not among the policy's destinations`);
    const byNickname = await sb.run(W('0.01', BTC2));
    expect(byNickname.code, byNickname.stderr).toBe(0);
    const eth = ['withdraw', '--asset', 'ETH', '--network', 'ETHEREUM', '--address', ETH_ADDRESS, '--amount', '0.01'];
    const byAddress = await sb.run([...eth, '--yes']);
    expect(byAddress.code, byAddress.stderr).toBe(0);
    expect(await withdrawalsSent(sb)).toBe(2);
  });

  it('internal transfers: the assets rule applies; a dry run shows it', async () => {
    writePolicy(sb.env, 'assets: [BTC, ETH]\ndestinations: bookmarked_only\n');
    const args = ['transfer', 'internal', '--to-profile-id', DEMO.emptyProfileId, '--asset', 'USD', '--amount', '5'];
    await sb.sent();
    const r = await sb.run([...args, '--yes', '-o', 'json']);
    expect(r.code).toBe(8);
    expect(lastError(r).message).toMatch(/^refused by policy: rule assets: USD is not an asset the policy allows/);
    const dry = await sb.runIn([...args, '--dry-run', '-o', 'json']);
    expect(dry.code).toBe(8);
    expect(JSON.parse(dry.stdout).policy.rules.find((x: { rule: string }) => x.rule === 'destinations')).toMatchObject({
      status: 'n/a',
    });
    expect((await sb.sent()).filter((e) => e.method === 'POST' && e.url.startsWith('/v2/'))).toEqual([]);
    const ok = await sb.run([...args.slice(0, -4), '--asset', 'BTC', '--amount', '1', '--yes']);
    expect(ok.code, ok.stderr).toBe(0);
  });

  it('a batch: every row is checked, every violation listed at once, nothing sent; its dry run shows them', async () => {
    writePolicy(sb.env, 'max_per_withdrawal:\n  BTC: 0.5\nnetworks: [BITCOIN]\n');
    const file = join(sb.dir, 'rules.csv');
    writeFileSync(
      file,
      [
        'destination_address,asset,crypto_network,amount',
        `${BTC_ADDRESS},BTC,BITCOIN,0.1`,
        `${BTC_ADDRESS},BTC,BITCOIN,0.7`,
        `${ETH_ADDRESS},ETH,BASE,0.1`,
        `${BTC2},BTC,BITCOIN,0.9`,
        '',
      ].join('\n'),
    );
    await sb.sent();
    const r = await sb.run(['withdraw', 'batch', file, '--yes', '-o', 'json']);
    expect(r.code).toBe(8);
    const lines = r.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.slice(0, -1)).toEqual([
      { rule: 'networks', row: 3, message: 'BASE is not a network the policy allows' },
      { rule: 'max_per_withdrawal', row: 2, message: '0.7 BTC is over the most one withdrawal may send, 0.5 BTC' },
      { rule: 'max_per_withdrawal', row: 4, message: '0.9 BTC is over the most one withdrawal may send, 0.5 BTC' },
    ]);
    expect(lines.at(-1).error.message).toMatch(
      /^refused by policy: 3 violations of rules networks, max_per_withdrawal/,
    );
    expect(await withdrawalsSent(sb)).toBe(0);
    const table = await sb.run(['withdraw', 'batch', file, '--yes', '-o', 'table']);
    expect(table.code).toBe(8);
    expect(table.stderr).toContain(
      'policy: max_per_withdrawal: row 4: 0.9 BTC is over the most one withdrawal may send',
    );
    const dry = await sb.run(['withdraw', 'batch', file, '--dry-run', '-o', 'table']);
    expect(dry.code).toBe(8);
    expect(dry.stderr).toMatch(/ {2}max_per_withdrawal fail {2}\n {6}row 2: 0\.7 BTC[^\n]*\n {6}row 4: 0\.9 BTC/);
    expect(dry.stdout).toMatch(/^ASSET +NETWORK +ROWS/);
    expect(await withdrawalsSent(sb)).toBe(0);
  });
});

describe('the 24-hour limit and the hours, by the service', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await sandbox();
  });
  afterAll(async () => sb?.close());
  /** A second machine: its own configuration and data directories, the same service and the same policy. */
  const machineB = () => ({
    COINOP_CONFIG_DIR: join(sb.dir, 'config-b'),
    COINOP_DATA_DIR: join(sb.dir, 'data-b'),
  });

  it('counts every run of every machine from the service, and frees up as the 24 hours roll on', async () => {
    const policy = 'max_per_24h:\n  BTC: 1\n  ETH: 6\n';
    writePolicy(sb.env, policy);
    writePolicy({ COINOP_CONFIG_DIR: machineB().COINOP_CONFIG_DIR }, policy);
    await sb.sent();
    expect((await sb.run(W('0.4'))).code).toBe(0);
    const b = await sb.run(W('0.4'), { env: machineB() });
    expect(b.code, b.stderr).toBe(0);
    for (const env of [{}, machineB()]) {
      const r = await sb.run([...W('0.4'), '-o', 'json'], { env });
      expect(r.code).toBe(8);
      expect(lastError(r).message).toMatch(
        /^refused by policy: rule max_per_24h: BTC: 0\.8 sent since \S+ \(the service's withdrawals\) \+ 0\.4 in this run = 1\.2, over the 24-hour limit of 1 BTC/,
      );
    }
    expect(await withdrawalsSent(sb)).toBe(2);
    // A day later by the service's clock, the first two no longer count.
    await sb.control('POST', '/_local/clock/advance', { seconds: 24 * 3600 + 60 });
    const later = await sb.run(W('0.9'), { env: machineB() });
    expect(later.code, later.stderr).toBe(0);
  });

  it('a withdrawal that FAILED does not count', async () => {
    const eth = (address: string, amount: string) => ['withdraw', ...transferFlags('ETH', amount, address), '--yes'];
    expect((await sb.run(eth(FAILING_ETH_ADDRESS, '5'))).code).toBe(0);
    expect((await sb.run(eth(ETH_ADDRESS, '5'))).code).toBe(8);
    // The local service settles a withdrawal 30 s after it was made: to the dead address, FAILED.
    await sb.control('POST', '/_local/clock/advance', { seconds: 31 });
    const r = await sb.run(eth(ETH_ADDRESS, '5'));
    expect(r.code, r.stderr).toBe(0);
  });

  it('hours: outside the window by the service clock it is refused, inside it goes', async () => {
    const { now } = await sb.control('GET', '/_local/health');
    const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
    const start = Math.ceil(Date.parse(now) / 60_000) * 60_000 + 2 * 3600_000;
    const window = `${hhmm(start)}-${hhmm(start + 3600_000)} UTC`;
    writePolicy(sb.env, `hours: "${window}"\n`);
    await sb.sent();
    const r = await sb.run([...W('0.01'), '-o', 'json']);
    expect(r.code).toBe(8);
    expect(lastError(r).message).toMatch(
      new RegExp(
        `^refused by policy: rule hours: sending is allowed ${window}; it is \\d\\d:\\d\\d UTC \\(by the service's clock\\)`,
      ),
    );
    expect(await withdrawalsSent(sb)).toBe(0);
    await sb.control('POST', '/_local/clock/advance', { seconds: 2.5 * 3600 });
    const ok = await sb.run(W('0.01'));
    expect(ok.code, ok.stderr).toBe(0);
    expect(await withdrawalsSent(sb)).toBe(1);
  });
});

describe('a policy is never lost without a change of its file', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await sandbox();
  });
  afterAll(async () => sb?.close());

  const moneyCommands = () => [
    W('0.01'),
    ['withdraw', 'batch', join(sb.dir, 'none.csv'), '--yes'],
    ['transfer', 'internal', '--to-profile-id', DEMO.emptyProfileId, '--asset', 'USD', '--amount', '1', '--yes'],
  ];
  const refusals = async () => {
    const list = await sb.runIn(['audit', 'list', '--all', '--kind', 'policy_refusal', '-o', 'json']);
    expect(list.code, list.stderr).toBe(0);
    return JSON.parse(list.stdout) as {
      what: Record<string, unknown>;
      outcome: { result: string; error: { message: string } };
    }[];
  };

  it('a policy file that is a symbolic link to a file that is gone refuses everything (exit 8); doctor fails', async () => {
    const dir = join(sb.env.COINOP_CONFIG_DIR, 'policies');
    mkdirSync(dir, { recursive: true });
    const team = join(sb.dir, 'team-policy.yaml');
    writeFileSync(team, 'assets: [BTC]\n');
    const path = join(dir, 'local.yaml');
    symlinkSync(team, path);
    expect((await sb.runIn(['policy', 'show', '-o', 'json'])).code).toBe(0);
    rmSync(team);
    await sb.sent();
    const before = (await refusals()).length;
    for (const args of moneyCommands()) {
      const r = await sb.runIn([...args, '-o', 'json']);
      expect(r.code, args.join(' ')).toBe(8);
      expect(lastError(r)).toMatchObject({ category: 'policy', exit_code: 8 });
      expect(lastError(r).message).toBe(
        `refused by policy: the policy cannot be read, so nothing that moves money runs: ${path} is a symbolic link to ${team}, which cannot be followed (ENOENT); nothing was sent`,
      );
    }
    expect(await sb.sent()).toEqual([]);
    const audit = (await refusals()).slice(before);
    expect(audit.map((e) => e.what.command)).toEqual(['withdraw', 'withdraw batch', 'transfer internal']);
    for (const e of audit) {
      expect(e.what.policy_file).toBe(path);
      expect(e.outcome.result).toBe('refused');
      expect(e.outcome.error.message).toContain('is a symbolic link to');
    }
    const show = await sb.runIn(['policy', 'show', '-o', 'json']);
    expect(show.code).toBe(8);
    const doctor = await sb.runIn(['doctor', '-o', 'json']);
    expect(doctor.code).toBe(1);
    expect(JSON.parse(doctor.stdout).find((c: { check: string }) => c.check === 'policy')).toMatchObject({
      status: 'fail',
      message: expect.stringContaining(`${path} is a symbolic link to ${team}, which cannot be followed`),
    });
    rmSync(path);
  });

  it('a policies folder that cannot be looked into, or a policy that is not a file: refused, never "no rules"', async () => {
    const dir = join(sb.env.COINOP_CONFIG_DIR, 'policies');
    rmSync(dir, { recursive: true, force: true });
    writeFileSync(dir, 'not a folder');
    await sb.sent();
    const r = await sb.runIn([...W('0.01'), '-o', 'json']);
    expect(r.code).toBe(8);
    expect(lastError(r).message).toContain(`${dir} is a file, not a folder`);
    rmSync(dir);
    mkdirSync(join(dir, 'local.yaml'), { recursive: true });
    const folder = await sb.runIn([...W('0.01'), '-o', 'json']);
    expect(folder.code).toBe(8);
    expect(lastError(folder).message).toContain(`${join(dir, 'local.yaml')} is a folder, not a file`);
    expect(await withdrawalsSent(sb)).toBe(0);
    rmSync(dir, { recursive: true });
  });
});

describe('a context is renamed with its policy, and deleted without losing it', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await sandbox();
  });
  afterAll(async () => sb?.close());

  it('rename carries the policy to the new name; a name with a policy already is refused; delete keeps it', async () => {
    const config = sb.env.COINOP_CONFIG_DIR;
    const dir = join(config, 'policies');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const saved = { ...builtinLocalContext(), baseUrl: sb.svc.baseUrl, authUrl: sb.svc.authUrl };
    writeFileSync(join(config, 'config.json'), JSON.stringify({ profiles: { t1: saved } }), { mode: 0o600 });
    writeFileSync(join(config, 'secrets.json'), JSON.stringify({ t1: DEMO.clientSecret }), { mode: 0o600 });
    const policy = 'max_per_withdrawal:\n  BTC: 0.5\n';
    writeFileSync(join(dir, 't1.yml'), policy, { mode: 0o600 });
    await sb.sent();
    expect((await sb.runIn(['--context', 't1', ...W('0.6')])).code).toBe(8);

    const renamed = await sb.runIn(['context', 'rename', 't1', 't2']);
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(renamed.stderr).toContain(`Context "t1" is now "t2", with its policy (${join(dir, 't2.yml')}).`);
    expect(readFileSync(join(dir, 't2.yml'), 'utf8')).toBe(policy);
    expect(() => readFileSync(join(dir, 't1.yml'))).toThrow(/ENOENT/);
    const r = await sb.runIn(['--context', 't2', ...W('0.6'), '-o', 'json']);
    expect(r.code).toBe(8);
    expect(lastError(r).message).toContain(`rule max_per_withdrawal: 0.6 BTC is over the most one withdrawal may send`);
    expect(await withdrawalsSent(sb)).toBe(0);

    // The new name has a policy of its own: nothing is renamed, neither file changes.
    writeFileSync(join(dir, 't3.yaml'), 'assets: [ETH]\n', { mode: 0o600 });
    const onto = await sb.runIn(['context', 'rename', 't2', 't3']);
    expect(onto.code).toBe(2);
    expect(onto.stderr).toContain(
      `context rename: the name "t3" has a policy file already (${join(dir, 't3.yaml')}); nothing was renamed`,
    );
    expect(Object.keys(JSON.parse(readFileSync(join(config, 'config.json'), 'utf8')).profiles)).toEqual(['t2']);
    expect(readFileSync(join(dir, 't2.yml'), 'utf8')).toBe(policy);
    expect(readFileSync(join(dir, 't3.yaml'), 'utf8')).toBe('assets: [ETH]\n');

    // A policy that cannot be read does not move (nor is it left behind): the rename is refused.
    writeFileSync(join(dir, 't4.yaml'), policy, { mode: 0o600 });
    writeFileSync(join(config, 'config.json'), JSON.stringify({ profiles: { t2: saved, t4: saved } }), { mode: 0o600 });
    rmSync(join(dir, 't4.yaml'));
    symlinkSync(join(sb.dir, 'gone.yaml'), join(dir, 't4.yaml'));
    const broken = await sb.runIn(['context', 'rename', 't4', 't5']);
    expect(broken.code).toBe(8);
    expect(broken.stderr).toContain(
      `context rename: the policy of "t4" cannot be read (${join(dir, 't4.yaml')} is a symbolic link`,
    );
    expect(Object.keys(JSON.parse(readFileSync(join(config, 'config.json'), 'utf8')).profiles)).toEqual(['t2', 't4']);

    const deleted = await sb.runIn(['context', 'delete', 't2', '--yes']);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stderr).toContain(
      `Its policy ${join(dir, 't2.yml')} is kept: a context saved again as "t2" is held to it (remove the file to drop it).`,
    );
    expect(readFileSync(join(dir, 't2.yml'), 'utf8')).toBe(policy);
  });
});

describe('the address book cannot widen the destinations the policy allows', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await sandbox();
  });
  afterAll(async () => sb?.close());
  const BTC3 = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
  /** A machine without the policy (another coinop, the service's web app): it writes the book unchecked. */
  const unpoliced = () => ({
    COINOP_CONFIG_DIR: join(sb.dir, 'config-other'),
    COINOP_DATA_DIR: join(sb.dir, 'data-other'),
  });
  const put = (address: string, nickname: string, env: Record<string, string> = {}) =>
    sb.runIn(
      ['destinations', 'put', '--network', 'BITCOIN', '--address', address, '--nickname', nickname, '-o', 'json'],
      {
        env,
      },
    );
  const bookEntries = async () => {
    const list = await sb.runIn(['audit', 'list', '--all', '--kind', 'address_book', '-o', 'json']);
    expect(list.code, list.stderr).toBe(0);
    return (
      JSON.parse(list.stdout) as {
        what: Record<string, unknown>;
        outcome: { result: string; error?: { message: string } };
      }[]
    ).filter((e) => e.outcome.result !== 'attempt');
  };

  it('a nickname the policy allows is not given to another address; every write is audited', async () => {
    expect((await put(BTC2, 'treasury')).code).toBe(0);
    const path = writePolicy(sb.env, 'destinations: [treasury]\n');
    expect((await sb.runIn(W('0.01', BTC2))).code).toBe(0);
    await sb.sent();

    // Straight onto another address: refused, whoever holds the nickname now is named.
    const direct = await put(BTC_ADDRESS, 'treasury');
    expect(direct.code).toBe(8);
    expect(lastError(direct).message).toBe(
      `refused by policy: rule destinations: treasury is a destination the policy allows; giving it to ${BTC_ADDRESS} (BITCOIN) in place of ${BTC2} (BITCOIN) would let withdrawals go there without a change of the policy file (pin it there: destinations: [{nickname: treasury, address: ${BTC_ADDRESS}, network: BITCOIN}]) (policy ${path}); nothing was written to the address book`,
    );
    // Renaming the old address away is allowed (it narrows), then naming a new one treasury is not.
    expect((await put(BTC2, 'old-treasury')).code).toBe(0);
    const renamed = await put(BTC_ADDRESS, 'treasury');
    expect(renamed.code).toBe(8);
    expect(lastError(renamed).message).toContain('treasury is a destination the policy allows; giving it to');
    expect((await sb.sent()).filter((e) => e.method === 'PUT')).toHaveLength(1);
    expect((await sb.runIn([...W('0.01', BTC_ADDRESS), '-o', 'json'])).code).toBe(8);
    // By its id: an entry of the book (added under another name) is not renamed treasury either.
    const other = await put(BTC_ADDRESS, 'spare');
    expect(other.code, other.stderr).toBe(0);
    const byId = await sb.runIn([
      'destinations',
      'put',
      '--id',
      JSON.parse(other.stdout).id,
      '--nickname',
      'treasury',
      '-o',
      'json',
    ]);
    expect(byId.code).toBe(8);
    expect(lastError(byId).message).toContain(
      `treasury is a destination the policy allows; giving it to ${BTC_ADDRESS} (BITCOIN) would let`,
    );
    expect((await sb.sent()).filter((e) => e.method === 'PUT')).toHaveLength(1);

    const entries = await bookEntries();
    expect(entries.map((e) => [e.what.nickname, e.what.address, e.outcome.result])).toEqual([
      ['treasury', BTC2, 'sent'],
      ['treasury', BTC_ADDRESS, 'refused'],
      ['old-treasury', BTC2, 'sent'],
      ['treasury', BTC_ADDRESS, 'refused'],
      ['spare', BTC_ADDRESS, 'sent'],
      ['treasury', BTC_ADDRESS, 'refused'],
    ]);
    expect(entries[0].what).toMatchObject({ command: 'destinations put', network: 'BITCOIN', new_address: true });
    expect(entries[1].what).toMatchObject({
      network: 'BITCOIN',
      previous_address: BTC2,
      rules: ['destinations'],
      policy_file: path,
    });
    expect(entries[2].what).toMatchObject({ previous_nickname: 'treasury', policy_file: path });
    expect(entries[3].outcome.error?.message).toContain('rule destinations: treasury is a destination');
    expect(entries[5].what).toMatchObject({ id: JSON.parse(other.stdout).id, previous_nickname: 'spare' });
  });

  it('a pinned nickname allows its address only, whatever another writer of the book does', async () => {
    const path = writePolicy(
      sb.env,
      `destinations:\n  - nickname: treasury\n    address: ${BTC_ADDRESS}\n    network: BITCOIN\n`,
    );
    expect((await sb.runIn(['policy', 'check'])).code).toBe(0);
    const pinned = await put(BTC_ADDRESS, 'treasury');
    expect(pinned.code, pinned.stderr).toBe(0);
    expect((await sb.runIn(W('0.01', BTC_ADDRESS))).code).toBe(0);
    // Another writer moves the nickname to a third address: the policy file did not change, neither does what it allows.
    expect((await put(BTC_ADDRESS, 'was-treasury', unpoliced())).code).toBe(0);
    expect((await put(BTC3, 'treasury', unpoliced())).code).toBe(0);
    await sb.sent();
    const r = await sb.runIn([...W('0.01', BTC3), '-o', 'json']);
    expect(r.code).toBe(8);
    expect(lastError(r).message).toBe(
      `refused by policy: rule destinations: ${BTC3} (BITCOIN) is treasury in the address book, but the policy pins treasury to ${BTC_ADDRESS} (BITCOIN) (policy ${path}); nothing was sent`,
    );
    expect(await withdrawalsSent(sb)).toBe(0);
    // The pinned address still goes, though the book calls it something else now.
    expect((await sb.runIn(W('0.01', BTC_ADDRESS))).code).toBe(0);
    const show = JSON.parse((await sb.runIn(['policy', 'show', '-o', 'json'])).stdout);
    expect(show.policy.destinations).toEqual([{ nickname: 'treasury', address: BTC_ADDRESS, network: 'BITCOIN' }]);
  });
});
