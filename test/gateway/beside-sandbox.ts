// A gateway over SQLite in front of a sandbox's local service, started before a file's tests and closed after, with
// what the tests of a kind of money at a gateway ask of it: its chain's entries of a kind, and its policy set.
import { afterAll, beforeAll } from 'vitest';
import { openSql } from '../../src/gateway/sql.js';
import { GatewayStore } from '../../src/gateway/store.js';
import { sandbox, type Sandbox } from '../cli/helpers.js';
import { chainOf, setGatewayPolicy, startTestGateway, type TestGateway } from './harness.js';
import { sqliteStore, type TestStore } from './support.js';

export interface GatewayBesideSandbox {
  sb: Sandbox;
  store: GatewayStore;
  gw: TestGateway;
  /** The chain's entries of a kind: who asked and how it ended. */
  chainOf(kind: string): Promise<[string | undefined, string][]>;
  /** Sets the gateway's policy (coinop gateway policy set). */
  setPolicy(text: string): Promise<void>;
}

/** Starts them in beforeAll (then `setup`, with the sandbox), closes them in afterAll; read them in the tests. */
export function gatewayBesideSandbox(setup?: (sb: Sandbox) => Promise<void>): GatewayBesideSandbox {
  let t: TestStore;
  const g = {} as GatewayBesideSandbox;
  beforeAll(async () => {
    g.sb = await sandbox();
    t = await sqliteStore();
    g.store = new GatewayStore(await openSql(t.url));
    await g.store.init();
    g.gw = await startTestGateway(g.sb, t.url);
    await setup?.(g.sb);
  });
  afterAll(async () => {
    await g.gw?.close();
    await g.store?.sql.close();
    await t?.drop();
    await g.sb?.close();
  });
  g.chainOf = (kind) => chainOf(g.store, kind);
  g.setPolicy = (text) => setGatewayPolicy(g.sb, t.url, text);
  return g;
}
