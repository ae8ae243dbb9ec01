// Resolves which saved context a command runs as, and with which addresses and credentials, after the
// --context flag, COINOP_CONTEXT (or its old name COINOP_PROFILE) and the COINOP_BASE_URL / COINOP_AUTH_URL /
// COINOP_WS_URL / COINOP_TOKEN overrides.
import { ALL_SCOPES } from '../contract/enums.js';
import { didYouMean } from '../contract/suggest.js';
import { usageError } from '../errors.js';
import { DEMO } from '../embedded/demo.js';
import { apiRoot, authRoot, ENDPOINTS, type Environment } from './environments.js';
import { OVERRIDE_VARIABLES, type OverrideVariable, type Settings } from './settings.js';
import type { ConfigStore, StoredContext } from './store.js';

export interface ResolvedContext {
  name: string;
  environment: Environment;
  baseUrl: string;
  authUrl: string;
  wsUrl: string;
  clientId: string;
  clientSecret?: string;
  scopes: string[];
  profileId?: string;
  /** A bearer token given directly (COINOP_TOKEN): no token request, no refresh. */
  envToken?: string;
  /** The built-in `local` context (no login) with the demo credentials. */
  builtin: boolean;
  /** Some address came from COINOP_*_URL, so the embedded local service is never started. */
  overridden: boolean;
  /** The COINOP_*_URL variables that replaced a saved address, in order, with what they say. */
  overrides: Override[];
  /** The token endpoint saved at login: the only place a sandbox or production client secret is ever sent. */
  savedAuthUrl: string;
  stored: boolean;
}

export interface Override {
  variable: OverrideVariable;
  value: string;
}

/** The settings a context is resolved with: COINOP_CONTEXT, COINOP_CLIENT_SECRET, COINOP_TOKEN, COINOP_*_URL. */
export type ContextSettings = Pick<Settings, 'context' | 'clientSecret' | 'token' | 'overrides'>;

/** An environment whose client secret is real: its addresses are overridden only with https/wss, and noted. */
export const guardedEnvironment = (e: Environment): boolean => e === 'sandbox' || e === 'production';

/** An override the context cannot take (http for a sandbox or production context); the message names the variable. */
export class ContextOverrideError extends Error {}

export const LOCAL_CONTEXT = 'local';

export function builtinLocalContext(): StoredContext {
  return {
    environment: 'local',
    ...ENDPOINTS.local,
    clientId: DEMO.adminClientId,
    scopes: [...ALL_SCOPES],
    profileId: DEMO.profileId,
  };
}

export function activeContextName(
  store: ConfigStore,
  flag: string | undefined,
  settings: Pick<Settings, 'context'>,
): string {
  return flag || settings.context || store.activeContextName() || LOCAL_CONTEXT;
}

export class UnknownContextError extends Error {}

export function resolveContext(
  store: ConfigStore,
  flag: string | undefined,
  settings: ContextSettings,
): ResolvedContext {
  const name = activeContextName(store, flag, settings);
  const stored = store.context(name);
  let p: StoredContext;
  let builtin = false;
  let secret: string | undefined;
  if (stored) {
    p = stored;
    secret = store.secret(name);
  } else if (name === LOCAL_CONTEXT) {
    p = builtinLocalContext();
    secret = DEMO.clientSecret;
    builtin = true;
  } else {
    throw new UnknownContextError(`no context named "${name}"${didYouMean(name, contextNames(store))}`);
  }
  if (settings.clientSecret && !secret) secret = settings.clientSecret;
  return {
    name,
    environment: p.environment,
    ...addresses(name, p, settings.overrides),
    clientId: p.clientId,
    clientSecret: secret,
    scopes: p.scopes,
    profileId: p.profileId,
    envToken: settings.token,
    builtin,
    stored: !!stored,
  };
}

const SECURE: Record<OverrideVariable, { what: string; scheme: string }> = {
  COINOP_BASE_URL: { what: 'API address', scheme: 'https:' },
  COINOP_AUTH_URL: { what: 'token endpoint', scheme: 'https:' },
  COINOP_WS_URL: { what: 'stream address', scheme: 'wss:' },
};

