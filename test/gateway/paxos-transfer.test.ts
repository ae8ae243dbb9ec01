// Transfers to another customer at a gateway: judged by the gate there (not refused as unjudged). An initiator's
// coinop transfer paxos to a recipient the gateway's policy does not list is refused (exit 8), nothing is forwarded,
// the refusal in the chain with the operator; once the policy lists the recipient's profile id it is sent, once.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, runInProcess } from '../cli/helpers.js';
import { gatewayLogin } from './harness.js';
import { gatewayBesideSandbox } from './beside-sandbox.js';
import { postRecipientProfile } from '../support/requests.js';

let recipient: string;
const g = gatewayBesideSandbox(async (sb) => {
  recipient = await postRecipientProfile(sb.svc.baseUrl);
});

describe('transfers to another customer at a gateway', () => {
  it('are judged by its gate: refused by its policy, nothing forwarded; sent once listed, with the operator', async () => {
    const creds = await g.store.addOperator('pat', 'initiator');
    const env = baseEnv(join(g.sb.dir, 'pat'));
    expect((await gatewayLogin(g.gw, { client_id: creds.clientId, client_secret: creds.secret }, env)).code).toBe(0);
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
    const forwarded = async () => (await g.sb.sent()).filter((e) => e.url.startsWith('/v2/transfer/paxos'));

    await g.setPolicy('destinations: [somebody-else]\n');
    await g.sb.sent();
    const refused = await pay('gw-paxos-refused');
    expect(refused.code, refused.stderr).toBe(8);
    expect(refused.stderr).toContain(`recipient profile ${recipient} is not among the policy's destinations`);
    expect(await forwarded()).toEqual([]);
    expect(await g.chainOf('paxos_transfer')).toEqual([['pat', 'refused']]);

    await g.setPolicy(`destinations: [${recipient}]\n`);
    const sent = await pay('gw-paxos-sent');
    expect(sent.code, sent.stderr).toBe(0);
    expect(JSON.parse(sent.stdout)).toMatchObject({
      ref_id: 'gw-paxos-sent',
      type: 'PAXOS_TRANSFER_DEBIT',
      amount: '99',
    });
    expect((await forwarded()).map((e) => [e.method, e.url, e.status])).toEqual([['POST', '/v2/transfer/paxos', 200]]);
    expect((await g.chainOf('paxos_transfer')).slice(1)).toEqual([
      ['pat', 'attempt'],
      ['pat', 'sent'],
    ]);
  });
});
