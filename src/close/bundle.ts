// A month-end close bundle's manifest: the SHA-256 of every file of the folder in sha256sum's format (so
// `sha256sum -c MANIFEST.sha256` checks it too), signed with the operator's Ed25519 key (src/policy/keys.ts, the
// approvals' key). Verifying needs nothing but the folder and, to know whose signature it is, the public key.
import { createHash, type KeyObject } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { KEY_PREFIX, parsePublicKey, type PublicKeyInfo, signText, verifyText } from '../policy/keys.js';

export const MANIFEST = 'MANIFEST.sha256';
export const SIGNATURE = 'MANIFEST.sha256.sig';

/** Why a bundle does not verify, one kind a distinct exit code: a file changed, missing, extra, or the signature. */
export type BundleProblemKind = 'changed' | 'missing' | 'extra' | 'signature';

export interface BundleProblem {
  kind: BundleProblemKind;
  message: string;
}

export interface BundleReport {
  ok: boolean;
  /** The files the manifest lists. */
  files: number;
  /** The id of the key that signed it (when the signature file names one). */
  key_id?: string;
  /** Whether the key was given (--public-key) rather than taken from the bundle itself. */
  key_given: boolean;
  problems: BundleProblem[];
}

/** Every file under `dir`, as paths relative to it with `/`, sorted; the manifest and its signature left out. */
export function bundleFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((d) => !d.isDirectory())
    .map((d) =>
      relative(dir, join(d.parentPath ?? d.path, d.name))
        .split(sep)
        .join('/'),
    )
    .filter((p) => p !== MANIFEST && p !== SIGNATURE)
    .sort();
}

const sha256Of = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

/** Writes the manifest of every file of `dir` and its signature; returns the number of files. */
export function sealBundle(dir: string, key: { privateKey: KeyObject; publicKey: PublicKeyInfo }): number {
  const files = bundleFiles(dir);
  const manifest = files.map((f) => `${sha256Of(join(dir, f))}  ${f}\n`).join('');
  writeFileSync(join(dir, MANIFEST), manifest);
  writeFileSync(join(dir, SIGNATURE), `${key.publicKey.text}\n${signText(key.privateKey, manifest)}\n`);
  return files.length;
}

function readOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** The manifest's lines as path → sum, or the problem with it. */
function parseManifest(text: string): Map<string, string> | BundleProblem {
  const sums = new Map<string, string>();
  for (const [i, line] of text.split('\n').entries()) {
    if (!line) continue;
    const m = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (!m) return { kind: 'changed', message: `${MANIFEST} line ${i + 1}: is not "SHA256  PATH"` };
    sums.set(m[2], m[1]);
  }
  return sums;
}

/** The signature's check: by the key given, else by the key the bundle names (which shows integrity, not whose). */
function checkSignature(manifest: string, sigText: string | undefined, given?: PublicKeyInfo): BundleProblem[] {
  const [keyText = '', signature = ''] = (sigText ?? '').split('\n');
  if (sigText === undefined) return [{ kind: 'signature', message: `${SIGNATURE}: missing; the bundle is not signed` }];
  const named = parsePublicKey(keyText);
  if ('rule' in named) return [{ kind: 'signature', message: `${SIGNATURE}: its first line ${named.rule}` }];
  if (given && given.text !== named.text)
    return [
      {
        kind: 'signature',
        message: `signed by key ${named.id}, not by the key given (${given.id}): the bundle is not that operator's`,
      },
    ];
  if (!verifyText((given ?? named).key, manifest, signature))
    return [{ kind: 'signature', message: `${SIGNATURE}: the signature does not match ${MANIFEST} (key ${named.id})` }];
  return [];
}

/** Checks a bundle: the signature over the manifest, every file's sum, no file missing, none extra. */
export function verifyBundle(dir: string, given?: PublicKeyInfo): BundleReport {
  const manifest = readOrUndefined(join(dir, MANIFEST));
  const report = (problems: BundleProblem[], files = 0, keyId?: string): BundleReport => ({
    ok: !problems.length,
    files,
    ...(keyId ? { key_id: keyId } : {}),
    key_given: given !== undefined,
    problems,
  });
  if (manifest === undefined)
    return report([{ kind: 'missing', message: `${MANIFEST}: missing; is this a close bundle?` }]);
  const sigText = readOrUndefined(join(dir, SIGNATURE));
  const named = parsePublicKey((sigText ?? '').split('\n')[0]);
  const keyId = 'rule' in named ? undefined : named.id;
  const sums = parseManifest(manifest);
  if (!(sums instanceof Map)) return report([sums], 0, keyId);
  const problems = checkSignature(manifest, sigText, given);
  const present = new Set(bundleFiles(dir));
  for (const [file, sum] of sums) {
    if (!present.has(file)) problems.push({ kind: 'missing', message: `${file}: missing (the manifest lists it)` });
    else if (sha256Of(join(dir, file)) !== sum)
      problems.push({ kind: 'changed', message: `${file}: changed (its SHA-256 is not the manifest's)` });
  }
  for (const file of present)
    if (!sums.has(file))
      problems.push({ kind: 'extra', message: `${file}: not in the manifest (added after sealing)` });
  return report(problems, sums.size, keyId);
}

/** A public key file's key (ed25519:BASE64 on its first line, as `coinop approve --show-key` prints it). */
export function readPublicKeyFile(path: string): PublicKeyInfo | { rule: string } {
  const text = readFileSync(path, 'utf8');
  return parsePublicKey(text.split('\n').find((l) => l.trim().startsWith(KEY_PREFIX)) ?? text);
}
