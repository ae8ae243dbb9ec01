// /_gateway/policy: the policy in force (GET, any operator), and a new version from an admin operator (PUT or POST
// with {"policy": TEXT, "file": NAME}), checked as a policy file is, then set at once or held for approvals as the
// policy in force says (held-policy-changes.ts). An admin need not open the store to change it.
import type { AuditWho } from '../audit/entry.js';
import { createHash } from 'node:crypto';
import { formatPolicyIssue, PolicyFileError, parsePolicy } from '../policy/load.js';
import { type DeskAnswer, gatewayProblem, roleWords } from './money-desk.js';
import { isAdmin } from './operators.js';
import type { PolicyChanges } from './held-policy-changes.js';
import type { GatewayStore, Operator } from './store.js';
import type { GatewayInput } from '../contract/gateway.js';

export interface PolicyRouteDeps {
  store: GatewayStore;
  changes: PolicyChanges;
  /** Who the operator's audit entries name. */
  who: AuditWho;
}

/** GET /_gateway/policy: the policy in force (version 0 and no body before one is set). */
export async function policyInForce(store: Pick<GatewayStore, 'policy'>): Promise<DeskAnswer> {
  const p = await store.policy();
  return { status: 200, body: p ? { ...p } : { version: 0, body: null } };
}

/** PUT or POST /_gateway/policy: a new version from an admin, its body already checked (src/contract/gateway.ts). */
export async function setPolicy(
  deps: PolicyRouteDeps,
  op: Operator,
  json: GatewayInput<'setPolicy'>['body'],
): Promise<DeskAnswer> {
  if (!isAdmin(op.role))
    return gatewayProblem(
      403,
      'role',
      'Forbidden',
      `${op.name} is ${roleWords(op.role)}: only an admin sets the policy`,
    );
  const file = typeof json.file === 'string' && json.file.length <= 200 ? json.file : 'policy';
  try {
    parsePolicy(json.policy, file);
  } catch (e) {
    if (e instanceof PolicyFileError)
      return gatewayProblem(400, 'invalid', 'Bad Request', e.issues.map((i) => formatPolicyIssue(file, i)).join('; '));
    throw e;
  }
  const sha256 = createHash('sha256').update(json.policy).digest('hex');
  const proposal = await deps.changes.propose({ text: json.policy, sha256, file, proposer: op.name, who: deps.who });
  if (proposal.set) return { status: 200, body: { version: proposal.version, sha256 } };
  return deps.changes.answer(proposal.pending, 202);
}
