// Every setting coinop takes from the environment, read once per run into one typed object (readSettings), which the
// CLI context carries and hands down: nothing below the context reads the environment for a setting. A bad value
// is a one-line usage error naming the variable. README "Environment variables" lists each with its default.
import { usageError } from '../errors.js';
import { configDir, dataDir } from './paths.js';

export type Env = Record<string, string | undefined>;

/** The variables that replace a profile's saved addresses. */
export const OVERRIDE_VARIABLES = ['COINOP_BASE_URL', 'COINOP_AUTH_URL', 'COINOP_WS_URL'] as const;
export type OverrideVariable = (typeof OVERRIDE_VARIABLES)[number];

export interface Settings {
  /** COINOP_PROFILE: the profile to use when --profile is not given. */
  profile?: string;
  /** COINOP_CONFIG_DIR, else $XDG_CONFIG_HOME/coinop, else ~/.config/coinop. */
  configDir: string;
  /** COINOP_DATA_DIR, else $XDG_DATA_HOME/coinop, else ~/.local/share/coinop. */
  dataDir: string;
  /** The data directory was named by COINOP_DATA_DIR. */
  dataDirGiven: boolean;
  /** COINOP_BASE_URL, COINOP_AUTH_URL, COINOP_WS_URL: the set ones, as written. */
  overrides: Partial<Record<OverrideVariable, string>>;
  /** COINOP_TOKEN: a bearer token used as is. */
  token?: string;
  /** COINOP_CLIENT_SECRET: the client secret when none is saved or piped. */
  clientSecret?: string;
  /** COINOP_NO_INPUT: never prompt. */
  noInput: boolean;
  /** COINOP_LOCAL_WAIT_MS: how long a listening local service may take to answer its health probe. */
  localWaitMs: number;
  /** COINOP_TIMEOUT_MS: one HTTP request, from start to its answer's last byte. */
  timeoutMs: number;
  /** COINOP_RETRY_BASE_MS: the first retry's backoff cap (it doubles each time), for HTTP and the stream. */
  retryBaseMs: number;
  /** COINOP_POLL_MS: between two reads of a transfer being followed. */
  pollMs: number;
  /** COINOP_STREAM_FPS: frames per second of the live stream views (at most 30 are drawn). */
  streamFps: number;
  /** COINOP_STREAM_STALE_MS: a stream connection silent this long is taken as dead and replaced. */
  streamStaleMs: number;
  /** The pager for long tables on a terminal (COINOP_PAGER, PAGER, less -FRX); `chosen`: named by a variable. */
  pager: { command: string; chosen: boolean };
}

export const DEFAULTS = {
  localWaitMs: 10_000,
  timeoutMs: 30_000,
  retryBaseMs: 250,
  pollMs: 1000,
  streamFps: 20,
  streamStaleMs: 5000,
} as const;

/** The pager when neither COINOP_PAGER nor PAGER names one (git's and gh's). */
export const DEFAULT_PAGER = 'less -FRX';

/** The longest timer Node keeps: a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A set variable's value; an empty one counts as unset. */
const given = (env: Env, name: string): string | undefined => env[name] || undefined;

function whole(env: Env, name: string, fallback: number, max: number, unit: string): number {
  const v = given(env, name);
  if (v === undefined) return fallback;
  const n = /^\d+$/.test(v.trim()) ? Number(v) : Number.NaN;
  if (!(n >= 1 && n <= max))
    throw usageError(`${name}: must be a whole number of ${unit} from 1 to ${max} (got "${v}")`);
  return n;
}

const millis = (env: Env, name: string, fallback: number) => whole(env, name, fallback, MAX_TIMER_MS, 'milliseconds');

function yes(env: Env, name: string): boolean {
  const v = given(env, name);
  if (v === undefined || v === '0' || v === 'false') return false;
  if (v === '1' || v === 'true') return true;
  throw usageError(`${name}: must be 1 or true (0 or false: off) (got "${v}")`);
}

/** Reads every coinop setting from the environment; throws a usage error naming the first bad variable. */
export function readSettings(env: Env): Settings {
  const overrides: Settings['overrides'] = {};
  for (const v of OVERRIDE_VARIABLES) if (given(env, v)) overrides[v] = env[v];
  return {
    profile: given(env, 'COINOP_PROFILE'),
    configDir: configDir(env),
    dataDir: dataDir(env),
    dataDirGiven: !!given(env, 'COINOP_DATA_DIR'),
    overrides,
    token: given(env, 'COINOP_TOKEN'),
    clientSecret: given(env, 'COINOP_CLIENT_SECRET'),
    noInput: yes(env, 'COINOP_NO_INPUT'),
    localWaitMs: millis(env, 'COINOP_LOCAL_WAIT_MS', DEFAULTS.localWaitMs),
    timeoutMs: millis(env, 'COINOP_TIMEOUT_MS', DEFAULTS.timeoutMs),
    retryBaseMs: millis(env, 'COINOP_RETRY_BASE_MS', DEFAULTS.retryBaseMs),
    pollMs: millis(env, 'COINOP_POLL_MS', DEFAULTS.pollMs),
    streamFps: whole(env, 'COINOP_STREAM_FPS', DEFAULTS.streamFps, 1000, 'frames per second'),
    streamStaleMs: millis(env, 'COINOP_STREAM_STALE_MS', DEFAULTS.streamStaleMs),
    pager: pagerOf(env),
  };
}

/** COINOP_PAGER, else PAGER (set but empty: no pager, as git has it), else less with -F -R -X. */
function pagerOf(env: Env): Settings['pager'] {
  for (const name of ['COINOP_PAGER', 'PAGER']) {
    const v = env[name];
    if (v !== undefined) return { command: v.trim() || 'cat', chosen: true };
  }
  return { command: DEFAULT_PAGER, chosen: false };
}
