// coinop config and context runs with fakes of their ports (test/commands/ports.ts) over a configuration directory of
// the test's own: what the operator sees on stdout and stderr for config list, get, set and unset and for context list,
// use, show and rename, and what the configuration file keeps afterwards (read by a fresh store).
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContextStore } from '../../src/cli/ports.js';
import * as config from '../../src/commands/config/run.js';
import * as context from '../../src/commands/context/run.js';
import type { Env } from '../../src/config/settings.js';
import { ConfigStore, type StoredContext } from '../../src/config/store.js';
import { policyLocation } from '../../src/policy/location.js';
import { fakeDisplay, noPrompts } from './ports.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'coinop-context-run-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The port over `dir`: one store a run (as the Invocation's), --context as `flag`, COINOP_CONTEXT as env says. */
function contexts(options: { env?: Env; flag?: string } = {}): ContextStore {
  const env = options.env ?? {};
  let store: ConfigStore | undefined;
  return {
    store: () => (store ??= new ConfigStore(dir)),
    configDir: () => dir,
    flag: () => options.flag,
    settings: () => ({ context: env.COINOP_CONTEXT, overrides: {} }),
    env,
  };
}

const deps = (display: Parameters<typeof fakeDisplay>[0] = {}, options: Parameters<typeof contexts>[0] = {}) => {
  const shown = fakeDisplay(display);
  return { display: shown, contexts: contexts(options), prompter: noPrompts(shown) };
};

const SANDBOX: StoredContext = {
  environment: 'sandbox',
  baseUrl: 'https://api.sandbox.example',
  authUrl: 'https://auth.sandbox.example',
  wsUrl: 'wss://ws.sandbox.example',
  clientId: 'client-sb',
  scopes: ['read'],
};

async function saveSandbox(name = 'sb', makeActive = true): Promise<void> {
  await new ConfigStore(dir).saveContext(name, SANDBOX, 'secret-sb', makeActive);
}

describe('config run', () => {
  it('set keeps a default in the file and says so; get prints the value itself; list names its source', async () => {
    const set = deps();
    await config.set(set, 'output', 'CSV');
    expect(set.display.stderr).toBe('output = csv\n');
    expect(set.display.stdout).toBe('');
    expect(new ConfigStore(dir).defaults()).toEqual({ output: 'csv' });

    const get = deps();
    await config.get(get, 'output');
    expect(get.display.stdout).toBe('csv\n');

    const asked = deps({ format: 'json' });
    await config.get(asked, 'output');
    expect(JSON.parse(asked.display.stdout)).toMatchObject({ key: 'output', value: 'csv', source: 'config' });

    const list = deps({ format: 'json' });
    await config.list(list);
    const rows = JSON.parse(list.display.stdout) as { key: string; value: string; source: string }[];
    expect(rows.find((r) => r.key === 'output')).toMatchObject({ value: 'csv', source: 'config' });
    expect(rows.find((r) => r.key === 'context')).toMatchObject({ value: 'local', source: 'default' });
  });

  it('a table list ends with the precedence and the file on stderr', async () => {
    const list = deps({ tty: true });
    await config.list(list);
    expect(list.display.stdout).toMatch(/^KEY\s+VALUE\s+SOURCE/m);
    expect(list.display.stderr).toContain(`File: ${join(dir, 'config.json')}`);
  });

  it('an environment variable wins over the file: list says env and set notes the shadow', async () => {
    const set = deps({}, { env: { COINOP_OUTPUT: 'json' } });
    await config.set(set, 'output', 'table');
    expect(set.display.stderr).toBe(
      'output = table\nnote: COINOP_OUTPUT is set, and wins over the configuration file\n',
    );
    const get = deps({ format: 'json' }, { env: { COINOP_OUTPUT: 'json' } });
    await config.get(get, 'output');
    expect(JSON.parse(get.display.stdout)).toMatchObject({ value: 'json', source: 'env', variable: 'COINOP_OUTPUT' });
  });

  it('context: set refuses an unknown name, takes a saved one; COINOP_CONTEXT wins; unset returns to local', async () => {
    await saveSandbox('sb', false);
    await expect(config.set(deps(), 'context', 'nope')).rejects.toThrow('context: no context named "nope"');
    await config.set(deps(), 'context', 'sb');
    expect(new ConfigStore(dir).activeContextName()).toBe('sb');

    const env = deps({ format: 'json' }, { env: { COINOP_CONTEXT: 'local' } });
    await config.get(env, 'context');
    expect(JSON.parse(env.display.stdout)).toMatchObject({ value: 'local', source: 'env', variable: 'COINOP_CONTEXT' });

    const unset = deps();
    await config.unset(unset, 'context');
    expect(unset.display.stderr).toBe('context unset (now: local)\n');
    expect(new ConfigStore(dir).activeContextName()).toBeUndefined();
  });

  it('an unknown key is a usage error naming it', async () => {
    await expect(config.get(deps(), 'colour')).rejects.toMatchObject({
      category: 'usage',
      message: expect.stringContaining('unknown key "colour"'),
    });
  });
});

describe('context run', () => {
  it('list shows the built-in local context and the saved ones, the active one marked', async () => {
    await saveSandbox();
    const list = deps({ format: 'json' });
    await context.list(list);
    const rows = JSON.parse(list.display.stdout) as { name: string; active: boolean; client_id: string }[];
    expect(rows.map((r) => [r.name, r.active])).toEqual([
      ['local', false],
      ['sb', true],
    ]);
    expect(rows[1].client_id).toBe('client-sb');

    const table = deps({ tty: true });
    await context.list(table);
    expect(table.display.stdout).toMatch(/^\*\s+sb\s+sandbox\s+client-sb\s+https:\/\/api\.sandbox\.example/m);

    const flagged = deps({ format: 'json' }, { flag: 'local' });
    await context.list(flagged);
    expect((JSON.parse(flagged.display.stdout) as { active: boolean }[]).map((r) => r.active)).toEqual([true, false]);
  });

  it('use makes a saved context active and says so; an unknown one is refused', async () => {
    await saveSandbox('sb', false);
    const use = deps();
    await context.use(use, 'sb');
    expect(use.display.stderr).toBe('Context "sb" is now active.\n');
    expect(new ConfigStore(dir).activeContextName()).toBe('sb');
    await expect(context.use(deps(), 'nope')).rejects.toThrow('context: no context named "nope"');
  });

  it('show prints the active context, secrets only as has_secret', async () => {
    await saveSandbox();
    const show = deps({ format: 'json' });
    await context.show(show);
    const one = JSON.parse(show.display.stdout);
    expect(one).toMatchObject({ name: 'sb', active: true, has_secret: true, built_in: false });
    expect(show.display.stdout).not.toContain('secret-sb');
  });

  it('rename moves the context, its active mark and its policy file, and says so', async () => {
    await saveSandbox();
    const old = policyLocation(dir, 'sb').path;
    mkdirSync(dirname(old), { recursive: true });
    writeFileSync(old, 'rules: []\n');
    const rename = deps();
    await context.rename(rename, 'sb', 'sandbox');
    expect(rename.display.stderr).toBe(
      `Context "sb" is now "sandbox", with its policy (${policyLocation(dir, 'sandbox').path}).\n`,
    );
    const store = new ConfigStore(dir);
    expect(Object.keys(store.contexts())).toEqual(['sandbox']);
    expect(store.activeContextName()).toBe('sandbox');
    expect(store.secret('sandbox')).toBe('secret-sb');
    expect(policyLocation(dir, 'sandbox').exists).toBe(true);
    expect(existsSync(old)).toBe(false);
  });

  it('rename refuses the built-in local context and a name taken already', async () => {
    await saveSandbox('sb');
    await saveSandbox('other', false);
    await expect(context.rename(deps(), 'local', 'x')).rejects.toThrow('"local" is built in, not saved');
    await expect(context.rename(deps(), 'sb', 'other')).rejects.toThrow('a context named "other" exists already');
    expect(Object.keys(new ConfigStore(dir).contexts()).sort()).toEqual(['other', 'sb']);
  });

  it('delete without --yes and without a terminal is refused, and nothing is deleted', async () => {
    await saveSandbox();
    await expect(context.remove(deps(), 'sb', false)).rejects.toThrow('add --yes to delete "sb"');
    expect(new ConfigStore(dir).context('sb')).toBeDefined();
  });
});
