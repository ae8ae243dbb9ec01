// Money at the gateway: every money-moving request an operator sends passes the one gate (src/gate) here, where the
// credentials live, with the gateway's policy (its store's current version), its reservations (in the store, so the
// rolling caps hold across every operator and every gateway instance; the upstream's own last day read now and then,
// upstream-history.ts) and its audit trail (the store's chain, each entry naming the operator; an admission's attempt
// committed with its reservation). A request the policy allows only with approvals is held, not sent: 202 and its id.
// Approvers approve it with Ed25519 signatures over its exact content (the statement `coinop approve` signs); the
// approval that completes the set sends it, once (a conditional move from pending to sending decides who sends).
// That move takes a lease for this instance, as a batch's does (batch-desk.ts): a held request whose sender stopped
// while sending it stays sending under a lease nobody clears, and once it has run out any instance asked about it
// (the initiator's retry of its ref_id, a GET of it, an approve) takes it over by a compare-and-set on that expired
// lease and sends it once by its ref_id (one the stopped instance sent comes back from the upstream as the same
// transfer: the gate's 'sent before' answer).
import { randomUUID } from 'node:crypto';
import type { AuditEvent, AuditWho } from '../audit/entry.js';
import type { CataloguePolicy } from '../client/catalogue-policy.js';
import type { ServiceClient } from '../client/service-client.js';
import { apiRoot, type Environment } from '../config/environments.js';
import { toCoinopError } from '../errors.js';
import { type GateAudit, MoneyGate, type Prepared } from '../gate/gate.js';
import { AUDIT_KIND, type MoneyOperationId, requestWhat } from '../gate/money.js';
import type { Reservation, ReservationBook } from '../gate/reservations.js';
import {
  type ApprovalScope,
  ContentBuilder,
  contentFromLines,
  contentLines,
  type ParsedApproval,
  parseApproval,
  verifyApprovals,
} from '../policy/approvals.js';
import type { PolicyVerdict } from '../policy/evaluate.js';
import { parsePolicy } from '../policy/load.js';
import type { LoadedPolicy } from '../policy/policy.js';
import { BATCH_LEASE_MS, BatchDesk, batchWhat } from './batch-desk.js';
import { type DeskAnswer, errorAnswer, gatewayProblem, onlyApprovalsMissing, roleWords } from './answers.js';

export {
  type DeskAnswer,
  errorAnswer,
  GATEWAY_PROBLEM_BASE,
  gatewayProblem,
  onlyApprovalsMissing,
  roleWords,
} from './answers.js';
import { canApprove, ROLE_SCOPES } from './operators.js';
import type { Sql } from './sql.js';
import type { GatewayStore, Lease, Operator, Pending } from './store.js';
import { type Operation, operations } from '../contract/index.js';
import { UpstreamHistory } from './upstream-history.js';

/** The service the gateway holds the credentials of, as its money desk uses it. */
export interface Upstream {
  client: ServiceClient;
  /** The upstream context: its name and environment. */
  context: { name: string; environment: Environment };
  baseUrl: string;
  serviceId: string;
  catalogue: CataloguePolicy;
}

/** How often an instance drops the reservations past their day (in an admission's section). */
const EXPIRE_EVERY_MS = 60_000;

/** How long a held request waits for its approvals by default. */
export const APPROVAL_TTL_MS = 24 * 3600 * 1000;

export interface MoneyDeskOptions {
  now?: () => number;
  approvalTtlMs?: number;
  /**
   * How long this instance's lease on a held request it sends holds (a batch's: after each renewal; BATCH_LEASE_MS by
   * default, for a single held request as for a batch).
   */
  batchLeaseMs?: number;
  /** Tests: called when the upstream has answered a batch's row, before the row is recorded; a throw stops it there. */
  afterBatchRowSent?: (pendingId: string, idx: number) => void | Promise<void>;
  /** Tests: called when the upstream has answered a single held request, before it is recorded; a throw stops it. */
  afterHeldSent?: (pendingId: string) => void | Promise<void>;
}

