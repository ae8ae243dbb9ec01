// Invocation: everything a run depends on, built once per run; commands take the ports made from it (src/cli/ports.ts).
//
// How a command is added (register, options, run, tests, regenerating completions and the man page):
// docs/architecture.md, "How to add a command".
//
// What an Invocation offers:
//   io           streams and terminal facts (isTTY, colour, width, canPrompt); write data with io.out, the rest io.err
//   settings     every COINOP_* setting, read once from the environment (src/config/settings.ts) by prepare();
//                commands and what they call take settings from here, never from the environment
//   env, now()   the environment as given (read for settings once, into `settings`) and the clock (never read
//                process.env / Date.now deep inside a command)
//   globals      --context (kept as globals.context; --profile, its old name, is read into it too), -o/--output, --json, --debug, --no-input, --no-color (parsed before any action runs)
//   prompter     inquirer prompts on stderr, only when allowed; need() in prompt.ts turns a missing value into a prompt or a usage error
//   store()      the context store (src/config/store.ts); context(): the resolved context with env overrides
//   connect()    { context, client, tokens, transport, serviceId }: the API client (src/client/service-client.ts) with tokens,
//                retries and the embedded local service already sorted out; context.wsUrl and tokens.token() serve
//                the stream; serviceId says which service (instance) answers
//   connectAs()  the same for a given context, uncached (login proves credentials not saved yet)
//   catalogue()  how the catalogue's rules count for the context's service (src/client/catalogue-policy.ts): refused
//                against the local service, a note on stderr against any other; the client of connect() uses it too
//   output(view) renderer for the chosen format (src/render/output.ts): one(obj, columns), list(items, columns);
//                `view` is the command's --columns / --wide. On a terminal a table longer than the screen goes
//                through the pager (src/cli/pager.ts) unless --no-pager; finishOutput() ends it (main() calls it)
//   argv         the command line as typed (after `coinop`), for the exact command of a list's next page
//   confirm()    the pre-send confirmation (src/cli/confirm.ts): summary, yes/no, production refusal without a terminal
//   audit        the audit trail (src/cli/audit.ts): every attempt that could move money, its outcome, refusals and
//                approvals, appended to the hash-chained log in the data directory; record() before sending
//   onCleanup()  run on exit (close servers, sockets)
//   ownSignals   set true by a command that handles SIGINT/SIGTERM itself (local start); otherwise Ctrl-C
//                cleans up and exits 3 (cancelled)
//   stop         given by a caller running coinop in its own process (runCli's `stop`): a server in the foreground
//                (local start, gateway start) stops when it aborts, as at Ctrl-C
//   interruptNote  the line printed on Ctrl-C/SIGTERM, as is (or a function read when the signal comes): what is
//                true for this command at this moment (a withdrawal once it may have left, a batch's journal and
//                --resume); unset: interruptedNote() says it from the requests sent ("stopped: nothing was changed"
//                for a command that sent none that changes anything, else those it sent)
//   onPolicyEvent() / policyEvent()  every policy decision and approval signed (src/policy/events.ts), handed to
//                the listeners (the audit trail) as it happens
import type { GlobalOptions } from './global-flags.js';
import type { ServiceClient } from '../client/service-client.js';
import { type CataloguePolicy, cataloguePolicy } from '../client/catalogue-policy.js';
import type { TokenManager } from '../client/tokens.js';
import type { Transport } from '../client/transport.js';
import type { ResolvedContext } from '../config/context.js';
import type { Settings } from '../config/settings.js';
import type { PolicyEvent } from '../policy/events.js';
import type { ConfigStore } from '../config/store.js';
import { Output, type Format, type TableView } from '../render/output.js';
import { palette } from '../render/style.js';
import { type AuditPort, auditPort } from './audit.js';
import { confirmAction, type ConfirmOptions } from './confirm.js';
import { CoinopError } from './errors.js';
import type { IO } from './io.js';
import { canRun, Pager } from './pager.js';
import { Prompter } from './prompt.js';
import { terminalSpinner } from './spinner.js';

