// login, logout and auth status.
import { ALL_SCOPES } from '../../api/index.js';
import { CliError, usageError } from '../../cli/errors.js';
import type { CliContext } from '../../cli/context.js';
import { need } from '../../cli/prompt.js';
import { ENDPOINTS, ENVIRONMENT_LABEL, ENVIRONMENTS, type Environment } from '../../config/environments.js';
import { resolveProfile, type ResolvedProfile } from '../../config/profile.js';
import type { StoredProfile } from '../../config/store.js';
import { DEMO } from '../../local/demo.js';
import { relativeTime } from '../../render/time.js';

interface LoginOptions {
  env?: Environment;
  clientId?: string;
  clientSecretStdin?: boolean;
  scopes?: string;
  name?: string;
  profileId?: string;
  baseUrl?: string;
  authUrl?: string;
  wsUrl?: string;
}

async function readStdin(ctx: CliContext): Promise<string> {
  if (ctx.io.stdinTTY) throw usageError('--client-secret-stdin: stdin is a terminal; pipe the secret in (echo "$SECRET" | coinop login ...)');
  const chunks: Buffer[] = [];
  for await (const c of ctx.io.stdin) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

function checkUrl(flag: string, v: string | undefined, ws = false): string | undefined {
  if (v === undefined) return undefined;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw usageError(`${flag}: must be an absolute URL such as ${ws ? 'wss://ws.example.com/' : 'https://api.example.com'}`);
  }
  const ok = ws ? ['ws:', 'wss:'] : ['http:', 'https:'];
  if (!ok.includes(u.protocol)) throw usageError(`${flag}: must start with ${ok.map((p) => p + '//').join(' or ')}`);
  return v.replace(/\/+$/, '');
}

export async function login(ctx: CliContext, o: LoginOptions): Promise<void> {
  const pr = ctx.prompter;
  const scopesFlag = o.scopes?.split(',').map((s) => s.trim()).filter(Boolean);
  for (const s of scopesFlag ?? []) {
    if (!(ALL_SCOPES as string[]).includes(s)) throw usageError(`--scopes: "${s}" is not a scope (${ALL_SCOPES.join(', ')})`);
  }
  let baseUrl = checkUrl('--base-url', o.baseUrl);
  let authUrl = checkUrl('--auth-url', o.authUrl);
  let wsUrl = checkUrl('--ws-url', o.wsUrl, true);
  if (o.env && o.env !== 'custom' && (baseUrl || authUrl || wsUrl)) throw usageError('--base-url/--auth-url/--ws-url: only with --env custom');
  // Read a piped secret before any prompt could claim stdin.
  let secret: string | undefined = o.clientSecretStdin ? await readStdin(ctx) : ctx.env.COINOP_CLIENT_SECRET || undefined;
  if (o.clientSecretStdin && !secret) throw usageError('--client-secret-stdin: stdin was empty');

  const env = await need(pr, '--env', o.env, () =>
    pr.select<Environment>('Environment', ENVIRONMENTS.map((e) => ({ value: e, name: `${e}  ${ENVIRONMENT_LABEL[e]}` })), 'sandbox'),
  );
  if (env === 'custom') {
    baseUrl = checkUrl('--base-url', await need(pr, '--base-url', baseUrl, () => pr.text('API address (https://...)', { validate: urlRule(false) })));
    authUrl = checkUrl('--auth-url', authUrl ?? (pr.allowed ? await pr.text('Token endpoint host', { default: baseUrl }) : baseUrl));
    wsUrl = checkUrl('--ws-url', wsUrl ?? (pr.allowed ? await pr.text('Stream address (wss://...)', { default: baseUrl!.replace(/^http/, 'ws') + '/ws', validate: urlRule(true) }) : baseUrl!.replace(/^http/, 'ws') + '/ws'), true);
  }
  const local = env === 'local';
  const clientId = local && !o.clientId && !pr.allowed ? DEMO.adminClientId : await need(pr, '--client-id', o.clientId, () => pr.text('Client id', { default: local ? DEMO.adminClientId : undefined }));
  if (!secret && local && !pr.allowed) secret = DEMO.clientSecret;
  if (!secret) {
    if (!pr.allowed) throw usageError('missing client secret: pipe it to --client-secret-stdin or set COINOP_CLIENT_SECRET (never as a flag value)');
    secret = await pr.secret('Client secret');
  }
  let scopes = scopesFlag ?? [...ALL_SCOPES];
  if (!scopesFlag && pr.allowed) scopes = await pr.multi('Scopes', [...ALL_SCOPES], [...ALL_SCOPES]);
  if (!scopes.length) throw usageError('--scopes: choose at least one scope');

  const endpoints = env === 'custom' ? { baseUrl: baseUrl!, authUrl: authUrl!, wsUrl: wsUrl! } : ENDPOINTS[env];
  const name = o.name || ctx.globals.profile || env;
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name)) throw usageError('--name: use letters, digits, dot, dash and underscore (at most 64)');
  // Such a name would be read as Object.prototype's (a "__proto__" secret is never even stored).
  if (name in Object.prototype) throw usageError(`--name: "${name}" is reserved; choose another name`);
  const stored: StoredProfile = {
    environment: env,
    ...endpoints,
    clientId,
    scopes,
    ...(o.profileId || local ? { profileId: o.profileId ?? DEMO.profileId } : {}),
  };

  // Prove the credentials before saving them: the profile as it will be used, env overrides included.
  const store = ctx.store();
  // A damaged configuration is refused before the credentials are sent anywhere.
  store.check();
  const probe = resolveWith(ctx, name, stored, secret);
  const conn = await connectWith(ctx, probe);
  const token = await conn.tokens.fetch();
  await store.saveProfile(name, stored, secret, true);
  const p = ctx.output().p;
  const expires = token.expiresAt ? relativeTime(new Date(token.expiresAt).toISOString(), ctx.now()) : 'never';
  if (store.movedAside) ctx.io.err(`note: the damaged secrets file was moved aside to ${store.movedAside} (other profiles' secrets may be recovered from it)\n`);
  ctx.io.err(`${p.green('✓')} Logged in to ${env} as ${clientId}; profile "${name}" is now active (token expires ${expires}).\n`);
  if (ctx.format() !== 'table') ctx.output().one({
      profile: name, environment: env, client_id: clientId, scopes: token.scope?.split(' ') ?? scopes,
      base_url: endpoints.baseUrl, auth_url: endpoints.authUrl, ws_url: endpoints.wsUrl,
    });
}

