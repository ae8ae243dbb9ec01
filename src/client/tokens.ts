// OAuth 2.0 client-credentials tokens: cached per context, service identity and scope set, reused until a minute
// before expiry, refreshed once on a 401. COINOP_TOKEN bypasses all of it. A sandbox or production secret is posted
// only to the token endpoint saved at login, over https; a 429 waits per Retry-After (bounded), then is reported
// as rate limiting, never as bad credentials. A local secret goes only to a server known to be a coinop local service.
import { toProblem } from '../contract/problems.js';
import { CoinopError, UNAVAILABLE } from '../errors.js';
import { guardedEnvironment, type ResolvedContext } from '../config/context.js';
import { tokenEndpoint } from '../config/environments.js';
import type { ConfigStore } from '../config/store.js';
import { answerText, retryAfterMs, type HttpResponse, type Transport } from './transport.js';

/** A cached token is not used in its last minute, so it never expires mid-request. */
export const EXPIRY_MARGIN_MS = 60_000;

/** The longest Retry-After a token request waits for before it is reported as rate limited. */
export const TOKEN_MAX_WAIT_MS = 30_000;

export interface Token {
  accessToken: string;
  expiresAt?: number;
  scope?: string;
  fromCache: boolean;
}

export class TokenManager {
  private current?: Token;

  constructor(
    private readonly context: ResolvedContext,
    private readonly store: ConfigStore | undefined,
    private readonly transport: Transport,
    private readonly now: () => number = Date.now,
    /**
     * Which service the tokens are for (Connection.serviceId): a token of one service is never sent to another. A
     * function when it can change during the run (an answer came from another local instance): read at each use.
     */
    private readonly serviceId: string | (() => string) = `${context.environment}:${context.baseUrl}`,
    /**
     * Asked before the client secret leaves (service-identity.ts secretGuard): throws when the token endpoint is not
     * known to be the service the context names (a local context's port taken by another program).
     */
    private readonly beforeSecret?: () => Promise<void>,
  ) {}

  get canRefresh(): boolean {
    return !this.context.envToken;
  }

  private get cacheKey(): string {
    const scopes = [...this.context.scopes].sort().join(' ');
    const service = typeof this.serviceId === 'function' ? this.serviceId() : this.serviceId;
    return `${this.context.name}|${service}|${this.context.clientId}|${scopes}`;
  }

