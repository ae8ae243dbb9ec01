// A batch held for approvals as one, at the gateway. `POST /_gateway/batches` takes a `withdraw batch`'s rows (as
// they will be sent, ref_ids included); the gateway's policy judges the run as a whole. When it allows the run only
// with approvals, the batch is held as ONE content (the statement `coinop approve` signs for a batch: every row
// canonical, in order, hashed; the totals per asset and network; the environment, API address and default profile),
// approvers see every row, destination and total, and sign it once each. The approval that completes the set sends
// the rows from the gateway itself, each once by its ref_id: the pending -> sending move decides who sends; every
// row is reserved against the rolling caps in the same section that judges the whole batch with its approvals; each
// row then passes the gate alone (checked, its cap, the attempt in the chain, sent). A row's v2 request carrying its
// ref_id (the waiting client's batch, a --resume after a crash) is answered from the store, never sent again.
// The move to sending takes a lease for this instance (its id, an expiry), renewed before each row and cleared at the
// end; a batch whose sender died keeps a lease nobody renews, and once it has run out any instance asked about the
// batch (the initiator's run re-submitting it or sending a row, a GET or an approve of it) takes it over by a
// compare-and-set on that expired lease and sends the rows still planned, each by its ref_id (one the dead instance
// sent unrecorded comes back from the upstream as the same transfer), their reservations made at release counted
// once (docs/gateway.md, "A batch whose sender stopped").
import type { AuditWhat } from '../audit/entry.js';
import { type Decimal, dec, fmt, type Operation, operations } from '../contract/index.js';
import type { GatewayInput } from '../contract/gateway.js';
import { apiRoot } from '../config/environments.js';
import { toCoinopError } from '../errors.js';
import { canonicalBody } from '../gate/canonical.js';
import type { GateAudit, MoneyGate, Sent } from '../gate/gate.js';
import type { MoneyBody } from '../gate/money.js';
import {
  type ApprovalContent,
  type ApprovalScope,
  canonicalRow,
  ContentBuilder,
  contentFromLines,
  contentLines,
  type ParsedApproval,
  parseApproval,
} from '../policy/approvals.js';
import { checkWithdrawals, withdrawalRequest } from '../policy/check.js';
import type { PolicyVerdict, RecentWithdrawal } from '../policy/evaluate.js';
import type { LoadedPolicy } from '../policy/policy.js';
import { refusal } from '../policy/refusal.js';
import { type DeskAnswer, errorAnswer, gatewayProblem, onlyApprovalsMissing, roleWords } from './answers.js';
import type { MoneyDesk, Upstream } from './money-desk.js';
import { ROLE_SCOPES } from './operators.js';
import { type BatchRow, BatchStore, type GatewayStore, type Lease, type Operator, type Pending } from './store.js';

const WITHDRAWAL: Operation = operations.createCryptoWithdrawal as Operation;

type RowBody = Parameters<typeof withdrawalRequest>[0];

/** What the batch desk takes from its money desk: the clock, the approvals' time, and this instance's lease. */
export interface BatchClock {
  now: () => number;
  /** How long a held batch waits for its approvals. */
  ttl: number;
  /** How long a sender's lease on a batch being sent holds after its last renewal (BATCH_LEASE_MS by default). */
  leaseMs: number;
  /** This instance's id, as its leases name it. */
  holder: string;
  /** Tests: called when the upstream has answered a row, before the row is recorded (a throw stops the sender). */
  afterRowSent?: (pendingId: string, idx: number) => void | Promise<void>;
}

/**
 * How long a sender's lease on a batch holds after its last renewal. It is renewed before each row is sent (so once
 * per row settled); a row in flight is bounded by the transport (30 s a try, 4 tries with backoff: about two
 * minutes), so five minutes never lapses under a live sender, and a dead one's batch is taken over within it.
 */
export const BATCH_LEASE_MS = 5 * 60 * 1000;

export class BatchDesk {
  readonly rows: BatchStore;

  constructor(
    private readonly desk: MoneyDesk,
    private readonly store: GatewayStore,
    private readonly upstream: Upstream,
    private readonly clock: BatchClock,
  ) {
    this.rows = new BatchStore(store);
  }

  /** What an approval of a batch states besides its rows: the upstream, and the batch's default profile. */
  private scope(profileId: string): ApprovalScope {
    return {
      kind: 'batch',
      environment: this.upstream.context.environment,
      service: apiRoot(this.upstream.baseUrl),
      profileId,
    };
  }