export type { GlobalOptions };

export interface Connection {
  context: ResolvedContext;
  client: ServiceClient;
  tokens: TokenManager;
  transport: Transport;
  /** The local service was started inside this process for this command. */
  embedded: boolean;
  /**
   * Which service answers: `local:<instance_id>` for a local service, else `<environment>:<normalized base url>`.
   * Token caches, batch journals, the gate's reservations and the sent ref_ids are keyed by it. A local service's is
   * asked of it (GET /_local/health) by every command that keys anything of its own on it; the plain reads (READS)
   * take the one cached in the data directory, checked on every answer (each names its instance): an answer from
   * another instance changes this (and the cache) before anything, such as a token, is saved under the old one.
   */
  readonly serviceId: string;
}

/**
 * The commands that key nothing of their own on the service's identity (only their token, which follows the
 * connection's): a cached local identity is taken without asking the service first (service-identity.ts).
 */
const READS = new Set([
  'prices',
  'balances',
  'limits',
  'transfers list',
  'transfers get',
  'transfers watch',
  'addresses list',
]);

export interface ConnectOptions {
  /** Leave out the one-line "environment · address · context" note on a terminal. */
  quiet?: boolean;
  /** A live view owns the terminal: no spinner while the service is slow (src/cli/spinner.ts). */
  live?: boolean;
  /** Tokens are read from and saved to the store's cache (off while login proves credentials not saved yet). */
  tokenCache?: boolean;
  /** The context's catalogue policy, when checks before connecting used it already (one note per text). */
  catalogue?: CataloguePolicy;
  /** A local service's identity may be taken from the cache (checked on its answers) instead of asked first. */
  cachedIdentity?: boolean;
  /**
   * Ask a custom address whether it is a coinop gateway and which store it serves (GET /_gateway/health), so what
   * the command keys on the service (a batch's journal) follows the gateway's instances, not one address.
   */
  gatewayIdentity?: boolean;
}

export interface Invocation {
  io: IO;
  env: Record<string, string | undefined>;
  /** Read once by prepare(); reading it before is an internal error. */
  readonly settings: Settings;
  now(): number;
  version: string;
  /** The command line after `coinop`, as typed. */
  argv: string[];
  /** The command being run, as its names (`transfers list`); set before its action runs. */
  command?: string;
  /** The command takes --wide and --columns (a narrow table's note names them then). */
  tableFlags?: boolean;
  globals: GlobalOptions;
  prompter: Prompter;
  store(): ConfigStore;
  context(): ResolvedContext;
  connect(opts?: { quiet?: boolean; live?: boolean; gatewayIdentity?: boolean }): Promise<Connection>;
  connectAs(context: ResolvedContext, opts?: ConnectOptions): Promise<Connection>;
  catalogue(): CataloguePolicy;
  format(): Format;
  output(view?: TableView): Output;
  /** Ends the output: the pager's input closed and the pager quit, or what was held written. Safe to call twice. */
  finishOutput(): Promise<void>;
  confirm(o: ConfirmOptions): Promise<'confirmed' | 'expired'>;
  debug(line: string): void;
  /** The audit trail: one call records an attempt, an outcome, a refusal or an approval. */
  readonly audit: AuditPort;
  /** The MCP client acting through this run (coinop mcp sets it from the handshake): named in every audit entry. */
  agent?: string;
  onCleanup(fn: () => unknown): void;
  cleanup(): Promise<void>;
  ownSignals: boolean;
  /** A foreground server stops when this aborts, as at Ctrl-C (runCli's `stop`, for a caller running it in process). */
  stop?: AbortSignal;
  /**
   * Said on Ctrl-C or SIGTERM: the state this command leaves things in now. Unset, interruptedNote() says it from the
   * requests sent: "stopped: nothing was changed" when none could change anything.
   */
  interruptNote?: string | (() => string | undefined);
  /** Listens to every policy decision and approval signed in this run. */
  onPolicyEvent(listener: (e: PolicyEvent) => void): void;
  /** Hands a policy decision or a signed approval to the listeners. */
  policyEvent(e: PolicyEvent): void;
  /** The requests that may have changed something, sent by this command's clients (ServiceClient.changes). */
  changesSent(): string[];
  /**
   * Loads what every action needs (the settings, the store, contexts); called once by the preAction hook, so --help
   * skips it. A bad setting is a usage error from here.
   */
  prepare(): Promise<void>;
}