/**
 * A saved context's addresses after the COINOP_*_URL overrides, each in the one spelling coinop keeps (apiRoot,
 * authRoot: an API address with or without /v2, a token address as its server or as the full endpoint). With only
 * COINOP_BASE_URL set, the token endpoint and stream are assumed on the same server (as the local service has them),
 * except for a sandbox or production context: its secret stays with the token endpoint saved at login, and its
 * overrides must be https/wss.
 */
export function addresses(
  name: string,
  context: StoredContext,
  overrides: ContextSettings['overrides'],
): Pick<ResolvedContext, 'baseUrl' | 'authUrl' | 'wsUrl' | 'overridden' | 'overrides' | 'savedAuthUrl'> {
  const guarded = guardedEnvironment(context.environment);
  const applied: Override[] = [];
  for (const variable of OVERRIDE_VARIABLES) {
    const value = overrides[variable];
    if (!value) continue;
    if (guarded && !hasScheme(value, SECURE[variable].scheme)) {
      throw new ContextOverrideError(
        `${variable}: context "${name}" is a ${context.environment} context, so its ${SECURE[variable].what} can only be overridden with ${SECURE[variable].scheme === 'https:' ? 'an' : 'a'} ${SECURE[variable].scheme}// address (got ${value}); nothing was sent`,
      );
    }
    applied.push({ variable, value });
  }
  const { COINOP_BASE_URL, COINOP_AUTH_URL, COINOP_WS_URL } = overrides;
  const baseUrl = apiRoot(COINOP_BASE_URL || context.baseUrl);
  const followBase = !!COINOP_BASE_URL && !guarded;
  return {
    baseUrl,
    authUrl: authRoot(COINOP_AUTH_URL || (followBase ? baseUrl : context.authUrl)),
    wsUrl: COINOP_WS_URL || (COINOP_BASE_URL ? `${baseUrl.replace(/^http/, 'ws')}/ws` : context.wsUrl),
    overridden: applied.length > 0,
    overrides: applied,
    savedAuthUrl: authRoot(context.authUrl),
  };
}

/** The one-line stderr note for a sandbox or production context whose addresses are overridden, else undefined. */
export function overrideNote(context: ResolvedContext): string | undefined {
  if (!guardedEnvironment(context.environment) || !context.overrides.length) return undefined;
  const what = context.overrides
    .map((o) => `${o.variable} overrides its ${SECURE[o.variable].what} with ${o.value}`)
    .join(', ');
  return `note: context "${context.name}" is a ${context.environment} context; ${what} (the client secret goes only to ${context.savedAuthUrl})`;
}

function hasScheme(value: string, scheme: string): boolean {
  try {
    return new URL(value).protocol === scheme;
  } catch {
    return false;
  }
}

/** Whether this context may fall back to an in-process local service when nothing listens at its address. */
export function embeddable(context: ResolvedContext): boolean {
  return (
    context.environment === 'local' &&
    !context.overridden &&
    /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?$/.test(context.baseUrl)
  );
}

/** A context's name: letters, digits, dot, dash and underscore, at most 64 (`what`: the flag that gave it). */
export function checkContextName(name: string, what = '--name'): string {
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name))
    throw usageError(`${what}: use letters, digits, dot, dash and underscore (at most 64)`);
  // Such a name would be read as Object.prototype's (a "__proto__" secret is never even stored).
  if (name in Object.prototype) throw usageError(`${what}: "${name}" is reserved; choose another name`);
  return name;
}

/** Every saved context by name, the built-in local one first when it was never saved. */
export function savedContexts(store: ConfigStore): Record<string, StoredContext> {
  const stored = store.contexts();
  return stored[LOCAL_CONTEXT] ? stored : { [LOCAL_CONTEXT]: builtinLocalContext(), ...stored };
}

/** Every context's name, the built-in local one first; only it when the configuration cannot be read (completion). */
export function contextNames(store: ConfigStore): string[] {
  try {
    return Object.keys(savedContexts(store));
  } catch {
    return [LOCAL_CONTEXT];
  }
}