  private judge(
    policy: LoadedPolicy | undefined,
    rows: { body: Record<string, unknown> }[],
    approvals: { content: ApprovalContent; files: ParsedApproval[] },
    reserved: RecentWithdrawal[] = [],
    onSeen?: (seen: Set<string>) => void,
  ): Promise<PolicyVerdict> {
    return checkWithdrawals({
      client: this.upstream.client,
      policy,
      environment: this.upstream.context.environment,
      requests: () => rows.map((r, i) => withdrawalRequest(r.body as unknown as RowBody, i + 1)),
      approvals,
      machineNow: this.clock.now,
      reserved,
      onSeen,
    });
  }

  /**
   * POST /_gateway/batches: a batch's rows for the gateway's policy. 200 {held: false} when no approval is needed
   * (the client sends its rows as usual); 202 and the held batch when approvals are; the same batch again finds the
   * one held; a refusal by any other rule is 403 policy-refused.
   */
  async submit(op: Operator, body: GatewayInput<'submitBatch'>['body']): Promise<DeskAnswer> {
    if (WITHDRAWAL.scope && !ROLE_SCOPES[op.role].includes(WITHDRAWAL.scope))
      return gatewayProblem(403, 'role', 'Forbidden', `${op.name} is ${roleWords(op.role)}: the role cannot withdraw`);
    const given = body.rows;
    const profileId = body.profile_id || '-';
    const audit = this.desk.audit(op);
    try {
      return await this.submitted(op, given, profileId, audit);
    } finally {
      await audit.settled();
    }
  }

  private async submitted(
    op: Operator,
    given: Record<string, unknown>[],
    profileId: string,
    audit: GateAudit,
  ): Promise<DeskAnswer> {
    const gate = this.desk.gateWith(op, audit);
    const rows: { refId: string; body: Record<string, unknown> }[] = [];
    const refs = new Set<string>();
    for (const [i, raw] of given.entries()) {
      try {
        const p = await gate.prepare({ operation: 'createCryptoWithdrawal', body: raw, command: 'gateway batch' });
        if (refs.has(p.refId!))
          return gatewayProblem(400, 'invalid', 'Bad Request', `rows: row ${i + 1}: ref_id ${p.refId} is twice`);
        refs.add(p.refId!);
        rows.push({ refId: p.refId!, body: p.body });
      } catch (e) {
        const a = errorAnswer(e);
        return { ...a, body: { ...a.body, detail: `row ${i + 1}: ${String(a.body.detail ?? a.body.title)}` } };
      }
    }
    const builder = new ContentBuilder(this.scope(profileId));
    for (const r of rows) builder.add(r.body);
    const content = builder.finish();
    const lines = contentLines(content);
    const found = await this.rows.byContent(lines);
    if (found) {
      // Its sender gone (the lease ran out): this instance sends what is left before it answers.
      const again = await this.resumed(found);
      return this.desk.heldAnswer(again, again.status === 'sent' ? 200 : 202);
    }
    for (const r of rows) {
      const other = await this.rows.byRef(r.refId);
      if (other)
        return gatewayProblem(
          409,
          'batch-row',
          'Conflict',
          `ref_id ${r.refId} is a row of another batch held as ${other.batch.id}`,
        );
    }
    const policy = await this.desk.policy();
    if (!policy?.policy.approvals) return { status: 200, body: { held: false, approvals_required: 0 } };
    let verdict: PolicyVerdict;
    try {
      verdict = await this.judge(policy, rows, { content, files: [] });
    } catch (e) {
      return errorAnswer(e);
    }
    if (verdict.allowed) return { status: 200, body: { held: false, approvals_required: 0 } };
    const what = {
      operator: op.name,
      ...batchWhat(
        rows.map((r) => r.body),
        content,
      ),
    };
    if (!onlyApprovalsMissing(verdict)) {
      const error = refusal(verdict);
      await audit.record({
        kind: 'batch',
        what,
        outcome: { result: 'refused', error: { category: 'policy', message: error.inFull() } },
      });
      return errorAnswer(error);
    }
    const now = this.clock.now();
    const { held, created } = await this.rows.hold(
      {
        operator: op.name,
        body: { profile_id: profileId, rows: rows.map((r) => r.body) },
        content: lines,
        expiresAt: now + this.clock.ttl,
      },
      rows,
      now,
    );
    if (!created) return this.desk.heldAnswer(held, held.status === 'sent' ? 200 : 202);
    await audit.record({
      kind: 'batch',
      what: { ...what, pending_id: held.id, approvals_required: policy.policy.approvals.required },
      outcome: { result: 'held' },
    });
    return this.desk.heldAnswer(held, 202);
  }

