// What the policy's unit tests share: a context at a fixed time in production, the verdict of a policy file's text on
// requests, and the rules that failed with their messages.
import { evaluate, type PolicyContext, type PolicyRequest, type PolicyVerdict } from '../../src/policy/evaluate.js';
import { parsePolicy } from '../../src/policy/load.js';

export const context: PolicyContext = {
  environment: 'production',
  now: Date.parse('2026-06-15T12:00:00Z'),
  clock: 'service',
};

/** The verdict of the policy `yaml` on the requests, in `context` (with `more`). */
export const verdict = (yaml: string, requests: PolicyRequest[], more: Partial<PolicyContext> = {}): PolicyVerdict =>
  evaluate(parsePolicy(yaml, 'p.yaml'), requests, { ...context, ...more });

/** The rules that failed, each with its violations' messages. */
export const failed = (v: PolicyVerdict) =>
  v.rules.filter((r) => r.status === 'fail').map((r) => [r.rule, r.violations.map((x) => x.message)]);
