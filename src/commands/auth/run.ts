// login, logout and auth status.
import { ALL_SCOPES } from '../../contract/index.js';
import { CoinopError, usageError } from '../../cli/errors.js';
import type { Ports } from '../../cli/ports.js';
import type { Prompter } from '../../cli/prompt.js';
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
import { activeContextName, addresses, ContextOverrideError, type ResolvedContext } from '../../config/context.js';
import type { StoredContext } from '../../config/store.js';
import type { Connection } from '../../cli/invocation.js';
import { isUuid, matchProfile, pickProfile, serviceProfiles } from '../../cli/service-profiles.js';
import type { Profile } from '../../contract/schemas.js';
import { DEMO } from '../../embedded/demo.js';
import type { Token } from '../../client/tokens.js';
import { keyValueLines } from '../../render/key-value.js';
import { palette } from '../../render/style.js';
import { relativeTime } from '../../render/time.js';
import { checkHostedUrls, checkUrl, parseLoginOptions, type LoginOptions } from './options.js';

/** What login takes: what the operator sees and types, the saved configuration, the connection to prove, the time. */
export type LoginDeps = Pick<Ports, 'display' | 'prompter' | 'contexts' | 'service' | 'clock'>;

async function readStdin(ctx: LoginDeps): Promise<string> {
  const { io } = ctx.display;
  if (io.stdinTTY)
    throw usageError(
      '--client-secret-stdin: stdin is a terminal; pipe the secret in (echo "$SECRET" | coinop login ...)',
    );
  const chunks: Buffer[] = [];
  for await (const c of io.stdin) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

/**
 * The environment (asked when not given) and its addresses. A custom one's come from --base-url, --auth-url and
 * --ws-url, else from COINOP_BASE_URL, COINOP_AUTH_URL and COINOP_WS_URL, else are asked for (the token endpoint
 * and stream on the API's server by default); each is kept in the one spelling of src/config/environments.ts.
 */
async function loginEndpoints(
  ctx: LoginDeps,
  options: LoginOptions,
): Promise<{ env: Environment; endpoints: Endpoints }> {
  const pr = ctx.prompter;
  const env = await need(pr, '--env', options.env, () =>
    pr.select<Environment>(
      'Environment',
      ENVIRONMENTS.map((e) => ({ value: e, name: `${e}  ${ENVIRONMENT_LABEL[e]}` })),
      'sandbox',
    ),
  );
  if (env === 'local') return { env, endpoints: ENDPOINTS.local };
  if (env !== 'custom') return { env, endpoints: hostedEndpoints(ctx, options, env) };
  const given = ctx.contexts.settings().overrides;
  const base = options.baseUrl ?? checkUrl('COINOP_BASE_URL', given.COINOP_BASE_URL);
  const baseUrl = apiRoot(
    checkUrl(
      '--base-url',
      await need(pr, '--base-url', base, () => pr.text('API address (https://...)', { validate: urlRule(false) })),
    )!,
  );
  const auth = options.authUrl ?? checkUrl('COINOP_AUTH_URL', given.COINOP_AUTH_URL);
  const authUrl = authRoot(
    checkUrl('--auth-url', auth ?? (pr.allowed ? await pr.text('Token endpoint', { default: baseUrl }) : baseUrl))!,
  );
  const wsDefault = `${baseUrl.replace(/^http/, 'ws')}/ws`;
  const wsUrl = checkUrl(
    '--ws-url',
    options.wsUrl ??
      checkUrl('COINOP_WS_URL', given.COINOP_WS_URL, true) ??
      (pr.allowed
        ? await pr.text('Stream address (wss://...)', { default: wsDefault, validate: urlRule(true) })
        : wsDefault),
    true,
  )!;
  return { env, endpoints: { baseUrl, authUrl, wsUrl } };
}

/**
 * A sandbox or production context's addresses: the hosted service's, or those given by --base-url, --auth-url and
 * --ws-url (https and wss: a gateway in front of it, or a stand-in), noted on stderr. The token endpoint given here is
 * the one saved at login, the only place the secret ever goes (COINOP_AUTH_URL cannot move it).
 */
function hostedEndpoints(ctx: LoginDeps, options: LoginOptions, env: 'sandbox' | 'production'): Endpoints {
  // Checked here too: the environment may have been chosen on the terminal, after the flags were read.
  checkHostedUrls(env, options);
  const hosted = ENDPOINTS[env];
  const endpoints: Endpoints = {
    baseUrl: options.baseUrl !== undefined ? apiRoot(options.baseUrl) : hosted.baseUrl,
    authUrl: options.authUrl !== undefined ? authRoot(options.authUrl) : hosted.authUrl,
    wsUrl: options.wsUrl ?? hosted.wsUrl,
  };
  const given = [
    options.baseUrl !== undefined ? `API ${endpoints.baseUrl}` : undefined,
    options.authUrl !== undefined ? `token endpoint ${tokenEndpoint(endpoints.authUrl)}` : undefined,
    options.wsUrl !== undefined ? `stream ${endpoints.wsUrl}` : undefined,
  ].filter(Boolean);
  if (given.length)
    ctx.display.io.err(
      `note: this ${env} context uses addresses other than the hosted service's: ${given.join(', ')}\n`,
    );
  return endpoints;
}

/** The client id, secret and scopes: given, piped, from COINOP_CLIENT_SECRET, the local demo's, or asked. */
async function loginCredentials(
  ctx: LoginDeps,
  options: LoginOptions,
  env: Environment,
  piped: string | undefined,
): Promise<Omit<LoginState, 'env' | 'endpoints'>> {
  const pr = ctx.prompter;
  const local = env === 'local';
  const clientId =
    local && !options.clientId && !pr.allowed
      ? DEMO.adminClientId
      : await need(pr, '--client-id', options.clientId, () =>
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
  const scopes = options.scopes ?? (pr.allowed ? await pickScopes(pr, [...ALL_SCOPES]) : [...ALL_SCOPES]);
  const profileId = options.profileId ?? (local ? DEMO.profileId : undefined);
  return {
    clientId,
    secret,
    scopes,
    ...(profileId ? { profileId } : {}),
    ...(options.profileId !== undefined ? { profileGiven: true } : {}),
  };
}

/** A scope that lets a client change anything (write, create, update, reject): a client with none only reads. */
const WRITES = /:(write|create|update|reject)_/;
export const readOnlyScopes = (scopes: readonly string[]): boolean =>
  scopes.length > 0 && !scopes.some((s) => WRITES.test(s));

/**
 * A production context, or a read-only client's (one whose every scope only reads), becomes the active one only when
 * asked to (--activate) or when the operator says so on a terminal; any other always is.
 */
async function activateIt(
  ctx: LoginDeps,
  options: LoginOptions,
  saved: { env: Environment; name: string; scopes: readonly string[] },
): Promise<boolean> {
  const readOnly = readOnlyScopes(saved.scopes);
  if ((saved.env !== 'production' && !readOnly) || options.activate) return true;
  const what = readOnly
    ? `read-only context "${saved.name}" (its client cannot send or change anything)`
    : `production context "${saved.name}"`;
  if (!ctx.prompter.allowed) {
    if (readOnly) ctx.display.io.err(`note: the ${what} is not made the active one without --activate\n`);
    return false;
  }
  return ctx.prompter.confirm(`Make the ${what} the active one (every command then uses it)?`, false);
}

/**
 * The service profile the context's commands use: --profile-id's (by nickname, id prefix or id), the local demo's,
 * the only one GET /v2/profiles lists, or the one picked on a terminal when it lists several; otherwise none, and a
 * line says how to set it.
 */
async function defaultProfile(
  ctx: LoginDeps,
  conn: Connection,
  state: LoginState,
  name: string,
): Promise<string | undefined> {
  const { io } = ctx.display;
  const given = state.profileId;
  if (given && (state.env === 'local' || isUuid(given)) && !state.profileGiven) return given;
  const howTo = `set the one its commands use with: coinop context set-profile-id ID ${name} (coinop profiles list --context ${name} lists them)`;
  let profiles: Profile[];
  try {
    profiles = await serviceProfiles(conn, ctx.service.dataDir());
  } catch (e) {
    if (given && isUuid(given)) return given;
    io.err(`note: the service's profiles could not be listed (${(e as Error).message}); ${howTo}\n`);
    return undefined;
  }
  if (given) return matchProfile(profiles, given, '--profile-id').id;
  if (profiles.length === 1) return profiles[0].id;
  if (profiles.length > 1 && ctx.prompter.allowed)
    return (await pickProfile(ctx.prompter, 'The service profile this context uses by default', profiles)).id;
  io.err(`note: context "${name}" has no default service profile (the service lists ${profiles.length}); ${howTo}\n`);
  return undefined;
}

/** What login proves and saves: the environment's addresses and the credentials, as given or typed. */
interface LoginState {
  env: Environment;
  endpoints: Endpoints;
  clientId: string;
  secret: string;
  scopes: string[];
  /** The service profile the coinop context's commands use by default. */
  profileId?: string;
  /** It came from --profile-id (a nickname or prefix is looked up). */
  profileGiven?: true;
}

export async function login(ctx: LoginDeps, raw: RawFlags): Promise<void> {
  const o = parseLoginOptions(raw);
  // Read a piped secret before any prompt could claim stdin.
  const piped = o.secretFromStdin ? await readStdin(ctx) : ctx.contexts.settings().clientSecret;
  if (o.secretFromStdin && !piped) throw usageError('--client-secret-stdin: stdin was empty');
  const { env, endpoints } = await loginEndpoints(ctx, o);
  let state: LoginState = { env, endpoints, ...(await loginCredentials(ctx, o, env, piped)) };
  const name = o.name ?? env;
  const store = ctx.contexts.store();
  // A damaged configuration is refused before the credentials are sent anywhere.
  store.check();
  // Prove the credentials before saving them; on a terminal a refusal asks again for what it refused only, what was
  // typed before given as the answer to keep.
  let proven: Awaited<ReturnType<typeof prove>>;
  for (;;) {
    try {
      proven = await prove(ctx, name, state);
      break;
    } catch (e) {
      state = await askAgain(ctx, e, state);
    }
  }
  const { token, conn } = proven;
  const profileId = await defaultProfile(ctx, conn, state, name);
  const stored: StoredContext = { ...proven.stored, ...(profileId ? { profileId } : {}) };
  if (!profileId) delete stored.profileId;
  const active = await activateIt(ctx, o, { env, name, scopes: stored.scopes });
  await store.saveContext(name, stored, state.secret, active);
  const { io } = ctx.display;
  const p = ctx.display.output().p;
  const expires = token.expiresAt ? relativeTime(new Date(token.expiresAt).toISOString(), ctx.clock.now()) : 'never';
  if (store.movedAside)
    io.err(
      `note: the damaged secrets file was moved aside to ${store.movedAside} (other contexts' secrets may be recovered from it)\n`,
    );
  io.err(
    `${p.green('✓')} Logged in to ${env} as ${stored.clientId}; context "${name}" ${active ? 'is now active' : `is saved, not active (use it with --context ${name}, or coinop context use ${name})`} (token expires ${expires}).\n`,
  );
  if (ctx.display.format() !== 'table')
    ctx.display.output().one({
      // `profile` was this field's first name (JSON fields are only added, never renamed): the same context.
      profile: name,
      context: name,
      environment: env,
      client_id: stored.clientId,
      scopes: token.scope?.split(' ').filter(Boolean) ?? stored.scopes,
      base_url: stored.baseUrl,
      auth_url: stored.authUrl,
      ws_url: stored.wsUrl,
    });
}

/**
 * A token for the credentials, as the context will be used (env overrides included, no token cache). Every scope was
 * asked for (the default) and the client may not have them all (invalid_scope): asked again for none, the client gets
 * the scopes it has, which the token says and the context keeps.
 */
async function prove(
  ctx: LoginDeps,
  name: string,
  state: LoginState,
): Promise<{ stored: StoredContext; token: Token; conn: Connection }> {
  const stored: StoredContext = {
    environment: state.env,
    ...state.endpoints,
    clientId: state.clientId,
    scopes: state.scopes,
    ...(state.profileId ? { profileId: state.profileId } : {}),
  };
  const fetch = async (st: StoredContext) => {
    const conn = await ctx.service.connectAs(resolveWith(ctx, name, st, state.secret), {
      quiet: true,
      tokenCache: false,
    });
    return { conn, token: await conn.tokens.fetch() };
  };
  try {
    return { stored, ...(await fetch(stored)) };
  } catch (e) {
    if (oauthError(e) !== 'invalid_scope' || state.scopes.length < ALL_SCOPES.length) throw e;
    const { conn, token } = await fetch({ ...stored, scopes: [] });
    const granted = (token.scope ?? '').split(' ').filter(Boolean);
    ctx.display.io.err(
      `note: ${state.clientId} may not have every scope; logged in with the ones the service gave it: ${granted.join(', ') || '(none named)'}\n`,
    );
    return { stored: { ...stored, scopes: granted }, token, conn };
  }
}

/** The OAuth error code of a refused token request (invalid_client, invalid_scope...), if that is what `e` is. */
function oauthError(error: unknown): string | undefined {
  const meta = error instanceof CoinopError ? (error.problem?.meta as { error?: unknown } | undefined) : undefined;
  return typeof meta?.error === 'string' ? meta.error : undefined;
}

/**
 * After a refusal on a terminal: the error, then only what it refused asked for again, each answer typed before the
 * default (scopes the client may not have; a client id and secret it refused; an address that is not the service).
 * Without a terminal, or for any other failure, the error stands.
 */
async function askAgain(ctx: LoginDeps, error: unknown, state: LoginState): Promise<LoginState> {
  const pr = ctx.prompter;
  const err = error instanceof CoinopError ? error : undefined;
  if (!pr.allowed || !err || (err.category !== 'auth' && err.category !== 'network')) throw error;
  const { io } = ctx.display;
  const p = palette(io.colourErr);
  io.err(`${p.red('error:')} ${err.message}\n`);
  if (oauthError(error) === 'invalid_scope') {
    io.err(p.dim('the client may not have every scope asked for: choose fewer\n'));
    return { ...state, scopes: await pickScopes(pr, state.scopes) };
  }
  if (err.category === 'auth') {
    io.err(p.dim('check the client id and secret (Enter keeps what was typed)\n'));
    const clientId = await pr.text('Client id', { default: state.clientId });
    const secret = (await pr.secret('Client secret (Enter keeps the one typed)', { optional: true })) || state.secret;
    return { ...state, clientId, secret };
  }
  if (state.env === 'custom') {
    io.err(p.dim('check the addresses (Enter keeps what was typed)\n'));
    const baseUrl = apiRoot(
      await pr.text('API address', { default: state.endpoints.baseUrl, validate: urlRule(false) }),
    );
    const authUrl = authRoot(
      await pr.text('Token endpoint', { default: state.endpoints.authUrl, validate: urlRule(false) }),
    );
    const wsUrl = await pr.text('Stream address', { default: state.endpoints.wsUrl, validate: urlRule(true) });
    return { ...state, endpoints: { baseUrl, authUrl, wsUrl } };
  }
  if (await pr.confirm(`Try ${state.env} again?`, true)) return state;
  throw error;
}

async function pickScopes(pr: Prompter, checked: string[]): Promise<string[]> {
  for (;;) {
    const scopes = await pr.multi('Scopes', [...ALL_SCOPES], checked as (typeof ALL_SCOPES)[number][]);
    if (scopes.length) return scopes;
  }
}

function urlRule(ws: boolean) {
  return (reason: string): true | string => {
    try {
      const u = new URL(reason);
      return (ws ? ['ws:', 'wss:'] : ['http:', 'https:']).includes(u.protocol)
        ? true
        : `must start with ${ws ? 'ws:// or wss://' : 'http:// or https://'}`;
    } catch {
      return 'must be an absolute URL';
    }
  };
}

function resolveWith(ctx: LoginDeps, name: string, stored: StoredContext, secret: string): ResolvedContext {
  let where: ReturnType<typeof addresses>;
  try {
    where = addresses(name, stored, ctx.contexts.settings().overrides);
  } catch (e) {
    if (e instanceof ContextOverrideError)
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

export async function logout(ctx: Pick<Ports, 'display' | 'contexts'>): Promise<void> {
  const store = ctx.contexts.store();
  const name = activeContextName(store, ctx.contexts.flag(), ctx.contexts.settings());
  const had = await store.removeContext(name);
  ctx.display.io.err(
    had
      ? `Logged out of context "${name}": its secret and cached tokens are gone.\n`
      : `Context "${name}" has no saved credentials; nothing to do.\n`,
  );
}

export async function status(ctx: Pick<Ports, 'display' | 'service' | 'clock'>): Promise<void> {
  const conn = await ctx.service.connect();
  const p = conn.context;
  const token = await conn.tokens.token();
  const info = {
    profile: p.name,
    context: p.name,
    environment: p.environment,
    base_url: p.baseUrl,
    auth_url: p.authUrl,
    ws_url: p.wsUrl,
    client_id: p.envToken ? undefined : p.clientId,
    token_source: p.envToken ? 'COINOP_TOKEN' : token.fromCache ? 'cache' : 'new',
    scopes: (token.scope ?? p.scopes.join(' ')).split(' ').filter(Boolean),
    token_expires_at: token.expiresAt ? new Date(token.expiresAt).toISOString() : undefined,
    service_profile_id: p.profileId,
    // The local service started in this process for the command: its addresses (a random port) end with it.
    embedded: conn.embedded || undefined,
  };
  if (p.envToken) {
    // A given token is only proven by using it: a cheap read that any scope set can make fails with 401 if it is bad.
    await conn.client
      .call('listHistoricalPrices', {
        params: { market: 'BTCUSD' },
        query: { max_data_points: '1', 'pagination.limit': '1' },
      })
      .catch((error) => {
        if (error instanceof CoinopError && error.category === 'auth' && error.problem?.status === 401) throw error;
      });
  }
  const out = ctx.display.output();
  if (out.format === 'table') {
    const embedded = 'embedded local service (started in this process for this command)';
    const rows: [string, string][] = [
      ['context', info.context],
      ['environment', `${info.environment} (${ENVIRONMENT_LABEL[info.environment]})`],
      ...((conn.embedded
        ? [['service', embedded]]
        : [
            ['api', info.base_url],
            ['token endpoint', tokenEndpoint(info.auth_url)],
            ['stream', info.ws_url],
          ]) as [string, string][]),
      ['client id', info.client_id ?? '(COINOP_TOKEN)'],
      ['scopes', info.scopes.join(', ')],
      [
        'token',
        info.token_expires_at
          ? `${info.token_source}, expires ${relativeTime(info.token_expires_at, ctx.clock.now())}`
          : info.token_source,
      ],
    ];
    if (info.service_profile_id) rows.push(['service profile', info.service_profile_id]);
    ctx.display.io.out(`${out.p.green('✓')} authenticated\n${keyValueLines(rows, out.p).join('\n')}\n`);
  } else out.one(JSON.parse(JSON.stringify(info)));
}
