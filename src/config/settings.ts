// Every setting coinop takes from the environment, read once per run into one typed object (readSettings), which the
// CLI context carries and hands down: nothing below the context reads the environment for a setting. A bad value
// is a one-line usage error naming the variable. docs/contexts-and-configuration.md "Environment variables" lists
// each with its default.
import { usageError } from '../errors.js';
import { oneOfRule } from '../contract/suggest.js';
import { configDir, dataDir } from './paths.js';

export type Env = Record<string, string | undefined>;

/** The variables that replace a context's saved addresses. */
export const OVERRIDE_VARIABLES = ['COINOP_BASE_URL', 'COINOP_AUTH_URL', 'COINOP_WS_URL'] as const;
export type OverrideVariable = (typeof OVERRIDE_VARIABLES)[number];

export interface Settings {
  /** COINOP_CONTEXT (or its old name COINOP_PROFILE): the context to use when --context is not given. */
  context?: string;
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
  /** COINOP_OUTPUT or the configuration's output: the format when neither -o nor --json is given. */
  output?: 'table' | 'json' | 'ndjson' | 'csv';
  /** COINOP_BATCH_RATE or the configuration's batch-rate: withdraw batch --rate when the flag is not given. */
  batchRate: string;
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

/** withdraw batch --rate when neither the flag, COINOP_BATCH_RATE nor the configuration gives one. */
export const DEFAULT_BATCH_RATE = '18';

/** The longest timer Node keeps: a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The output formats (render/output.ts FORMATS, repeated here so reading the settings loads no renderer). */
const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;

/** A set variable's value; an empty one counts as unset. */
const given = (env: Env, name: string): string | undefined => env[name] || undefined;

/**
 * The one-line note for COINOP_PROFILE, the old name of COINOP_CONTEXT (still read: COINOP_CONTEXT wins when both are
 * given), as --profile says it is now --context; undefined when it is not given.
 */
export function oldVariableNote(env: Env): string | undefined {
  const old = given(env, 'COINOP_PROFILE');
  if (old === undefined) return undefined;
  const current = given(env, 'COINOP_CONTEXT');
  const ignored = current !== undefined && current !== old ? ` (COINOP_CONTEXT=${current} is used)` : '';
  return `note: COINOP_PROFILE is now COINOP_CONTEXT${ignored}`;
}

/** Where a setting's value came from: its default, the configuration file (coinop config set), or a variable. */
export type Source = 'default' | 'config' | 'env';

/**
 * A default a person may keep in the configuration (coinop config set KEY VALUE). Precedence: a flag, then the
 * environment variable, then the configuration file, then the built-in default. `check` returns the value in its
 * canonical spelling or throws a usage error `<name>: <rule> (got "<value>")`.
 */
export interface ConfigKey {
  key: string;
  /** The environment variables that set it, the first set one winning. */
  variables: readonly string[];
  /** The flag that wins over it, if any. */
  flag?: string;
  description: string;
  default: string;
  check(name: string, v: string): string;
}

const wholeRule = (max: number, unit: string) => (name: string, value: string) => {
  const n = /^\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!(n >= 1 && n <= max))
    throw usageError(`${name}: must be a whole number of ${unit} from 1 to ${max} (got "${value}")`);
  return String(n);
};
const millisRule = wholeRule(MAX_TIMER_MS, 'milliseconds');
const yesRule = (name: string, value: string) => {
  if (value === '0' || value === 'false') return 'false';
  if (value === '1' || value === 'true') return 'true';
  throw usageError(`${name}: must be 1 or true (0 or false: off) (got "${value}")`);
};

/** Where the configured output format applies: what `config list` and `config get output` say of it. */
export const OUTPUT_SCOPE = '(terminals only; piped output is JSON unless -o is given)';

/** The context key: the saved context used when neither --context nor COINOP_CONTEXT names one. */
export const CONTEXT_KEY = 'context';