export class MoneyDesk {
  private readonly now: () => number;
  private readonly ttl: number;
  private policyCache?: { sha256: string; loaded: LoadedPolicy };
  /** The upstream's last day, read now and then (what went through the gateway is in the store's reservations). */
  private readonly history: UpstreamHistory;
  /** When this instance last dropped the reservations past their day. */
  private expiredAt = 0;
  /** Batches held for approvals as one (batch-desk.ts). */
  readonly batches: BatchDesk;
  /** This instance's id: what its leases on the batches it sends name (one per desk, so per gateway process). */
  readonly instanceId = randomUUID();
  private readonly leaseMs: number;
  private readonly afterHeldSent?: (pendingId: string) => void | Promise<void>;

  constructor(
    private readonly store: GatewayStore,
    private readonly upstream: Upstream,
    options: MoneyDeskOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.ttl = options.approvalTtlMs ?? APPROVAL_TTL_MS;
    this.leaseMs = options.batchLeaseMs ?? BATCH_LEASE_MS;
    this.afterHeldSent = options.afterHeldSent;
    this.history = new UpstreamHistory(upstream.client, this.now);
    this.batches = new BatchDesk(this, store, upstream, {
      now: this.now,
      ttl: this.ttl,
      leaseMs: this.leaseMs,
      holder: this.instanceId,
      afterRowSent: options.afterBatchRowSent,
    });
  }

  /** The gateway's policy: its store's current version (none: no rules). */
  async policy(): Promise<LoadedPolicy | undefined> {
    const p = await this.store.policy();
    if (!p) return undefined;
    if (this.policyCache?.sha256 !== p.sha256)
      this.policyCache = { sha256: p.sha256, loaded: parsePolicy(p.body, `gateway policy v${p.version}`) };
    return this.policyCache.loaded;
  }

  /** Who an operator's entries name. */
  who(op: Operator): AuditWho {
    return this.whoOf(op.name, op.clientId);
  }

  /** Who an entry names: an operator by name (or 'unauthenticated') and client id, if known. */
  whoOf(operator: string, clientId?: string): AuditWho {
    return {
      os_user: 'coinop-gateway',
      ...(clientId ? { client_id: clientId } : {}),
      profile: this.upstream.context.name,
      environment: this.upstream.context.environment,
      service_id: this.upstream.serviceId,
      operator,
    };
  }

  /**
   * The audit trail as the gate writes to it, every entry naming the operator. A note (a refusal, an outcome) may be
   * written while the gate holds the caps' section, so it is not waited for there (on SQLite the section holds the one
   * connection): the desk waits for every note with settled() before it answers.
   */
  audit(op: Operator): GateAudit & { settled(): Promise<void> } {
    const who = this.who(op);
    const append = async (event: AuditEvent) => {
      await this.store.appendAudit([{ who, event }]);
    };
    const notes: Promise<void>[] = [];
    return {
      record: append,
      note: async (event) => {
        notes.push(append(event).catch(() => {}));
      },
      settled: async () => {
        await Promise.all(notes);
      },
    };
  }

  /** The policy read once for one request (the store's current version as the request came), when first asked. */
  private policyOnce(): () => Promise<LoadedPolicy | undefined> {
    let policy: Promise<LoadedPolicy | undefined> | undefined;
    return () => (policy ??= this.policy());
  }

  private gate(op: Operator, audit: GateAudit, policy = this.policyOnce()): MoneyGate {
    return this.gateWith(op, audit, policy);
  }

  /** The gate for an operator's request, with the gateway's policy (or the one given). */
  gateWith(
    op: Operator,
    audit: GateAudit,
    policy: () => Promise<LoadedPolicy | undefined> = this.policyOnce(),
  ): MoneyGate {
    return new MoneyGate({
      client: this.upstream.client,
      context: this.upstream.context,
      serviceId: this.upstream.serviceId,
      dataDir: '',
      policy,
      history: () => this.history.lastDay(),
      audit,
      catalogue: this.upstream.catalogue,
      now: this.now,
      reservations: this.reservationBook(op),
    });
  }

