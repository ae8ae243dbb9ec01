// CliContext: everything a command depends on, built once per run and handed to every command.
//
// How a command group registers itself: src/commands/<group>/index.ts exports
//   register(program: Command, ctx: CliContext): void
// which declares the commands, flags and help examples cheaply (no heavy imports) and, in each action, does
//   const { run } = await import('./run.js'); await run(ctx, opts);
// so a command loads only its own code. src/cli/program.ts calls register for each group (one line each).
// Throw CliError (src/cli/errors.js) for failures; main() maps it to a one-line message and an exit code.
//
// What CliContext offers:
//   io           streams and terminal facts (isTTY, colour, width, canPrompt); write data with io.out, the rest io.err
//   env, now()   the environment and the clock (never read process.env / Date.now deep inside a command)
//   globals      --profile, -o/--output, --json, --debug, --no-input, --no-color (parsed before any action runs)
//   prompter     inquirer prompts on stderr, only when allowed; need() in prompt.ts turns a missing value into a prompt or a usage error
//   store()      the profile store (src/config/store.ts); profile(): the resolved profile with env overrides
//   connect()    { profile, client, tokens, transport }: the API client (src/client/api.ts) with tokens, retries and
//                the embedded local service already sorted out; profile.wsUrl and tokens.token() serve the stream
//   output()     renderer for the chosen format (src/render/output.ts): one(obj, columns), list(items, columns)
//   confirm()    the pre-send confirmation (src/cli/confirm.ts): summary, yes/no, production refusal without a terminal
//   onCleanup()  run on exit (close servers, sockets)
//   ownSignals   set true by a command that handles SIGINT/SIGTERM itself (local start, stream); otherwise Ctrl-C
//                cleans up and exits 3 (cancelled)
import type { ApiClient } from '../client/api.js';
import type { TokenManager } from '../client/tokens.js';
import type { Transport } from '../client/transport.js';
import type { ResolvedProfile } from '../config/profile.js';
import type { ConfigStore } from '../config/store.js';
import { Output, type Format } from '../render/output.js';
import { palette } from '../render/style.js';
import { confirmAction, type ConfirmOptions } from './confirm.js';
import { CliError } from './errors.js';
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
}

export interface CliContext {
  io: IO;
  env: Record<string, string | undefined>;
  now(): number;
  version: string;
  globals: GlobalOptions;
  prompter: Prompter;
  store(): ConfigStore;
  profile(): ResolvedProfile;
  connect(opts?: { quiet?: boolean }): Promise<Connection>;
  format(): Format;
  output(): Output;
  confirm(o: ConfirmOptions): Promise<void>;
  debug(line: string): void;
  onCleanup(fn: () => unknown): void;
  cleanup(): Promise<void>;
  ownSignals: boolean;
  /** Loads what every action needs (the store, profiles); called once by the preAction hook, so --help skips it. */
  prepare(): Promise<void>;
}

export function createContext(io: IO, env: Record<string, string | undefined>, version: string, now: () => number = Date.now): CliContext {
  let store: ConfigStore | undefined;
  let config: { profile: typeof import('../config/profile.js'); store: typeof import('../config/store.js') } | undefined;
  const loaded = () => {
    if (!config) throw new Error('internal: the context was used before prepare()');
    return config;
  };
  let connection: Promise<Connection> | undefined;
  const cleanups: (() => unknown)[] = [];

  const ctx: CliContext = {
    io,
    env,
    now,
    version,
    globals: {},
    ownSignals: false,
    prompter: new Prompter(io),
    async prepare() {
      if (config) return;
      const [profile, storeMod] = await Promise.all([import('../config/profile.js'), import('../config/store.js')]);
      config = { profile, store: storeMod };
    },
    store: () => (store ??= new (loaded().store.ConfigStore)(env)),
    profile() {
      const { resolveProfile, UnknownProfileError } = loaded().profile;
      try {
        return resolveProfile(ctx.store(), ctx.globals.profile, env);
      } catch (e) {
        if (e instanceof UnknownProfileError) throw new CliError('usage', `--profile: ${e.message}`, { hint: 'see coinop profile list, or run coinop login' });
        throw e;
      }
    },
    connect(opts = {}) {
      return (connection ??= connect(ctx, opts.quiet ?? false));
    },
    format() {
      if (ctx.globals.json) return 'json';
      if (ctx.globals.output) return ctx.globals.output;
      return io.stdoutTTY ? 'table' : 'json';
    },
    output: () => new Output(io, ctx.format(), now),
    confirm: (o) => confirmAction(io, ctx.prompter, o),
    debug: (line) => {
      if (ctx.globals.debug) io.err(palette(io.colourErr).dim(`[debug] ${line}`) + '\n');
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

async function connect(ctx: CliContext, quiet: boolean): Promise<Connection> {
  const [{ Transport }, { TokenManager }, { ApiClient }, embedded] = await Promise.all([
    import('../client/transport.js'),
    import('../client/tokens.js'),
    import('../client/api.js'),
    import('../client/embedded.js'),
  ]);
  let profile = ctx.profile();
  const cacheUrl = profile.authUrl;
  const p = palette(ctx.io.colourErr);
  let started = false;
  if (embedded.embeddable(profile) && !(await embedded.probeHealth(profile.baseUrl))) {
    const svc = await embedded.startEmbedded(ctx.env);
    ctx.onCleanup(() => svc.close());
    profile = { ...profile, baseUrl: svc.baseUrl, authUrl: svc.authUrl, wsUrl: svc.wsUrl };
    started = true;
    ctx.debug(`nothing answered at the local profile's address; started the local service at ${svc.baseUrl} over ${svc.dbFile}`);
  }
  if (!quiet && ctx.io.stderrTTY) {
    const where = started ? `local service in this process (${ctx.env.COINOP_DATA_DIR ? 'COINOP_DATA_DIR' : 'default database'})` : profile.baseUrl;
    ctx.io.err(p.dim(`${profile.environment} · ${where} · profile ${profile.name}`) + '\n');
  }
  const transport = new Transport({
    debug: ctx.globals.debug ? (l) => ctx.io.err(p.dim(`[debug] ${l}`) + '\n') : undefined,
    userAgent: `coinop/${ctx.version}`,
    baseDelayMs: Number(ctx.env.COINOP_RETRY_BASE_MS) || undefined,
    timeoutMs: Number(ctx.env.COINOP_TIMEOUT_MS) || undefined,
  });
  ctx.onCleanup(() => transport.close());
  const tokens = new TokenManager(profile, ctx.store(), transport, ctx.now, cacheUrl);
  const client = new ApiClient(profile.baseUrl, transport, tokens);
  return { profile, client, tokens, transport, embedded: started };
}
