// The narrow ports a command's run takes instead of the whole Invocation: each is what one concern of the run needs,
// and each is taken from an Invocation by one function here (the command's index.ts builds the run's deps with them).
// A test hands the run fakes of the few it uses (test/commands/ports.ts): a Display that keeps what was written, a
// Connector over an in-process local service, a clock that says a fixed time, a confirmer that answers.
//
//   Display     what the operator sees: data on stdout in the chosen format (output(view)), notes on stderr (io.err),
//               the terminal's facts and streams, the command line as typed (a list's next page is it with another
//               --cursor), and under --debug the writer of a debug line
//   Connector   the service: the saved context in use, how the catalogue's rules count for it, the connection (or one
//               to another context: connectAs), the data directory where what the service said is kept, and the
//               timings of asking it again and of its stream
//   Prompter    questions on a terminal (src/cli/prompt.ts), already a port of its own
//   Confirmer   the pre-send confirmation (src/cli/confirm.ts)
//   AuditPort   the audit trail (src/cli/audit.ts)
//   Clock       the time now
//   Interrupt   what Ctrl-C says while this command runs (Invocation.interruptNote), what runs on the way out
//   PolicyPort  where the context's policy file is, and the listeners of its decisions (the audit trail)
//   ContextStore  the saved configuration: the context store (contexts, secrets, the active one, the saved
//               defaults), its directory, the context in use, and the environment whose variables win over the file
//   Screen      a live view that takes the whole terminal (src/render/live/screen.ts), at the settings' frame rate
//   Foreground  a server in the foreground: Ctrl-C and SIGTERM made the command's own, and the promise of the first
//   AgentPort   the MCP client acting through this run, named in every audit entry from then on
//   version     coinop's version (a value, not a port): user agents, the MCP handshake, the man page
//
// Every command's run takes ports: balances, profiles, prices, markets (markets, ticker, book, trades), limits,
// transfers list, get and watch, events list, get, watch and listen, addresses list and create, destinations list and
// put, fee quote, deposit-instructions, transfer internal, sandbox deposit, withdraw and withdraw batch (with what it
// reads of how coinop was started: BatchStart), api, approve, approvals, audit, policy, config, context, doctor,
// login, logout and auth status, stream (Screen), local start (Foreground) and local deposit, gateway (start:
// Foreground), mcp (AgentPort, and the batch port the root command gives it: src/commands/mcp-batch.ts, which runs
// withdraw batch in an Invocation of its own), and completion, __complete and __man; and the helpers of src/cli they
// share (market-check, ask, list-flags' footer, gate, policy-enforce, submit, follow, batch-input; approval-content
// takes the resolved context). Only the declarations (each index.ts) and the root command take the Invocation.

import type { CataloguePolicy } from '../client/catalogue-policy.js';
import type { ContextSettings, ResolvedContext } from '../config/context.js';
import type { Env } from '../config/settings.js';
import type { ConfigStore } from '../config/store.js';
import type { BatchPort } from '../mcp/ports.js';
import type { PolicyEvent } from '../policy/events.js';
import type { LiveScreenOptions } from '../render/live/screen.js';
import type { Format, Output, TableView } from '../render/output.js';
import { stopSignal } from '../stop-signal.js';
import type { AuditPort } from './audit.js';
import type { ConfirmOptions } from './confirm.js';
import type { ConnectOptions, Connection, Invocation } from './invocation.js';
import type { IO } from './io.js';
import type { Prompter } from './prompt.js';

export interface Display {
  /** The renderer of the chosen format; `view` is the command's --columns / --wide. */
  output(view?: TableView): Output;
  /** The chosen format: table for people, json, ndjson or csv for programs. */
  format(): Format;
  /** Whether -o or --json chose the format (a stream of records is then as asked; else a live list on a terminal). */
  formatGiven(): boolean;
  /** The streams and terminal facts: io.err for a note, io.out for data written by hand. */
  readonly io: IO;
  /** The command line after `coinop`, as typed. */
  readonly argv: readonly string[];
  /** Under --debug, what writes a debug line on stderr; undefined without it (so nothing is made for it). */
  debug(): ((line: string) => void) | undefined;
}