  /**
   * The store's reservations as the gate's book: one exclusive section across instances (a transaction), in which
   * the reservations are read and the admitted request's is written. A reservation stays for its day even once the
   * upstream shows its transfer: another instance's copy of the upstream's day (UpstreamHistory) may be older than
   * the transfer, and the store is what every instance counts. It goes only when its request was refused or never
   * left (release), or after its day.
   */
  private reservationBook(op: Operator): ReservationBook {
    const store = this.store;
    let tx: Sql | undefined;
    let held = new Set<string>();
    const inTx = () => {
      if (!tx) throw new Error('the reservations are read outside their exclusive section');
      return tx;
    };
    return {
      lockPath: `the gateway store (${store.sql.dialect})`,
      exclusive: (fn) =>
        store.sql.exclusive('gw_caps', async (sql) => {
          tx = sql;
          try {
            return await fn();
          } finally {
            tx = undefined;
          }
        }),
      read: async (_now, asset) => {
        // Only the request's asset: what its cap counts (the others stay in the store, untouched by write()).
        const list = await store.reservations(inTx(), asset);
        held = new Set(list.map((r) => r.ref_id));
        return list.map((r) => ({ ...r, operator: undefined }) as Reservation);
      },
      write: async (list, seen) => {
        const t = inTx();
        for (const r of list)
          if (!held.has(r.ref_id) && !seen.has(r.ref_id))
            await store.reserve(t, { ref_id: r.ref_id, operator: op.name, asset: r.asset, amount: r.amount, at: r.at });
        if (this.now() - this.expiredAt > EXPIRE_EVERY_MS) {
          this.expiredAt = this.now();
          await store.expire(t);
        }
      },
      release: (refIds) => store.sql.exclusive('gw_caps', (t) => store.release(t, refIds)),
      record: async (event) => {
        await store.appendAudit([{ who: this.who(op), event }], inTx());
      },
    };
  }

  /** What an approval of this request states: a withdrawal at the upstream service, for its profile. */
  private scope(body: Record<string, unknown>): ApprovalScope {
    return {
      kind: 'withdrawal',
      environment: this.upstream.context.environment,
      service: apiRoot(this.upstream.baseUrl),
      profileId: typeof body.profile_id === 'string' ? body.profile_id : '-',
    };
  }

  /** A money-moving request from an operator: refused, held for approvals (202), or sent through the gate. */
  async request(op: Operator, operation: MoneyOperationId, body: Record<string, unknown>): Promise<DeskAnswer> {
    const scope = (operations[operation] as Operation).scope;
    if (scope && !ROLE_SCOPES[op.role].includes(scope))
      return gatewayProblem(403, 'role', 'Forbidden', `${op.name} is ${roleWords(op.role)}: the role cannot ${scope}`);
    const refId = typeof body.ref_id === 'string' ? body.ref_id : null;
    const policy = this.policyOnce();
    if (refId) {
      // The policy read meanwhile (on Postgres the two questions are on the way at once); its failure is the gate's.
      policy().catch(() => {});
      // A row of a batch held as one: answered from the store, never sent twice.
      const row = await this.batches.rowAnswer(refId, body);
      if (row) return row;
      // The same ref_id again: the held request answers for it (its transfer once sent); it is never held twice.
      const earlier = await this.store.pendingByRef(refId);
      // Left sending by a stopped instance (its lease ran out): this one sends it, once by its ref_id, first.
      const now = earlier && (await this.resumed(earlier));
      if (now?.status === 'sent' && now.result) return { status: 200, body: now.result };
      if (now) return this.heldAnswer(now, 202);
    }
    const audit = this.audit(op);
    const gate = this.gate(op, audit, policy);
    // No approvals yet, but the content they would approve: a policy's `above` threshold is judged on it.
    const approvals = { scope: this.scope(body), files: [] };
    const request = { operation, body, command: 'gateway', what: { operator: op.name }, approvals };
    try {
      const prepared = await gate.prepare(request);
      // A policy with approvals may hold the request: judged first. Without, the send's own verdict is the one.
      if ((await policy())?.policy.approvals) {
        const verdict = await gate.judge(prepared, { dryRun: true });
        if (!verdict.allowed && onlyApprovalsMissing(verdict)) return await this.hold(op, prepared, verdict);
      }
      // The upstream's copy made fresh enough here, not inside the caps' section (which waits for nothing else then);
      // a read that fails is the gate's refusal there.
      const rules = (await policy())?.policy;
      if (rules?.maxPer24h || rules?.hours) await this.history.lastDay().catch(() => undefined);
      // Funds and transfer limits: the operator's coinop shows them before it asks, and the service enforces them.
      const sent = await gate.send(prepared, undefined, { preflighted: true });
      return { status: 200, body: sent.data };
    } catch (e) {
      return errorAnswer(e);
    } finally {
      await audit.settled();
    }
  }

