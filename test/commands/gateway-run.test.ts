// coinop gateway runs with fakes of their ports (test/commands/ports.ts), in process, over a SQLite store of the
// test's own: init and the operators' and policy's administration (what the operator sees, what the store keeps, each
// change in its audit chain naming the person at this machine), and start serving until its Foreground says stop,
// over an upstream context saved at a local service in this process.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContextStore } from '../../src/cli/ports.js';
import * as gateway from '../../src/commands/gateway/run.js';
import { ConfigStore } from '../../src/config/store.js';
import { DEMO } from '../../src/embedded/demo.js';
import { until } from '../support/wait.js';
import { fakeDisplay, fixedClock, heldForeground, keptInterrupt, sharedLocalFixture } from './ports.js';
import { usageMessageOf } from './support.js';

const local = sharedLocalFixture();
let dir: string;
let store: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coinop-gateway-run-'));
  store = join(dir, 'gateway', 'store.db');
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

const contexts = (): ContextStore => {
  let saved: ConfigStore | undefined;
  return {
    store: () => (saved ??= new ConfigStore(dir)),
    configDir: () => dir,
    flag: () => undefined,
    settings: () => ({ overrides: {} }),
    env: {},
  };
};

/** The administration ports over a fresh Display; the store is closed by `interrupt.exit()`, as on the way out. */
function admin(display: Parameters<typeof fakeDisplay>[0] = {}) {
  return { display: fakeDisplay(display), interrupt: keptInterrupt(), clock: fixedClock(), contexts: contexts() };
}

/** Runs one administration command, its store closed afterwards; its ports, to read what it showed. */
async function run(
  fn: (deps: ReturnType<typeof admin>) => Promise<void>,
  display: Parameters<typeof fakeDisplay>[0] = {},
) {
  const deps = admin(display);
  try {
    await fn(deps);
  } finally {
    await deps.interrupt.exit();
  }
  return deps.display;
}

describe('gateway administration runs', () => {
  it('init: an admin whose secret is shown once; a second init says the store has one', async () => {
    const first = await run((d) => gateway.init(d, { store }), { format: 'json' });
    expect(JSON.parse(first.stdout)).toMatchObject({ operator: 'admin', role: 'admin' });
    expect(JSON.parse(first.stdout).client_secret).toMatch(/\S{16,}/);
    expect(first.stderr).toMatch(/^the client secret is shown this once and kept only as a hash/);
    const again = await run((d) => gateway.init(d, { store }));
    expect(again.stdout).toBe('');
    expect(again.stderr).toBe(`the gateway store ${store} is ready; it has an admin already (admin)\n`);
  });

  it('operators add, list, disable and enable: each said, the store keeps it; a name taken twice is refused', async () => {
    const added = await run((d) => gateway.addOperator(d, { store }, 'ivy', 'initiator'), { format: 'json' });
    expect(JSON.parse(added.stdout)).toMatchObject({ operator: 'ivy', role: 'initiator' });
    const twice = admin();
    expect(await usageMessageOf(gateway.addOperator(twice, { store }, 'ivy', 'approver'))).toBe(
      'NAME: the gateway has an operator ivy already',
    );
    await twice.interrupt.exit();
    const disabled = await run((d) => gateway.setDisabled(d, { store }, 'ivy', true));
    expect(disabled.stderr).toBe('ivy is disabled: their tokens stop working now\n');
    const listed = await run((d) => gateway.listOperators(d, { store }), { format: 'json' });
    const rows = JSON.parse(listed.stdout) as { name: string; role: string; disabled: boolean }[];
    expect(rows.map((r) => [r.name, r.role, r.disabled])).toEqual([
      ['admin', 'admin', false],
      ['ivy', 'initiator', true],
    ]);
    const enabled = await run((d) => gateway.setDisabled(d, { store }, 'ivy', false));
    expect(enabled.stderr).toBe('ivy is enabled\n');
    const nobody = admin();
    expect(await usageMessageOf(gateway.setDisabled(nobody, { store }, 'zoe', true))).toBe(
      'NAME: the gateway has no operator zoe',
    );
    await nobody.interrupt.exit();
  });

  it('policy show, set and history: none yet, then version 1 as set by the person at this machine', async () => {
    const none = await run((d) => gateway.policyShow(d, { store }), { format: 'json' });
    expect(JSON.parse(none.stdout)).toEqual({ version: 0, body: null });
    expect(none.stderr).toMatch(/^the gateway has no policy yet/);
    const file = join(dir, 'policy.yaml');
    writeFileSync(file, 'version: 1\nmax_per_withdrawal:\n  BTC: "1"\n');
    const set = await run((d) =>
      gateway.policySet(
        { ...d, service: local.connector() },
        { store, approvalTtlMs: 3_600_000, gateway: false },
        file,
      ),
    );
    expect(set.stderr).toMatch(/^the gateway's policy is version 1 now \(sha256 [0-9a-f]{12}…\)\n$/);
    const shown = await run((d) => gateway.policyShow(d, { store }), { tty: true });
    expect(shown.stdout).toBe('version: 1\nmax_per_withdrawal:\n  BTC: "1"\n');
    const history = await run((d) => gateway.policyHistory(d, { store }), { format: 'json' });
    expect(JSON.parse(history.stdout)).toMatchObject([{ version: 1, set_by: userInfo().username }]);
  });
});

describe('gateway start run', () => {
  beforeAll(async () => {
    await new ConfigStore(dir).saveContext(
      'up',
      {
        environment: 'custom',
        baseUrl: local.svc.baseUrl,
        authUrl: local.svc.authUrl,
        wsUrl: local.svc.wsUrl,
        clientId: DEMO.adminClientId,
        scopes: [],
        profileId: DEMO.profileId,
      },
      DEMO.clientSecret,
      false,
    );
  });

  const startOptions = (port: number) => ({
    store,
    upstream: 'up',
    host: '127.0.0.1',
    port,
    rate: 100,
    approvalTtlMs: 3_600_000,
  });

  it('serves until stopped, over the upstream context; says where, then that it stopped', async () => {
    const deps = { ...admin(), service: local.connector(), foreground: heldForeground() };
    const running = gateway.start(deps, startOptions(0));
    await until('the gateway says where it serves', () => deps.display.stderr.includes('Ctrl-C stops it'), {
      timeoutMs: 30_000,
    });
    expect(deps.foreground.owned).toBe(true);
    const url = /^coinop gateway at (\S+) /.exec(deps.display.stderr)?.[1];
    expect(deps.display.stderr).toContain(`for context up; store ${store}. Ctrl-C stops it.`);
    expect((await fetch(`${url}/_gateway/health`)).status).toBe(200);
    expect(deps.service.connections.map((c) => c.context.name)).toEqual(['up']);
    deps.foreground.stop();
    await running;
    expect(deps.display.stderr).toMatch(/coinop gateway stopped\n$/);
    await expect(fetch(`${url}/_gateway/health`)).rejects.toThrow();
    await deps.interrupt.exit();
  });

  it('a port in use: a usage error naming it, nothing started', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    const deps = { ...admin(), service: local.connector(), foreground: heldForeground() };
    try {
      expect(await usageMessageOf(gateway.start(deps, startOptions(port)))).toBe(
        `--port: 127.0.0.1:${port} is in use already; nothing was started`,
      );
    } finally {
      await deps.interrupt.exit();
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
