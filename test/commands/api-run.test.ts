// coinop api's run with fakes of its ports: its flags parsed from a real argv by its own table, a Display that keeps
// what it wrote, a local service in this process, the fixture's audit trail and policy, a confirmer that answers as
// told. A read is printed as the service answered it; a write that moves money goes through the gate.
import { describe, expect, it } from 'vitest';
import { CoinopError } from '../../src/cli/errors.js';
import { API_FLAG_TABLE } from '../../src/commands/api/flags.js';
import { api } from '../../src/commands/api/run.js';
import { DEMO } from '../../src/embedded/demo.js';
import { parseArgv } from '../support/argv.js';
import { auditSince, sharedLocalFixture, moneyPorts } from './ports.js';
import { usageMessageOf } from './support.js';

const ADDRESS = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
const WITHDRAWALS = '/v2/transfer/crypto-withdrawals';

const local = sharedLocalFixture();

const flags = (argv: string[]) => parseArgv(API_FLAG_TABLE, argv);
const withdrawal = (ref: string) =>
  flags([
    ...['-f', `profile_id=${DEMO.profileId}`, '-f', 'asset=BTC', '-f', 'crypto_network=BITCOIN'],
    ...['-f', `destination_address=${ADDRESS}`, '-f', 'amount=0.001', '-f', `ref_id=${ref}`],
  ]);

describe('api run', () => {
  it('a GET is printed as the service answered it, with -i its status on stderr', async () => {
    const ports = moneyPorts(local);
    await api(ports, 'get', `/v2/profiles/${DEMO.profileId}/balances/BTC`, flags(['-i']));
    expect(JSON.parse(ports.display.stdout)).toMatchObject({ asset: 'BTC', available: '1000' });
    expect(ports.display.stderr).toMatch(/^HTTP 200 /);
  });

  it("the service's refusal: its answer on stdout, then the error of its category", async () => {
    const ports = moneyPorts(local);
    const e = await api(ports, 'GET', '/v2/transfer/transfers/nope', flags([])).catch((error: unknown) => error);
    expect(e).toBeInstanceOf(CoinopError);
    expect(ports.display.stdout).toMatch(/"status": 404|"status":404|not found/i);
  });

  it('a withdrawal goes through the gate: sent once, and in the audit trail', async () => {
    const from = local.audit().entries().length;
    const ports = moneyPorts(local);
    await api(ports, 'POST', WITHDRAWALS, withdrawal('api-run-1'));
    expect(JSON.parse(ports.display.stdout)).toMatchObject({ ref_id: 'api-run-1', amount: '0.001' });
    expect(auditSince(local, from).map(([kind, result, ref]) => [kind, result, ref])).toEqual([
      ['withdrawal', 'attempt', 'api-run-1'],
      ['withdrawal', 'sent', 'api-run-1'],
    ]);
  });

  it('a conversion goes through the gate; its cancel (no money out, no policy) is in the audit trail too', async () => {
    const from = local.audit().entries().length;
    const ports = moneyPorts(local);
    const conversion = flags([
      ...['-f', `profile_id=${DEMO.profileId}`, '-f', 'source_asset=USD', '-f', 'target_asset=USDP'],
      ...['-f', 'amount=5', '-f', 'ref_id=api-conv-1'],
    ]);
    await api(ports, 'POST', '/v2/conversion/stablecoins', conversion);
    const made = JSON.parse(ports.display.stdout) as { id: string };
    const cancelling = moneyPorts(local);
    await api(cancelling, 'DELETE', `/v2/conversion/stablecoins/${made.id}`, flags([]));
    expect(JSON.parse(cancelling.display.stdout)).toMatchObject({ id: made.id, status: 'CANCELLED' });
    expect(auditSince(local, from).map(([kind, result, ref]) => [kind, result, ref])).toEqual([
      ['conversion', 'attempt', 'api-conv-1'],
      ['conversion', 'sent', 'api-conv-1'],
      ['conversion_cancel', 'attempt', null],
      ['conversion_cancel', 'sent', null],
    ]);
    const again = moneyPorts(local);
    await expect(api(again, 'DELETE', `/v2/conversion/stablecoins/${made.id}`, flags([]))).rejects.toThrow(
      /cannot be cancelled: it is CANCELLED/,
    );
    expect(auditSince(local, from).at(-1)?.slice(0, 2)).toEqual(['conversion_cancel', 'refused']);
  });

  it('bad input is a usage error and sends nothing: a path above the root, a field on a body not an object', async () => {
    const ports = moneyPorts(local);
    expect(await usageMessageOf(api(ports, 'GET', '/v2/../../etc', flags([])))).toMatch(/^PATH: .* climbs above/);
    const from = local.audit().entries().length;
    expect(await usageMessageOf(api(ports, 'POST', WITHDRAWALS, flags([])))).toMatch(/^--input: .* moves money/);
    expect(auditSince(local, from).map(([kind, result]) => [kind, result])).toEqual([['withdrawal', 'refused']]);
    expect(ports.display.stdout).toBe('');
  });
});