  /** A held batch as approvers see it: every row (its destination, amount, ref_id, outcome) and the totals. */
  async describe(pending: Pending): Promise<Record<string, unknown>> {
    const rows = await this.rows.rows(pending.id);
    const content = contentFromLines(pending.content);
    const totals = content?.totals ?? [];
    const assets = [...new Set(totals.map((t) => t.asset))];
    const one = totals.length === 1 ? totals[0] : undefined;
    return {
      what: {
        asset: assets.join(', '),
        network: [...new Set(totals.map((t) => t.network))].join(', '),
        amount: one?.sum ?? totals.map((t) => `${t.sum} ${t.asset}`).join(' + '),
        destination: `${rows.length} row${rows.length === 1 ? '' : 's'}`,
        rows: rows.length,
      },
      rows: rows.map((r) => ({
        row: r.idx + 1,
        ref_id: r.refId,
        asset: r.body.asset,
        network: r.body.crypto_network,
        amount: r.body.amount ?? null,
        total: r.body.total ?? null,
        destination: r.body.destination_address,
        profile_id: r.body.profile_id ?? null,
        status: r.status,
        transfer_id: r.status === 'sent' ? (r.result?.id ?? null) : null,
        error: r.status === 'failed' ? (r.result?.detail ?? r.result?.title ?? null) : null,
      })),
      totals: totals.map((t) => ({ asset: t.asset, network: t.network, rows: t.rows, sum: t.sum })),
    };
  }

  /**
   * A withdrawal whose ref_id is a row of a held batch: answered from the store (202 while the batch is held or being
   * sent; the row's transfer, or the problem it was refused with, once sent), never sent again; undefined when no
   * live batch holds it. The same ref_id with another request is a conflict.
   */
  async rowAnswer(refId: string, body: Record<string, unknown>): Promise<DeskAnswer | undefined> {
    let found = await this.rows.byRef(refId);
    if (!found) return undefined;
    if (found.batch.status === 'sending' && (await this.resume(found.batch))) found = await this.rows.byRef(refId);
    if (!found) return undefined;
    const { batch, row } = found;
    let same = false;
    try {
      same =
        canonicalRow(canonicalBody('createCryptoWithdrawal', body as MoneyBody<'createCryptoWithdrawal'>)) ===
        canonicalRow(row.body);
    } catch {
      same = false;
    }
    if (!same)
      return gatewayProblem(
        409,
        'batch-row',
        'Conflict',
        `ref_id ${refId} is row ${row.idx + 1} of the batch held as ${batch.id}, with another request`,
      );
    if (batch.status === 'sent' && row.status === 'sent' && row.result) return { status: 200, body: row.result };
    if (batch.status === 'sent' && row.status === 'failed' && row.result) {
      const status = typeof row.result.status === 'number' && row.result.status >= 400 ? row.result.status : 422;
      return { status, body: row.result };
    }
    return this.desk.heldAnswer(batch, 202);
  }

