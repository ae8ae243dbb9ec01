// What the policy's unit tests of one kind of request share: a production context at noon by the service's clock,
// the verdict of a policy text on requests, and the failed rules with their messages.
import { evaluate, type PolicyContext, type PolicyRequest, type PolicyVerdict } from '../../src/policy/evaluate.js';
import { parsePolicy } from '../../src/policy/load.js';

export const context: PolicyContext = {
  environment: 'production',
  now: Date.parse('2026-06-15T12:00:00Z'),
  clock: 'service',
};

export const verdict = (yaml: string, requests: PolicyRequest[], more: Partial<PolicyContext> = {}): PolicyVerdict =>
  evaluate(parsePolicy(yaml, 'p.yaml'), requests, { ...context, ...more });

export const failed = (v: PolicyVerdict): (string | string[])[][] =>
  v.rules.filter((r) => r.status === 'fail').map((r) => [r.rule, r.violations.map((x) => x.message)]);
