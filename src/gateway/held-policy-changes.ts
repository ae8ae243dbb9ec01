// A new version of the gateway's policy, held for approvals when the policy in force says so (its policy_changes
// rule): the change waits in the same inbox as held money (gw_pending, operation setGatewayPolicy), approvers sign its
// exact content with Ed25519 as they sign a withdrawal (src/policy/approvals.ts: kind policy, the SHA-256 of the new
// text, the version it replaces, the gateway's store), the proposer cannot approve their own, and the approval that
// completes the set makes it the next version, once (one transaction moves it from pending to sent and adds the
// version). A rejection, an expiry, or another version set in between leaves the policy as it is. Every step is an
// entry in the store's audit chain.
import type { AuditEvent, AuditWho } from '../audit/entry.js';
import { POLICY_CHANGE_OPERATION } from '../client/gateway-calls.js';
import {
  type ApprovalContent,
  contentFromLines,
  contentLines,
  parseApproval,
  verifyApprovals,
} from '../policy/approvals.js';
import { parsePolicy } from '../policy/load.js';
import type { PolicyChangeRule } from '../policy/policy.js';
import { type DeskAnswer, gatewayProblem, roleWords } from './money-desk.js';
import { canApprove } from './operators.js';
import type { GatewayStore, Operator, Pending, PolicyVersion } from './store.js';

/** The operation a held policy change is kept under in the inbox. */
export const POLICY_CHANGE = POLICY_CHANGE_OPERATION;

/** What a held policy change holds: the new text, and the version it replaces. */
export interface PolicyChangeBody {
  policy: string;
  sha256: string;
  /** The file it was read from, as the proposer named it. */
  file: string;
  replaces_version: number;
  replaces_sha256: string;
}

/** What an approval of a policy change states: the new text's SHA-256, the version it replaces, the gateway. */
export function policyChangeContent(gatewayId: string, body: PolicyChangeBody): ApprovalContent {
  return {
    kind: 'policy',
    environment: 'gateway',
    service: `gateway:${gatewayId}`,
    profileId: '-',
    replaces: `${body.replaces_version} sha256:${body.replaces_sha256}`,
    rows: 1,
    totals: [],
    digest: body.sha256,
  };
}

/** The policy_changes rule of a stored version, if it has one. */
export function changeRuleOf(version: PolicyVersion | undefined): PolicyChangeRule | undefined {
  return version ? parsePolicy(version.body, `gateway policy v${version.version}`).policy.policyChanges : undefined;
}

export type Proposal =
  | { set: true; version: number }
  | { set: false; pending: Pending; required: number; replaces: number };

export interface PolicyChangesOptions {
  now?: () => number;
  ttlMs: number;
}

const short = (sha: string) => `${sha.slice(0, 12)}…`;

export class PolicyChanges {
  private readonly now: () => number;