/** A list of listeners and the call that hands an event to each. */
function listeners<E>(): { on: (l: (e: E) => void) => void; emit: (e: E) => void } {
  const list: ((e: E) => void)[] = [];
  return {
    on: (l) => void list.push(l),
    emit: (error) => {
      for (const l of list) l(error);
    },
  };
}

export function createContext(
  io: IO,
  env: Record<string, string | undefined>,
  version: string,
  now: () => number = Date.now,
): Invocation {
  let store: ConfigStore | undefined;
  let settings: Settings | undefined;
  let config:
    | { contextModule: typeof import('../config/context.js'); store: typeof import('../config/store.js') }
    | undefined;
  const loaded = () => {
    if (!config) throw new Error('internal: the context was used before prepare()');
    return config;
  };
  let connection: Promise<Connection> | undefined;
  let policy: CataloguePolicy | undefined;
  let audit: AuditPort | undefined;
  const cleanups: (() => unknown)[] = [];
  const policyEvents = listeners<PolicyEvent>();
  const clients: ServiceClient[] = [];
  /** Decided at the first output of the run: undefined until then, null when nothing is paged. */
  let pager: Pager | null | undefined;

  const ctx: Invocation = {
    io,
    env,
    now,
    version,
    argv: [],
    globals: {},
    ownSignals: false,
    prompter: new Prompter(io),
    get settings() {
      if (!settings) throw new Error('internal: the settings were read before prepare()');
      return settings;
    },
    async prepare() {
      if (config) return;
      const [contextModule, storeMod, settingsModule] = await Promise.all([
        import('../config/context.js'),
        import('../config/store.js'),
        import('../config/settings.js'),
      ]);
      settings = runSettings(io, env, storeMod.ConfigStore, settingsModule);
      config = { contextModule, store: storeMod };
    },
    store: () => (store ??= new (loaded().store.ConfigStore)(ctx.settings.configDir)),
    context: () => activeContext(loaded().contextModule, ctx),
    connect(opts = {}) {
      return (connection ??= Promise.resolve().then(() =>
        connectAs(
          ctx,
          ctx.context(),
          {
            ...opts,
            tokenCache: true,
            catalogue: ctx.catalogue(),
            cachedIdentity: READS.has(ctx.command ?? ''),
          },
          clients,
        ),
      ));
    },
    connectAs: (context, opts = {}) => connectAs(ctx, context, opts, clients),
    changesSent: () => clients.flatMap((c) => [...c.changes]),
    catalogue() {
      policy ??= cataloguePolicy(ctx.context().environment, (t) => io.err(`${palette(io.colourErr).yellow(t)}\n`));
      return policy;
    },
    format() {
      if (ctx.globals.json) return 'json';
      if (ctx.globals.output) return ctx.globals.output;
      // A configured default (config, COINOP_OUTPUT) is for terminals: piped, JSON unless the command line says.
      if (!io.stdoutTTY) return 'json';
      return settings?.output ?? 'table';
    },
    output: (view = {}) => {
      if (pager === undefined) pager = startPager(ctx);
      return new Output(io, ctx.format(), now, { ...view, flags: !!ctx.tableFlags });
    },
    async finishOutput() {
      const p = pager;
      pager = null;
      await p?.finish();
    },
    confirm: (o) => confirmAction(io, ctx.prompter, o),
    debug: (line) => {
      if (ctx.globals.debug) io.err(`${palette(io.colourErr).dim(`[debug] ${line}`)}\n`);
    },
    get audit() {
      return (audit ??= contextAudit(ctx));
    },
    onCleanup: (fn) => void cleanups.push(fn),
    onPolicyEvent: policyEvents.on,
    policyEvent: policyEvents.emit,
    cleanup: () => runCleanups(cleanups.splice(0).reverse()),
  };
  return ctx;
}

