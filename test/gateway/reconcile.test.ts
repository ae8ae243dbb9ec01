// coinop reconcile through a coinop gateway: the gateway's audit chain is a source of intents, read through its API a
// page at a time. A withdrawal another operator sent through the gateway from another machine is intended (by the
// chain), one sent around the gateway with coinop api is not; --gateway against a service that is no gateway is a
// usage error. On the SQLite store.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/embedded/demo.js';
import { BTC_ADDRESS, baseEnv, runInProcess } from '../cli/helpers.js';
import { fixtureStore, gatewayFixture, gatewayLogin, setGatewayPolicy } from './harness.js';
import { sqliteStore } from './support.js';

const up = gatewayFixture(sqliteStore);
const opened = fixtureStore(up);

/** An operator of the gateway on a machine of their own: its coinop, logged in as the context gw. */
async function operator(name: string) {
  const creds = await opened.store.addOperator(name, 'initiator');
  const env = baseEnv(join(up.sb.dir, name));
  const login = await gatewayLogin(up.gw, { client_id: creds.clientId, client_secret: creds.secret }, env);
  expect(login.code, login.stderr).toBe(0);
  return (args: string[]) => runInProcess(args, { ...env, COINOP_CONTEXT: 'gw' });
}

const withdraw = (ref: string, amount: string) =>
  ['withdraw', '--asset', 'BTC', '--network', 'BITCOIN', '--address', BTC_ADDRESS, '--amount', amount].concat([
    '--ref-id',
    ref,
    '--profile-id',
    DEMO.profileId,
    '--yes',
  ]);

describe('reconcile through a coinop gateway', () => {
  it("reads the gateway's audit chain as intents: another operator's payment is intended, one around it is not", async () => {
    await setGatewayPolicy(up.sb, up.storeUrl, 'assets: [BTC, USD]\n');
    const cora = await operator('cora');
    const dan = await operator('dan');
    expect((await cora(withdraw('gw-cora-1', '0.001'))).code).toBe(0);
    const sent = await dan(withdraw('gw-dan-1', '0.002'));
    expect(sent.code, sent.stderr).toBe(0);
    // Straight to the service, around the gateway: recorded nowhere the gateway or cora can see.
    const around = await runInProcess(withdraw('around-1', '0.003'), {
      ...up.sb.env,
      COINOP_DATA_DIR: join(up.sb.dir, 'x'),
    });
    expect(around.code, around.stderr).toBe(0);

    await up.sb.control('POST', '/_local/clock/advance', { seconds: 60 });
    const to = new Date(Date.now() + 3_600_000).toISOString();
    const r = await cora(['reconcile', '--from', '1d', '--to', to, '--gateway', '-o', 'json']);
    expect(r.code, r.stderr).toBe(11);
    const lines = JSON.parse(r.stdout).lines as { class: string; ref_id?: string; intent?: string }[];
    const of = (ref: string) => lines.find((l) => l.ref_id === ref);
    expect(of('gw-cora-1')).toMatchObject({ class: 'matched', intent: expect.stringMatching(/^audit seq \d+$/) });
    expect(of('gw-dan-1')).toMatchObject({
      class: 'matched',
      intent: expect.stringMatching(/^gateway audit seq \d+$/),
    });
    expect(of('around-1')).toMatchObject({ class: 'unintended' });
    expect(lines.filter((l) => l.class !== 'matched').map((l) => l.ref_id)).toEqual(['around-1']);
  });

  it('refuses --gateway when the context is no gateway (exit 2, before reading anything)', async () => {
    const r = await runInProcess(['reconcile', '--from', '1d', '--gateway'], up.sb.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--gateway: the context');
  });
});
