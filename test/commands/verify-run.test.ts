// coinop addresses verify and coinop addresses verifications list|get|submit, their runs with fakes of their ports
// (test/commands/ports.ts) against a local service in this process: a verification made and proven with a key file
// through the gate (each request audited), one left PENDING without a key and nobody to ask, then submitted with a
// signature made elsewhere; a key that is not the address's refused before anything is sent; listed in every format.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { get, list, submit, verify } from '../../src/commands/addresses/verify/run.js';
import {
  parseSubmitOptions,
  parseVerificationsListOptions,
  parseVerifyOptions,
} from '../../src/commands/addresses/verify/options.js';
import { addressOfKey, signProof } from '../../src/contract/ownership-proof.js';
import { auditSince, moneyPortsOf, NOW, readPorts, sharedLocalFixture } from './ports.js';

const local = sharedLocalFixture();
const deps = moneyPortsOf(local);

const dir = mkdtempSync(join(tmpdir(), 'coinop-verify-'));
const KEY = Uint8Array.from({ length: 32 }, (_, i) => i + 41);
const ADDRESS = addressOfKey('ETHEREUM', KEY);
const KEY_FILE = join(dir, 'eth.key');
writeFileSync(KEY_FILE, `0x${Buffer.from(KEY).toString('hex')}\n`);
const SOL_SECRET = Uint8Array.from({ length: 32 }, (_, i) => 255 - i);
const SOL_ADDRESS = addressOfKey('SOLANA', SOL_SECRET);
const SOL_FILE = join(dir, 'id.json');
writeFileSync(SOL_FILE, JSON.stringify([...SOL_SECRET, ...Array(32).fill(1)]));

let pendingId = '';

describe('addresses verify run', () => {
  it('with a key file: made and proven through the gate, APPROVED on stdout, both requests audited', async () => {
    const d = deps({ format: 'json' });
    const from = local.audit().entries().length;
    await verify(d, parseVerifyOptions({ network: 'ETHEREUM', address: ADDRESS, keyFile: KEY_FILE, refId: 'v-eth' }));
    const v = JSON.parse(d.display.stdout);
    expect(v).toMatchObject({ network: 'ETHEREUM', address: ADDRESS, status: 'APPROVED', ref_id: 'v-eth' });
    expect(auditSince(local, from).map(([kind, result]) => [kind, result])).toEqual([
      ['address_verification', 'attempt'],
      ['address_verification', 'sent'],
      ['address_verification', 'attempt'],
      ['address_verification', 'sent'],
    ]);
    expect(local.audit().entries().at(-1)?.what).toMatchObject({ verification_id: v.id });
  });

  it('a SOLANA keypair file as solana-keygen writes it proves a SOLANA address', async () => {
    const d = deps({ format: 'json' });
    await verify(d, parseVerifyOptions({ network: 'SOLANA', address: SOL_ADDRESS, keyFile: SOL_FILE }));
    expect(JSON.parse(d.display.stdout)).toMatchObject({ address: SOL_ADDRESS, status: 'APPROVED' });
  });

  it("a key that is not the address's, or a network without a signature proof: usage errors, nothing sent", async () => {
    const other = '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23';
    expect(() => parseVerifyOptions({ network: 'ETHEREUM', address: other, keyFile: KEY_FILE })).toThrow(
      `--key-file: the key in ${KEY_FILE} controls ${ADDRESS}, not --address ${other}`,
    );
    expect(() => parseVerifyOptions({ network: 'BITCOIN', address: other })).toThrow(/--network/);
    const d = deps();
    await expect(verify(d, parseVerifyOptions({ network: 'ETHEREUM' }))).rejects.toThrow('missing --address');
    expect(d.service.connections).toEqual([]);
  });

  it('without a key and nobody to ask: left PENDING with its message; submit takes a signature made elsewhere', async () => {
    const d = deps({ format: 'table' });
    await verify(d, parseVerifyOptions({ network: 'ETHEREUM', address: ADDRESS }));
    expect(d.display.stderr).toMatch(/pending: sign the message below with the key of/);
    expect(d.display.stdout).toMatch(/status\s+PENDING/);
    expect(d.display.stdout).toMatch(/message:\nSign to prove that you control this address/);
    pendingId = /^id\s+(\S+)/m.exec(d.display.stdout)![1];
    const g = readPorts(local, { format: 'json' });
    await get(g, pendingId);
    const message = JSON.parse(g.display.stdout).signature_verification.message;
    const wrong = deps();
    await expect(
      submit(wrong, parseSubmitOptions(pendingId, { signature: signProof('ETHEREUM', KEY, 'another message') })),
    ).rejects.toThrow(/signature: was made by the key of/);
    const s = deps({ format: 'json' });
    await submit(s, parseSubmitOptions(pendingId, { signature: signProof('ETHEREUM', KEY, message) }));
    expect(JSON.parse(s.display.stdout)).toMatchObject({ id: pendingId, status: 'APPROVED' });
    await expect(submit(deps(), parseSubmitOptions(pendingId, { keyFile: KEY_FILE }))).rejects.toThrow(
      /is APPROVED: it takes no signature/,
    );
    expect(() => parseSubmitOptions(pendingId, { keyFile: KEY_FILE, signature: '0x00' })).toThrow(/give one/);
  });
});

describe('addresses verifications list', () => {
  it('a table, CSV, JSON and NDJSON; filtered by status and network', async () => {
    const table = readPorts(local, { format: 'table' });
    await list(table, parseVerificationsListOptions({ status: 'APPROVED' }, NOW));
    expect(table.display.stdout).toMatch(/ID\s+STATUS\s+NETWORK\s+ADDRESS/);
    expect(table.display.stdout).toContain(ADDRESS);
    const csv = readPorts(local, { format: 'csv' });
    await list(csv, parseVerificationsListOptions({ network: 'SOLANA' }, NOW));
    const lines = csv.display.stdout.trim().split(/\r?\n/);
    expect(lines[0]).toBe('id,status,network,address,verification_method,ref_id,created_at,expires_at,message');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,APPROVED,SOLANA,${SOL_ADDRESS},SIGNATURE,`);
    const json = readPorts(local, { format: 'json' });
    await list(json, parseVerificationsListOptions({ status: 'APPROVED', network: 'ETHEREUM' }, NOW));
    expect(JSON.parse(json.display.stdout)).toHaveLength(2);
    const ndjson = readPorts(local, { format: 'ndjson' });
    await list(ndjson, parseVerificationsListOptions({}, NOW));
    expect(ndjson.display.stdout.trim().split('\n')).toHaveLength(3);
    expect(() => parseVerificationsListOptions({ status: 'DONE' }, NOW)).toThrow(/--status/);
  });
});