  constructor(
    private readonly store: GatewayStore,
    private readonly options: PolicyChangesOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  private async record(who: AuditWho, event: AuditEvent): Promise<void> {
    await this.store.appendAudit([{ who, event }]);
  }

  /**
   * A new version proposed by `proposer` (an operator, or the person at the store's machine): set at once when the
   * policy in force has no policy_changes rule (or there is none yet), else held for its approvals.
   */
  async propose(input: {
    text: string;
    sha256: string;
    file: string;
    proposer: string;
    who: AuditWho;
  }): Promise<Proposal> {
    // Read and set in one section: a version with policy_changes set meanwhile is never skipped past.
    const decided = await this.store.sql.exclusive('gw_policy', async (tx) => {
      const current = await this.store.policyIn(tx);
      const rule = changeRuleOf(current);
      if (current && rule) return { held: true as const, current, rule };
      return {
        held: false as const,
        version: await this.store.addPolicyVersion(tx, input.text, input.sha256, input.proposer),
      };
    });
    if (!decided.held) {
      const { version } = decided;
      await this.record(input.who, {
        kind: 'gateway_admin',
        ref_id: null,
        what: { change: 'policy_set', version, policy_sha256: input.sha256, file: input.file },
        outcome: { result: 'sent' },
      });
      return { set: true, version };
    }
    const { current, rule } = decided;
    const body: PolicyChangeBody = {
      policy: input.text,
      sha256: input.sha256,
      file: input.file,
      replaces_version: current.version,
      replaces_sha256: current.sha256,
    };
    const content = policyChangeContent(await this.store.gatewayId(), body);
    const pending = await this.store.hold({
      operator: input.proposer,
      operation: POLICY_CHANGE,
      body: body as unknown as Record<string, unknown>,
      refId: null,
      content: contentLines(content),
      expiresAt: this.now() + this.options.ttlMs,
    });
    await this.record(input.who, {
      kind: 'gateway_admin',
      ref_id: null,
      what: {
        change: 'policy_proposed',
        pending_id: pending.id,
        policy_sha256: input.sha256,
        replaces_version: current.version,
        approvals_required: rule.required,
        file: input.file,
      },
      outcome: { result: 'held' },
    });
    return { set: false, pending, required: rule.required, replaces: current.version };
  }

  /** A held policy change as the inbox shows it (the same shape as held money). */
  async answer(pending: Pending, status = 200): Promise<DeskAnswer> {
    const expired = pending.status === 'pending' && pending.expiresAt <= this.now();
    const body = pending.body as unknown as PolicyChangeBody;
    const approvals = await this.store.approvals(pending.id);
    const rule = changeRuleOf(await this.store.policy());
    return {
      status,
      body: {
        pending_id: pending.id,
        operation: POLICY_CHANGE,
        status: expired ? 'expired' : pending.status,
        initiator: pending.operator,
        ref_id: null,
        request: { ...body },
        what: {
          change: 'policy',
          destination: `the gateway's policy (sha256 ${short(body.sha256)})`,
          policy_sha256: body.sha256,
          replaces_version: body.replaces_version,
        },
        content: pending.content,
        approvals: approvals.map((a) => ({ operator: a.operator, at: new Date(a.at).toISOString() })),
        approvals_required: rule?.required ?? 0,
        created_at: new Date(pending.createdAt).toISOString(),
        expires_at: new Date(pending.expiresAt).toISOString(),
        result: pending.result,
      },
    };
  }

  /** Why this operator may not approve or reject this change now, if anything (an expiry is recorded here). */
  private async refusal(op: Operator, who: AuditWho, pending: Pending): Promise<DeskAnswer | undefined> {
    if (!canApprove(op.role))
      return gatewayProblem(403, 'role', 'Forbidden', `${op.name} is ${roleWords(op.role)}: only approvers approve`);
    if (pending.operator === op.name)
      return gatewayProblem(403, 'own-request', 'Forbidden', 'the proposer cannot approve or reject their own policy');
    if (pending.status === 'pending' && pending.expiresAt <= this.now()) {
      const moved = await this.store.sql.exclusive(`gw_pending:${pending.id}`, (tx) =>
        this.store.transition(tx, pending.id, 'pending', 'expired'),
      );
      if (moved) await this.recordEnd(who, pending, 'policy_expired', 'expired');
      return gatewayProblem(
        409,
        'expired',
        'Conflict',
        `the policy change expired at ${new Date(pending.expiresAt).toISOString()}; the policy is as it was`,
      );
    }
    if (pending.status !== 'pending')
      return gatewayProblem(409, 'not-pending', 'Conflict', `the policy change is ${pending.status}, not waiting`);
    return undefined;
  }

  private recordEnd(
    who: AuditWho,
    pending: Pending,
    change: string,
    result: 'expired' | 'rejected' | 'failed',
    more: Record<string, unknown> = {},
  ): Promise<void> {
    const body = pending.body as unknown as PolicyChangeBody;
    return this.record(who, {
      kind: 'gateway_admin',
      ref_id: null,
      what: {
        change,
        pending_id: pending.id,
        proposed_by: pending.operator,
        policy_sha256: body.sha256,
        replaces_version: body.replaces_version,
        ...more,
      },
      outcome: { result },
    });
  }

  /** The change is stale once another version is in force: it can never be applied (recorded as failed). */
  private async staleAnswer(who: AuditWho, pending: Pending, current: PolicyVersion | undefined): Promise<DeskAnswer> {
    const body = pending.body as unknown as PolicyChangeBody;
    const why = `the policy is at version ${current?.version ?? 0} now, not ${body.replaces_version}, which this change replaces: propose it again`;
    const moved = await this.store.sql.exclusive(`gw_pending:${pending.id}`, (tx) =>
      this.store.transition(tx, pending.id, 'pending', 'failed', { error: why }),
    );
    if (moved) await this.recordEnd(who, pending, 'policy_stale', 'failed', { reason: why });
    return gatewayProblem(409, 'stale', 'Conflict', why);
  }

  /** An approver's signed approval of a held change; the one that completes the set makes it the next version. */
  async approve(op: Operator, who: AuditWho, pending: Pending, text: string): Promise<DeskAnswer> {
    const refused = await this.refusal(op, who, pending);
    if (refused) return refused;
    const body = pending.body as unknown as PolicyChangeBody;
    const current = await this.store.policy();
    const rule = changeRuleOf(current);
    if (current?.version !== body.replaces_version || !rule) return this.staleAnswer(who, pending, current);
    const parsed = parseApproval(`gateway:${op.name}`, text);
    if (parsed.error) return gatewayProblem(400, 'approval', 'Bad Request', `approval: ${parsed.error}`);
    const content = contentFromLines(pending.content);
    if (!content) return gatewayProblem(500, 'internal', 'Internal Server Error', 'the held content cannot be read');
    const [result] = verifyApprovals([parsed], content, rule.keys);
    if (result.status !== 'valid')
      return gatewayProblem(422, 'approval', 'Unprocessable Entity', `approval: ${result.reason ?? result.status}`);
    const bound = await this.store.bindApproverKey(op.name, parsed.fields.approver);
    if (bound !== parsed.fields.approver)
      return gatewayProblem(403, 'approver-key', 'Forbidden', `${op.name} approves with another key (${bound})`);
    await this.store.sql.exclusive(`gw_pending:${pending.id}`, (tx) =>
      this.store.addApproval(tx, pending.id, op.name, text),
    );
    await this.record(who, {
      kind: 'approval',
      ref_id: null,
      what: { pending_id: pending.id, change: 'policy', initiator: pending.operator, policy_sha256: body.sha256 },
      outcome: { result: 'approved' },
      approver_keys: result.key_id ? [result.key_id] : undefined,
    });
    return this.activateIfComplete(who, pending, content, rule);
  }

  /** Makes the change the next version when its valid approvals reach the rule's count: once, in one transaction. */
  private async activateIfComplete(
    who: AuditWho,
    pending: Pending,
    content: ApprovalContent,
    rule: PolicyChangeRule,
  ): Promise<DeskAnswer> {
    const stored = await this.store.approvals(pending.id);
    const results = verifyApprovals(
      stored.map((a) => parseApproval(`gateway:${a.operator}`, a.text)),
      content,
      rule.keys,
    );
    const approvers = stored.filter((_a, i) => results[i].status === 'valid').map((a) => a.operator);
    if (approvers.length < rule.required) return this.answer((await this.store.pending(pending.id)) ?? pending);
    const body = pending.body as unknown as PolicyChangeBody;
    const outcome = await this.store.sql.exclusive('gw_policy', async (tx) => {
      const current = await this.store.policyIn(tx);
      if (current?.version !== body.replaces_version) return { stale: current };
      if (!(await this.store.transition(tx, pending.id, 'pending', 'sending'))) return { lost: true };
      const setBy = `${pending.operator} (approved by ${approvers.join(', ')})`;
      const version = await this.store.addPolicyVersion(tx, body.policy, body.sha256, setBy);
      await this.store.transition(tx, pending.id, 'sending', 'sent', { version });
      return { version };
    });
    if ('stale' in outcome) return this.staleAnswer(who, pending, outcome.stale);
    if ('version' in outcome)
      await this.record(who, {
        kind: 'gateway_admin',
        ref_id: null,
        what: {
          change: 'policy_set',
          version: outcome.version,
          policy_sha256: body.sha256,
          pending_id: pending.id,
          proposed_by: pending.operator,
          approved_by: approvers.join(', '),
          file: body.file,
        },
        outcome: { result: 'sent' },
      });
    return this.answer((await this.store.pending(pending.id)) ?? pending);
  }

  /** An approver's rejection: the change is never applied. */
  async reject(op: Operator, who: AuditWho, pending: Pending, reason: string): Promise<DeskAnswer> {
    const refused = await this.refusal(op, who, pending);
    if (refused) return refused;
    const moved = await this.store.sql.exclusive(`gw_pending:${pending.id}`, (tx) =>
      this.store.transition(tx, pending.id, 'pending', 'rejected', { rejected_by: op.name, reason }),
    );
    if (!moved) return gatewayProblem(409, 'not-pending', 'Conflict', 'the policy change is no longer waiting');
    await this.recordEnd(who, pending, 'policy_rejected', 'rejected', { rejected_by: op.name, reason });
    return this.answer((await this.store.pending(pending.id)) ?? pending);
  }
}
