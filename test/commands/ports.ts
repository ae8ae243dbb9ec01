// Fakes of the ports a command's run takes (src/cli/ports.ts), for in-process tests of the runs: a Display that keeps
// what was written to stdout and stderr, a Connector over a real local service started in this process, a clock that
// says one time, a confirmer that answers as told and keeps what it was shown, and an Interrupt that keeps its note.
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_SCOPES } from '../../src/contract/enums.js';
import { cataloguePolicy, type CataloguePolicy } from '../../src/client/catalogue-policy.js';
import { ServiceClient } from '../../src/client/service-client.js';
import { TokenManager } from '../../src/client/tokens.js';
import { Transport } from '../../src/client/transport.js';
import { auditLogPath } from '../../src/audit/log.js';
import { type AuditPort, auditPort } from '../../src/cli/audit.js';
import type { ConfirmOptions } from '../../src/cli/confirm.js';
import { cancelled } from '../../src/cli/errors.js';
import type { Connection } from '../../src/cli/invocation.js';
import type { IO } from '../../src/cli/io.js';
import type { Clock, Confirmer, Connector, Display, Foreground, Interrupt, PolicyPort } from '../../src/cli/ports.js';
import type { PolicyEvent } from '../../src/policy/events.js';
import { Prompter } from '../../src/cli/prompt.js';
import type { ResolvedContext } from '../../src/config/context.js';
import { DEMO } from '../../src/embedded/demo.js';
import { startLocalService, type LocalService } from '../../src/local/service.js';
import type { DeepPartial, LocalConfig } from '../../src/local/config.js';
import { type Format, Output } from '../../src/render/output.js';

/** 2026-03-01T12:00:00Z: the time the fake clock says unless told another. */
export const NOW = Date.parse('2026-03-01T12:00:00Z');

export interface FakeDisplay extends Display {
  /** What was written to stdout, and to stderr, so far. */
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * A Display in `format` that keeps what is written. `tty`: stdout and stderr are terminals (tables fitted to `width`,
 * relative times, the notes for people); never a terminal to ask on (nothing is prompted).
 */
export function fakeDisplay(
  options: {
    format?: Format;
    tty?: boolean;
    /** Each stream on its own (the default: `tty`): stdout piped with stderr on a terminal, say. */
    stdoutTTY?: boolean;
    stderrTTY?: boolean;
    argv?: string[];
    width?: number;
    now?: number;
    formatGiven?: boolean;
    /** --debug: debug lines are kept on stderr as `[debug] line`. */
    debug?: boolean;
  } = {},
): FakeDisplay {
  let stdout = '';
  let stderr = '';
  const tty = options.tty ?? false;
  const io: IO = {
    stdin: new PassThrough(),
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdoutTTY: options.stdoutTTY ?? tty,
    stdinTTY: false,
    stderrTTY: options.stderrTTY ?? tty,
    colour: false,
    colourErr: false,
    width: options.width ?? 120,
    rows: 10_000,
    canPrompt: false,
    out: (t) => void (stdout += t),
    err: (t) => void (stderr += t),
  };
  const format = options.format ?? ((options.stdoutTTY ?? tty) ? 'table' : 'json');
  const now = options.now ?? NOW;
  return {
    output: (view) => new Output(io, format, () => now, view),
    format: () => format,
    formatGiven: () => options.formatGiven ?? options.format !== undefined,
    io,
    argv: options.argv ?? [],
    debug: () => (options.debug ? (line) => void (stderr += `[debug] ${line}\n`) : undefined),
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
  };
}

/** A Prompter that may ask nothing (no terminal): a missing value is the usage error naming its flag. */
export const noPrompts = (d: Display): Prompter => new Prompter(d.io);

export const fixedClock = (now = NOW): Clock => ({ now: () => now });

/**
 * A confirmer that answers `answer` and keeps the confirmations it was shown; 'no' is the operator saying no (the
 * real confirmation's cancellation, exit 3).
 */
export function fakeConfirmer(
  answer: 'confirmed' | 'expired' | 'no' = 'confirmed',
): Confirmer & { shown: ConfirmOptions[] } {
  const shown: ConfirmOptions[] = [];
  return {
    shown,
    confirm: async (options) => {
      shown.push(options);
      if (answer === 'no') throw cancelled('cancelled: nothing was sent');
      return answer;
    },
  };
}

/** An Interrupt that keeps the note (a function's answer read when asked) and runs what is left for the exit on exit(). */
export function keptInterrupt(): Interrupt & { note(): string | undefined; exit(): Promise<void> } {
  let kept: string | (() => string | undefined) | undefined;
  const onExit: (() => unknown)[] = [];
  return {
    say: (n) => void (kept = n),
    note: () => (typeof kept === 'function' ? kept() : kept),
    onExit: (fn) => void onExit.push(fn),
    async exit() {
      for (const fn of onExit.splice(0).reverse()) await fn();
    },
  };
}

/** A Foreground whose stop the test gives (stop()), and whether the run took the signals as its own. */
export function heldForeground(): Foreground & { owned: boolean; stop(): void } {
  let release: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    release = resolve;
  });
  const held = { owned: false, own: () => void (held.owned = true), stopped: () => stopped, stop: () => release() };
  return held;
}