  async token(): Promise<Token> {
    if (this.context.envToken) return { accessToken: this.context.envToken, fromCache: false };
    if (this.current && this.fresh(this.current)) return this.current;
    const cached = this.store?.token(this.cacheKey);
    if (cached && this.fresh(cached)) {
      this.current = {
        accessToken: cached.accessToken,
        expiresAt: cached.expiresAt,
        scope: cached.scope,
        fromCache: true,
      };
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

  private fresh(token: { expiresAt?: number }): boolean {
    return token.expiresAt === undefined || token.expiresAt - EXPIRY_MARGIN_MS > this.now();
  }

  async fetch(): Promise<Token> {
    const p = this.context;
    if (!p.clientId || !p.clientSecret) {
      const damage = this.store?.secretsDamage();
      if (damage) {
        throw new CoinopError('auth', `context "${p.name}" has no usable client secret: ${damage}`, {
          hint: `save it again: coinop login --context ${p.name} (the damaged file is moved aside, not deleted)`,
        });
      }
      throw new CoinopError('auth', `context "${p.name}" has no client credentials`, {
        hint: 'run: coinop login (or set COINOP_TOKEN)',
      });
    }
    this.checkTokenEndpoint();
    await this.beforeSecret?.();
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: p.clientId,
      client_secret: p.clientSecret,
    });
    if (p.scopes.length) form.set('scope', p.scopes.join(' '));
    const res = await this.transport.send({
      method: 'POST',
      url: tokenEndpoint(p.authUrl),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      // Asking for a token twice is harmless: nothing is created.
      retry: true,
      maxRetryAfterMs: TOKEN_MAX_WAIT_MS,
    });
    const body = res.json as { access_token?: unknown; expires_in?: unknown; scope?: unknown } | undefined;
    if (res.status === 429) throw this.rateLimited(res);
    if (res.status < 200 || res.status >= 300 || typeof body?.access_token !== 'string') {
      if (res.status >= 500)
        throw new CoinopError(
          UNAVAILABLE.has(res.status) ? 'network' : 'api',
          `the token endpoint ${tokenEndpoint(p.authUrl)} failed: ${answerText(res)}`,
          { hint: 'try again in a while (the credentials were not refused)' },
        );
      if (!refusedCredentials(res)) throw notATokenEndpoint(res, tokenEndpoint(p.authUrl));
      const problem = toProblem(res.status, res.json ?? res.text, res.statusText);
      const detail = problem.detail ?? problem.title;
      throw new CoinopError(
        'auth',
        `cannot authenticate context "${p.name}" at ${tokenEndpoint(p.authUrl)}: ${detail}`,
        {
          problem,
          hint: /invalid_scope/.test(detail)
            ? 'the client may not have every scope asked for: run coinop login --scopes with fewer'
            : 'check the client id and secret, then run: coinop login',
        },
      );
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
      ?.saveToken(this.cacheKey, {
        accessToken: token.accessToken,
        expiresAt: token.expiresAt!,
        scope: token.scope ?? '',
      })
      .catch(() => undefined);
    return token;
  }

  /** A sandbox or production secret goes only to the token endpoint saved at login, and only over https. */
  private checkTokenEndpoint(): void {
    const p = this.context;
    if (!guardedEnvironment(p.environment)) return;
    if (p.authUrl !== p.savedAuthUrl) {
      throw new CoinopError(
        'usage',
        `COINOP_AUTH_URL: the client secret of ${p.environment} context "${p.name}" goes only to the token endpoint saved at login (${p.savedAuthUrl}), not to ${p.authUrl}; nothing was sent`,
        {
          hint: 'unset COINOP_AUTH_URL, give a token with COINOP_TOKEN, or log in with --env custom for another server',
        },
      );
    }
    if (!p.authUrl.startsWith('https://')) {
      throw new CoinopError(
        'usage',
        `context "${p.name}": its saved token endpoint ${p.authUrl} is not https, and a ${p.environment} secret is sent only over https; nothing was sent`,
        {
          hint: `log in again: coinop login --env ${p.environment} --name ${p.name}`,
        },
      );
    }
  }

  private rateLimited(res: HttpResponse): CoinopError {
    const wait = retryAfterMs(res.headers['retry-after']);
    const after = wait !== undefined ? `; it asks to wait ${Math.ceil(wait / 1000)} s` : '';
    return new CoinopError(
      'network',
      `the token endpoint ${tokenEndpoint(this.context.authUrl)} is rate limiting (HTTP 429 after ${res.attempts} attempt${res.attempts === 1 ? '' : 's'})${after}`,
      {
        hint: 'wait, then try again (the credentials were not refused)',
      },
    );
  }
}

/**
 * The token endpoint refused the credentials: an OAuth or problem answer in JSON of 400, 401 or 403. Anything else (a
 * 404 page, a 405, a 2xx without a token) says nothing about them.
 */
function refusedCredentials(res: HttpResponse): boolean {
  return [400, 401, 403].includes(res.status) && !!res.json && typeof res.json === 'object';
}

/** An answer that is not the token endpoint's: the address is wrong (or the server is not the service). */
function notATokenEndpoint(res: HttpResponse, url: string): CoinopError {
  return new CoinopError('network', `${url} is not a token endpoint: it answered ${answerText(res)}`, {
    hint: "check the token address (COINOP_AUTH_URL, or the context's: coinop auth status); the credentials were not tried",
  });
}