  private async hold(op: Operator, prepared: Prepared, verdict: PolicyVerdict): Promise<DeskAnswer> {
    const builder = new ContentBuilder(this.scope(prepared.body));
    builder.add(prepared.body);
    const held = await this.store.hold({
      operator: op.name,
      operation: prepared.request.operation,
      body: prepared.body,
      refId: prepared.refId,
      content: contentLines(builder.finish()),
      expiresAt: this.now() + this.ttl,
    });
    await this.audit(op).record({
      kind: AUDIT_KIND[prepared.request.operation as MoneyOperationId],
      ref_id: prepared.refId,
      what: { ...prepared.what, pending_id: held.id, approvals_required: verdict.approvals?.length ?? 0 },
      outcome: { result: 'held' },
    });
    return this.heldAnswer(held, 202);
  }

  /** A held request as the gateway shows it: its id, status, content, approvals so far. */
  async heldAnswer(pending: Pending, status = 200): Promise<DeskAnswer> {
    const approvals = await this.store.approvals(pending.id);
    const policy = await this.policy().catch(() => undefined);
    const expired = pending.status === 'pending' && pending.expiresAt <= this.now();
    return {
      status,
      body: {
        pending_id: pending.id,
        status: expired ? 'expired' : pending.status,
        operation: pending.operation,
        initiator: pending.operator,
        ref_id: pending.refId,
        request: pending.body,
        what: pending.operation === 'batch' ? {} : requestWhat(pending.operation as MoneyOperationId, pending.body),
        content: pending.content,
        approvals: approvals.map((a) => ({ operator: a.operator, at: new Date(a.at).toISOString() })),
        approvals_required: policy?.policy.approvals?.required ?? 0,
        created_at: new Date(pending.createdAt).toISOString(),
        expires_at: new Date(pending.expiresAt).toISOString(),
        result: pending.result,
        ...(pending.operation === 'batch' ? await this.batches.describe(pending) : {}),
      },
    };
  }

  /** A held request as GET shows it: one its sender left sending (its lease ran out) is sent to the end first. */
  async show(pending: Pending): Promise<DeskAnswer> {
    return this.heldAnswer(await this.resumed(pending));
  }

  /** The held request as it is once resume() has had its turn (taken over and sent when its sender's lease ran out). */
  private async resumed(held: Pending): Promise<Pending> {
    if (held.status !== 'sending' || !(await this.resume(held))) return held;
    return (await this.store.pending(held.id)) ?? held;
  }

  /** A held request (a batch or a single one) left sending past its lease, taken over and sent; false: not taken. */
  private resume(held: Pending): Promise<boolean> {
    return held.operation === 'batch' ? this.batches.resume(held) : this.resumeHeld(held);
  }

  /** A lease for this instance from now, on a held request it sends. */
  private lease(): Lease {
    return { holder: this.instanceId, until: this.now() + this.leaseMs };
  }

  /**
   * A single held request left sending by an instance that stopped (its lease ran out): taken over by a compare-and-
   * set on the expired lease, so one instance does, and sent through the gate by its ref_id; one the stopped instance
   * sent comes back from the upstream as the same transfer (the gate's 'sent before'), and its reservation, made at
   * the first send, is counted once. False: not taken over (still leased, not sending, or another took it first).
   */
  private async resumeHeld(held: Pending): Promise<boolean> {
    if (held.status !== 'sending') return false;
    const expired = held.lease ?? null;
    if (expired && expired.until > this.now()) return false;
    if (!(await this.batches.rows.takeOver(held.id, expired, this.lease()))) return false;
    const op = await this.store.operator(held.operator);
    if (!op) {
      await this.batches.rows.finishSending(held.id, this.instanceId, 'pending', { reason: 'the initiator is gone' });
      return true;
    }
    const audit = this.audit(op);
    try {
      await audit.record({
        kind: AUDIT_KIND[held.operation as MoneyOperationId] ?? 'withdrawal',
        ref_id: held.refId,
        what: {
          pending_id: held.id,
          initiator: held.operator,
          resumed: true,
          lease_holder: expired?.holder ?? null,
          lease_until: expired ? new Date(expired.until).toISOString() : null,
          ...this.heldWhat(held),
        },
        outcome: { result: 'attempt' },
      });
      const gate = this.gate(op, audit);
      let prepared: Prepared;
      try {
        prepared = await gate.prepare(await this.heldRequest(op, held));
      } catch (e) {
        await this.finish(held.id, 'failed', errorAnswer(e).body);
        return true;
      }
      await this.sendLeased(gate, held, prepared);
    } finally {
      await audit.settled();
    }
    return true;
  }

