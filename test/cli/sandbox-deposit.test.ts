// coinop sandbox deposit sends complete wire instructions, as the hosted OpenAPI requires them: each field from its
// flag, else the --file, else the sandbox's value for a required field; a bad field is named by its flag (and the
// file when it came from there), or by its path in the file when no flag gives it, and nothing is sent.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/embedded/demo.js';
import { requestViolations } from '../support/openapi.js';
import { recordingProxy, type RecordingProxy } from '../support/recording-proxy.js';
import { sandbox, type Sandbox } from './helpers.js';

let sb: Sandbox;
let proxy: RecordingProxy;
beforeAll(async () => {
  sb = await sandbox();
  proxy = await recordingProxy(sb.svc.baseUrl);
});
afterAll(async () => {
  await proxy?.close();
  await sb?.close();
});

const run = (args: string[]) =>
  sb.runIn(['sandbox', 'deposit', ...args], { env: { COINOP_BASE_URL: proxy.url, COINOP_AUTH_URL: proxy.url } });
/** The deposit request the last command sent, checked against the OpenAPI. */
function deposit(): Record<string, any> {
  const sent = proxy.take().filter((q) => q.url === '/v2/sandbox/fiat-deposits');
  expect(sent).toHaveLength(1);
  expect(requestViolations('POST', sent[0].url, sent[0].body)).toEqual([]);
  return sent[0].body as Record<string, any>;
}
function file(name: string, content: unknown): string {
  const path = join(sb.dir, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
}

const SANDBOX_WIRE = {
  account_number: '000123456789',
  fiat_account_owner_address: { country: 'USA' },
  routing_details: {
    routing_number_type: 'ABA',
    routing_number: '021000021',
    bank_name: 'JPMorgan Chase Bank',
    bank_address: { country: 'USA' },
  },
};

describe('sandbox deposit sends complete wire instructions', () => {
  it('the amount alone: the sandbox values for every required field', async () => {
    const r = await run(['--amount', '25.50']);
    expect(r.code, r.stderr).toBe(0);
    expect(deposit()).toEqual({
      amount: '25.50',
      asset: 'USD',
      memo_id: DEMO.memoId,
      fiat_network_instructions: { wire: SANDBOX_WIRE },
    });
  });

  it('a flag beats the file, the file beats the sandbox values; SWIFT has its own routing number', async () => {
    const f = file('wire.json', {
      account_number: '42',
      routing_details: { routing_number: '111000025', bank_name: 'File Bank', bank_address: { country: 'GBR' } },
      fiat_account_owner_address: { country: 'USA', address1: '1 Main St', address2: '' },
    });
    const r = await run(['--amount', '1.00', '--file', f, '--bank-name', 'Flag Bank', '--owner-city', 'Boston']);
    expect(r.code, r.stderr).toBe(0);
    expect(deposit().fiat_network_instructions.wire).toEqual({
      account_number: '42',
      // The empty address2 (which the OpenAPI's pattern refuses) is left out.
      fiat_account_owner_address: { country: 'USA', address1: '1 Main St', city: 'Boston' },
      routing_details: {
        routing_number_type: 'ABA',
        routing_number: '111000025',
        bank_name: 'Flag Bank',
        bank_address: { country: 'GBR' },
      },
    });
    const swift = await run([
      '--amount',
      '1.00',
      '--routing-type',
      'SWIFT',
      '--owner-first-name',
      'Ada',
      '--owner-last-name',
      'Lovelace',
    ]);
    expect(swift.code, swift.stderr).toBe(0);
    const body = deposit();
    expect(body.fiat_network_instructions.wire.routing_details).toMatchObject({
      routing_number_type: 'SWIFT',
      routing_number: 'CHASUS33',
    });
    expect(body.fiat_account_owner).toEqual({ person_details: { first_name: 'Ada', last_name: 'Lovelace' } });
  });

  it('a whole request in the file, intermediary routing details included', async () => {
    const f = file('request.json', {
      amount: '3.00',
      asset: 'USD',
      memo_id: DEMO.memoId,
      fiat_network_instructions: {
        wire: {
          ...SANDBOX_WIRE,
          intermediary_routing_details: {
            routing_number_type: 'SWIFT',
            routing_number: 'DEUTDEFF',
            bank_name: 'Deutsche Bank',
            bank_address: { country: 'DEU' },
          },
        },
      },
      fiat_account_owner: { institution_details: { name: 'SomeCorp, Inc.' } },
    });
    const r = await run(['--file', f]);
    expect(r.code, r.stderr).toBe(0);
    expect(deposit()).toMatchObject({
      amount: '3.00',
      fiat_account_owner: { institution_details: { name: 'SomeCorp, Inc.' } },
    });
  });
});

describe('a bad field is named by its flag, and nothing is sent', () => {
  it.each<[string, string[] | (() => string[]), string]>([
    [
      'a flag',
      ['--owner-country', 'U$A'],
      "error: --owner-country: must hold only letters A-Z, digits, spaces and / ? : ( ) . , & ' + -",
    ],
    [
      'a field of the file that has a flag',
      () => ['--file', file('bad-country.json', { fiat_account_owner_address: { country: 'U$A' } })],
      `error: --owner-country (from FILE): must hold only letters A-Z, digits, spaces and / ? : ( ) . , & ' + -`,
    ],
    [
      'a key of the file that is no field',
      () => ['--file', file('bad-key.json', { wire: { acount_number: '1' } })],
      'error: --file FILE: wire.acount_number: is not a known field',
    ],
    [
      'a part only the file gives',
      () => [
        '--file',
        file('bad-intermediary.json', {
          intermediary_routing_details: { ...SANDBOX_WIRE.routing_details, routing_number_type: 'IBAN' },
        }),
      ],
      'error: --file FILE: intermediary_routing_details.routing_number_type: must be one of ABA, SWIFT',
    ],
    [
      'a routing number not of its type',
      ['--routing-type', 'SWIFT', '--routing-number', '021000021'],
      'error: --routing-number: must be a BIC of 8 or 11 capitals and digits for SWIFT (such as CHASUS33)',
    ],
    ['a person without a last name', ['--owner-first-name', 'Ada'], 'error: --owner-last-name: is required'],
    ['an address part too long', ['--bank-city', 'x'.repeat(36)], 'error: --bank-city: must be at most 35 characters'],
  ])('%s', async (_name, extra, message) => {
    proxy.take();
    const args = typeof extra === 'function' ? extra() : extra;
    const at = args.indexOf('--file');
    const r = await run(['--amount', '1.00', ...args]);
    expect(r.code).toBe(2);
    expect(at < 0 ? r.stderr.trim() : r.stderr.trim().replaceAll(args[at + 1], 'FILE')).toBe(message);
    expect(proxy.take()).toEqual([]);
  });
});