/** What is written to one of a fake Display's streams by hand (io.stdout.write rather than io.out), so far. */
export function written(stream: NodeJS.WritableStream): () => string {
  let text = '';
  (stream as PassThrough).on('data', (chunk) => (text += String(chunk)));
  return () => text;
}

/** The audit trail of a fixture: the real port over the fixture's data directory, and the entries written so far. */
export interface AuditTrail {
  port: AuditPort;
  entries(): {
    kind: string;
    who: { agent?: string; [field: string]: unknown };
    what: Record<string, unknown>;
    outcome: Record<string, unknown>;
    ref_id?: string;
  }[];
}

export interface LocalFixture {
  svc: LocalService;
  /** A data directory of the test's own (removed by close()). */
  dataDir: string;
  /** A Connector to the service as the demo admin client, its context's service profile the demo's. */
  connector(o?: { clientId?: string; profileId?: string; catalogue?: CataloguePolicy }): Connector & {
    connections: Connection[];
  };
  /** The audit trail in the data directory (one a fixture); a warning fails the test. */
  audit(): AuditTrail;
  /** The policy port: a configuration directory of the fixture's own (no policy file unless a test writes one). */
  policy: PolicyPort & { configDir(): string; events: PolicyEvent[] };
  close(): Promise<void>;
}

/** The built-in local context, at the service's address. */
function localContext(svc: LocalService, clientId: string, profileId?: string): ResolvedContext {
  return {
    name: 'local',
    environment: 'local',
    baseUrl: svc.baseUrl,
    authUrl: svc.authUrl,
    wsUrl: svc.wsUrl,
    clientId,
    clientSecret: DEMO.clientSecret,
    scopes: [...ALL_SCOPES],
    profileId,
    builtin: true,
    overridden: true,
    overrides: [],
    savedAuthUrl: svc.authUrl,
    stored: false,
  };
}