  /**
   * An approver's signed approval of a held request; the one that completes the set sends it. A batch whose sender
   * stopped while sending it (its lease ran out) is sent to the end by this instance instead: its set was complete.
   */
  async approve(op: Operator, id: string, text: string): Promise<DeskAnswer> {
    const p = await this.store.pending(id);
    if (p?.status === 'sending' && canApprove(op.role) && p.operator !== op.name && (await this.resume(p)))
      return this.heldAnswer((await this.store.pending(id)) ?? p);
    const refusal = await this.approvalRefusal(op, p);
    if (refusal) return refusal;
    const held = p!;
    const parsed = parseApproval(`gateway:${op.name}`, text);
    if (parsed.error) return gatewayProblem(400, 'approval', 'Bad Request', `approval: ${parsed.error}`);
    const policy = await this.policy();
    const content = contentFromLines(held.content);
    if (!content) return gatewayProblem(500, 'internal', 'Internal Server Error', 'the held content cannot be read');
    const [result] = verifyApprovals([parsed], content, policy?.policy.approvals?.keys ?? []);
    if (result.status !== 'valid')
      return gatewayProblem(422, 'approval', 'Unprocessable Entity', `approval: ${result.reason ?? result.status}`);
    const bound = await this.store.bindApproverKey(op.name, parsed.fields.approver);
    if (bound !== parsed.fields.approver)
      return gatewayProblem(403, 'approver-key', 'Forbidden', `${op.name} approves with another key (${bound})`);
    await this.store.sql.exclusive(`gw_pending:${id}`, (tx) => this.store.addApproval(tx, id, op.name, text));
    await this.audit(op).record({
      kind: 'approval',
      ref_id: held.refId,
      what: { pending_id: id, initiator: held.operator, ...this.heldWhat(held) },
      outcome: { result: 'approved' },
      approver_keys: result.key_id ? [result.key_id] : undefined,
    });
    return this.release(held);
  }

  /** Why this operator may not approve or reject this request now, if anything. */
  private async approvalRefusal(op: Operator, pending: Pending | undefined): Promise<DeskAnswer | undefined> {
    if (!canApprove(op.role))
      return gatewayProblem(403, 'role', 'Forbidden', `${op.name} is ${roleWords(op.role)}: only approvers approve`);
    if (!pending) return gatewayProblem(404, 'pending', 'Not Found', 'no request is held by that id');
    if (pending.operator === op.name)
      return gatewayProblem(
        403,
        'own-request',
        'Forbidden',
        'the initiator cannot approve or reject their own request',
      );
    if (pending.status === 'pending' && pending.expiresAt <= this.now()) {
      await this.store.sql.exclusive(`gw_pending:${pending.id}`, (tx) =>
        this.store.transition(tx, pending.id, 'pending', 'expired'),
      );
      return gatewayProblem(
        409,
        'expired',
        'Conflict',
        `the request expired at ${new Date(pending.expiresAt).toISOString()}`,
      );
    }
    if (pending.status !== 'pending')
      return gatewayProblem(
        409,
        'not-pending',
        'Conflict',
        `the request is ${pending.status}, not waiting for approvals`,
      );
    return undefined;
  }

  /** Sends a held request once its approvals are complete; exactly one caller moves it from pending to sending. */
  private async release(held: Pending): Promise<DeskAnswer> {
    const op = await this.store.operator(held.operator);
    if (!op) return gatewayProblem(409, 'initiator', 'Conflict', `the initiator ${held.operator} is gone`);
    const audit = this.audit(op);
    try {
      if (held.operation === 'batch') return await this.batches.release(op, held, audit);
      return await this.sendHeld(op, held, audit);
    } finally {
      await audit.settled();
    }
  }

