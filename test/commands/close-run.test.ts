// coinop close and close verify, their runs in process against a local service: the bundle written (a statement per
// profile, the month's audit extract, the signed manifest) verifies; a changed byte, a removed file, an added file and
// a wrong key are each refused with their own category (their own exit code) and a message naming the file.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { close, verify } from '../../src/commands/close/run.js';
import { parseCloseOptions, parseCloseVerifyOptions } from '../../src/commands/close/options.js';
import { exitCodeOf } from '../../src/cli/errors.js';
import { EXIT } from '../../src/cli/exit-codes.js';
import { DEMO } from '../../src/embedded/demo.js';
import { CoinopError } from '../../src/errors.js';
import { fakeDisplay, readPorts, sharedLocalFixture } from './ports.js';
import { usageMessage } from './support.js';

const local = sharedLocalFixture();
const MONTH = new Date().toISOString().slice(0, 7);
let root: string;
let bundle: string;
let publicKeyFile: string;
let reconciled: object;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'coinop-close-'));
  await local.audit().port.record({
    kind: 'withdrawal',
    ref_id: 'close-test-1',
    what: { asset: 'BTC', amount: '0.1', profile_id: DEMO.profileId },
    outcome: { result: 'sent' },
  });
  bundle = join(root, 'bundle');
  const d = { ...readPorts(local, { format: 'json' }), policy: local.policy };
  await close(d, parseCloseOptions({ month: MONTH, out: bundle, profileId: [DEMO.profileId, DEMO.emptyProfileId] }));
  const sealed = JSON.parse(d.display.stdout) as { public_key: string; files: number; reconciliation: object };
  expect(sealed.files).toBe(6);
  reconciled = sealed.reconciliation;
  publicKeyFile = join(root, 'operator.pub');
  writeFileSync(publicKeyFile, `${sealed.public_key}\n`);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function check(dir: string, key = publicKeyFile) {
  const d = { display: fakeDisplay({ format: 'table' }) };
  try {
    await verify(d, parseCloseVerifyOptions(dir, { publicKey: key }));
    return { code: 0, out: d.display.stdout, message: '' };
  } catch (e) {
    if (!(e instanceof CoinopError)) throw e;
    return { code: exitCodeOf(e), out: d.display.stdout, message: e.message };
  }
}

describe('close', () => {
  it('writes a statement per profile (CSV and JSON), the audit extract, and the signed manifest', () => {
    const manifest = readFileSync(join(bundle, 'MANIFEST.sha256'), 'utf8');
    expect(
      manifest
        .trim()
        .split('\n')
        .map((l) => l.slice(66)),
    ).toEqual(
      [
        'audit.csv',
        'reconciliation.json',
        `statements/${DEMO.profileId}.csv`,
        `statements/${DEMO.profileId}.json`,
        `statements/${DEMO.emptyProfileId}.csv`,
        `statements/${DEMO.emptyProfileId}.json`,
      ].sort(),
    );
    expect(readFileSync(join(bundle, 'audit.csv'), 'utf8')).toContain('close-test-1');
    const doc = JSON.parse(readFileSync(join(bundle, 'statements', `${DEMO.profileId}.json`), 'utf8'));
    expect(doc).toMatchObject({ profile_id: DEMO.profileId, from: `${MONTH}-01T00:00:00.000Z` });
  });

  it("holds the month's reconciliation as coinop reconcile -o json writes it: the withdrawal recorded and never sent is not explained", () => {
    const rec = JSON.parse(readFileSync(join(bundle, 'reconciliation.json'), 'utf8'));
    expect(rec).toMatchObject({ from: `${MONTH}-01T00:00:00.000Z`, explained_classes: ['matched', 'in_flight'] });
    const line = rec.lines.find((l: { ref_id?: string }) => l.ref_id === 'close-test-1');
    expect(line).toMatchObject({ class: 'missing', asset: 'BTC' });
    expect(rec.unexplained).toBeGreaterThanOrEqual(1);
    expect(reconciled).toEqual({ intents: rec.intents, transfers: rec.transfers, unexplained: rec.unexplained });
  });

  it('refuses a folder that is not empty, and a month that is none', () => {
    expect(usageMessage(() => parseCloseOptions({ month: MONTH, out: bundle }))).toBe(
      `--out: ${bundle} must be a new or empty folder`,
    );
    expect(usageMessage(() => parseCloseOptions({ month: '2026-13', out: join(root, 'x') }))).toMatch(/^--month: /);
  });
});

describe('close verify', () => {
  const spoilt = (name: string, spoil: (dir: string) => void): string => {
    const dir = join(root, name);
    rmSync(dir, { recursive: true, force: true });
    cpSync(bundle, dir, { recursive: true });
    spoil(dir);
    return dir;
  };

  it('a bundle as sealed verifies against the operator key', async () => {
    const r = await check(bundle);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^✓ .*: 6 files as sealed, signed by key [0-9a-f]{16} \(the key given\)\n$/);
  });

  it('a changed byte: refused, naming the file', async () => {
    const dir = spoilt('changed', (copied) => {
      const f = join(copied, 'audit.csv');
      const b = readFileSync(f);
      b[b.length - 3] ^= 1;
      writeFileSync(f, b);
    });
    const r = await check(dir);
    expect(r.code).toBe(EXIT.bundleChanged);
    expect(r.message).toContain("audit.csv: changed (its SHA-256 is not the manifest's)");
  });

  it('a removed file: refused, naming it', async () => {
    const dir = spoilt('removed', (d) => unlinkSync(join(d, 'statements', `${DEMO.emptyProfileId}.csv`)));
    const r = await check(dir);
    expect(r.code).toBe(EXIT.bundleMissing);
    expect(r.message).toContain(`statements/${DEMO.emptyProfileId}.csv: missing (the manifest lists it)`);
  });

  it('an added file: refused, naming it', async () => {
    const dir = spoilt('added', (d) => writeFileSync(join(d, 'statements', 'extra.csv'), 'a,b\r\n'));
    const r = await check(dir);
    expect(r.code).toBe(EXIT.bundleExtra);
    expect(r.message).toContain('statements/extra.csv: not in the manifest (added after sealing)');
  });

  it("another operator's key: refused as not that operator's", async () => {
    const other = join(root, 'other.pub');
    const raw = Buffer.from(
      generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x as string,
      'base64url',
    );
    writeFileSync(other, `ed25519:${raw.toString('base64')}\n`);
    const r = await check(bundle, other);
    expect(r.code).toBe(EXIT.bundleSignature);
    expect(r.message).toMatch(/signed by key [0-9a-f]{16}, not by the key given \([0-9a-f]{16}\)/);
  });

  it('a manifest edited to match a changed file: the signature refuses it', async () => {
    const dir = spoilt('resummed', (copied) => {
      const m = join(copied, 'MANIFEST.sha256');
      writeFileSync(
        m,
        readFileSync(m, 'utf8').replace(/^[0-9a-f]/, (c) => (c === '0' ? '1' : '0')),
      );
    });
    const r = await check(dir);
    expect(r.code).toBe(EXIT.bundleSignature);
    expect(r.message).toContain('the signature does not match MANIFEST.sha256');
  });

  it('the exit codes are distinct', () => {
    const codes = [EXIT.bundleChanged, EXIT.bundleMissing, EXIT.bundleExtra, EXIT.bundleSignature];
    expect(new Set([...codes, ...Object.values(EXIT).filter((c) => !codes.includes(c as never))]).size).toBe(
      Object.values(EXIT).length,
    );
    expect(existsSync(bundle)).toBe(true);
  });
});
