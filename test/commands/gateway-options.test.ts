// coinop gateway's options (src/commands/gateway/options.ts): a real argv parsed by each subcommand's own flag table
// into checked options, and every rule's message.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  GATEWAY_START_FLAG_TABLE,
  OPERATORS_ADD_FLAG_TABLE,
  POLICY_SET_FLAG_TABLE,
  STORE_FLAG_TABLE,
} from '../../src/commands/gateway/flags.js';
import {
  defaultStore,
  operatorName,
  parsePolicySetOptions,
  parseStartOptions,
  parseStoreOptions,
  roleFlag,
} from '../../src/commands/gateway/options.js';
import { parseArgv } from '../support/argv.js';
import { usageMessage } from './support.js';

const DATA = '/data/coinop';
const dir = mkdtempSync(join(tmpdir(), 'coinop-gateway-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const start = (argv: string[]) => parseStartOptions(parseArgv(GATEWAY_START_FLAG_TABLE, argv), DATA);
const policySet = (argv: string[]) => parsePolicySetOptions(parseArgv(POLICY_SET_FLAG_TABLE, argv), DATA);

describe('coinop gateway options', () => {
  it("the store is the data directory's SQLite file unless --store names one; an empty one is refused", () => {
    expect(parseStoreOptions(parseArgv(STORE_FLAG_TABLE, []), DATA)).toEqual({ store: defaultStore(DATA) });
    expect(defaultStore(DATA)).toBe(join(DATA, 'gateway', 'gateway.db'));
    expect(parseStoreOptions(parseArgv(STORE_FLAG_TABLE, ['--store', 'postgres://h/db']), DATA)).toEqual({
      store: 'postgres://h/db',
    });
    expect(usageMessage(() => parseStoreOptions(parseArgv(STORE_FLAG_TABLE, ['--store', ' ']), DATA))).toBe(
      '--store: give a postgres:// URL or a file',
    );
  });

  it('start: the defaults of its table, and each flag given', () => {
    expect(start(['--upstream', 'sandbox'])).toEqual({
      store: defaultStore(DATA),
      upstream: 'sandbox',
      host: '127.0.0.1',
      port: 7358,
      tls: undefined,
      rate: 50,
      approvalTtlMs: 1440 * 60_000,
    });
    const o = start(['--upstream', 'prod', '--host', '0.0.0.0', '--port', '0', '--rate', '5', '--approval-ttl', '30']);
    expect([o.host, o.port, o.rate, o.approvalTtlMs]).toEqual(['0.0.0.0', 0, 5, 30 * 60_000]);
  });

  it('start: --upstream is required and a context name; --port and --rate in range', () => {
    expect(usageMessage(() => start([]))).toBe(
      '--upstream: name the context whose credentials the gateway holds (coinop context list)',
    );
    expect(usageMessage(() => start(['--upstream', 'a b']))).toMatch(/^--upstream: /);
    expect(usageMessage(() => start(['--upstream', 'x', '--port', '70000']))).toMatch(/^--port: /);
    expect(usageMessage(() => start(['--upstream', 'x', '--rate', '0']))).toMatch(/^--rate: /);
    expect(usageMessage(() => start(['--upstream', 'x', '--approval-ttl', '0']))).toMatch(/^--approval-ttl: /);
  });

  it('start: --tls-cert and --tls-key together, each a file that reads', () => {
    const cert = join(dir, 'cert.pem');
    const key = join(dir, 'key.pem');
    writeFileSync(cert, 'CERT');
    writeFileSync(key, 'KEY');
    expect(usageMessage(() => start(['--upstream', 'x', '--tls-cert', cert]))).toBe(
      '--tls-cert and --tls-key: give both, or neither',
    );
    const o = start(['--upstream', 'x', '--tls-cert', cert, '--tls-key', key]);
    expect([o.tls?.cert.toString(), o.tls?.key.toString()]).toEqual(['CERT', 'KEY']);
    expect(usageMessage(() => start(['--upstream', 'x', '--tls-cert', cert, '--tls-key', join(dir, 'none')]))).toBe(
      `--tls-key: ${join(dir, 'none')} cannot be read (ENOENT)`,
    );
  });

  it('policy set: through the gateway or at the store, not both', () => {
    expect(policySet([])).toEqual({ store: defaultStore(DATA), approvalTtlMs: 1440 * 60_000, gateway: false });
    expect(policySet(['--gateway', '--approval-ttl', '60'])).toMatchObject({ gateway: true, approvalTtlMs: 3_600_000 });
    expect(usageMessage(() => policySet(['--gateway', '--store', 'x.db']))).toBe(
      '--gateway and --store: give one (through the gateway, or at its store)',
    );
  });

  it('operators: a name of the allowed characters, and a role of the list in any case', () => {
    expect(operatorName('alice.b-1')).toBe('alice.b-1');
    for (const bad of [undefined, '', 'a b', 'x'.repeat(65)])
      expect(usageMessage(() => operatorName(bad))).toMatch(/^NAME: an operator name is/);
    const role = OPERATORS_ADD_FLAG_TABLE.read(parseArgv(OPERATORS_ADD_FLAG_TABLE, ['--role', 'APPROVER'])).role;
    expect(roleFlag(role)).toBe('approver');
    expect(usageMessage(() => roleFlag(undefined))).toMatch(/^--role: must be one of /);
    expect(() => parseArgv(OPERATORS_ADD_FLAG_TABLE, ['--role', 'boss'])).toThrow(/--role: must be one of/);
  });
});
