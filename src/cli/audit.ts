// The audit trail as commands use it (ctx.audit): one port for everything that could move money. Each call names
// who acts from the command's context and connection, and the log (src/audit) adds the sequence number, the time and
// the hash chain.
//
//   record(event, conn)   before anything is sent: a log that cannot be written stops the command, nothing sent
//   note(event, conn)     what already happened (an outcome, a policy refusal): a log that cannot be written is a
//                         warning on stderr, never the command's error
//   attempt(event, conn)  record() of an attempt, and a handle for its outcome: done(outcome) or failed(error); a
//                         command that ends before (Ctrl-C while the request is out) records it as unknown
//   group(conn)           many entries (a batch's rows): each written as it comes, made durable a group at a time;
//                         durable(events) writes entries and resolves once they are on disk (a window of a batch's
//                         attempts, before its requests leave), rejecting when the log cannot be written
import type { AuditEvent, AuditOutcome, AuditWhat, AuditWho } from '../audit/entry.js';
import type { AuditGroup, AuditLog } from '../audit/log.js';
import type { Actor } from '../audit/who.js';
import { outcomeOfError } from '../audit/outcomes.js';
import { CoinopError } from '../errors.js';

export { outcomeOfError, quoteOutcome } from '../audit/outcomes.js';

/** The part of a connection an entry names: the context it acts as and the service that answers. */
export interface AuditConnection {
  context: { name: string; environment: string; clientId: string };
  serviceId: string;
}

export interface AuditAttempt {
  /** Records the outcome (once; a second call does nothing). */
  done(outcome: AuditOutcome, what?: AuditWhat): Promise<void>;
  /** Records what an error means for the attempt: refused, failed (nothing sent) or unknown (it may have gone). */
  failed(e: unknown): Promise<void>;
}

export interface AuditRows {
  add(event: AuditEvent): void;
  /** Writes the entries and resolves once they are on disk (one fsync for them all); rejects if they cannot be. */
  durable(events: AuditEvent[]): Promise<void>;
  /** Writes what is queued; a group that could not be written was said on stderr already. */
  close(): Promise<void>;
}

export interface AuditPort {
  record(event: AuditEvent, conn?: AuditConnection): Promise<void>;
  note(event: AuditEvent, conn?: AuditConnection): Promise<void>;
  attempt(event: Omit<AuditEvent, 'outcome'>, conn?: AuditConnection): Promise<AuditAttempt>;
  group(conn?: AuditConnection): Promise<AuditRows>;
}

/** What the port needs of the command's context. */
export interface AuditDeps {
  dataDir(): string;
  env: Record<string, string | undefined>;
  now(): number;
  /** The coinop context, when the command has one (before it connects). */
  context(): { name: string; environment: string; clientId: string } | undefined;
  /** The MCP client acting through this run (coinop mcp), when there is one: named in every entry's `who`. */
  agent?(): string | undefined;
  warn(line: string): void;
  onCleanup(fn: () => unknown): void;
}

export function auditPort(deps: AuditDeps): AuditPort {
  type Loaded = { log: AuditLog; Group: typeof AuditGroup; who(a: Actor): AuditWho };
  let loaded: Promise<Loaded> | undefined;
  const load = () =>
    (loaded ??= Promise.all([import('../audit/log.js'), import('../audit/who.js')]).then(([m, w]) => {
      const user = w.osUser(deps.env);
      return {
        log: new m.AuditLog(m.auditLogPath(deps.dataDir()), { now: deps.now, warn: deps.warn }),
        Group: m.AuditGroup,
        who: (a: Actor) => w.whoOf(user, a),
      };
    }));
  const actor = (conn?: AuditConnection): Actor => {
    const p = conn?.context ?? deps.context();
    return {
      profile: p?.name,
      environment: p?.environment,
      clientId: p?.clientId,
      serviceId: conn?.serviceId,
      agent: deps.agent?.(),
    };
  };
  const append = async (event: AuditEvent, conn?: AuditConnection) => {
    const l = await load();
    await l.log.append([{ who: l.who(actor(conn)), event }]);
  };
  const record = async (event: AuditEvent, conn?: AuditConnection) => {
    try {
      await append(event, conn);
    } catch (e) {
      throw new CoinopError('file', `${(e as Error).message}; nothing was sent`, {
        hint: 'free space on that disk, or fix the folder (COINOP_DATA_DIR chooses where coinop writes)',
      });
    }
  };
  const note = async (event: AuditEvent, conn?: AuditConnection) => {
    try {
      await append(event, conn);
    } catch (e) {
      deps.warn(`warning: ${(e as Error).message}; this ${event.kind.replace('_', ' ')} is not recorded in it`);
    }
  };
  return {
    record,
    note,
    async attempt(event, conn) {
      await record({ ...event, outcome: { result: 'attempt' } }, conn);
      let open = true;
      const done = async (outcome: AuditOutcome, what?: AuditWhat) => {
        if (!open) return;
        open = false;
        await note({ ...event, what: { ...event.what, ...what }, outcome }, conn);
      };
      // Ended before the outcome came (Ctrl-C, SIGTERM): the request may have gone.
      deps.onCleanup(() =>
        done({ result: 'unknown', error: { category: 'cancelled', message: 'interrupted while it was being sent' } }),
      );
      return { done, failed: (e) => done(outcomeOfError(e)) };
    },
    async group(conn) {
      const l = await load();
      const who = l.who(actor(conn));
      const g = new l.Group(l.log, (e) =>
        deps.warn(`warning: ${e.message}; batch rows from here on are not recorded in it`),
      );
      deps.onCleanup(() => g.close());
      return {
        add: (event) => g.add(who, event),
        durable: (events) => g.durable(who, events),
        close: () => g.close(),
      };
    },
  };
}
