// OAuth 2.0 client-credentials tokens: cached per profile and scope set, reused until a minute before expiry,
// refreshed once on a 401. COINOP_TOKEN bypasses all of it.
import { toProblem } from '../api/index.js';
import { CliError } from '../cli/errors.js';
import type { ResolvedProfile } from '../config/profile.js';
import type { ConfigStore } from '../config/store.js';
import type { Transport } from './transport.js';

/** A cached token is not used in its last minute, so it never expires mid-request. */
export const EXPIRY_MARGIN_MS = 60_000;

export interface Token {
  accessToken: string;
  expiresAt?: number;
  scope?: string;
  fromCache: boolean;
}

export class TokenManager {
  private current?: Token;

  constructor(
    private readonly profile: ResolvedProfile,
    private readonly store: ConfigStore | undefined,
    private readonly transport: Transport,
    private readonly now: () => number = Date.now,
    /** The address tokens are cached under; the embedded service's ephemeral port must not fill the cache. */
    private readonly cacheUrl: string = profile.authUrl,
  ) {}

  get canRefresh(): boolean {
    return !this.profile.envToken;
  }

  private get cacheKey(): string {
    const scopes = [...this.profile.scopes].sort().join(' ');
    return `${this.profile.name}|${this.cacheUrl}|${this.profile.clientId}|${scopes}`;
  }

  async token(): Promise<Token> {
    if (this.profile.envToken) return { accessToken: this.profile.envToken, fromCache: false };
    if (this.current && this.fresh(this.current)) return this.current;
    const cached = this.store?.token(this.cacheKey);
    if (cached && this.fresh(cached)) {
      this.current = { accessToken: cached.accessToken, expiresAt: cached.expiresAt, scope: cached.scope, fromCache: true };
      return this.current;
    }
    return this.fetch();
  }

  /** After a 401: forget the token and get a new one. */
  async refresh(): Promise<Token> {
    this.current = undefined;
    await this.store?.dropToken(this.cacheKey).catch(() => undefined);
    return this.fetch();
  }

  private fresh(t: { expiresAt?: number }): boolean {
    return t.expiresAt === undefined || t.expiresAt - EXPIRY_MARGIN_MS > this.now();
  }

  async fetch(): Promise<Token> {
    const p = this.profile;
    if (!p.clientId || !p.clientSecret) {
      const damage = this.store?.secretsDamage();
      if (damage) {
        throw new CliError('auth', `profile "${p.name}" has no usable client secret: ${damage}`, {
          hint: `save it again: coinop login --profile ${p.name} (the damaged file is moved aside, not deleted)`,
        });
      }
      throw new CliError('auth', `profile "${p.name}" has no client credentials`, { hint: 'run: coinop login (or set COINOP_TOKEN)' });
    }
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: p.clientId, client_secret: p.clientSecret });
    if (p.scopes.length) form.set('scope', p.scopes.join(' '));
    const res = await this.transport.send({
      method: 'POST',
      url: `${p.authUrl}/oauth2/token`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      // Asking for a token twice is harmless: nothing is created.
      retry: true,
    });
    const body = res.json as { access_token?: unknown; expires_in?: unknown; scope?: unknown } | undefined;
    if (res.status < 200 || res.status >= 300 || typeof body?.access_token !== 'string') {
      const problem = toProblem(res.status, res.json ?? res.text, res.statusText);
      const detail = problem.detail ?? problem.title;
      throw new CliError('auth', `cannot authenticate profile "${p.name}" at ${p.authUrl}: ${detail}`, {
        problem,
        hint: /invalid_scope/.test(detail)
          ? 'the client may not have every scope asked for: run coinop login --scopes with fewer'
          : 'check the client id and secret, then run: coinop login',
      });
    }
    const expiresIn = typeof body.expires_in === 'number' ? body.expires_in : 3600;
    const token: Token = {
      accessToken: body.access_token,
      expiresAt: this.now() + expiresIn * 1000,
      scope: typeof body.scope === 'string' ? body.scope : p.scopes.join(' '),
      fromCache: false,
    };
    this.current = token;
    await this.store
      ?.saveToken(this.cacheKey, { accessToken: token.accessToken, expiresAt: token.expiresAt!, scope: token.scope ?? '' })
      .catch(() => undefined);
    return token;
  }
}
