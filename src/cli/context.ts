// CliContext: everything a command depends on, built once per run and handed to every command.
//
// How a command group registers itself: src/commands/<group>/index.ts exports
//   register(program: Command, ctx: CliContext): void
// which declares the commands, flags and help examples cheaply (no heavy imports) and, in each action, does
//   const { run } = await import('./run.js'); await run(ctx, ...args, opts);
// so a command loads only its own code. The run's first step turns commander's untyped flags (RawFlags) into a
// typed, checked options object with the command's parse function (parse<Command>Options in its options.ts), where
// every usage check on the flags is made; the rest of the command reads only that object. src/cli/program.ts calls register for each group (one line each).
// Throw CoinopError (src/cli/errors.js) for failures; main() maps it to a one-line message and an exit code.
//
// What CliContext offers:
//   io           streams and terminal facts (isTTY, colour, width, canPrompt); write data with io.out, the rest io.err
//   settings     every COINOP_* setting, read once from the environment (src/config/settings.ts) by prepare();
//                commands and what they call take settings from here, never from the environment
//   env, now()   the environment as given (read for settings once, into `settings`) and the clock (never read
//                process.env / Date.now deep inside a command)
//   globals      --profile, -o/--output, --json, --debug, --no-input, --no-color (parsed before any action runs)
//   prompter     inquirer prompts on stderr, only when allowed; need() in prompt.ts turns a missing value into a prompt or a usage error
//   store()      the profile store (src/config/store.ts); profile(): the resolved profile with env overrides
//   connect()    { profile, client, tokens, transport, serviceId }: the API client (src/client/api.ts) with tokens,
//                retries and the embedded local service already sorted out; profile.wsUrl and tokens.token() serve
//                the stream; serviceId says which service (instance) answers
//   connectAs()  the same for a given profile, uncached (login proves credentials not saved yet)
//   catalogue()  how the catalogue's rules count for the profile's service (src/client/catalogue-policy.ts): refused
//                against the local service, a note on stderr against any other; the client of connect() uses it too
//   output()     renderer for the chosen format (src/render/output.ts): one(obj, columns), list(items, columns)
//   confirm()    the pre-send confirmation (src/cli/confirm.ts): summary, yes/no, production refusal without a terminal
//   audit        the audit trail (src/cli/audit.ts): every attempt that could move money, its outcome, refusals and
//                approvals, appended to the hash-chained log in the data directory; record() before sending
//   onCleanup()  run on exit (close servers, sockets)
//   ownSignals   set true by a command that handles SIGINT/SIGTERM itself (local start); otherwise Ctrl-C
//                cleans up and exits 3 (cancelled)
//   interruptNote  the line printed on Ctrl-C/SIGTERM, as is (or a function read when the signal comes): what is
//                true for this command at this moment (a withdrawal once it may have left, a batch's journal and
//                --resume); unset: "interrupted"
import type { ApiClient } from '../client/api.js';
import { type CataloguePolicy, cataloguePolicy } from '../client/catalogue-policy.js';
import type { TokenManager } from '../client/tokens.js';
import type { Transport } from '../client/transport.js';
import type { ResolvedProfile } from '../config/profile.js';
import type { Settings } from '../config/settings.js';
import type { ConfigStore } from '../config/store.js';
import { Output, type Format } from '../render/output.js';
import { palette } from '../render/style.js';
import { type AuditPort, auditPort } from './audit.js';
import { confirmAction, type ConfirmOptions } from './confirm.js';
import { CoinopError } from './errors.js';
import type { IO } from './io.js';
import { Prompter } from './prompt.js';

export interface GlobalOptions {
  profile?: string;
  output?: Format;
  json?: boolean;
  debug?: boolean;
  /** commander's --no-input: false when given. */
  input?: boolean;
  color?: boolean;
}

export interface Connection {
  profile: ResolvedProfile;
  client: ApiClient;
  tokens: TokenManager;
  transport: Transport;
  /** The local service was started inside this process for this command. */
  embedded: boolean;
  /**
   * Which service answers: `local:<instance_id>` for a local service (from its health answer, probed once per run),
   * else `<environment>:<normalized base url>`. Token caches and batch journals are keyed by it.
   */
  serviceId: string;
}

