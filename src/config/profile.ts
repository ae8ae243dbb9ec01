// Resolves which profile a command runs as, and with which addresses and credentials, after the
// --profile flag, COINOP_PROFILE and the COINOP_BASE_URL / COINOP_AUTH_URL / COINOP_WS_URL / COINOP_TOKEN overrides.
import { ALL_SCOPES } from '../api/enums.js';
import { DEMO } from '../local/demo.js';
import { ENDPOINTS, type Environment } from './environments.js';
import type { ConfigStore, StoredProfile } from './store.js';

export interface ResolvedProfile {
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
  /** The built-in `local` profile (no login) with the demo credentials. */
  builtin: boolean;
  /** Some address came from COINOP_*_URL, so the embedded local service is never started. */
  overridden: boolean;
  stored: boolean;
}

export const LOCAL_PROFILE = 'local';

export function builtinLocalProfile(): StoredProfile {
  return {
    environment: 'local',
    ...ENDPOINTS.local,
    clientId: DEMO.adminClientId,
    scopes: [...ALL_SCOPES],
    profileId: DEMO.profileId,
  };
}

export function activeProfileName(store: ConfigStore, flag: string | undefined, env: Record<string, string | undefined>): string {
  return flag || env.COINOP_PROFILE || store.activeProfileName() || LOCAL_PROFILE;
}

export class UnknownProfileError extends Error {}

export function resolveProfile(store: ConfigStore, flag: string | undefined, env: Record<string, string | undefined>): ResolvedProfile {
  const name = activeProfileName(store, flag, env);
  const stored = store.profile(name);
  let p: StoredProfile;
  let builtin = false;
  let secret: string | undefined;
  if (stored) {
    p = stored;
    secret = store.secret(name);
  } else if (name === LOCAL_PROFILE) {
    p = builtinLocalProfile();
    secret = DEMO.clientSecret;
    builtin = true;
  } else {
    throw new UnknownProfileError(`no profile named "${name}"`);
  }
  if (env.COINOP_CLIENT_SECRET && !secret) secret = env.COINOP_CLIENT_SECRET;
  const overridden = !!(env.COINOP_BASE_URL || env.COINOP_AUTH_URL || env.COINOP_WS_URL);
  const baseUrl = trimSlash(env.COINOP_BASE_URL || p.baseUrl);
  return {
    name,
    environment: p.environment,
    baseUrl,
    // With only COINOP_BASE_URL set, the token endpoint is assumed on the same server (as the local service does).
    authUrl: trimSlash(env.COINOP_AUTH_URL || (env.COINOP_BASE_URL ? baseUrl : p.authUrl)),
    wsUrl: env.COINOP_WS_URL || (env.COINOP_BASE_URL ? baseUrl.replace(/^http/, 'ws') + '/ws' : p.wsUrl),
    clientId: p.clientId,
    clientSecret: secret,
    scopes: p.scopes,
    profileId: p.profileId,
    envToken: env.COINOP_TOKEN || undefined,
    builtin,
    overridden,
    stored: !!stored,
  };
}

const trimSlash = (u: string) => u.replace(/\/+$/, '');
