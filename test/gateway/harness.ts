// A coinop gateway for tests: started as `coinop gateway start` starts it (serveGateway, over an invocation of its
// own whose upstream context is the sandbox's local service), in this process, on an ephemeral port.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { openSql } from '../../src/gateway/sql.js';
import { GatewayStore } from '../../src/gateway/store.js';
import { createContext } from '../../src/cli/invocation.js';
import { makeIO } from '../../src/cli/io.js';
import { ports } from '../../src/cli/ports.js';
import { serveGateway } from '../../src/commands/gateway/run.js';
import { DEMO } from '../../src/embedded/demo.js';
import type { GatewayOptions } from '../../src/gateway/server.js';
import { afterAll, beforeAll } from 'vitest';
import { type Run, runInProcess, type Sandbox, sandbox } from '../cli/helpers.js';

export interface TestGateway {
  url: string;
  wsUrl: string;
  close(): Promise<void>;
}

export async function startTestGateway(
  sb: Sandbox,
  store: string,
  options: {
    approvalTtlMs?: number;
    rate?: number;
    /** The gateway's clock (the invocation's). */
    now?: () => number;
    desk?: GatewayOptions['desk'];
    tokenFailuresPerMinute?: GatewayOptions['tokenFailuresPerMinute'];
  } = {},
): Promise<TestGateway> {
  const stdin = new PassThrough();
  stdin.end();
  const sink = () => {
    const s = new PassThrough();
    s.resume();
    return s;
  };
  const io = makeIO({ stdin, stdout: sink(), stderr: sink() }, { env: sb.env, noInput: true, noColour: true });
  const inv = createContext(io, sb.env, 'test', options.now);
  await inv.prepare();
  const gw = await serveGateway(ports(inv), {
    store,
    upstream: 'local',
    host: '127.0.0.1',
    port: 0,
    rate: options.rate ?? 10_000,
    approvalTtlMs: options.approvalTtlMs ?? 3_600_000,
    desk: options.desk,
    tokenFailuresPerMinute: options.tokenFailuresPerMinute,
  });
  return { url: gw.url, wsUrl: gw.wsUrl, close: () => inv.cleanup() };
}

/** `coinop login` of an operator to a gateway, as a context named gw, from the config dirs of `env`. */
export function gatewayLogin(
  gw: { url: string; wsUrl: string },
  creds: { client_id: string; client_secret: string },
  env: Record<string, string | undefined>,
): Promise<Run> {
  const login = ['login', '--env', 'custom', '--name', 'gw', '--base-url', gw.url, '--auth-url', gw.url];
  return runInProcess(
    [...login, '--ws-url', gw.wsUrl, '--client-id', creds.client_id, '--profile-id', DEMO.profileId],
    {
      ...env,
      COINOP_CLIENT_SECRET: creds.client_secret,
    },
  );
}

/**
 * A describe block's gateway: the local service (a sandbox), a store of the engine given and a gateway in front,
 * started before its tests and stopped after them; read through the getters once they have started.
 */
export function gatewayFixture(openStore: () => Promise<{ url: string; drop(): Promise<void> }>): {
  readonly sb: Sandbox;
  readonly storeUrl: string;
  readonly gw: TestGateway;
} {
  const up: { sb?: Sandbox; store?: { url: string; drop(): Promise<void> }; gw?: TestGateway } = {};
  beforeAll(async () => {
    up.sb = await sandbox();
    up.store = await openStore();
    up.gw = await startTestGateway(up.sb, up.store.url);
  });
  afterAll(async () => {
    await up.gw?.close();
    await up.store?.drop();
    await up.sb?.close();
  });
  return {
    get sb() {
      return up.sb as Sandbox;
    },
    get storeUrl() {
      return up.store?.url ?? '';
    },
    get gw() {
      return up.gw as TestGateway;
    },
  };
}

/** The entries of a kind in a gateway store's chain: who asked and how it ended. */
export async function chainOf(store: GatewayStore, kind: string): Promise<[string | undefined, string][]> {
  return (await store.auditLines())
    .map((l) => JSON.parse(l.line) as { kind: string; who: { operator?: string }; outcome: { result: string } })
    .filter((e) => e.kind === kind)
    .map((e): [string | undefined, string] => [e.who.operator, e.outcome.result]);
}

/** Sets the gateway's policy in its store (coinop gateway policy set), as its admin would. */
export async function setGatewayPolicy(sb: Sandbox, storeUrl: string, text: string): Promise<void> {
  const file = join(sb.dir, `policy-${Date.now()}-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, text);
  const r = await runInProcess(['gateway', 'policy', 'set', file, '--store', storeUrl], sb.env);
  if (r.code !== 0) throw new Error(`gateway policy set: ${r.stderr}`);
}

/** A describe block's handle on the gateway's store (opened once its fixture started, closed after its tests). */
export function fixtureStore(up: { readonly storeUrl: string }): { readonly store: GatewayStore } {
  const held: { store?: GatewayStore } = {};
  beforeAll(async () => {
    held.store = new GatewayStore(await openSql(up.storeUrl));
    await held.store.init();
  });
  afterAll(() => held.store?.sql.close());
  return {
    get store() {
      return held.store as GatewayStore;
    },
  };
}