export interface ConnectOptions {
  /** Leave out the one-line "environment · address · profile" note on a terminal. */
  quiet?: boolean;
  /** Tokens are read from and saved to the store's cache (off while login proves credentials not saved yet). */
  tokenCache?: boolean;
  /** The profile's catalogue policy, when checks before connecting used it already (one note per text). */
  catalogue?: CataloguePolicy;
}

export interface CliContext {
  io: IO;
  env: Record<string, string | undefined>;
  /** Read once by prepare(); reading it before is an internal error. */
  readonly settings: Settings;
  now(): number;
  version: string;
  globals: GlobalOptions;
  prompter: Prompter;
  store(): ConfigStore;
  profile(): ResolvedProfile;
  connect(opts?: { quiet?: boolean }): Promise<Connection>;
  connectAs(profile: ResolvedProfile, opts?: ConnectOptions): Promise<Connection>;
  catalogue(): CataloguePolicy;
  format(): Format;
  output(): Output;
  confirm(o: ConfirmOptions): Promise<'confirmed' | 'expired'>;
  debug(line: string): void;
  /** The audit trail: one call records an attempt, an outcome, a refusal or an approval. */
  readonly audit: AuditPort;
  onCleanup(fn: () => unknown): void;
  cleanup(): Promise<void>;
  ownSignals: boolean;
  /** Said on Ctrl-C or SIGTERM instead of a bare "interrupted": the state this command leaves things in now. */
  interruptNote?: string | (() => string | undefined);
  /**
   * Loads what every action needs (the settings, the store, profiles); called once by the preAction hook, so --help
   * skips it. A bad setting is a usage error from here.
   */
  prepare(): Promise<void>;
}

export function createContext(
  io: IO,
  env: Record<string, string | undefined>,
  version: string,
  now: () => number = Date.now,
): CliContext {
  let store: ConfigStore | undefined;
  let settings: Settings | undefined;
  let config:
    | { profile: typeof import('../config/profile.js'); store: typeof import('../config/store.js') }
    | undefined;
  const loaded = () => {
    if (!config) throw new Error('internal: the context was used before prepare()');
    return config;
  };
  let connection: Promise<Connection> | undefined;
  let policy: CataloguePolicy | undefined;
  let audit: AuditPort | undefined;
  const cleanups: (() => unknown)[] = [];

  const ctx: CliContext = {
    io,
    env,
    now,
    version,
    globals: {},
    ownSignals: false,
    prompter: new Prompter(io),
    get settings() {
      if (!settings) throw new Error('internal: the settings were read before prepare()');
      return settings;
    },
    async prepare() {
      if (config) return;
      const [profile, storeMod, { readSettings }] = await Promise.all([
        import('../config/profile.js'),
        import('../config/store.js'),
        import('../config/settings.js'),
      ]);
      settings = readSettings(env);
      config = { profile, store: storeMod };
    },
    store: () => (store ??= new (loaded().store.ConfigStore)(ctx.settings.configDir)),
    profile() {
      const { resolveProfile, UnknownProfileError, ProfileOverrideError } = loaded().profile;
      try {
        return resolveProfile(ctx.store(), ctx.globals.profile, ctx.settings);
      } catch (e) {
        if (e instanceof UnknownProfileError)
          throw new CoinopError('usage', `--profile: ${e.message}`, {
            hint: 'see coinop profile list, or run coinop login',
          });
        if (e instanceof ProfileOverrideError)
          throw new CoinopError('usage', e.message, { hint: 'use an https:// address, or unset the variable' });
        throw e;
      }
    },
    connect(opts = {}) {
      return (connection ??= Promise.resolve().then(() =>
        connectAs(ctx, ctx.profile(), { quiet: opts.quiet, tokenCache: true, catalogue: ctx.catalogue() }),
      ));
    },
    connectAs: (profile, opts = {}) => connectAs(ctx, profile, opts),
    catalogue() {
      policy ??= cataloguePolicy(ctx.profile().environment, (t) => io.err(`${palette(io.colourErr).yellow(t)}\n`));
      return policy;
    },
    format() {
      if (ctx.globals.json) return 'json';
      if (ctx.globals.output) return ctx.globals.output;
      return io.stdoutTTY ? 'table' : 'json';
    },
    output: () => new Output(io, ctx.format(), now),
    confirm: (o) => confirmAction(io, ctx.prompter, o),
    debug: (line) => {
      if (ctx.globals.debug) io.err(`${palette(io.colourErr).dim(`[debug] ${line}`)}\n`);
    },
    get audit() {
      return (audit ??= contextAudit(ctx));
    },
    onCleanup: (fn) => void cleanups.push(fn),
    async cleanup() {
      for (const fn of cleanups.splice(0).reverse()) {
        try {
          await fn();
        } catch {
          /* best effort on the way out */
        }
      }
    },
  };
  return ctx;
}

