// coinop login, logout and auth status runs with fakes of their ports (test/commands/ports.ts), in process, against a
// local service in this process and a configuration directory of the test's own: login proves the credentials before
// it saves them (a refused secret saves nothing), logout forgets them, status says how the context authenticates.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Clock, ContextStore } from '../../src/cli/ports.js';
import { LOGIN_FLAG_TABLE } from '../../src/commands/auth/flags.js';
import { login, logout, status } from '../../src/commands/auth/run.js';
import { ConfigStore } from '../../src/config/store.js';
import { DEMO } from '../../src/embedded/demo.js';
import { parseArgv } from '../support/argv.js';
import { fakeDisplay, sharedLocalFixture, noPrompts } from './ports.js';

const local = sharedLocalFixture();
let dir: string;
beforeEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = mkdtempSync(join(tmpdir(), 'coinop-auth-run-'));
});

/** The saved configuration in `dir`, COINOP_CLIENT_SECRET as `secret`, --context as `flag`. */
const contexts = (options: { secret?: string; flag?: string } = {}): ContextStore => {
  let store: ConfigStore | undefined;
  return {
    store: () => (store ??= new ConfigStore(dir)),
    configDir: () => dir,
    flag: () => options.flag,
    settings: () => ({ clientSecret: options.secret, overrides: {} }),
    env: {},
  };
};

/** The service's tokens expire on the real clock. */
const realClock: Clock = { now: () => Date.now() };

/** `secret`: COINOP_CLIENT_SECRET (null: not set). */
function loginDeps(display = fakeDisplay(), secret: string | null = DEMO.clientSecret) {
  return {
    display,
    prompter: noPrompts(display),
    contexts: contexts({ secret: secret ?? undefined }),
    service: local.connector(),
    clock: realClock,
  };
}

/** `coinop login --env custom` at the fixture's service, as the demo admin client, named `name`. */
const customLogin = (name: string) =>
  parseArgv(LOGIN_FLAG_TABLE, [
    '--env',
    'custom',
    '--name',
    name,
    '--base-url',
    local.svc.baseUrl,
    '--auth-url',
    local.svc.authUrl,
    '--ws-url',
    local.svc.wsUrl,
    '--client-id',
    DEMO.adminClientId,
    '--profile-id',
    DEMO.profileId,
  ]);

describe('login run', () => {
  it('proves the credentials, then saves the context as the active one and says so on stderr', async () => {
    const deps = loginDeps(fakeDisplay({ tty: true }));
    await login(deps, customLogin('dev'));
    expect(deps.display.stderr).toMatch(
      new RegExp(
        `^✓ Logged in to custom as ${DEMO.adminClientId}; context "dev" is now active \\(token expires in \\d+ (min|h)\\)\\.\\n$`,
      ),
    );
    expect(deps.display.stdout).toBe('');
    const store = new ConfigStore(dir);
    expect(store.context('dev')).toMatchObject({
      environment: 'custom',
      baseUrl: local.svc.baseUrl,
      clientId: DEMO.adminClientId,
      profileId: DEMO.profileId,
    });
    expect(store.secret('dev')).toBe(DEMO.clientSecret);
    expect(deps.service.connections).toHaveLength(1);
  });

  it('as JSON: the context saved, with the scopes the token granted', async () => {
    const deps = loginDeps(fakeDisplay({ format: 'json' }));
    await login(deps, customLogin('dev'));
    const saved = JSON.parse(deps.display.stdout) as Record<string, unknown>;
    expect(saved).toMatchObject({ profile: 'dev', environment: 'custom', client_id: DEMO.adminClientId });
    expect((saved.scopes as string[]).length).toBeGreaterThan(0);
  });

  it('a secret the service refuses: the auth error stands (no terminal to ask again), nothing saved', async () => {
    const deps = loginDeps(fakeDisplay(), 'not-the-secret');
    await expect(login(deps, customLogin('dev'))).rejects.toMatchObject({ category: 'auth' });
    expect(new ConfigStore(dir).context('dev')).toBeUndefined();
  });

  it('no --profile-id and the service lists exactly one profile: the context takes it', async () => {
    const deps = loginDeps(fakeDisplay());
    const base = deps.service;
    // The fixture's service lists two profiles: this client sees only the empty one.
    const service = {
      ...base,
      connectAs: async (...args: Parameters<typeof base.connectAs>) => {
        const conn = await base.connectAs(...args);
        const client = Object.create(conn.client) as typeof conn.client;
        client.items = async function* (id, parts) {
          for await (const p of conn.client.items(id, parts))
            if ((p as { id: string }).id === DEMO.emptyProfileId) yield p;
        } as typeof client.items;
        return { ...conn, client };
      },
    };
    const { profileId: _given, ...argv } = customLogin('one');
    await login({ ...deps, service }, argv);
    expect(new ConfigStore(dir).context('one')).toMatchObject({ profileId: DEMO.emptyProfileId });
    expect(deps.display.stderr).not.toContain('no default service profile');
  });

  it('no secret given and no terminal: a usage error naming how to give it, nothing sent', async () => {
    const deps = loginDeps(fakeDisplay(), null);
    await expect(login(deps, customLogin('dev'))).rejects.toThrow(
      'missing client secret: pipe it to --client-secret-stdin or set COINOP_CLIENT_SECRET (never as a flag value)',
    );
    expect(deps.service.connections).toHaveLength(0);
  });
});