  /** The approvals of a batch are complete (or the last one just came): the gateway sends its rows, once. */
  async release(op: Operator, held: Pending, audit: GateAudit): Promise<DeskAnswer> {
    const rows = await this.rows.rows(held.id);
    const stated = contentFromLines(held.content);
    if (!stated) return gatewayProblem(500, 'internal', 'Internal Server Error', 'the held content cannot be read');
    // As stated when it was held: the upstream's address may have moved since (an embedded local service's port).
    const b = new ContentBuilder({
      kind: 'batch',
      environment: stated.environment,
      service: stated.service,
      profileId: stated.profileId,
    });
    for (const r of rows) b.add(r.body);
    const content = b.finish();
    if (content.digest !== stated.digest)
      return gatewayProblem(
        500,
        'integrity',
        'Internal Server Error',
        `the held rows of ${held.id} are not those approved`,
      );
    const policy = await this.desk.policy();
    const files = (await this.store.approvals(held.id)).map((a) => parseApproval(`gateway:${a.operator}`, a.text));
    // Complete? Judged before the move to sending, so an approval short of the set changes nothing.
    let verdict: PolicyVerdict;
    try {
      verdict = await this.judge(policy, rows, { content, files });
    } catch (e) {
      return errorAnswer(e);
    }
    // Approvals still missing: it waits for them (the other rules are judged again when the set is complete).
    const missing = verdict.rules.some((r) => r.rule === 'approvals' && r.status === 'fail');
    if (!verdict.allowed && missing) return this.desk.heldAnswer(held);
    const mine = await this.rows.startSending(held.id, this.lease());
    if (!mine) return this.desk.heldAnswer((await this.store.pending(held.id)) ?? held);
    // Each row alone then passes the gate with the policy's other rules: the whole batch's approvals were judged here.
    const rowPolicy = async () => withoutApprovals(await this.desk.policy());
    const gate = this.desk.gateWith(op, audit, rowPolicy);
    let reserved: PolicyVerdict;
    try {
      reserved = await this.reserve(gate, held.id, policy, rows, (r, s) =>
        this.judge(policy, rows, { content, files }, r, s),
      );
    } catch (e) {
      await this.rows.finishSending(held.id, this.clock.holder, 'pending');
      return errorAnswer(e);
    }
    if (!reserved.allowed) {
      // The caps or the hours of now refuse it: it stays held, its approvals kept, to be released later or rejected.
      await this.rows.finishSending(held.id, this.clock.holder, 'pending');
      return errorAnswer(refusal(reserved));
    }
    const approvers = verdict.approvals?.filter((a) => a.status === 'valid' && a.key_id).map((a) => a.key_id!) ?? [];
    await audit.record({
      kind: 'batch',
      what: {
        pending_id: held.id,
        initiator: held.operator,
        ...batchWhat(
          rows.map((r) => r.body),
          content,
        ),
      },
      outcome: { result: 'approved' },
      ...(approvers.length ? { approver_keys: approvers } : {}),
    });
    await this.sendAndFinish(gate, held, rows);
    return this.desk.heldAnswer((await this.store.pending(held.id)) ?? held);
  }

  /** The rows still planned sent under this instance's lease, and the batch finished (unless another took it over). */
  private async sendAndFinish(gate: MoneyGate, held: Pending, rows: BatchRow[]): Promise<void> {
    const { unknown, lost } = await this.sendRows(gate, held, rows);
    // Taken over (this instance's lease ran out meanwhile): the instance holding it now finishes the batch.
    if (lost) return;
    const after = await this.rows.rows(held.id);
    const summary = {
      rows: after.length,
      sent: after.filter((r) => r.status === 'sent').length,
      failed: after.filter((r) => r.status === 'failed').length,
      unanswered: after.filter((r) => r.status === 'planned').length,
    };
    // A row without an answer (the upstream did not answer): back to pending, its approvals kept, so the next
    // approval (or approve again) sends what is left, each row by its ref_id, none twice.
    await this.rows.finishSending(held.id, this.clock.holder, unknown ? 'pending' : 'sent', summary);
  }

  /** A lease for this instance from now. */
  private lease(): Lease {
    return { holder: this.clock.holder, until: this.clock.now() + this.clock.leaseMs };
  }

  /** The batch as it is once resume() has had its turn (taken over and sent when its sender's lease ran out). */
  async resumed(batch: Pending): Promise<Pending> {
    if (batch.status !== 'sending' || !(await this.resume(batch))) return batch;
    return (await this.store.pending(batch.id)) ?? batch;
  }

  /**
   * A batch left sending by an instance that stopped (its lease ran out, never renewed): taken over by a compare-and-
   * set on its expired lease, so one instance does; the rows still planned are sent, each by its ref_id (a row the
   * stopped instance sent without recording it comes back from the upstream as the same transfer: the 409 of a ref_id
   * sent before, with the same request), and the batch finished. The rows' reservations were made at release and
   * each row's admission counts its own once (one never made is made then). False: not taken over (still leased, not
   * sending, or another instance took it first).
   */
  async resume(batch: Pending): Promise<boolean> {
    if (batch.operation !== 'batch' || batch.status !== 'sending') return false;
    const expired = batch.lease ?? null;
    if (expired && expired.until > this.clock.now()) return false;
    if (!(await this.rows.takeOver(batch.id, expired, this.lease()))) return false;
    const op = await this.store.operator(batch.operator);
    if (!op) {
      await this.rows.finishSending(batch.id, this.clock.holder, 'pending', { reason: 'the initiator is gone' });
      return true;
    }
    const audit = this.desk.audit(op);
    try {
      const rows = await this.rows.rows(batch.id);
      await audit.record({
        kind: 'batch',
        what: {
          pending_id: batch.id,
          initiator: batch.operator,
          resumed: true,
          lease_holder: expired?.holder ?? null,
          lease_until: expired ? new Date(expired.until).toISOString() : null,
          rows_planned: rows.filter((r) => r.status === 'planned').length,
          ...batchWhat(
            rows.map((r) => r.body),
            contentFromLines(batch.content),
          ),
        },
        outcome: { result: 'attempt' },
      });
      const rowPolicy = async () => withoutApprovals(await this.desk.policy());
      await this.sendAndFinish(this.desk.gateWith(op, audit, rowPolicy), batch, rows);
    } finally {
      await audit.settled();
    }
    return true;
  }