/** The audit port over the context: the data directory, the clock, the profile, warnings on stderr, cleanups. */
function contextAudit(ctx: CliContext): AuditPort {
  return auditPort({
    dataDir: () => ctx.settings.dataDir,
    env: ctx.env,
    now: ctx.now,
    profile() {
      try {
        return ctx.profile();
      } catch {
        return undefined;
      }
    },
    warn: (line) => ctx.io.err(`${palette(ctx.io.colourErr).yellow(line)}\n`),
    onCleanup: (fn) => ctx.onCleanup(fn),
  });
}

/**
 * The HTTP stack for a profile, built here only: the service it reaches (the embedded local service started when
 * nothing listens), the transport with the user agent, timeout and retry settings, the token manager and the client.
 */
async function connectAs(ctx: CliContext, resolved: ResolvedProfile, o: ConnectOptions): Promise<Connection> {
  const [{ Transport }, { TokenManager }, { ApiClient }, identity, { overrideNote }] = await Promise.all([
    import('../client/transport.js'),
    import('../client/tokens.js'),
    import('../client/api.js'),
    import('../client/service-identity.js'),
    import('../config/profile.js'),
  ]);
  const p = palette(ctx.io.colourErr);
  const { settings } = ctx;
  const note = overrideNote(resolved);
  if (note) ctx.io.err(`${p.yellow(note)}\n`);
  const { profile, serviceId, embedded } = await identity.reachService(resolved, settings);
  if (embedded) {
    ctx.onCleanup(() => embedded.close());
    ctx.debug(
      `nothing listened at the local profile's address; started the local service at ${embedded.baseUrl} over ${embedded.dbFile}`,
    );
  }
  ctx.debug(`service ${serviceId}`);
  if (!o.quiet && ctx.io.stderrTTY) {
    const where = embedded
      ? `local service in this process (${settings.dataDirGiven ? 'COINOP_DATA_DIR' : 'default database'})`
      : profile.baseUrl;
    ctx.io.err(`${p.dim(`${profile.environment} · ${where} · profile ${profile.name}`)}\n`);
  }
  const transport = new Transport({
    debug: ctx.globals.debug ? (l) => ctx.io.err(`${p.dim(`[debug] ${l}`)}\n`) : undefined,
    // A person sees why a command pauses; a script sees nothing (--debug logs every retry).
    onRateLimited: ctx.io.stderrTTY
      ? (ms) => ctx.io.err(`${p.dim(`rate limited, retrying in ${Math.max(1, Math.round(ms / 1000))} s`)}\n`)
      : undefined,
    userAgent: `coinop/${ctx.version}`,
    baseDelayMs: settings.retryBaseMs,
    timeoutMs: settings.timeoutMs,
  });
  ctx.onCleanup(() => transport.close());
  const store = o.tokenCache ? ctx.store() : undefined;
  const tokens = new TokenManager(profile, store, transport, ctx.now, serviceId);
  const catalogue = o.catalogue ?? cataloguePolicy(resolved.environment, (t) => ctx.io.err(`${p.yellow(t)}\n`));
  const client = new ApiClient(profile.baseUrl, transport, tokens, catalogue);
  return { profile, client, tokens, transport, embedded: !!embedded, serviceId };
}
