// coinop config get|set|list|unset (defaults in the configuration file, under the environment and the flags), and
// coinop profile rename|delete|set-profile-id on real store files; delete asks on a terminal (node-pty).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { parseConfigSetOptions } from '../../src/commands/config/options.js';
import { readSettings } from '../../src/config/settings.js';
import { usageMessage } from '../commands/support.js';
import { runInProcess, runCoinop, sandbox } from './helpers.js';
import { KEY, Term } from './terminal.js';

const root = mkdtempSync(join(tmpdir(), 'coinop-config-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

/** A fresh configuration directory per test, with one saved sandbox profile, its secret and a cached token. */
function setup() {
  const dir = join(root, `t${n++}`);
  const config = join(dir, 'config');
  mkdirSync(config, { recursive: true, mode: 0o700 });
  const profile = {
    environment: 'sandbox',
    baseUrl: 'https://api.sandbox.example.com/v2',
    authUrl: 'https://auth.sandbox.example.com',
    wsUrl: 'wss://ws.sandbox.example.com',
    clientId: 'cid',
    scopes: ['read'],
  };
  writeFileSync(join(config, 'config.json'), JSON.stringify({ activeProfile: 'sb', profiles: { sb: profile } }), {
    mode: 0o600,
  });
  writeFileSync(join(config, 'secrets.json'), JSON.stringify({ sb: 's3cret' }), { mode: 0o600 });
  const token = { accessToken: 'tok', expiresAt: Date.now() + 3_600_000, scope: 'read' };
  writeFileSync(join(config, 'tokens.json'), JSON.stringify({ 'sb|x|cid|read': token }), { mode: 0o600 });
  const env = { HOME: join(dir, 'home'), COINOP_CONFIG_DIR: config, COINOP_DATA_DIR: join(dir, 'data'), NO_COLOR: '1' };
  const read = (f: string) => JSON.parse(readFileSync(join(config, f), 'utf8'));
  return { config, env, read };
}

describe('parseConfigSetOptions', () => {
  it.each([
    [['output', 'CSV'], { key: 'output', value: 'csv' }],
    [['pager', ''], { key: 'pager', value: 'cat' }],
    [['batch-rate', '0'], { key: 'batch-rate', value: '0' }],
    [['no-input', '1'], { key: 'no-input', value: 'true' }],
    [['timeout-ms', '5000'], { key: 'timeout-ms', value: '5000' }],
  ])('%j', (args, expected) => {
    expect(parseConfigSetOptions(args[0], args[1])).toEqual(expected);
  });

  it.each([
    [['colour', 'x'], /^config: unknown key "colour" \(keys: output, pager, context, batch-rate, /],
    [['output', 'yaml'], /^output: must be one of table, json, ndjson, csv \(got "yaml"\)$/],
    [['batch-rate', 'fast'], /^batch-rate: must be a number of withdrawals per second from 0 \(no limit\) to 10000/],
    [['timeout-ms', '0'], /^timeout-ms: must be a whole number of milliseconds from 1 to 2147483647/],
    [['no-input', 'yes'], /^no-input: must be 1 or true/],
  ])('%j is refused, naming the key and the rule', (args, message) => {
    expect(usageMessage(() => parseConfigSetOptions(args[0], args[1]))).toMatch(message);
  });

  it('the environment wins over the configuration file, which wins over the default', () => {
    expect(readSettings({}, { 'timeout-ms': '700' }).timeoutMs).toBe(700);
    expect(readSettings({ COINOP_TIMEOUT_MS: '900' }, { 'timeout-ms': '700' }).timeoutMs).toBe(900);
    expect(readSettings({}, {}).timeoutMs).toBe(30_000);
    expect(readSettings({}, { output: 'csv' }).output).toBe('csv');
    expect(readSettings({ COINOP_OUTPUT: 'ndjson' }, { output: 'csv' }).output).toBe('ndjson');
    expect(readSettings({}, { pager: 'most' }).pager).toEqual({ command: 'most', chosen: true });
    expect(readSettings({ PAGER: 'more' }, { pager: 'most' }).pager).toEqual({ command: 'more', chosen: true });
  });
});

describe('coinop config', () => {
  let s: ReturnType<typeof setup>;
  beforeEach(() => {
    s = setup();
  });

  it('set keeps the value (canonical), get reads it back as plain text, unset removes it', async () => {
    expect(await runInProcess(['config', 'set', 'output', 'CSV'], s.env)).toMatchObject({ code: 0, stdout: '' });
    expect(s.read('config.json').defaults).toEqual({ output: 'csv' });
    expect((await runInProcess(['config', 'get', 'output'], s.env)).stdout).toBe('csv\n');
    const j = await runInProcess(['config', 'get', 'output', '--json'], { ...s.env, COINOP_OUTPUT: 'ndjson' });
    expect(JSON.parse(j.stdout)).toMatchObject({
      key: 'output',
      value: 'ndjson',
      source: 'env',
      variable: 'COINOP_OUTPUT',
    });
    expect((await runInProcess(['config', 'unset', 'output'], s.env)).code).toBe(0);
    expect(s.read('config.json').defaults).toBeUndefined();
    expect(s.read('config.json').profiles.sb.clientId).toBe('cid');
  });

  it('list shows each value and where it came from, and says the precedence', async () => {
    await runInProcess(['config', 'set', 'batch-rate', '5'], s.env);
    const r = await runInProcess(['config', 'list', '--json'], { ...s.env, COINOP_POLL_MS: '300' });
    const rows = Object.fromEntries(JSON.parse(r.stdout).map((x: { key: string }) => [x.key, x]));
    expect(rows['batch-rate']).toMatchObject({ value: '5', source: 'config' });
    expect(rows['poll-ms']).toMatchObject({ value: '300', source: 'env', variable: 'COINOP_POLL_MS' });
    expect(rows['timeout-ms']).toMatchObject({ value: '30000', source: 'default' });
    expect(rows.context).toMatchObject({ value: 'sb', source: 'config' });
    const t = await runInProcess(['config', 'list', '-o', 'table'], s.env);
    expect(t.stdout).toMatch(/^batch-rate\s+5\s+config\s+COINOP_BATCH_RATE/m);
    expect(t.stderr).toContain('Precedence: a flag, then the environment variable, then the configuration file');
  });

  it('a saved output format is what a terminal gets; piped output stays JSON; a flag wins over both', async () => {
    await runInProcess(['config', 'set', 'output', 'csv'], s.env);
    const env = { ...s.env, COINOP_PAGER: 'cat' };
    const csv = await runInProcess(['config', 'list'], env, undefined, { stdout: 120 });
    expect(csv.stdout.split(/\r?\n/)[0]).toBe('key,value,source,variable');
    const piped = await runInProcess(['config', 'list'], env);
    expect(Array.isArray(JSON.parse(piped.stdout))).toBe(true);
    const asked = await runInProcess(['config', 'list', '-o', 'csv'], env);
    expect(asked.stdout.split(/\r?\n/)[0]).toBe('key,value,source,variable');
    const json = await runInProcess(['config', 'list', '--json'], env, undefined, { stdout: 120 });
    expect(Array.isArray(JSON.parse(json.stdout))).toBe(true);
  });

  it('config set output table: balances on a terminal is a table, `balances | cat` still JSON (COINOP_OUTPUT too)', async () => {
    const sb = await sandbox();
    try {
      const env = { ...sb.env, COINOP_PAGER: 'cat' };
      await runInProcess(['config', 'set', 'output', 'table'], env);
      const piped = await runInProcess(['balances', 'BTC'], env);
      expect(piped.code).toBe(0);
      expect(JSON.parse(piped.stdout)).toBeTruthy();
      const shown = await runInProcess(['balances', 'BTC'], env, undefined, { stdout: 100 });
      expect(shown.stdout).toMatch(/^ASSET\s+AVAILABLE/);
      const fromEnv = await runInProcess(['balances', 'BTC'], { ...env, COINOP_OUTPUT: 'csv' });
      expect(JSON.parse(fromEnv.stdout)).toBeTruthy();
      const asked = await runInProcess(['balances', 'BTC', '-o', 'table'], env);
      expect(asked.stdout).toMatch(/^ASSET\s+AVAILABLE/);
    } finally {
      await sb.close();
    }
  });

  it('list and get output say the saved format is for terminals only', async () => {
    const t = await runInProcess(['config', 'list', '-o', 'table'], s.env);
    expect(t.stdout).toMatch(/^output .*\(terminals only; piped output is JSON unless -o is given\)/m);
    const g = await runInProcess(['config', 'get', 'output'], s.env);
    expect(g.stdout).toBe('\n');
    expect(g.stderr).toContain('(terminals only; piped output is JSON unless -o is given)');
  });

  it('a bad value kept in the file stops a command with exit 2 naming the key', async () => {
    writeFileSync(join(s.config, 'config.json'), JSON.stringify({ defaults: { 'poll-ms': 'soon' } }));
    const r = await runInProcess(['config', 'list'], s.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: poll-ms \(in the configuration file; coinop config unset poll-ms\): must be a whole number/,
    );
  });

  it('an unknown key or a bad value exits 2 and changes nothing', async () => {
    const before = readFileSync(join(s.config, 'config.json'), 'utf8');
    expect(await runInProcess(['config', 'set', 'colour', 'x'], s.env)).toMatchObject({ code: 2, stdout: '' });
    expect(await runInProcess(['config', 'set', 'stream-fps', '5000'], s.env)).toMatchObject({ code: 2 });
    expect((await runInProcess(['config', 'get', 'nope'], s.env)).stderr).toMatch(/unknown key "nope"/);
    expect((await runInProcess(['config', 'set', 'context', 'nope'], s.env)).stderr).toMatch(
      /context: no context named "nope"/,
    );
    expect(readFileSync(join(s.config, 'config.json'), 'utf8')).toBe(before);
  });

  it('set context is the active profile (profile use)', async () => {
    expect((await runInProcess(['config', 'set', 'context', 'local'], s.env)).code).toBe(0);
    expect(s.read('config.json').activeProfile).toBe('local');
    await runInProcess(['config', 'unset', 'context'], s.env);
    expect(s.read('config.json').activeProfile).toBeUndefined();
  });
});

describe('coinop profile rename, delete, set-profile-id', () => {
  let s: ReturnType<typeof setup>;
  beforeEach(() => {
    s = setup();
  });

  it('rename moves the profile and its secret, the active one follows, cached tokens are dropped', async () => {
    const r = await runInProcess(['profile', 'rename', 'sb', 'sandbox-eu'], s.env);
    expect(r).toMatchObject({ code: 0, stdout: '' });
    const c = s.read('config.json');
    expect(Object.keys(c.profiles)).toEqual(['sandbox-eu']);
    expect(c.activeProfile).toBe('sandbox-eu');
    expect(s.read('secrets.json')).toEqual({ 'sandbox-eu': 's3cret' });
    expect(s.read('tokens.json')).toEqual({});
    expect((statSync(join(s.config, 'secrets.json')).mode & 0o777).toString(8)).toBe('600');
  });

  it('rename refuses a missing profile, the built-in local one, a taken or bad name', async () => {
    for (const [args, message] of [
      [['nope', 'x'], 'no saved context named "nope"'],
      [['local', 'x'], '"local" is built in'],
      [['sb', 'local'], 'a context named "local" exists already'],
      [['sb', 'a b'], 'context rename: NEW: use letters, digits, dot, dash and underscore'],
    ] as const) {
      const r = await runInProcess(['profile', 'rename', ...args], s.env);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(message);
    }
    expect(s.read('secrets.json')).toEqual({ sb: 's3cret' });
  });

  it('delete without a terminal needs --yes; with it, the profile, secret and tokens are gone', async () => {
    const r = await runCoinop(['profile', 'delete', 'sb'], s.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('add --yes');
    expect(s.read('secrets.json')).toEqual({ sb: 's3cret' });
    expect((await runInProcess(['profile', 'delete', 'sb', '--yes'], s.env)).code).toBe(0);
    expect(s.read('config.json').profiles).toEqual({});
    expect(s.read('config.json').activeProfile).toBeUndefined();
    expect(s.read('secrets.json')).toEqual({});
    expect(s.read('tokens.json')).toEqual({});
  });

  it('delete asks on a terminal: no keeps it (exit 3), yes deletes it', async () => {
    const no = new Term(['profile', 'delete', 'sb'], s.env);
    await no.waitFor('Delete context "sb"');
    no.type(`n${KEY.enter}`);
    expect(await no.exit()).toBe(3);
    expect(s.read('secrets.json')).toEqual({ sb: 's3cret' });
    const yes = new Term(['profile', 'delete', 'sb'], s.env);
    await yes.waitFor('Delete context "sb"');
    yes.type(`y${KEY.enter}`);
    expect(await yes.exit()).toBe(0);
    expect(s.read('secrets.json')).toEqual({});
  }, 60_000);

  it('set-profile-id sets and clears the default service profile without a login', async () => {
    // A whole id is saved as given, nothing asked of the service (a nickname is looked up with the context in use).
    const id = '2b1e6f9c-5d4a-4f7e-9c3b-8a1d2e3f4a5b';
    expect((await runInProcess(['profile', 'set-profile-id', id], s.env)).code).toBe(0);
    expect(s.read('config.json').profiles.sb.profileId).toBe(id);
    expect(s.read('secrets.json')).toEqual({ sb: 's3cret' });
    const show = await runInProcess(['profile', 'show', 'sb', '--json'], s.env);
    expect(JSON.parse(show.stdout).service_profile_id).toBe(id);
    expect((await runInProcess(['profile', 'set-profile-id', '', 'sb'], s.env)).code).toBe(0);
    expect(s.read('config.json').profiles.sb.profileId).toBeUndefined();
    const bad = await runInProcess(['profile', 'set-profile-id', 'a b'], s.env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('PROFILE-ID must be');
    expect(existsSync(join(s.config, 'config.json'))).toBe(true);
  });
});

describe('context: the new name of coinop profile, --profile and COINOP_PROFILE', () => {
  let s: ReturnType<typeof setup>;
  beforeEach(() => {
    s = setup();
  });

  it('coinop context lists, and coinop profile still does after a one-line note on stderr', async () => {
    const now = await runInProcess(['context', 'list', '--json'], s.env);
    expect(now.stderr).toBe('');
    const old = await runInProcess(['profile', 'list', '--json'], s.env);
    expect(old.stderr).toBe('note: coinop profile is now coinop context\n');
    expect(old.stdout).toBe(now.stdout);
    expect(JSON.parse(now.stdout).map((r: { name: string; active: boolean }) => [r.name, r.active])).toEqual([
      ['local', false],
      ['sb', true],
    ]);
  });

  it('--context names the context; --profile still does, with a note; both differing is a usage error', async () => {
    const show = (args: string[], env = s.env) => runInProcess([...args, 'context', 'show', '--json'], env);
    const ctx = await show(['--context', 'local']);
    expect([JSON.parse(ctx.stdout).active, ctx.stderr]).toEqual([true, '']);
    expect(JSON.parse(ctx.stdout).name).toBe('local');
    const old = await show(['--profile', 'local']);
    expect(JSON.parse(old.stdout).active).toBe(true);
    expect(old.stderr).toBe('note: --profile is now --context\n');
    const both = await show(['--context', 'local', '--profile', 'sb']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--profile is the old name of --context; give one');
  });

  it('COINOP_CONTEXT picks the context, COINOP_PROFILE still does with a note, and the new name wins', async () => {
    const list = async (env: Record<string, string>) => {
      const run = await runInProcess(['context', 'list', '--json'], { ...s.env, ...env });
      const rows = JSON.parse(run.stdout) as { name: string; active: boolean }[];
      return [rows.find((r) => r.active)?.name, run.stderr];
    };
    expect(await list({ COINOP_CONTEXT: 'local' })).toEqual(['local', '']);
    expect(await list({ COINOP_PROFILE: 'local' })).toEqual(['local', 'note: COINOP_PROFILE is now COINOP_CONTEXT\n']);
    expect(await list({ COINOP_CONTEXT: 'sb', COINOP_PROFILE: 'local' })).toEqual([
      'sb',
      'note: COINOP_PROFILE is now COINOP_CONTEXT (COINOP_CONTEXT=sb is used)\n',
    ]);
    const cfg = await runInProcess(['config', 'get', 'context', '--json'], { ...s.env, COINOP_CONTEXT: 'local' });
    expect(JSON.parse(cfg.stdout)).toMatchObject({ value: 'local', source: 'env', variable: 'COINOP_CONTEXT' });
  });
});
