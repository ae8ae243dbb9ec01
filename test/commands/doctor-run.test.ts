// coinop doctor's run with fakes of its ports (test/commands/ports.ts): a saved context at a local service in this
// process, in a configuration directory of the test's own. A sound setup passes every check but completion (a warning
// only); a clock far from the service's, or a saved secret the service refuses, fails with its fix, and the run says
// how many checks failed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock, ContextStore } from '../../src/cli/ports.js';
import { doctor } from '../../src/commands/doctor/run.js';
import { ConfigStore } from '../../src/config/store.js';
import { DEMO } from '../../src/embedded/demo.js';
import { fakeDisplay, sharedLocalFixture } from './ports.js';

const local = sharedLocalFixture();
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coinop-doctor-run-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

function contexts(configDir: string): ContextStore {
  // The machine's own completion places (say /etc/bash_completion.d/coinop) are not the test's: they point into it.
  const env = {
    HOME: configDir,
    SHELL: '/bin/bash',
    XDG_DATA_DIRS: join(configDir, 'system-share'),
    BASH_COMPLETION_COMPAT_DIR: join(configDir, 'system-compat'),
  };
  let store: ConfigStore | undefined;
  return {
    store: () => (store ??= new ConfigStore(configDir)),
    configDir: () => configDir,
    flag: () => undefined,
    settings: () => ({ overrides: {} }),
    env,
  };
}

/** A configuration directory with the context "loc" saved at the fixture's service, its secret `secret`. */
async function saved(secret: string): Promise<string> {
  const configDir = mkdtempSync(join(dir, 'config-'));
  const { baseUrl, authUrl, wsUrl } = local.svc;
  const context = { environment: 'custom' as const, baseUrl, authUrl, wsUrl, clientId: DEMO.adminClientId, scopes: [] };
  await new ConfigStore(configDir).saveContext('loc', context, secret, true);
  return configDir;
}

async function run(configDir: string, clock: Clock) {
  const display = fakeDisplay({ format: 'json' });
  const error = await doctor(
    { display, service: local.connector(), contexts: contexts(configDir), clock },
    { timeoutMs: 5000 },
  ).then(
    () => undefined,
    (e: Error) => e.message,
  );
  const checks = JSON.parse(display.stdout) as {
    check: string;
    profile?: string;
    context?: string;
    status: string;
    fix?: string;
  }[];
  return { error, checks: Object.fromEntries(checks.map((c) => [c.check, c])) };
}

describe('doctor run', () => {
  it('a sound setup: every check ok but completion (a warning), and the run passes', async () => {
    const { error, checks } = await run(await saved(DEMO.clientSecret), { now: Date.now });
    expect(error).toBeUndefined();
    for (const name of [
      'config',
      'permissions (config)',
      'permissions (data)',
      'endpoints',
      'clock',
      'token',
      'policy',
    ])
      expect(checks[name]?.status, name).toBe('ok');
    expect(checks.token.profile).toBe('loc');
    // `context` beside `profile`, the field's first name.
    expect(checks.token).toMatchObject({ context: 'loc', profile: 'loc' });
    expect(checks.completion.status).toBe('warn');
  });

  it('a clock five minutes ahead and a refused secret fail, each with its fix', async () => {
    const { error, checks } = await run(await saved('not-the-secret'), { now: () => Date.now() + 300_000 });
    expect(error).toMatch(/^doctor: 2 of \d+ checks failed$/);
    expect(checks.clock).toMatchObject({ status: 'fail', fix: 'set the clock by NTP (timedatectl set-ntp true)' });
    expect(checks.token).toMatchObject({ status: 'fail', fix: 'coinop login --context loc' });
  });
});
