// The gateway's answers: an HTTP status and a JSON body; its own problems (problem+json), and an error on the way
// turned into one. Shared by the money desk and the batch desk.
import { toCoinopError } from '../errors.js';
import type { PolicyVerdict } from '../policy/evaluate.js';
import { PolicyRefusal } from '../policy/refusal.js';

/** An answer to the operator: HTTP status and JSON body, and headers of its own (an upstream's Retry-After). */
export interface DeskAnswer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

export const GATEWAY_PROBLEM_BASE = 'https://coinop.dev/problems/gateway/';

/** A problem+json body of the gateway's own. */
export function gatewayProblem(status: number, name: string, title: string, detail: string): DeskAnswer {
  return { status, body: { type: GATEWAY_PROBLEM_BASE + name, title, status, detail } };
}

/** A role with its article: "an initiator", "a viewer". */
export const roleWords = (role: string): string => `${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}`;

/** Whether the policy refuses only for want of approvals (everything else allows). */
export function onlyApprovalsMissing(verdict: PolicyVerdict): boolean {
  const failing = verdict.rules.filter((r) => r.status === 'fail').map((r) => r.rule);
  return failing.length > 0 && failing.every((r) => r === 'approvals');
}

/** An error on the way as the operator's answer: a refusal by the gate, the service's own problem, or unavailable. */
export function errorAnswer(error: unknown): DeskAnswer {
  const ce = toCoinopError(error);
  const problem = ce.problem;
  // The upstream's problem as it came, with its Retry-After (a 429, a 503): the operator's client waits as it asked.
  if (problem && typeof problem.status === 'number')
    return {
      status: problem.status,
      body: { ...problem },
      ...(ce.retryAfter !== undefined ? { headers: { 'retry-after': ce.retryAfter } } : {}),
    };
  switch (ce.category) {
    case 'usage':
      return gatewayProblem(400, 'invalid', 'Bad Request', ce.message);
    case 'policy':
      return gatewayProblem(
        403,
        'policy-refused',
        "Refused by the gateway's policy",
        // Nothing showed the operator the violations: the answer says them.
        (ce instanceof PolicyRefusal ? ce.inFull() : ce.message).replace(/^refused by policy: /, ''),
      );
    case 'network':
    case 'timeout':
      return gatewayProblem(502, 'upstream', 'Bad Gateway', ce.message);
    case 'file':
      return gatewayProblem(503, 'store', 'Service Unavailable', ce.message);
    default:
      return gatewayProblem(500, 'internal', 'Internal Server Error', ce.message);
  }
}