function urlRule(ws: boolean) {
  return (v: string): true | string => {
    try {
      const u = new URL(v);
      return (ws ? ['ws:', 'wss:'] : ['http:', 'https:']).includes(u.protocol) ? true : `must start with ${ws ? 'ws:// or wss://' : 'http:// or https://'}`;
    } catch {
      return 'must be an absolute URL';
    }
  };
}

function resolveWith(ctx: CliContext, name: string, stored: StoredProfile, secret: string): ResolvedProfile {
  const env = ctx.env;
  const overridden = !!(env.COINOP_BASE_URL || env.COINOP_AUTH_URL);
  const baseUrl = (env.COINOP_BASE_URL || stored.baseUrl).replace(/\/+$/, '');
  return {
    name,
    environment: stored.environment,
    baseUrl,
    authUrl: (env.COINOP_AUTH_URL || (env.COINOP_BASE_URL ? baseUrl : stored.authUrl)).replace(/\/+$/, ''),
    wsUrl: env.COINOP_WS_URL || stored.wsUrl,
    clientId: stored.clientId,
    clientSecret: secret,
    scopes: stored.scopes,
    profileId: stored.profileId,
    builtin: false,
    overridden,
    stored: false,
  };
}

async function connectWith(ctx: CliContext, profile: ResolvedProfile) {
  const [{ Transport }, { TokenManager }, embedded] = await Promise.all([
    import('../../client/transport.js'),
    import('../../client/tokens.js'),
    import('../../client/embedded.js'),
  ]);
  let p = profile;
  if (embedded.embeddable(p) && !(await embedded.probeHealth(p.baseUrl))) {
    const svc = await embedded.startEmbedded(ctx.env);
    ctx.onCleanup(() => svc.close());
    p = { ...p, baseUrl: svc.baseUrl, authUrl: svc.authUrl, wsUrl: svc.wsUrl };
  }
  const transport = new Transport({ debug: ctx.globals.debug ? (l) => ctx.io.err(`[debug] ${l}\n`) : undefined });
  ctx.onCleanup(() => transport.close());
  // No cache while proving: the token must come from the credentials just typed.
  return { tokens: new TokenManager(p, undefined, transport, ctx.now), profile: p };
}

export async function logout(ctx: CliContext): Promise<void> {
  const store = ctx.store();
  const name = ctx.globals.profile || ctx.env.COINOP_PROFILE || store.activeProfileName() || 'local';
  const had = await store.removeProfile(name);
  ctx.io.err(had ? `Logged out of profile "${name}": its secret and cached tokens are gone.\n` : `Profile "${name}" has no saved credentials; nothing to do.\n`);
}

export async function status(ctx: CliContext): Promise<void> {
  const conn = await ctx.connect();
  const p = conn.profile;
  let token;
  try {
    token = await conn.tokens.token();
  } catch (e) {
    if (e instanceof CliError && e.category === 'auth') throw e;
    throw e;
  }
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
    await conn.client.call('listHistoricalPrices', { params: { market: 'BTCUSD' }, query: { max_data_points: '1', 'pagination.limit': '1' } }).catch((e) => {
      if (e instanceof CliError && e.category === 'auth' && e.problem?.status === 401) throw e;
    });
  }
  const out = ctx.output();
  if (out.format === 'table') {
    const rows: [string, string][] = [
      ['profile', info.profile],
      ['environment', `${info.environment} (${ENVIRONMENT_LABEL[info.environment]})`],
      ['api', info.base_url],
      ['token endpoint', `${info.auth_url}/oauth2/token`],
      ['stream', info.ws_url],
      ['client id', info.client_id ?? '(COINOP_TOKEN)'],
      ['scopes', info.scopes.join(', ')],
      ['token', info.token_expires_at ? `${info.token_source}, expires ${relativeTime(info.token_expires_at, ctx.now())}` : info.token_source],
    ];
    if (info.service_profile_id) rows.push(['service profile', info.service_profile_id]);
    const w = Math.max(...rows.map(([k]) => k.length));
    ctx.io.out(`${out.p.green('✓')} authenticated\n` + rows.map(([k, v]) => `${out.p.dim(k.padEnd(w))}  ${v}`).join('\n') + '\n');
  } else out.one(JSON.parse(JSON.stringify(info)));
}