/**
 * The defaults saved by coinop config set (the environment's win over them); a configuration that cannot be read adds
 * none here (the store refuses it, naming the file, when a command uses it).
 */
function savedDefaults(Store: typeof ConfigStore, dir: string): Record<string, string> {
  try {
    return new Store(dir).defaults();
  } catch {
    return {};
  }
}

/** The run's settings (the environment over the saved defaults), with a one-line note when COINOP_PROFILE is given. */
function runSettings(
  io: IO,
  env: Record<string, string | undefined>,
  Store: typeof ConfigStore,
  { readSettings, oldVariableNote }: typeof import('../config/settings.js'),
): Settings {
  const note = oldVariableNote(env);
  if (note) io.err(`${note}\n`);
  return readSettings(env, savedDefaults(Store, readSettings(env).configDir));
}

/** The context this run uses; a --context that names none, or an override refused, is a usage error. */
function activeContext(mod: typeof import('../config/context.js'), ctx: Invocation): ResolvedContext {
  const { resolveContext, UnknownContextError, ContextOverrideError } = mod;
  try {
    return resolveContext(ctx.store(), ctx.globals.context, ctx.settings);
  } catch (e) {
    if (e instanceof UnknownContextError)
      throw new CoinopError('usage', `--context: ${e.message}`, {
        hint: 'see coinop context list, or run coinop login',
      });
    if (e instanceof ContextOverrideError)
      throw new CoinopError('usage', e.message, { hint: 'use an https:// address, or unset the variable' });
    throw e;
  }
}

/** Runs each clean-up in turn, on the way out: one that fails does not stop the others. */
async function runCleanups(fns: (() => unknown)[]): Promise<void> {
  for (const fn of fns) {
    try {
      await fn();
    } catch {
      /* best effort on the way out */
    }
  }
}

/**
 * The pager of the run's output when its tables are to be paged (a table on a terminal, --no-pager not given, a pager
 * that can be run), installed; else null. A pager that was asked for by name and cannot be found is said once.
 */
function startPager(ctx: Invocation): Pager | null {
  const { io, env } = ctx;
  const { command, chosen } = ctx.settings.pager;
  if (ctx.format() !== 'table' || !io.stdoutTTY || ctx.globals.pager === false || command === 'cat') return null;
  if (!canRun(command, env.PATH)) {
    if (chosen) io.err(`${palette(io.colourErr).yellow(`the pager "${command}" was not found: writing directly`)}\n`);
    return null;
  }
  const pager = new Pager(io, command, env);
  pager.install();
  // Ctrl-C waits for the pager too: the terminal is the pager's until it quits.
  ctx.onCleanup(() => ctx.finishOutput());
  return pager;
}

/** The audit port over the context: the data directory, the clock, the context, warnings on stderr, cleanups. */
function contextAudit(ctx: Invocation): AuditPort {
  return auditPort({
    dataDir: () => ctx.settings.dataDir,
    env: ctx.env,
    now: ctx.now,
    context() {
      try {
        return ctx.context();
      } catch {
        return undefined;
      }
    },
    warn: (line) => ctx.io.err(`${palette(ctx.io.colourErr).yellow(line)}\n`),
    onCleanup: (fn) => ctx.onCleanup(fn),
    agent: () => ctx.agent,
  });
}

/**
 * The HTTP stack for a context, built here only: the service it reaches (the embedded local service started when
 * nothing listens), the transport with the user agent, timeout and retry settings, the token manager and the client.
 */