  /** Under a cap, every row reserved in the section that judges the whole batch; without one, the verdict alone. */
  private reserve(
    gate: MoneyGate,
    batchId: string,
    policy: LoadedPolicy | undefined,
    rows: BatchRow[],
    judge: (reserved: RecentWithdrawal[], onSeen?: (s: Set<string>) => void) => Promise<PolicyVerdict>,
  ): Promise<PolicyVerdict> {
    if (!policy?.policy.maxPer24h) return judge([]);
    const amounts = () =>
      rows.map((r) => ({
        ref_id: r.refId,
        asset: String(r.body.asset),
        amount: String(r.body.amount ?? r.body.total ?? '0'),
      }));
    return gate.reserveRows(batchId, amounts, judge);
  }

  /**
   * Each row not yet answered, through the gate, once, the lease renewed before each; unknown: some row got no answer
   * (it stays planned); lost: the lease is another instance's now (it sends the rest), so this one stopped.
   */
  private async sendRows(
    gate: MoneyGate,
    held: Pending,
    rows: BatchRow[],
  ): Promise<{ unknown: boolean; lost: boolean }> {
    let unknown = false;
    for (const r of rows) {
      if (r.status !== 'planned') continue;
      if (!(await this.rows.renewLease(held.id, this.lease()))) return { unknown, lost: true };
      let sent: Sent;
      try {
        const prepared = await gate.prepare({
          operation: 'createCryptoWithdrawal',
          body: r.body,
          command: 'gateway batch',
          what: { pending_id: held.id, row: r.idx + 1 },
        });
        sent = await gate.send(prepared, undefined, { preflighted: true });
      } catch (e) {
        const category = toCoinopError(e).category;
        if (category === 'network' || category === 'timeout') unknown = true;
        else await this.rows.settleRow(held.id, r.idx, 'failed', errorAnswer(e).body);
        continue;
      }
      await this.clock.afterRowSent?.(held.id, r.idx);
      await this.rows.settleRow(held.id, r.idx, 'sent', sent.data);
    }
    return { unknown, lost: false };
  }
}

/** A batch as its audit entries say it: its rows, their totals per asset and network, the content's SHA-256. */
export function batchWhat(bodies: Record<string, unknown>[], content: ApprovalContent | undefined): AuditWhat {
  const sums = new Map<string, { asset: string; network: string; rows: number; amount: Decimal; total: Decimal }>();
  for (const b of bodies) {
    const key = `${String(b.asset)} ${String(b.crypto_network)}`;
    let t = sums.get(key);
    if (!t)
      sums.set(
        key,
        (t = { asset: String(b.asset), network: String(b.crypto_network), rows: 0, amount: dec(0), total: dec(0) }),
      );
    t.rows++;
    if (typeof b.amount === 'string') t.amount = t.amount.plus(dec(b.amount));
    if (typeof b.total === 'string') t.total = t.total.plus(dec(b.total));
  }
  return {
    rows: bodies.length,
    totals: [...sums.values()].map((t) => ({ ...t, amount: fmt(t.amount), total: fmt(t.total) })),
    ...(content ? { content_sha256: content.digest } : {}),
  };
}

/** The policy with its approvals rule left out: for a row of a batch whose approvals were judged as a whole. */
function withoutApprovals(loaded: LoadedPolicy | undefined): LoadedPolicy | undefined {
  if (!loaded?.policy.approvals) return loaded;
  return { ...loaded, policy: { ...loaded.policy, approvals: undefined } };
}
