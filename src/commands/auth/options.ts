// coinop login: its flags, checked, as a typed options object (declared in index.ts).
import { checkContextName } from '../../config/context.js';
import { ALL_SCOPES, canonicalChoice } from '../../contract/index.js';
import { usageError } from '../../cli/errors.js';
import type { RawFlags } from '../../cli/options.js';
import type { Environment } from '../../config/environments.js';
import { LOGIN_FLAG_TABLE } from './flags.js';
import { GLOBAL_FLAG_TABLE } from '../../cli/global-flags.js';

export interface LoginOptions {
  /** Unset: asked. */
  env?: Environment;
  clientId?: string;
  /** --client-secret-stdin: the secret is piped in. */
  secretFromStdin: boolean;
  /** Unset: every scope (or chosen on a terminal). */
  scopes?: string[];
  /** --name, else --context (or --profile); unset: the environment's name. */
  name?: string;
  profileId?: string;
  /** The addresses of a custom environment; of a sandbox or production one, the hosted ones they replace (https). */
  baseUrl?: string;
  authUrl?: string;
  wsUrl?: string;
  /** --activate: make the saved context the active one without asking (production asks on a terminal otherwise). */
  activate?: true;
}

/** An API (http/https) or stream (ws/wss) address, without trailing slashes; the message names the flag. */
export function checkUrl(flag: string, value: string | undefined, ws = false): string | undefined {
  if (value === undefined) return undefined;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw usageError(
      `${flag}: must be an absolute URL such as ${ws ? 'wss://ws.example.com/' : 'https://api.example.com'}`,
    );
  }
  const ok = ws ? ['ws:', 'wss:'] : ['http:', 'https:'];
  if (!ok.includes(u.protocol)) throw usageError(`${flag}: must start with ${ok.map((p) => `${p}//`).join(' or ')}`);
  return value.replace(/\/+$/, '');
}

/** A sandbox or production secret is sent only over https: the addresses given for one are https and wss. */
export function checkHostedUrls(
  env: 'sandbox' | 'production',
  options: Pick<LoginOptions, 'baseUrl' | 'authUrl' | 'wsUrl'>,
): void {
  for (const [flag, url, scheme] of [
    ['--base-url', options.baseUrl, 'https:'],
    ['--auth-url', options.authUrl, 'https:'],
    ['--ws-url', options.wsUrl, 'wss:'],
  ] as const) {
    if (url !== undefined && new URL(url).protocol !== scheme)
      throw usageError(
        `${flag}: a ${env} context's addresses must start with ${scheme}// (its secret goes only over https)`,
      );
  }
}

/** `raw`: login's flags with the global ones (--context, or its old name --profile, names the context when --name does not). */
export function parseLoginOptions(raw: RawFlags): LoginOptions {
  const f = LOGIN_FLAG_TABLE.read(raw);
  const given = GLOBAL_FLAG_TABLE.read(raw);
  const scopes = f.scopes
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((given) => {
      const scope = canonicalChoice(ALL_SCOPES, given);
      if (!scope) throw usageError(`--scopes: "${given}" is not a scope (${ALL_SCOPES.join(', ')})`);
      return scope;
    });
  const { env } = f;
  const baseUrl = checkUrl('--base-url', f.baseUrl);
  const authUrl = checkUrl('--auth-url', f.authUrl);
  const wsUrl = checkUrl('--ws-url', f.wsUrl, true);
  if (env === 'local' && (baseUrl || authUrl || wsUrl))
    throw usageError('--base-url/--auth-url/--ws-url: not with --env local (use --env custom for another server)');
  if (env === 'sandbox' || env === 'production') checkHostedUrls(env, { baseUrl, authUrl, wsUrl });
  if (scopes?.length === 0) throw usageError('--scopes: choose at least one scope');
  const name = f.name || given.context || given.profile || undefined;
  return {
    env,
    clientId: f.clientId,
    secretFromStdin: f.clientSecretStdin,
    ...(f.activate ? { activate: true as const } : {}),
    scopes,
    name: name === undefined ? undefined : checkContextName(name),
    profileId: f.profileId,
    baseUrl,
    authUrl,
    wsUrl,
  };
}
