// Signing forwarded events, as the Stripe CLI's `listen` signs what it forwards: a secret shared with the receiver
// (whsec_..., made on first use and kept per context in a 0600 file) and a header
//   Coinop-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed with the whole secret>
// The receiver recomputes the HMAC over the raw body it got and compares in constant time; t lets it refuse old
// deliveries (a replay). Each attempt is signed anew, so a retry carries a fresh t. docs/events.md
// "Forwarding events" shows a receiver's check.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { privateDir, warnIfOpen } from '../config/private-files.js';
import { CoinopError } from '../errors.js';

export const SIGNATURE_HEADER = 'Coinop-Signature';
export const SECRET_PREFIX = 'whsec_';

/** The header value for a body sent at `timestampSeconds`. */
export function signatureHeader(secret: string, body: string, timestampSeconds: number): string {
  const t = Math.floor(timestampSeconds);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/**
 * Whether a header signs this body with this secret, at a time within `toleranceSeconds` of `nowSeconds`: the check a
 * receiver makes (coinop's own tests make it too).
 */
export function verifySignature(
  secret: string,
  header: string,
  body: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const parts = new Map<string, string[]>();
  for (const item of header.split(',')) {
    const i = item.indexOf('=');
    if (i > 0) parts.set(item.slice(0, i).trim(), [...(parts.get(item.slice(0, i).trim()) ?? []), item.slice(i + 1)]);
  }
  const t = Number(parts.get('t')?.[0]);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const want = Buffer.from(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'));
  return (parts.get('v1') ?? []).some((signature) => {
    const got = Buffer.from(signature);
    return got.length === want.length && timingSafeEqual(got, want);
  });
}

/** The file that keeps a context's forwarding secret: named by a hash of the context (a name is no file name). */
export function secretFile(configDir: string, context: string): string {
  return join(configDir, 'forward-secrets', `${createHash('sha256').update(context).digest('hex').slice(0, 32)}.json`);
}

/** A context's forwarding secret, made and kept (0600, in a 0700 folder) the first time it is asked for. */
export function forwardingSecret(file: string, context: string): { secret: string; created: boolean } {
  try {
    warnIfOpen(file);
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { secret?: unknown };
    if (typeof kept.secret === 'string' && kept.secret.startsWith(SECRET_PREFIX) && kept.secret.length >= 30)
      return { secret: kept.secret, created: false };
    throw new SyntaxError('no secret in it');
  } catch (e) {
    if ((e as { code?: string }).code !== 'ENOENT') {
      // Never replaced silently: a receiver holds the old one.
      throw new CoinopError('file', `the forwarding secret file ${file} is damaged`, {
        hint: 'remove it to make a new secret (then give the new one to the receiver)',
      });
    }
  }
  const secret = `${SECRET_PREFIX}${randomBytes(24).toString('base64url')}`;
  privateDir(dirname(file));
  // Written whole beside it, then linked into place: a link fails when another process made the file first, and then
  // its secret is the one (two listeners starting at once agree on one secret).
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, `${JSON.stringify({ profile: context, secret, created_at: new Date().toISOString() })}\n`, {
    mode: 0o600,
  });
  try {
    linkSync(tmp, file);
  } catch (e) {
    if ((e as { code?: string }).code === 'EEXIST') return forwardingSecret(file, context);
    throw e;
  } finally {
    rmSync(tmp, { force: true });
  }
  return { secret, created: true };
}