describe('logout run', () => {
  it('forgets the context --context names; a second logout has nothing to do', async () => {
    await login(loginDeps(), customLogin('dev'));
    const first = fakeDisplay();
    await logout({ display: first, contexts: contexts({ flag: 'dev' }) });
    expect(first.stderr).toBe('Logged out of context "dev": its secret and cached tokens are gone.\n');
    expect(new ConfigStore(dir).secret('dev')).toBeUndefined();
    const second = fakeDisplay();
    await logout({ display: second, contexts: contexts({ flag: 'dev' }) });
    expect(second.stderr).toBe('Context "dev" has no saved credentials; nothing to do.\n');
  });
});

describe('auth status run', () => {
  it("as JSON: the context, its addresses, the token's source and the service profile", async () => {
    const display = fakeDisplay({ format: 'json' });
    await status({ display, service: local.connector(), clock: realClock });
    expect(JSON.parse(display.stdout)).toMatchObject({
      context: 'local',
      environment: 'local',
      base_url: local.svc.baseUrl,
      client_id: DEMO.adminClientId,
      token_source: 'new',
      service_profile_id: DEMO.profileId,
    });
  });

  it('on a terminal: authenticated, then a line a fact', async () => {
    const display = fakeDisplay({ tty: true });
    await status({ display, service: local.connector(), clock: realClock });
    expect(display.stdout).toMatch(/^✓ authenticated\ncontext\s+local\nenvironment\s+local /);
    expect(display.stdout).toMatch(/\ntoken\s+new, expires in \d+ (min|h)\n/);
    expect(display.stdout).toMatch(new RegExp(`\\napi\\s+${local.svc.baseUrl}\\n`));
  });

  it('the embedded local service: named, not its random port (JSON keeps the addresses and says embedded)', async () => {
    const connector = local.connector();
    const service = { ...connector, connect: async () => ({ ...(await connector.connect()), embedded: true }) };
    const display = fakeDisplay({ tty: true });
    await status({ display, service, clock: realClock });
    expect(display.stdout).toMatch(/\nservice\s+embedded local service \(started in this process for this command\)\n/);
    expect(display.stdout).not.toContain(local.svc.baseUrl);
    const json = fakeDisplay({ format: 'json' });
    await status({ display: json, service, clock: realClock });
    expect(JSON.parse(json.stdout)).toMatchObject({ context: 'local', base_url: local.svc.baseUrl, embedded: true });
  });
});
