// Each policy refusal's hint fits the rule that refused (issue 29, item 8): approvals cannot change a destination, a
// maximum or the hours, so only the approvals rule points to coinop approve, and a single withdrawal's says to save it
// with --dry-run --save FILE first; a batch's names its file.
import { describe, expect, it } from 'vitest';
import type { PolicyVerdict, RuleVerdict } from '../../src/policy/evaluate.js';
import type { RuleName } from '../../src/policy/policy.js';
import { PolicyRefusal, refusalHint } from '../../src/policy/refusal.js';
import { verdict } from './verdicts.js';

const BTC = 'bc1qaf3e3jk48cp6fzyyyssgxzshvqnsg8z356z7xm';
const withdrawal = (amount: string, row?: number) => ({
  kind: 'withdrawal' as const,
  asset: 'BTC',
  amount,
  crypto_network: 'BITCOIN',
  destination_address: BTC,
  ...(row !== undefined ? { row } : {}),
});

/** A refused verdict of the rules given (for the approvals rule, which needs keys and content to evaluate). */
function refusedBy(rules: RuleName[], requests = 1): PolicyVerdict {
  const rule = (name: RuleName): RuleVerdict => ({
    rule: name,
    status: 'fail',
    detail: '',
    violations: [{ message: `${name} broken` }],
    violations_total: 1,
  });
  return {
    allowed: false,
    file: '/home/op/.config/coinop/policies/prod.yaml',
    checked_at: '2026-06-15T12:00:00.000Z',
    clock: 'service',
    environment: 'production',
    requests,
    rules: rules.map(rule),
  };
}

describe('the hint of a policy refusal', () => {
  it('destinations: the allow-list or a saved destination, never approvals', () => {
    const hint = refusalHint(verdict('destinations: [1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2]\n', [withdrawal('0.1')]));
    expect(hint).toMatch(/--to NICKNAME/);
    expect(hint).toMatch(/add it to its destinations \(edit p\.yaml\)/);
    expect(hint).not.toMatch(/approve/);
  });

  it('max_per_withdrawal: split it or raise the limit', () => {
    const hint = refusalHint(verdict('max_per_withdrawal: { BTC: 0.5 }\n', [withdrawal('0.6')]));
    expect(hint).toBe(
      'split it into withdrawals within the limit, or raise max_per_withdrawal in the policy (edit p.yaml)',
    );
  });

  it('max_per_24h: wait, or raise it', () => {
    const v = verdict('max_per_24h: { BTC: 1 }\n', [withdrawal('2')]);
    expect(refusalHint(v)).toMatch(/^wait until earlier withdrawals are 24 hours old, or raise max_per_24h/);
  });

  it('hours: wait for the window, which it names', () => {
    const v = verdict('hours: "08:00-10:00 UTC"\n', [withdrawal('0.1')]);
    expect(v.allowed).toBe(false);
    const hint = refusalHint(v);
    expect(hint).toMatch(/^wait for the policy's hours \(12:00 UTC is outside 08:00-10:00 UTC/);
    expect(hint).not.toMatch(/approve/);
  });

  it('approvals, one withdrawal: save it with --dry-run --save FILE, approve the file, send it from the file', () => {
    const hint = refusalHint(refusedBy(['approvals']), { command: 'withdraw' });
    expect(hint).toBe(
      'save the request (coinop withdraw ... --dry-run --save FILE), have it approved (coinop approve FILE), then send it with coinop withdraw --request FILE',
    );
    expect(refusalHint(refusedBy(['approvals']), { command: 'withdraw fiat' })).toMatch(
      /coinop withdraw fiat \.\.\. --dry-run --save FILE/,
    );
  });

  it('approvals, a saved request: have that file approved', () => {
    expect(refusalHint(refusedBy(['approvals']), { command: 'withdraw', request: 'payout-7.json' })).toMatch(
      /^have payout-7\.json approved \(coinop approve payout-7\.json\), then send it again/,
    );
  });

  it('approvals, a batch: the batch form, naming its file (FILE when the caller did not say)', () => {
    expect(refusalHint(refusedBy(['approvals'], 3), { batch: 'payouts.csv' })).toMatch(
      /^have the batch approved \(coinop approve payouts\.csv\), then run coinop withdraw batch payouts\.csv again/,
    );
    expect(refusalHint(refusedBy(['approvals'], 3))).toMatch(/coinop approve FILE\), then run coinop withdraw batch/);
  });

  it('several rules: the fix of each, named by its rule, in the policy order', () => {
    const hint = refusalHint(refusedBy(['destinations', 'max_per_withdrawal', 'approvals']), { command: 'withdraw' });
    expect(hint).toMatch(
      /^destinations: send to a destination .*; max_per_withdrawal: split it .*; approvals: save the request/,
    );
  });

  it('the refusal carries it', () => {
    const e = new PolicyRefusal(refusedBy(['hours']));
    expect(e.hint).toMatch(/^wait for the policy's hours/);
    expect(e.category).toBe('policy');
  });
});
