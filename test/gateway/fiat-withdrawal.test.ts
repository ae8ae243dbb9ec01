// Fiat accounts and fiat withdrawals at a gateway: judged by the gate there (not refused as unjudged). An initiator's
// coinop fiat-accounts create and coinop withdraw fiat are forwarded and in the chain with their name; a withdrawal to
// a fiat account the gateway's policy does not list is refused (exit 8), nothing is forwarded, the refusal in the
// chain; once the policy lists the account's id it is sent.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSql } from '../../src/gateway/sql.js';
import { GatewayStore } from '../../src/gateway/store.js';
import { baseEnv, runInProcess, sandbox, type Sandbox } from '../cli/helpers.js';
import { chainOf, gatewayLogin, setGatewayPolicy, startTestGateway, type TestGateway } from './harness.js';
import { FIAT_ACCOUNT_CREATE } from '../support/command-lines.js';
import { sqliteStore, type TestStore } from './support.js';

let sb: Sandbox;
let t: TestStore;
let store: GatewayStore;
let gw: TestGateway;

beforeAll(async () => {
  sb = await sandbox();
  t = await sqliteStore();
  store = new GatewayStore(await openSql(t.url));
  await store.init();
  gw = await startTestGateway(sb, t.url);
});
afterAll(async () => {
  await gw?.close();
  await store?.sql.close();
  await t?.drop();
  await sb?.close();
});

const chain = (kind: string) => chainOf(store, kind);
const setPolicy = (text: string) => setGatewayPolicy(sb, t.url, text);

describe('fiat accounts and fiat withdrawals at a gateway', () => {
  it('are judged by its gate: forwarded and audited with the operator; refused by its policy; sent once listed', async () => {
    const creds = await store.addOperator('fay', 'initiator');
    const env = baseEnv(join(sb.dir, 'fay'));
    expect((await gatewayLogin(gw, { client_id: creds.clientId, client_secret: creds.secret }, env)).code).toBe(0);
    const run = (args: string[]) => runInProcess([...args, '-o', 'json'], { ...env, COINOP_CONTEXT: 'gw' });
    await sb.sent();

    const made = await run([...FIAT_ACCOUNT_CREATE, '--ref-id', 'gw-acct']);
    expect(made.code, made.stderr).toBe(0);
    const account = JSON.parse(made.stdout).id as string;
    expect(await chain('fiat_account')).toEqual([
      ['fay', 'attempt'],
      ['fay', 'sent'],
    ]);

    const withdraw = (ref: string) =>
      run(['withdraw', 'fiat', '--fiat-account-id', account, '--amount', '250', '--ref-id', ref, '--yes']);
    await setPolicy('destinations: [another-account]\n');
    await sb.sent();
    const refused = await withdraw('gw-fiat-refused');
    expect(refused.code, refused.stderr).toBe(8);
    expect(refused.stderr).toContain(`fiat account ${account} is not among the policy's destinations`);
    expect((await sb.sent()).filter((e) => e.url.startsWith('/v2/transfer/fiat-withdrawals'))).toEqual([]);
    expect(await chain('fiat_withdrawal')).toEqual([['fay', 'refused']]);

    await setPolicy(`destinations: [${account}]\n`);
    const sent = await withdraw('gw-fiat-sent');
    expect(sent.code, sent.stderr).toBe(0);
    expect(JSON.parse(sent.stdout)).toMatchObject({ ref_id: 'gw-fiat-sent', type: 'WIRE_WITHDRAWAL', amount: '250' });
    const upstream = (await sb.sent()).filter((e) => e.url.startsWith('/v2/transfer/fiat-withdrawals'));
    expect(upstream.map((e) => [e.method, e.url, e.status])).toEqual([['POST', '/v2/transfer/fiat-withdrawals', 200]]);
    expect((await chain('fiat_withdrawal')).slice(1)).toEqual([
      ['fay', 'attempt'],
      ['fay', 'sent'],
    ]);
  });
});
