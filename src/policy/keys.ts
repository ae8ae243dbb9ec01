// Approvers' Ed25519 keys, with Node's own crypto: the private key lives in the configuration directory (PKCS#8 PEM,
// 0600 in a 0700 folder), made on first use; a public key is written `ed25519:` and the base64 of its 32 bytes, the
// form a policy lists and an approval carries; its id (fingerprint) is the first 16 hex digits of their SHA-256.
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
  verify,
} from 'node:crypto';
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { privateDir, warnIfOpen, type Warn } from '../config/private-files.js';

export const KEY_PREFIX = 'ed25519:';

export interface PublicKeyInfo {
  /** ed25519:BASE64 */
  text: string;
  id: string;
  key: KeyObject;
}

/** A damaged or foreign key file: named, with the way out. */
export class KeyFileError extends Error {}

export const keyIdOf = (raw: Buffer): string => createHash('sha256').update(raw).digest('hex').slice(0, 16);

/** A public key from its text (ed25519:BASE64 of 32 bytes), or the rule it breaks. */
export function parsePublicKey(text: string): PublicKeyInfo | { rule: string } {
  const t = text.trim();
  if (!t.startsWith(KEY_PREFIX))
    return { rule: `must be a public key written ${KEY_PREFIX}BASE64 (coinop approve --show-key prints one)` };
  const b64 = t.slice(KEY_PREFIX.length);
  const raw = /^[A-Za-z0-9+/]{43}=$/.test(b64) ? Buffer.from(b64, 'base64') : undefined;
  if (raw?.length !== 32) return { rule: 'must be an Ed25519 public key: 32 bytes in base64 after ed25519:' };
  try {
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
    return { text: `${KEY_PREFIX}${b64}`, id: keyIdOf(raw), key };
  } catch {
    return { rule: 'must be an Ed25519 public key' };
  }
}

function publicInfo(key: KeyObject): PublicKeyInfo {
  const raw = Buffer.from(key.export({ format: 'jwk' }).x as string, 'base64url');
  return { text: `${KEY_PREFIX}${raw.toString('base64')}`, id: keyIdOf(raw), key };
}

export const approverKeyPath = (configDir: string): string => join(configDir, 'approval-key.pem');

export interface ApproverKey {
  path: string;
  privateKey: KeyObject;
  publicKey: PublicKeyInfo;
  /** Made by this call (first use). */
  created: boolean;
}

/** Writes a new key unless one is there; two coinops at once keep the first one (a hard link never half-written). */
function createKey(path: string): boolean {
  const { privateKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, pem, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(tmp, path);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    unlinkSync(tmp);
  }
}

/** This machine's approver key (the configuration directory's), made on first use. */
export function approverKey(configDir: string, warn?: Warn): ApproverKey {
  const path = approverKeyPath(configDir);
  privateDir(configDir, warn);
  let pem: string | undefined;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  let created = false;
  if (pem === undefined) {
    created = createKey(path);
    pem = readFileSync(path, 'utf8');
  } else warnIfOpen(path, warn);
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch {
    privateKey = undefined as never;
  }
  if (privateKey?.asymmetricKeyType !== 'ed25519')
    throw new KeyFileError(
      `${path}: is not an Ed25519 private key in PEM (damaged?); move it aside and run again to make a new key (the policy then needs the new public key)`,
    );
  return { path, privateKey, publicKey: publicInfo(createPublicKey(privateKey)), created };
}

export const signText = (key: KeyObject, text: string): string => sign(null, Buffer.from(text), key).toString('base64');

export function verifyText(key: KeyObject, text: string, signature: string): boolean {
  if (!/^[A-Za-z0-9+/]{86}==$/.test(signature)) return false;
  return verify(null, Buffer.from(text), key, Buffer.from(signature, 'base64'));
}