export const CONFIG_KEYS: readonly ConfigKey[] = [
  {
    key: 'output',
    variables: ['COINOP_OUTPUT'],
    flag: '-o, --json',
    description: `output format: table, json, ndjson or csv ${OUTPUT_SCOPE}`,
    default: '',
    check(name, value) {
      const f = OUTPUT_FORMATS.find((x) => x === value.trim().toLowerCase());
      if (!f) throw usageError(`${name}: ${oneOfRule(value, OUTPUT_FORMATS)} (got "${value}")`);
      return f;
    },
  },
  {
    key: 'pager',
    variables: ['COINOP_PAGER', 'PAGER'],
    flag: '--no-pager',
    description: 'the pager of long tables on a terminal (cat: none)',
    default: DEFAULT_PAGER,
    check: (_name, v) => v.trim() || 'cat',
  },
  {
    key: CONTEXT_KEY,
    variables: ['COINOP_CONTEXT', 'COINOP_PROFILE'],
    flag: '--context',
    description: 'the saved context commands use (same as coinop context use)',
    default: 'local',
    check(name, value) {
      if (!value.trim()) throw usageError(`${name}: must name a saved context (got "")`);
      return value.trim();
    },
  },
  {
    key: 'batch-rate',
    variables: ['COINOP_BATCH_RATE'],
    flag: '--rate',
    description: 'withdraw batch: most withdrawals per second (0: no client-side limit)',
    default: DEFAULT_BATCH_RATE,
    check(name, value) {
      if (!/^\d+(\.\d+)?$/.test(value.trim()) || Number(value) > 10_000)
        throw usageError(
          `${name}: must be a number of withdrawals per second from 0 (no limit) to 10000 (got "${value}")`,
        );
      return value.trim();
    },
  },
  {
    key: 'no-input',
    variables: ['COINOP_NO_INPUT'],
    flag: '--no-input',
    description: 'never prompt (true or false)',
    default: 'false',
    check: yesRule,
  },
  ...(
    [
      ['timeout-ms', 'COINOP_TIMEOUT_MS', DEFAULTS.timeoutMs, 'one HTTP request, start to last byte'],
      ['retry-base-ms', 'COINOP_RETRY_BASE_MS', DEFAULTS.retryBaseMs, "the first retry's backoff (it doubles)"],
      ['poll-ms', 'COINOP_POLL_MS', DEFAULTS.pollMs, 'between two reads of a transfer being followed'],
      ['stream-stale-ms', 'COINOP_STREAM_STALE_MS', DEFAULTS.streamStaleMs, 'a silent stream is replaced after'],
      ['local-wait-ms', 'COINOP_LOCAL_WAIT_MS', DEFAULTS.localWaitMs, "the local service's health probe may take"],
    ] as const
  ).map(([key, variable, d, description]) => ({
    key,
    variables: [variable],
    description,
    default: String(d),
    check: millisRule,
  })),
  {
    key: 'stream-fps',
    variables: ['COINOP_STREAM_FPS'],
    description: 'frames per second of the live views',
    default: String(DEFAULTS.streamFps),
    check: wholeRule(1000, 'frames per second'),
  },
];

/** A configuration key by name, or a usage error listing them. */
export function configKey(key: string): ConfigKey {
  const k = CONFIG_KEYS.find((c) => c.key === key);
  if (!k) throw usageError(`config: unknown key "${key}" (keys: ${CONFIG_KEYS.map((c) => c.key).join(', ')})`);
  return k;
}

/** Where one key's value comes from now, and the value (canonical). */
export interface Resolved {
  value: string;
  source: Source;
  /** The variable that set it (source env). */
  variable?: string;
}

/**
 * A key's value after the environment and the saved defaults. The pager counts a variable set but empty (no pager,
 * as git has it); every other key takes an empty variable as unset.
 */
export function resolveKey(key: ConfigKey, env: Env, saved: Record<string, string>): Resolved {
  for (const variable of key.variables) {
    const v = key.key === 'pager' ? env[variable] : given(env, variable);
    if (v !== undefined) return { value: key.check(variable, v), source: 'env', variable };
  }
  if (Object.hasOwn(saved, key.key) && typeof saved[key.key] === 'string')
    return {
      value: key.check(`${key.key} (in the configuration file; coinop config unset ${key.key})`, saved[key.key]),
      source: 'config',
    };
  return { value: key.default, source: 'default' };
}

/**
 * Reads every coinop setting from the environment and the defaults saved in the configuration file (`saved`, by key;
 * the context key is the store's active context and is resolved with the context); throws a usage error naming the
 * first bad variable or key.
 */
export function readSettings(env: Env, saved: Record<string, string> = {}): Settings {
  const overrides: Settings['overrides'] = {};
  for (const v of OVERRIDE_VARIABLES) if (given(env, v)) overrides[v] = env[v];
  const sources: Record<string, Resolved> = {};
  for (const k of CONFIG_KEYS) if (k.key !== CONTEXT_KEY) sources[k.key] = resolveKey(k, env, saved);
  const num = (key: string) => Number(sources[key].value);
  const output = sources.output.value;
  return {
    context: given(env, 'COINOP_CONTEXT') ?? given(env, 'COINOP_PROFILE'),
    configDir: configDir(env),
    dataDir: dataDir(env),
    dataDirGiven: !!given(env, 'COINOP_DATA_DIR'),
    overrides,
    token: given(env, 'COINOP_TOKEN'),
    clientSecret: given(env, 'COINOP_CLIENT_SECRET'),
    noInput: sources['no-input'].value === 'true',
    localWaitMs: num('local-wait-ms'),
    timeoutMs: num('timeout-ms'),
    retryBaseMs: num('retry-base-ms'),
    pollMs: num('poll-ms'),
    streamFps: num('stream-fps'),
    streamStaleMs: num('stream-stale-ms'),
    pager: { command: sources.pager.value, chosen: sources.pager.source !== 'default' },
    output: output ? (output as Settings['output']) : undefined,
    batchRate: sources['batch-rate'].value,
  };
}