export interface Connector {
  /** The saved context this run uses (its profileId is the default service profile). */
  context(): ResolvedContext;
  /** How the catalogue's rules count for the context's service (refused against the local service, else a note). */
  catalogue(): CataloguePolicy;
  /** The connection to the service (made once, then the same). */
  connect(opts?: { quiet?: boolean; live?: boolean; gatewayIdentity?: boolean }): Promise<Connection>;
  /** A connection of its own to another context's service (doctor tries each saved context). */
  connectAs(context: ResolvedContext, opts?: ConnectOptions): Promise<Connection>;
  /** The data directory: what a service said and is kept (its market list, the gate's reservations) is there. */
  dataDir(): string;
  /** How long to wait between two asks of a transfer's status while it is followed (COINOP_POLL_MS). */
  pollMs(): number;
  /** The first wait before asking again after the service could not be reached (COINOP_RETRY_BASE_MS). */
  retryBaseMs(): number;
  /** How long the market stream may stay silent before its connection is replaced (COINOP_STREAM_STALE_MS). */
  streamStaleMs(): number;
}

export interface Confirmer {
  confirm(o: ConfirmOptions): Promise<'confirmed' | 'expired'>;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export interface Interrupt {
  /** What Ctrl-C or SIGTERM says from now on: the state the command leaves things in (a function read then). */
  say(note: string | (() => string | undefined)): void;
  /** Run on the way out, Ctrl-C included (an attempt still open is noted as unknown). */
  onExit(fn: () => unknown): void;
}

export interface PolicyPort {
  /** The configuration directory: where the context's policy file is looked for, and this machine's approver key. */
  configDir(): string;
  /** Hands a policy decision or a signed approval to the listeners (the audit trail). */
  event(e: PolicyEvent): void;
}

/** A live view that takes the whole terminal (coinop stream), drawn from `render` a few times a second. */
export interface ScreenView {
  /** The frame's lines for a terminal of this size. */
  render(width: number, height: number): string[];
  /** q (quit) or Ctrl-C (the raw terminal's interrupt) was pressed. */
  onQuit(key: 'q' | 'ctrl-c'): void;
  /** Drawing failed: the view is given up. */
  onError(error: unknown): void;
}

export interface LiveView {
  start(): void;
  /** Draws now, not at the next frame. */
  draw(): void;
  /** Gives the terminal back (safe to call twice). */
  stop(): void;
}

export interface Screen {
  /** The view on the terminal, at COINOP_STREAM_FPS frames a second (not started yet). */
  open(view: ScreenView): Promise<LiveView>;
}

/** A server run in the foreground (local start, gateway start): Ctrl-C and SIGTERM stop it cleanly, exit 0. */
export interface Foreground {
  /** From this call on, Ctrl-C and SIGTERM are the command's own: coinop neither says nor does anything of its own. */
  own(): void;
  /** Resolves at the first Ctrl-C or SIGTERM from this call on (or when runCli's `stop` aborts, in process). */
  stopped(): Promise<void>;
}

/** Who acts through this run besides the person at this machine: the MCP client coinop mcp serves. */
export interface AgentPort {
  /** From now on every audit entry names this agent (the client's "name version" from its handshake). */
  actingFor(agent: string): void;
}

/**
 * What the root command (src/commands, its files at the top) hands a group that needs another group's work, so no
 * command folder imports another's: coinop mcp's batch tool sends through `coinop withdraw batch`
 * (src/commands/mcp-batch.ts), loaded when the server starts.
 */
export interface RootPorts {
  mcpBatch(): Promise<(parent: Invocation, connection: () => Promise<Connection> | undefined) => BatchPort>;
}

export interface ContextStore {
  /** The configuration file's store (src/config/store.ts): saved contexts, their secrets, the active one, defaults. */
  store(): ConfigStore;
  /** The configuration directory: the file, and each context's policy file. */
  configDir(): string;
  /** --context as given, if it was. */
  flag(): string | undefined;
  /**
   * What the environment says of contexts: COINOP_CONTEXT (or its old name), which wins over the file's active context,
   * and the variables that override a context's addresses, secret or token.
   */
  settings(): ContextSettings;
  /** The environment as given: a key's variable wins over the file. */
  readonly env: Env;
}

export const display = (ctx: Invocation): Display => ({
  output: (view) => ctx.output(view),
  format: () => ctx.format(),
  formatGiven: () => !!(ctx.globals.json || ctx.globals.output),
  io: ctx.io,
  get argv() {
    return ctx.argv;
  },
  debug: () => (ctx.globals.debug ? (line) => ctx.debug(line) : undefined),
});

export const connector = (ctx: Invocation): Connector => ({
  context: () => ctx.context(),
  catalogue: () => ctx.catalogue(),
  connect: (opts) => ctx.connect(opts),
  connectAs: (context, opts) => ctx.connectAs(context, opts),
  dataDir: () => ctx.settings.dataDir,
  pollMs: () => ctx.settings.pollMs,
  retryBaseMs: () => ctx.settings.retryBaseMs,
  streamStaleMs: () => ctx.settings.streamStaleMs,
});

export const confirmer = (ctx: Invocation): Confirmer => ({ confirm: (o) => ctx.confirm(o) });

export const clock = (ctx: Invocation): Clock => ({ now: () => ctx.now() });

export const interrupt = (ctx: Invocation): Interrupt => ({
  say: (note) => {
    ctx.interruptNote = note;
  },
  onExit: (fn) => ctx.onCleanup(fn),
});

export const policyPort = (ctx: Invocation): PolicyPort => ({
  configDir: () => ctx.settings.configDir,
  event: (e) => ctx.policyEvent(e),
});

export const contextStore = (ctx: Invocation): ContextStore => ({
  store: () => ctx.store(),
  configDir: () => ctx.settings.configDir,
  flag: () => ctx.globals.context,
  settings: () => ctx.settings,
  get env() {
    return ctx.env;
  },
});

/** The live view over the Invocation's terminal (src/render/live/screen.ts), loaded when one is opened. */
export const screen = (ctx: Invocation): Screen => ({
  async open(view) {
    const { LiveScreen } = await import('../render/live/screen.js');
    return new LiveScreen({
      stdout: ctx.io.stdout,
      stdin: ctx.io.stdin as LiveScreenOptions['stdin'],
      fps: ctx.settings.streamFps,
      render: (width, height) => view.render(width, height),
      onQuit: (key) => view.onQuit(key),
      onError: (error) => view.onError(error),
    });
  },
});

export const agentPort = (ctx: Invocation): AgentPort => ({
  actingFor: (agent) => {
    ctx.agent = agent;
  },
});

export const foreground = (ctx: Invocation): Foreground => ({
  own: () => {
    ctx.ownSignals = true;
  },
  stopped: () => stopSignal(ctx.stop),
});

/** Every port, over one Invocation; a run declares the few it takes (Pick<Ports, ...>) and a test fakes only those. */
export interface Ports {
  display: Display;
  service: Connector;
  prompter: Prompter;
  confirmer: Confirmer;
  readonly audit: AuditPort;
  clock: Clock;
  interrupt: Interrupt;
  policy: PolicyPort;
  contexts: ContextStore;
  screen: Screen;
  foreground: Foreground;
  agent: AgentPort;
  /** coinop's version: the user agent of requests sent by hand, the MCP handshake, the man page. */
  readonly version: string;
}

/** The ports of an Invocation (the audit trail is opened only when a run uses it). */
export function ports(ctx: Invocation): Ports {
  return {
    display: display(ctx),
    service: connector(ctx),
    prompter: ctx.prompter,
    confirmer: confirmer(ctx),
    get audit() {
      return ctx.audit;
    },
    clock: clock(ctx),
    interrupt: interrupt(ctx),
    policy: policyPort(ctx),
    contexts: contextStore(ctx),
    screen: screen(ctx),
    foreground: foreground(ctx),
    agent: agentPort(ctx),
    version: ctx.version,
  };
}