async function connectAs(
  ctx: Invocation,
  resolved: ResolvedContext,
  options: ConnectOptions,
  clients: ServiceClient[],
): Promise<Connection> {
  const [{ Transport }, { TokenManager }, { ServiceClient }, identity, { overrideNote }, { startEmbedded }] =
    await Promise.all([
      import('../client/transport.js'),
      import('../client/tokens.js'),
      import('../client/service-client.js'),
      import('../client/service-identity.js'),
      import('../config/context.js'),
      import('../embedded/start.js'),
    ]);
  const p = palette(ctx.io.colourErr);
  const { settings } = ctx;
  const note = overrideNote(resolved);
  if (note) ctx.io.err(`${p.yellow(note)}\n`);
  const reached = await identity.reachService(resolved, settings, {
    verified: !options.cachedIdentity,
    gatewayIdentity: !!options.gatewayIdentity,
    startEmbedded,
  });
  const { context, embedded, check } = reached;
  const serviceId = () => (check ? check.serviceId : reached.serviceId);
  if (embedded) {
    ctx.onCleanup(() => embedded.close());
    ctx.debug(
      `nothing listened at the local context's address; started the local service at ${embedded.baseUrl} over ${embedded.dbFile}`,
    );
  }
  ctx.debug(`service ${serviceId()}${check && !check.verified ? ' (as cached; checked on its answers)' : ''}`);
  if (!options.quiet && ctx.io.stderrTTY) {
    const where = embedded
      ? `local service in this process (${settings.dataDirGiven ? 'COINOP_DATA_DIR' : 'default database'})`
      : context.baseUrl;
    ctx.io.err(`${p.dim(`${context.environment} · ${where} · context ${context.name}`)}\n`);
  }
  // A person sees why a command pauses (a spinner while the service is slow or retried, a line when it rate limits);
  // a script sees nothing (--debug logs every retry).
  const spinner = options.live ? undefined : terminalSpinner(ctx.io, ctx.env, Date.now);
  const line = (text: string) => (spinner ? spinner.note(text) : ctx.io.err(`${text}\n`));
  const transport = new Transport({
    debug: ctx.globals.debug ? (l) => line(p.dim(`[debug] ${l}`)) : undefined,
    activity: spinner,
    onRateLimited: spinner
      ? (ms) => line(p.dim(`rate limited, retrying in ${Math.max(1, Math.round(ms / 1000))} s`))
      : undefined,
    userAgent: `coinop/${ctx.version}`,
    baseDelayMs: settings.retryBaseMs,
    timeoutMs: settings.timeoutMs,
    instance: check,
  });
  ctx.onCleanup(() => transport.close());
  const store = options.tokenCache ? ctx.store() : undefined;
  const guard = identity.secretGuard(reached, settings);
  const tokens = new TokenManager(context, store, transport, ctx.now, serviceId, guard);
  const catalogue = options.catalogue ?? cataloguePolicy(resolved.environment, (t) => ctx.io.err(`${p.yellow(t)}\n`));
  const client = new ServiceClient(context.baseUrl, transport, tokens, catalogue);
  clients.push(client);
  return {
    context,
    client,
    tokens,
    transport,
    embedded: !!embedded,
    get serviceId() {
      return serviceId();
    },
  };
}

/**
 * What Ctrl-C (or SIGTERM) says: the command's own note when it set one, else what the requests sent make true: nothing
 * was changed when none could change anything (a read, a stream, a watch), else which were sent and may have acted.
 */
export function interruptedNote(ctx: Invocation): string {
  const own = typeof ctx.interruptNote === 'function' ? ctx.interruptNote() : ctx.interruptNote;
  if (own) return own;
  const changes = [...new Set(ctx.changesSent())];
  if (!changes.length) return 'stopped: nothing was changed';
  return `interrupted: ${changes.join(', ')} was sent and may have been carried out; check before running the command again`;
}
