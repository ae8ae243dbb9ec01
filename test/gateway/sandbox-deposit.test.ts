// coinop sandbox deposit at a gateway (POST /v2/sandbox/fiat-deposits, judged by the gate, not refused as
// unjudged): in front of the local service (or the sandbox) an initiator's deposit is forwarded and audited with
// their name, a viewer's is refused by role; in front of production it is refused (no sandbox deposit exists there),
// nothing is sent, and the refusal is in the chain. The hosted sandbox's other test deposit, into a profile, is not
// in coinop's contract and stays refused as unjudged.
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/cli/invocation.js';
import { makeIO } from '../../src/cli/io.js';
import { resolveContext } from '../../src/config/context.js';
import { DEMO, DEMO_WIRE } from '../../src/embedded/demo.js';
import { type RunningGateway, startGateway } from '../../src/gateway/server.js';
import { openSql } from '../../src/gateway/sql.js';
import { GatewayStore } from '../../src/gateway/store.js';
import { gatewayUpstream } from '../../src/gateway/upstream.js';
import { baseEnv, runInProcess, sandbox, type Sandbox } from '../cli/helpers.js';
import { gatewayLogin, startTestGateway, type TestGateway } from './harness.js';
import { sqliteStore, type TestStore } from './support.js';
import { clientToken } from '../support/tokens.js';

/** A deposit the local service takes whole: with the demo's wire instructions. */
const DEPOSIT = { asset: 'USD', amount: '100', memo_id: DEMO.memoId, fiat_network_instructions: { wire: DEMO_WIRE } };

let sb: Sandbox;
let t: TestStore;
let store: GatewayStore;

beforeAll(async () => {
  sb = await sandbox();
  t = await sqliteStore();
  store = new GatewayStore(await openSql(t.url));
  await store.init();
});
afterAll(async () => {
  await store?.sql.close();
  await t?.drop();
  await sb?.close();
});

async function tokenFor(url: string, name: string, role: 'initiator' | 'viewer'): Promise<string> {
  const creds = (await store.operator(name)) ? undefined : await store.addOperator(name, role);
  if (!creds) throw new Error(`${name} is there already`);
  return clientToken(url, creds);
}

const deposit = (url: string, token: string, path = '/v2/sandbox/fiat-deposits') =>
  fetch(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(DEPOSIT),
  });

/** The chain's sandbox deposits: who asked and how it ended. */
const depositsInChain = async () =>
  (await store.auditLines())
    .map((l) => JSON.parse(l.line) as { kind: string; who: { operator?: string }; outcome: { result: string } })
    .filter((e) => e.kind === 'sandbox_deposit')
    .map((e) => [e.who.operator, e.outcome.result]);

describe('a sandbox deposit at a gateway', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway(sb, t.url);
  });
  afterAll(async () => {
    await gw?.close();
  });

  it("in front of the local service: coinop sandbox deposit is forwarded for an initiator and audited with their name; a viewer's is refused", async () => {
    await sb.sent();
    const creds = await store.addOperator('ivy', 'initiator');
    const env = baseEnv(join(sb.dir, 'ivy'));
    expect((await gatewayLogin(gw, { client_id: creds.clientId, client_secret: creds.secret }, env)).code).toBe(0);
    const r = await runInProcess(
      ['sandbox', 'deposit', '--amount', DEPOSIT.amount, '--memo-id', DEMO.memoId, '-o', 'json'],
      { ...env, COINOP_CONTEXT: 'gw' },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ initiated: true, amount: '100' });
    const upstream = (await sb.sent()).filter((e) => e.url.startsWith('/v2/sandbox/'));
    expect(upstream.map((e) => [e.method, e.url, e.status])).toEqual([['POST', '/v2/sandbox/fiat-deposits', 200]]);
    expect(await depositsInChain()).toEqual([
      ['ivy', 'attempt'],
      ['ivy', 'sent'],
    ]);
    const viewer = await deposit(gw.url, await tokenFor(gw.url, 'vic', 'viewer'));
    expect(viewer.status).toBe(403);
    expect(((await viewer.json()) as { type: string }).type).toMatch(/gateway\/role$/);
    // The hosted sandbox's deposit into a profile is not in coinop's contract: refused as unjudged, and said so.
    const other = await deposit(
      gw.url,
      await tokenFor(gw.url, 'ian', 'initiator'),
      `/v2/sandbox/profiles/${DEMO.profileId}/deposit`,
    );
    expect(other.status).toBe(403);
    expect(((await other.json()) as { detail: string }).detail).toContain('a test deposit into a profile');
    expect((await sb.sent()).filter((e) => e.url.startsWith('/v2/sandbox/'))).toEqual([]);
  });
});

describe('a sandbox deposit at a gateway in front of production', () => {
  let gw: RunningGateway;
  let inv: ReturnType<typeof createContext>;
  beforeAll(async () => {
    // The local service's connection, held as a production context would be: what the gateway judges by.
    const stdin = new PassThrough();
    stdin.end();
    const sink = new PassThrough();
    sink.resume();
    const io = makeIO({ stdin, stdout: sink, stderr: sink }, { env: sb.env, noInput: true, noColour: true });
    inv = createContext(io, sb.env, 'test');
    await inv.prepare();
    const conn = await inv.connectAs(resolveContext(inv.store(), 'local', inv.settings));
    const upstream = gatewayUpstream(conn, inv.catalogue());
    gw = await startGateway({ store, upstream: { ...upstream, context: { name: 'prod', environment: 'production' } } });
  });
  afterAll(async () => {
    await gw?.close();
    await inv?.cleanup();
  });

  it('is refused: nothing is sent, and the refusal is in the chain with the operator', async () => {
    await sb.sent();
    const before = (await depositsInChain()).length;
    const r = await deposit(gw.url, await tokenFor(gw.url, 'pat', 'initiator'));
    expect(r.status).toBe(400);
    expect(((await r.json()) as { detail: string }).detail).toContain('refused against production');
    expect((await sb.sent()).filter((e) => e.url.startsWith('/v2/sandbox/'))).toEqual([]);
    expect((await depositsInChain()).slice(before)).toEqual([['pat', 'refused']]);
  });
});