/** A local service on an ephemeral port in this process, in memory, rate limits off. */
export async function localFixture(config: DeepPartial<LocalConfig> = {}): Promise<LocalFixture> {
  const svc = await startLocalService({
    port: 0,
    memory: true,
    config: { rateLimits: { enabled: false }, ...config },
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'coinop-run-'));
  const configDir = mkdtempSync(join(tmpdir(), 'coinop-run-config-'));
  const events: PolicyEvent[] = [];
  const transports: Transport[] = [];
  const cleanups: (() => unknown)[] = [];
  let trail: AuditTrail | undefined;
  return {
    svc,
    dataDir,
    connector(options = {}) {
      const context = localContext(svc, options.clientId ?? DEMO.adminClientId, options.profileId ?? DEMO.profileId);
      const catalogue = options.catalogue ?? cataloguePolicy('local', () => undefined);
      const connections: Connection[] = [];
      let made: Connection | undefined;
      const open = (to: ResolvedContext): Connection => {
        const transport = new Transport({ baseDelayMs: 1 });
        transports.push(transport);
        const serviceId = `local:${svc.instanceId()}`;
        const tokens = new TokenManager(to, undefined, transport, Date.now, serviceId);
        const client = new ServiceClient(to.baseUrl, transport, tokens, catalogue);
        const conn: Connection = { context: to, client, tokens, transport, embedded: false, serviceId };
        connections.push(conn);
        return conn;
      };
      return {
        connections,
        context: () => context,
        catalogue: () => catalogue,
        dataDir: () => dataDir,
        pollMs: () => 20,
        retryBaseMs: () => 10,
        streamStaleMs: () => 5000,
        async connect() {
          made ??= open(context);
          return made;
        },
        /** A connection of its own to `other` (the one at its addresses, as the demo admin client unless it says). */
        async connectAs(other) {
          return open(other);
        },
      };
    },
    policy: { configDir: () => configDir, event: (e) => void events.push(e), events },
    audit() {
      trail ??= {
        port: auditPort({
          dataDir: () => dataDir,
          env: {},
          now: Date.now,
          context: () => undefined,
          warn: (line) => {
            throw new Error(`audit warning: ${line}`);
          },
          onCleanup: (fn) => void cleanups.push(fn),
        }),
        entries: () =>
          existsSync(auditLogPath(dataDir))
            ? readFileSync(auditLogPath(dataDir), 'utf8')
                .split('\n')
                .filter(Boolean)
                .map((l) => JSON.parse(l))
            : [],
      };
      return trail;
    },
    async close() {
      for (const fn of cleanups.splice(0).reverse()) await fn();
      for (const t of transports) t.close();
      await svc.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}

/**
 * A local fixture for a whole test file: started before its tests and closed after them. Read it once the tests run
 * (reading it at the file's top level, before it started, is an error).
 */
export function sharedLocalFixture(config: DeepPartial<LocalConfig> = {}): LocalFixture {
  let started: LocalFixture | undefined;
  beforeAll(async () => {
    started = await localFixture(config);
  });
  afterAll(() => started?.close());
  const now = (): LocalFixture => {
    if (!started) throw new Error('the local fixture is read before its tests started');
    return started;
  };
  return {
    get svc() {
      return now().svc;
    },
    get dataDir() {
      return now().dataDir;
    },
    get policy() {
      return now().policy;
    },
    connector: (options) => now().connector(options),
    audit: () => now().audit(),
    close: () => now().close(),
  };
}

/** A test's money ports over `local`: moneyPorts with the display options and the confirmer's answer given. */
export const moneyPortsOf =
  (local: LocalFixture) =>
  (display: Parameters<typeof fakeDisplay>[0] = {}, answer: Parameters<typeof fakeConfirmer>[0] = 'confirmed') =>
    moneyPorts(local, display, answer);

/** The ports of a read against the fixture's service, over a fresh Display. */
export function readPorts(local: LocalFixture, displayOptions: Parameters<typeof fakeDisplay>[0] = {}) {
  const display = fakeDisplay(displayOptions);
  return {
    display,
    service: local.connector(),
    prompter: noPrompts(display),
    clock: fixedClock(),
    interrupt: keptInterrupt(),
  };
}

/** What a profile of the fixture's service has of USD now (all of it: a wire deposit may still be settling). */
export async function usdOf(local: LocalFixture, profileId: string): Promise<string> {
  const conn = await local.connector().connect();
  const params = { profile_id: profileId, asset: 'USD' };
  return (await conn.client.call('getProfileBalance', { params })).data.available;
}

/**
 * Every port a money-moving run takes: a Display as fakeDisplay(`display`) makes, the fixture's service, audit trail
 * and policy, no prompts, the fixed clock, a confirmer that answers `answer`, an Interrupt that keeps its note.
 */
export function moneyPorts(
  local: LocalFixture,
  display: Parameters<typeof fakeDisplay>[0] = {},
  answer: Parameters<typeof fakeConfirmer>[0] = 'confirmed',
) {
  const shown = fakeDisplay(display);
  return {
    display: shown,
    service: local.connector(),
    prompter: noPrompts(shown),
    confirmer: fakeConfirmer(answer),
    audit: local.audit().port,
    clock: fixedClock(),
    interrupt: keptInterrupt(),
    policy: local.policy,
  };
}

/** The fixture's audit entries written since the `from`th, as kind, outcome result and ref_id. */
export const auditSince = (local: LocalFixture, from: number) =>
  local
    .audit()
    .entries()
    .slice(from)
    .map((e) => [e.kind, e.outcome.result, e.ref_id]);

/** Writes the context's policy file (policies/local.yaml in the fixture's configuration directory); undefined: none. */
export function writeContextPolicy(local: LocalFixture, text: string | undefined): void {
  const policies = join(local.policy.configDir(), 'policies');
  if (text === undefined) return rmSync(policies, { recursive: true, force: true });
  mkdirSync(policies, { recursive: true });
  writeFileSync(join(policies, 'local.yaml'), text);
}

/**
 * A window of `count` more events than anyone asks for (that many crypto deposits at once, each an event), and the ids of
 * the feed's first `first` events since 2020, oldest first: what a reader from --since 2020 sees first.
 */
export async function eventWindow(local: LocalFixture, count: number, first: number): Promise<string[]> {
  const made = await fetch(`${new URL(local.svc.baseUrl).origin}/_local/crypto-deposits`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ref_id: 'demo-btc', amount: '0.001', count }),
  });
  if (made.status !== 200) throw new Error(`the deposits were refused: ${made.status}`);
  const conn = await local.connector().connect();
  const query = { order: 'ASC' as const, limit: first, 'created_at.gte': EVENTS_SINCE };
  return ((await conn.client.call('listEvents', { query })).data.events ?? []).map((e) => e.id);
}

/** Where the event tests' readers start (--since): before any event. */
export const EVENTS_SINCE = '2020-01-01T00:00:00Z';
