// The gateway's operators: a name, a role, a client id and a secret kept only as a scrypt hash (node's crypto), and
// the short-lived bearer tokens they get for it. A token is signed (HMAC-SHA256) with the store's own key, so any
// gateway instance on the same store accepts it; it names the operator, and every request checks that the operator
// is still enabled and still has the role (disabling one ends their tokens at once for anything but a read, and for
// reads within OPERATOR_CACHE_MS: server.ts).
import { createHmac, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { SCOPES, type Scope } from '../contract/enums.js';

export const ROLES = ['viewer', 'initiator', 'approver', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** How long a token lasts: short, so a copied one is soon worthless. */
export const TOKEN_TTL_SECONDS = 15 * 60;

const READS: Scope[] = [
  SCOPES.readDepositAddress,
  SCOPES.historicalPrices,
  SCOPES.readTransfer,
  SCOPES.marketDataStream,
  SCOPES.readProfile,
  SCOPES.readCryptoDestinationAddress,
  SCOPES.readTransferLimit,
  SCOPES.readFiatDepositInstructions,
  SCOPES.readEvent,
  SCOPES.readFiatAccount,
  SCOPES.readConversionStablecoin,
];

/** What each role may do upstream: a viewer reads; an initiator also asks for money to move; an approver reads. */
export const ROLE_SCOPES: Record<Role, Scope[]> = {
  viewer: READS,
  approver: READS,
  initiator: [
    ...READS,
    // Travel Rule: answering for a held deposit (released or rejected).
    SCOPES.updateCryptoDeposit,
    SCOPES.rejectCryptoDeposit,
    SCOPES.createCryptoWithdrawal,
    SCOPES.createWithdrawalFee,
    SCOPES.writeDepositAddress,
    SCOPES.sandboxFiatDeposit,
    SCOPES.writeProfile,
    SCOPES.writeInternalTransfer,
    SCOPES.writeCryptoDestinationAddress,
    SCOPES.writeFiatDepositInstructions,
    SCOPES.writeFiatAccount,
    SCOPES.writeFiatWithdrawal,
    SCOPES.writeConversionStablecoin,
  ],
  admin: Object.values(SCOPES),
};

/** What a role may do at the gateway itself, beside the service's scopes. */
export const canApprove = (role: Role): boolean => role === 'approver' || role === 'admin';
export const isAdmin = (role: Role): boolean => role === 'admin';

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 };

function scryptHash(secret: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p }, (e, key) =>
      e ? reject(e) : resolve(key),
    ),
  );
}

/** A secret as stored: scrypt$N$r$p$salt$hash (base64). */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptHash(secret, salt);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Whether `secret` is the one `stored` was made from (in constant time). */
export async function secretMatches(secret: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const want = Buffer.from(parts[5], 'base64');
  const got = await scryptHash(secret, Buffer.from(parts[4], 'base64'));
  return got.length === want.length && timingSafeEqual(got, want);
}

/** A new operator's credentials: a client id and a secret of 32 random bytes (shown once, never kept). */
export function newCredentials(name: string): { clientId: string; secret: string } {
  return { clientId: `gw-${name}-${randomBytes(4).toString('hex')}`, secret: randomBytes(32).toString('base64url') };
}

export interface TokenClaims {
  /** The operator's name. */
  sub: string;
  role: Role;
  /** Expiry, in seconds since the epoch. */
  exp: number;
}

const b64 = (v: string | Buffer) => Buffer.from(v).toString('base64url');

export function signToken(key: Buffer, claims: TokenClaims): string {
  const body = b64(JSON.stringify(claims));
  const mac = createHmac('sha256', key).update(`gw1.${body}`).digest('base64url');
  return `gw1.${body}.${mac}`;
}

/** The claims of a token this store signed that has not expired; undefined for anything else. */
export function verifyToken(key: Buffer, token: string, nowMs: number): TokenClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== 'gw1') return undefined;
  const want = createHmac('sha256', key).update(`gw1.${parts[1]}`).digest();
  const got = Buffer.from(parts[2], 'base64url');
  if (got.length !== want.length || !timingSafeEqual(got, want)) return undefined;
  let claims: TokenClaims;
  try {
    claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as TokenClaims;
  } catch {
    return undefined;
  }
  if (typeof claims.sub !== 'string' || !isRole(claims.role) || typeof claims.exp !== 'number') return undefined;
  return claims.exp * 1000 > nowMs ? claims : undefined;
}
