// OAuth 2.0 client credentials for the local service: issuing bearer tokens and checking them per endpoint,
// answering 401 and 403 as the hosted service does (spec/UPSTREAM.md "HTTP errors").
import { randomBytes, timingSafeEqual } from './lazy-crypto.js';
import { problems } from '../contract/index.js';
import type { ServiceClock } from './service-clock.js';
import type { LocalConfig } from './config.js';
import type { Store } from './store.js';

export interface Principal {
  clientId: string;
  scopes: string[];
  allowStream: boolean;
}

interface CachedToken extends Principal {
  scopeSet: Set<string>;
  expiresMs: number;
}

/** An OAuth error answer of the token endpoint. */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {
    super(`${error}: ${description}`);
  }
  body(): Record<string, string> {
    return { error: this.error, error_description: this.description };
  }
}

function sameSecret(given: string, expected: string): boolean {
  const x = Buffer.from(given);
  const y = Buffer.from(expected);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class Auth {
  // Tokens never change once issued, so a cache that falls back to the database on a miss cannot be wrong.
  private readonly cache = new Map<string, CachedToken>();

  constructor(
    private readonly store: Store,
    private readonly clock: ServiceClock,
    private readonly config: LocalConfig,
  ) {}

  /** POST /oauth2/token: form fields (or HTTP Basic credentials) to a token response. */
  issue(form: Record<string, unknown>, basic?: { id: string; secret: string }): Record<string, unknown> {
    const str = (k: string) => (typeof form[k] === 'string' ? (form[k] as string) : undefined);
    const grant = str('grant_type');
    if (!grant) throw new OAuthError(400, 'invalid_request', 'grant_type is required');
    if (grant !== 'client_credentials')
      throw new OAuthError(400, 'unsupported_grant_type', `grant_type must be client_credentials, not ${grant}`);
    const clientId = basic?.id ?? str('client_id');
    const secret = basic?.secret ?? str('client_secret');
    if (!clientId || secret === undefined)
      throw new OAuthError(401, 'invalid_client', 'client_id and client_secret are required');
    const client = this.store.client(clientId);
    if (!client || !sameSecret(client.secret, secret))
      throw new OAuthError(401, 'invalid_client', 'unknown client or wrong secret');
    const allowed = client.scopes.split(' ').filter(Boolean);
    const requested = (str('scope') ?? '').split(/[\s+]+/).filter(Boolean);
    const unknown = requested.filter((s) => !allowed.includes(s));
    if (unknown.length)
      throw new OAuthError(400, 'invalid_scope', `client ${clientId} may not request ${unknown.join(' ')}`);
    const scopes = requested.length ? [...new Set(requested)] : allowed;
    const token = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const expiresMs = now + this.config.tokenLifetimeSeconds * 1000;
    this.store.immediate(() => {
      this.store.deleteExpiredTokens(now - 86_400_000);
      this.store.insertToken({ token, client_id: clientId, scopes: scopes.join(' '), expires_ms: expiresMs });
    });
    this.cache.set(token, {
      clientId,
      scopes,
      scopeSet: new Set(scopes),
      allowStream: !!client.allow_stream,
      expiresMs,
    });
    return {
      access_token: token,
      expires_in: this.config.tokenLifetimeSeconds,
      token_type: 'bearer',
      scope: scopes.join(' '),
    };
  }

  private lookup(token: string): CachedToken | undefined {
    let t = this.cache.get(token);
    if (!t) {
      const row = this.store.token(token);
      if (!row) return undefined;
      const client = this.store.client(row.client_id);
      const scopes = row.scopes.split(' ').filter(Boolean);
      t = {
        clientId: row.client_id,
        scopes,
        scopeSet: new Set(scopes),
        allowStream: !!client?.allow_stream,
        expiresMs: row.expires_ms,
      };
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(token, t);
    }
    return t;
  }

  /** A valid, unexpired token's principal, or null (for the stream handshake). */
  authenticate(token: string): Principal | null {
    const t = this.lookup(token);
    if (!t || t.expiresMs <= this.clock.now()) return null;
    return { clientId: t.clientId, scopes: t.scopes, allowStream: t.allowStream };
  }

  /** Who a public endpoint's caller is, when the request carries a valid token; never refuses (no token is fine). */
  identify(header: string | undefined): Principal | undefined {
    const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    const t = m ? this.lookup(m[1]) : undefined;
    return t && t.expiresMs > this.clock.now() ? t : undefined;
  }

  /** Checks an Authorization header for a scope (any valid token for ''); throws the 401 or 403 problem. */
  authorize(header: string | undefined, scope: string): Principal {
    if (!header) throw problems.unauthorized('no authorization header set');
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw problems.unauthorized('authorization header is not a bearer token');
    const t = this.lookup(m[1]);
    if (!t) throw problems.unauthorized('invalid token');
    if (t.expiresMs <= this.clock.now()) throw problems.unauthorized('token expired');
    if (scope && !t.scopeSet.has(scope))
      throw problems.forbidden(`insufficient scopes: found '${t.scopes.join(' ')}', required one of '[${scope}]'`);
    return t;
  }
}
