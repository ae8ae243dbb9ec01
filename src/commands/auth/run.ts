// login, logout and auth status.
import { ALL_SCOPES } from '../../api/index.js';
import { CoinopError, usageError } from '../../cli/errors.js';
import type { CliContext } from '../../cli/context.js';
import type { RawFlags } from '../../cli/options.js';
import { need } from '../../cli/prompt.js';
import {
  apiRoot,
  authRoot,
  ENDPOINTS,
  ENVIRONMENT_LABEL,
  ENVIRONMENTS,
  type Endpoints,
  type Environment,
  tokenEndpoint,
} from '../../config/environments.js';
import { activeProfileName, addresses, ProfileOverrideError, type ResolvedProfile } from '../../config/profile.js';
import type { StoredProfile } from '../../config/store.js';
import { DEMO } from '../../local/demo.js';
import { keyValueLines } from '../../render/key-value.js';
import { relativeTime } from '../../render/time.js';
import { checkHostedUrls, checkUrl, parseLoginOptions, type LoginOptions } from './options.js';

async function readStdin(ctx: CliContext): Promise<string> {
  if (ctx.io.stdinTTY)
    throw usageError(
      '--client-secret-stdin: stdin is a terminal; pipe the secret in (echo "$SECRET" | coinop login ...)',
    );
  const chunks: Buffer[] = [];
  for await (const c of ctx.io.stdin) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/**
 * The environment (asked when not given) and its addresses. A custom one's come from --base-url, --auth-url and
 * --ws-url, else from COINOP_BASE_URL, COINOP_AUTH_URL and COINOP_WS_URL, else are asked for (the token endpoint
 * and stream on the API's server by default); each is kept in the one spelling of src/config/environments.ts.
 */
async function loginEndpoints(ctx: CliContext, o: LoginOptions): Promise<{ env: Environment; endpoints: Endpoints }> {
  const pr = ctx.prompter;
  const env = await need(pr, '--env', o.env, () =>
    pr.select<Environment>(
      'Environment',
      ENVIRONMENTS.map((e) => ({ value: e, name: `${e}  ${ENVIRONMENT_LABEL[e]}` })),
      'sandbox',
    ),
  );
  if (env === 'local') return { env, endpoints: ENDPOINTS.local };
  if (env !== 'custom') return { env, endpoints: hostedEndpoints(ctx, o, env) };
  const given = ctx.settings.overrides;
  const base = o.baseUrl ?? checkUrl('COINOP_BASE_URL', given.COINOP_BASE_URL);
  const baseUrl = apiRoot(
    checkUrl(
      '--base-url',
      await need(pr, '--base-url', base, () => pr.text('API address (https://...)', { validate: urlRule(false) })),
    )!,
  );
  const auth = o.authUrl ?? checkUrl('COINOP_AUTH_URL', given.COINOP_AUTH_URL);
  const authUrl = authRoot(
    checkUrl('--auth-url', auth ?? (pr.allowed ? await pr.text('Token endpoint', { default: baseUrl }) : baseUrl))!,
  );
  const wsDefault = `${baseUrl.replace(/^http/, 'ws')}/ws`;
  const wsUrl = checkUrl(
    '--ws-url',
    o.wsUrl ??
      checkUrl('COINOP_WS_URL', given.COINOP_WS_URL, true) ??
      (pr.allowed
        ? await pr.text('Stream address (wss://...)', { default: wsDefault, validate: urlRule(true) })
        : wsDefault),
    true,
  )!;
  return { env, endpoints: { baseUrl, authUrl, wsUrl } };
}

/**
 * A sandbox or production profile's addresses: the hosted service's, or those given by --base-url, --auth-url and
 * --ws-url (https and wss: a gateway in front of it, or a stand-in), noted on stderr. The token endpoint given here is
 * the one saved at login, the only place the secret ever goes (COINOP_AUTH_URL cannot move it).
 */
function hostedEndpoints(ctx: CliContext, o: LoginOptions, env: 'sandbox' | 'production'): Endpoints {
  // Checked here too: the environment may have been chosen on the terminal, after the flags were read.
  checkHostedUrls(env, o);
  const hosted = ENDPOINTS[env];
  const endpoints: Endpoints = {
    baseUrl: o.baseUrl !== undefined ? apiRoot(o.baseUrl) : hosted.baseUrl,
    authUrl: o.authUrl !== undefined ? authRoot(o.authUrl) : hosted.authUrl,
    wsUrl: o.wsUrl ?? hosted.wsUrl,
  };
  const given = [
    o.baseUrl !== undefined ? `API ${endpoints.baseUrl}` : undefined,
    o.authUrl !== undefined ? `token endpoint ${tokenEndpoint(endpoints.authUrl)}` : undefined,
    o.wsUrl !== undefined ? `stream ${endpoints.wsUrl}` : undefined,
  ].filter(Boolean);
  if (given.length)
    ctx.io.err(`note: this ${env} profile uses addresses other than the hosted service's: ${given.join(', ')}\n`);
  return endpoints;
}

/** The client id, secret and scopes: given, piped, from COINOP_CLIENT_SECRET, the local demo's, or asked. */
async function loginCredentials(
  ctx: CliContext,
  o: LoginOptions,
  env: Environment,
  piped: string | undefined,
): Promise<{ clientId: string; secret: string; scopes: string[] }> {
  const pr = ctx.prompter;
  const local = env === 'local';
  const clientId =
    local && !o.clientId && !pr.allowed
      ? DEMO.adminClientId
      : await need(pr, '--client-id', o.clientId, () =>
          pr.text('Client id', { default: local ? DEMO.adminClientId : undefined }),
        );
  let secret = piped;
  if (!secret && local && !pr.allowed) secret = DEMO.clientSecret;
  if (!secret) {
    if (!pr.allowed)
      throw usageError(
        'missing client secret: pipe it to --client-secret-stdin or set COINOP_CLIENT_SECRET (never as a flag value)',
      );
    secret = await pr.secret('Client secret');
  }
  let scopes = o.scopes ?? [...ALL_SCOPES];
  if (!o.scopes && pr.allowed) scopes = await pr.multi('Scopes', [...ALL_SCOPES], [...ALL_SCOPES]);
  if (!scopes.length) throw usageError('--scopes: choose at least one scope');
  return { clientId, secret, scopes };
}

/** A production profile becomes the active one only when asked to (--activate) or when the operator says so. */
async function activateIt(ctx: CliContext, o: LoginOptions, env: Environment, name: string): Promise<boolean> {
  if (env !== 'production' || o.activate) return true;
  if (!ctx.prompter.allowed) return false;
  return ctx.prompter.confirm(
    `Make the production profile "${name}" the active one (every command then uses it)?`,
    false,
  );
}

export async function login(ctx: CliContext, raw: RawFlags): Promise<void> {
  const o = parseLoginOptions(raw);
  // Read a piped secret before any prompt could claim stdin.
  const piped = o.secretFromStdin ? await readStdin(ctx) : ctx.settings.clientSecret;
  if (o.secretFromStdin && !piped) throw usageError('--client-secret-stdin: stdin was empty');
  const { env, endpoints } = await loginEndpoints(ctx, o);
  const { clientId, secret, scopes } = await loginCredentials(ctx, o, env, piped);
  const name = o.name ?? env;
  const stored: StoredProfile = {
    environment: env,
    ...endpoints,
    clientId,
    scopes,
    ...(o.profileId || env === 'local' ? { profileId: o.profileId ?? DEMO.profileId } : {}),
  };

  // Prove the credentials before saving them: the profile as it will be used, env overrides included.
  const store = ctx.store();
  // A damaged configuration is refused before the credentials are sent anywhere.
  store.check();
  // No token cache while proving: the token must come from the credentials just typed.
  const conn = await ctx.connectAs(resolveWith(ctx, name, stored, secret), { quiet: true, tokenCache: false });
  const token = await conn.tokens.fetch();
  const active = await activateIt(ctx, o, env, name);
  await store.saveProfile(name, stored, secret, active);
  const p = ctx.output().p;
  const expires = token.expiresAt ? relativeTime(new Date(token.expiresAt).toISOString(), ctx.now()) : 'never';
  if (store.movedAside)
    ctx.io.err(
      `note: the damaged secrets file was moved aside to ${store.movedAside} (other profiles' secrets may be recovered from it)\n`,
    );
  ctx.io.err(
    `${p.green('✓')} Logged in to ${env} as ${clientId}; profile "${name}" ${active ? 'is now active' : `is saved, not active (use it with --profile ${name}, or coinop profile use ${name})`} (token expires ${expires}).\n`,
  );
  if (ctx.format() !== 'table')
    ctx.output().one({
      profile: name,
      environment: env,
      client_id: clientId,
      scopes: token.scope?.split(' ') ?? scopes,
      base_url: endpoints.baseUrl,
      auth_url: endpoints.authUrl,
      ws_url: endpoints.wsUrl,
    });
}

function urlRule(ws: boolean) {
  return (v: string): true | string => {
    try {
      const u = new URL(v);
      return (ws ? ['ws:', 'wss:'] : ['http:', 'https:']).includes(u.protocol)
        ? true
        : `must start with ${ws ? 'ws:// or wss://' : 'http:// or https://'}`;
    } catch {
      return 'must be an absolute URL';
    }
  };
}

function resolveWith(ctx: CliContext, name: string, stored: StoredProfile, secret: string): ResolvedProfile {
  let where: ReturnType<typeof addresses>;
  try {
    where = addresses(name, stored, ctx.settings.overrides);
  } catch (e) {
    if (e instanceof ProfileOverrideError)
      throw usageError(e.message, 'use an https:// address, or unset the variable');
    throw e;
  }
  return {
    name,
    environment: stored.environment,
    ...where,
    clientId: stored.clientId,
    clientSecret: secret,
    scopes: stored.scopes,
    profileId: stored.profileId,
    builtin: false,
    stored: false,
  };
}

export async function logout(ctx: CliContext): Promise<void> {
  const store = ctx.store();
  const name = activeProfileName(store, ctx.globals.profile, ctx.settings);
  const had = await store.removeProfile(name);
  ctx.io.err(
    had
      ? `Logged out of profile "${name}": its secret and cached tokens are gone.\n`
      : `Profile "${name}" has no saved credentials; nothing to do.\n`,
  );
}

export async function status(ctx: CliContext): Promise<void> {
  const conn = await ctx.connect();
  const p = conn.profile;
  const token = await conn.tokens.token();
  const info = {
    profile: p.name,
    environment: p.environment,
    base_url: p.baseUrl,
    auth_url: p.authUrl,
    ws_url: p.wsUrl,
    client_id: p.envToken ? undefined : p.clientId,
    token_source: p.envToken ? 'COINOP_TOKEN' : token.fromCache ? 'cache' : 'new',
    scopes: (token.scope ?? p.scopes.join(' ')).split(' ').filter(Boolean),
    token_expires_at: token.expiresAt ? new Date(token.expiresAt).toISOString() : undefined,
    service_profile_id: p.profileId,
  };
  if (p.envToken) {
    // A given token is only proven by using it: a cheap read that any scope set can make fails with 401 if it is bad.
    await conn.client
      .call('listHistoricalPrices', {
        params: { market: 'BTCUSD' },
        query: { max_data_points: '1', 'pagination.limit': '1' },
      })
      .catch((e) => {
        if (e instanceof CoinopError && e.category === 'auth' && e.problem?.status === 401) throw e;
      });
  }
  const out = ctx.output();
  if (out.format === 'table') {
    const rows: [string, string][] = [
      ['profile', info.profile],
      ['environment', `${info.environment} (${ENVIRONMENT_LABEL[info.environment]})`],
      ['api', info.base_url],
      ['token endpoint', tokenEndpoint(info.auth_url)],
      ['stream', info.ws_url],
      ['client id', info.client_id ?? '(COINOP_TOKEN)'],
      ['scopes', info.scopes.join(', ')],
      [
        'token',
        info.token_expires_at
          ? `${info.token_source}, expires ${relativeTime(info.token_expires_at, ctx.now())}`
          : info.token_source,
      ],
    ];
    if (info.service_profile_id) rows.push(['service profile', info.service_profile_id]);
    ctx.io.out(`${out.p.green('✓')} authenticated\n${keyValueLines(rows, out.p).join('\n')}\n`);
  } else out.one(JSON.parse(JSON.stringify(info)));
}
