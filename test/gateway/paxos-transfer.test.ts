// Transfers to another customer at a gateway: judged by the gate there (not refused as unjudged). An initiator's
// coinop transfer paxos to a recipient the gateway's policy does not list is refused (exit 8), nothing is forwarded,
// the refusal in the chain with the operator; once the policy lists the recipient's profile id it is sent, once.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSql } from '../../src/gateway/sql.js';
import { GatewayStore } from '../../src/gateway/store.js';
import { baseEnv, runInProcess, sandbox, type Sandbox } from '../cli/helpers.js';
import { gatewayLogin, startTestGateway, type TestGateway } from './harness.js';
import { postRecipientProfile } from '../support/requests.js';
import { sqliteStore, type TestStore } from './support.js';

let sb: Sandbox;
let t: TestStore;
let store: GatewayStore;
let gw: TestGateway;
let recipient: string;

beforeAll(async () => {
  sb = await sandbox();
  recipient = await postRecipientProfile(sb.svc.baseUrl);
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

/** The chain's entries of a kind: who asked and how it ended. */
const chainOf = async (kind: string) =>
  (await store.auditLines())
    .map((l) => JSON.parse(l.line) as { kind: string; who: { operator?: string }; outcome: { result: string } })
    .filter((e) => e.kind === kind)
    .map((e) => [e.who.operator, e.outcome.result]);

async function setPolicy(text: string): Promise<void> {
  const file = join(sb.dir, `policy-${Date.now()}.yaml`);
  writeFileSync(file, text);
  const r = await runInProcess(['gateway', 'policy', 'set', file, '--store', t.url], sb.env);
  expect(r.code, r.stderr).toBe(0);
}

describe('transfers to another customer at a gateway', () => {
  it('are judged by its gate: refused by its policy, nothing forwarded; sent once listed, with the operator', async () => {
    const creds = await store.addOperator('pat', 'initiator');
    const env = baseEnv(join(sb.dir, 'pat'));
    expect((await gatewayLogin(gw, { client_id: creds.clientId, client_secret: creds.secret }, env)).code).toBe(0);
    const run = (args: string[]) => runInProcess([...args, '-o', 'json'], { ...env, COINOP_CONTEXT: 'gw' });
    const pay = (ref: string) =>
      run([
        'transfer',
        'paxos',
        '--to-profile-id',
        recipient,
        '--asset',
        'USD',
        '--amount',
        '99',
        '--ref-id',
        ref,
        '--yes',
      ]);
    const forwarded = async () => (await sb.sent()).filter((e) => e.url.startsWith('/v2/transfer/paxos'));

    await setPolicy('destinations: [somebody-else]\n');
    await sb.sent();
    const refused = await pay('gw-paxos-refused');
    expect(refused.code, refused.stderr).toBe(8);
    expect(refused.stderr).toContain(`recipient profile ${recipient} is not among the policy's destinations`);
    expect(await forwarded()).toEqual([]);
    expect(await chainOf('paxos_transfer')).toEqual([['pat', 'refused']]);

    await setPolicy(`destinations: [${recipient}]\n`);
    const sent = await pay('gw-paxos-sent');
    expect(sent.code, sent.stderr).toBe(0);
    expect(JSON.parse(sent.stdout)).toMatchObject({
      ref_id: 'gw-paxos-sent',
      type: 'PAXOS_TRANSFER_DEBIT',
      amount: '99',
    });
    expect((await forwarded()).map((e) => [e.method, e.url, e.status])).toEqual([['POST', '/v2/transfer/paxos', 200]]);
    expect((await chainOf('paxos_transfer')).slice(1)).toEqual([
      ['pat', 'attempt'],
      ['pat', 'sent'],
    ]);
  });
});
