// coinop close verify as an auditor runs it: a child process with an empty HOME, no coinop configuration, no service,
// only the bundle and the operator's public key. What the process boundary decides: the exit codes a shell sees, and
// that nothing of coinop's is read or made (no config folder, no data folder appears).
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealBundle } from '../../src/close/bundle.js';
import { parsePublicKey, type PublicKeyInfo } from '../../src/policy/keys.js';
import { runCoinop } from './helpers.js';

let root: string;
let home: string;
let keyFile: string;

function keyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url');
  return { privateKey, publicKey: parsePublicKey(`ed25519:${raw.toString('base64')}`) as PublicKeyInfo };
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'coinop-close-verify-'));
  home = join(root, 'home');
  mkdirSync(home);
  const key = keyPair();
  for (const name of ['good', 'changed']) {
    const dir = join(root, name);
    mkdirSync(join(dir, 'statements'), { recursive: true });
    writeFileSync(join(dir, 'audit.csv'), 'seq,time\r\n1,2026-11-02T00:00:00.000Z\r\n');
    writeFileSync(join(dir, 'statements', 'p.csv'), 'record,time\r\n');
    sealBundle(dir, key);
  }
  writeFileSync(join(root, 'changed', 'audit.csv'), 'seq,time\r\n2,2026-11-02T00:00:00.000Z\r\n');
  keyFile = join(root, 'operator.pub');
  writeFileSync(keyFile, `${key.publicKey.text}\n`);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Only HOME and PATH: no COINOP_* setting, no XDG folders, an empty home. */
const verify = (args: string[]) => runCoinop(['close', 'verify', ...args], { HOME: home, PATH: process.env.PATH });

describe('close verify with no configuration', () => {
  it('a sealed bundle verifies (exit 0), and nothing is made in HOME', async () => {
    const r = await verify([join(root, 'good'), '--public-key', keyFile, '-o', 'table']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^✓ .*good: 2 files as sealed, signed by key [0-9a-f]{16} \(the key given\)\n$/);
    expect(readdirSync(home)).toEqual([]);
  });

  it('a changed file, piped: exit 12, the report as JSON on stdout, the one line on stderr', async () => {
    const r = await verify([join(root, 'changed'), '--public-key', keyFile]);
    expect(r.code).toBe(12);
    expect(JSON.parse(r.stdout)).toMatchObject({
      ok: false,
      problems: [{ kind: 'changed', message: "audit.csv: changed (its SHA-256 is not the manifest's)" }],
    });
    expect(r.stderr).toMatch(/^error: .*changed: does not verify: 1 problem, the first: audit\.csv: changed/);
    expect(readdirSync(home)).toEqual([]);
  });

  it('-o json: the report for programs', async () => {
    const r = await verify([join(root, 'good'), '--public-key', keyFile, '-o', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, files: 2, key_given: true, problems: [] });
    expect(readFileSync(keyFile, 'utf8')).toMatch(/^ed25519:/);
  });
});