  /** A held request as the gate takes it, with its approvals so far. */
  private async heldRequest(op: Operator, held: Pending) {
    const files = (await this.store.approvals(held.id)).map((a) => parseApproval(`gateway:${a.operator}`, a.text));
    return {
      operation: held.operation as MoneyOperationId,
      body: held.body,
      command: 'gateway',
      what: { operator: op.name, pending_id: held.id },
      approvals: { scope: this.scope(held.body), files: files as ParsedApproval[] },
    };
  }

  private async sendHeld(op: Operator, held: Pending, audit: GateAudit): Promise<DeskAnswer> {
    const gate = this.gate(op, audit);
    let prepared: Prepared;
    try {
      prepared = await gate.prepare(await this.heldRequest(op, held));
      const verdict = await gate.judge(prepared, { dryRun: true });
      if (!verdict.allowed && onlyApprovalsMissing(verdict)) return this.heldAnswer(held);
    } catch (e) {
      return errorAnswer(e);
    }
    const mine = await this.batches.rows.startSending(held.id, this.lease());
    if (!mine) return this.heldAnswer((await this.store.pending(held.id)) ?? held);
    const answer = await this.sendLeased(gate, held, prepared);
    const shown = await this.heldAnswer(
      (await this.store.pending(held.id)) ?? held,
      answer.status >= 400 ? answer.status : 200,
    );
    // The upstream's Retry-After (a 429) stays on the answer.
    return { ...shown, ...(answer.headers ? { headers: answer.headers } : {}) };
  }

  /** A held request this instance leases now, sent through the gate once and finished under that lease. */
  private async sendLeased(gate: MoneyGate, held: Pending, prepared: Prepared): Promise<DeskAnswer> {
    let sent: Awaited<ReturnType<MoneyGate['send']>>;
    try {
      sent = await gate.send(prepared, undefined, { preflighted: true });
    } catch (e) {
      const answer = errorAnswer(e);
      const category = toCoinopError(e).category;
      await this.finish(held.id, category === 'network' ? 'pending' : 'failed', answer.body);
      return answer;
    }
    await this.afterHeldSent?.(held.id);
    await this.finish(held.id, 'sent', sent.data);
    return { status: 200, body: sent.data };
  }

  /** sending -> `to` under this instance's lease (false: another instance took it over meanwhile). */
  private finish(id: string, to: 'sent' | 'failed' | 'pending', result: Record<string, unknown>): Promise<boolean> {
    return this.batches.rows.finishSending(id, this.instanceId, to, result);
  }

  /** What an audit entry says of a held request: a single request's fields, or a batch's rows and totals. */
  private heldWhat(held: Pending): AuditEvent['what'] {
    if (held.operation !== 'batch') return requestWhat(held.operation as MoneyOperationId, held.body);
    const rows = Array.isArray(held.body.rows) ? (held.body.rows as Record<string, unknown>[]) : [];
    return batchWhat(rows, contentFromLines(held.content));
  }

  /** An approver's rejection: the request is never sent. */
  async reject(op: Operator, id: string, reason: string): Promise<DeskAnswer> {
    const p = await this.store.pending(id);
    const refusal = await this.approvalRefusal(op, p);
    if (refusal) return refusal;
    const moved = await this.store.sql.exclusive(`gw_pending:${id}`, (tx) =>
      this.store.transition(tx, id, 'pending', 'rejected', { rejected_by: op.name, reason }),
    );
    if (!moved) return gatewayProblem(409, 'not-pending', 'Conflict', 'the request is no longer waiting');
    await this.audit(op).record({
      kind: p!.operation === 'batch' ? 'batch' : (AUDIT_KIND[p!.operation as MoneyOperationId] ?? 'withdrawal'),
      ref_id: p!.refId,
      what: {
        pending_id: id,
        initiator: p!.operator,
        reason,
        ...this.heldWhat(p!),
      },
      outcome: { result: 'rejected' },
    });
    return this.heldAnswer((await this.store.pending(id))!);
  }
}
