// The policy's decisions in the audit trail: a run the policy refused (which rules, which file), a run that went
// ahead on approvals (whose keys), a policy file that blocked a command, and each approval signed. Dry runs decide
// nothing and are not recorded. The entries are written as notes (a log that cannot be written is a warning), and
// the command waits for them on its way out.
import type { AuditEvent } from '../audit/entry.js';
import type { PolicyEvent } from '../policy/events.js';
import type { AuditPort } from './audit.js';

/** A request's fields without its ref_id (the entry's own field), and none undefined. */
function stripRef(record: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record ?? {})) if (k !== 'ref_id' && v !== undefined) out[k] = v;
  return out;
}

/** The audit entry for a policy event, or undefined when it records nothing (a dry run). */
export function policyAuditEvent(event: PolicyEvent): AuditEvent | undefined {
  if (event.type === 'policy-unloadable')
    return {
      kind: 'policy_refusal',
      ...(event.request?.ref_id ? { ref_id: event.request.ref_id } : {}),
      what: { ...stripRef(event.request), command: event.command, policy_file: event.file },
      outcome: { result: 'refused', error: { category: 'policy', message: event.error } },
    };
  if (event.type === 'approval-signed')
    return {
      kind: 'approval',
      what: {
        file: event.file,
        approval_file: event.approval_file,
        content_digest: event.content.digest,
        rows: event.content.rows,
      },
      outcome: { result: 'approved' },
      approver_keys: [event.key_id],
    };
  if (event.dry_run) return undefined;
  const v = event.verdict;
  const counted = (v.approvals ?? []).filter((a) => a.status === 'valid' && a.key_id).map((a) => a.key_id as string);
  const policy = { command: event.command, policy_file: v.file ?? undefined, policy_sha256: v.sha256 };
  if (!v.allowed) {
    const failed = v.rules.filter((r) => r.status === 'fail');
    return {
      kind: 'policy_refusal',
      what: { ...policy, requests: v.requests, rules: failed.map((r) => r.rule) },
      outcome: {
        result: 'refused',
        error: { category: 'policy', message: failed.map((r) => `${r.rule}: ${r.detail}`).join('; ') },
      },
      ...(counted.length ? { approver_keys: counted } : {}),
    };
  }
  // Allowed on approvals: the keys that counted are recorded with the run they let through.
  if (!counted.length) return undefined;
  return {
    kind: 'approval',
    what: { ...policy, requests: v.requests },
    outcome: { result: 'approved' },
    approver_keys: counted,
  };
}

/** Hands each policy event to the audit trail; the clean-up waits for what is being written. */
export function recordPolicyEvents(
  onPolicyEvent: (listener: (e: PolicyEvent) => void) => void,
  audit: () => AuditPort,
  onCleanup: (fn: () => unknown) => void,
): void {
  const pending: Promise<void>[] = [];
  onPolicyEvent((policyEvent) => {
    const event = policyAuditEvent(policyEvent);
    if (event) pending.push(audit().note(event));
  });
  onCleanup(() => Promise.all(pending));
}
