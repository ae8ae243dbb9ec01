// The error that refuses a run the policy does not allow: the rules it breaks, the one violation when there is one,
// the file. Shared by every way money is sent (the gate, the commands' dry runs, the MCP server).
import { CoinopError } from '../errors.js';
import type { PolicyVerdict, RuleVerdict } from './evaluate.js';

export const violationText = (v: { row?: number; message: string }) =>
  `${v.row !== undefined ? `row ${v.row}: ` : ''}${v.message}`;

export const violationLine = (r: RuleVerdict, v: { row?: number; message: string }) => `${r.rule}: ${violationText(v)}`;

/** Each violation of each rule that refused, in words ("assets: BTC is not an asset the policy allows"). */
export const violations = (v: PolicyVerdict): string[] =>
  v.rules.filter((r) => r.status === 'fail').flatMap((r) => r.violations.map((x) => violationLine(r, x)));

/** What a refusal says of its violations: `listed` when they were shown already, else the first few. */
function refusalMessage(verdict: PolicyVerdict, listed: boolean): string {
  const failed = verdict.rules.filter((r) => r.status === 'fail');
  const total = failed.reduce((n, r) => n + r.violations_total, 0);
  const only = total === 1 ? failed[0] : undefined;
  const first = violations(verdict).slice(0, 3);
  const shown = listed
    ? 'listed above'
    : `${first.join('; ')}${total > first.length ? `; and ${total - first.length} more` : ''}`;
  const what = only
    ? `rule ${violationLine(only, only.violations[0])} (policy ${verdict.file})`
    : `${total} violations of rule${failed.length === 1 ? '' : 's'} ${failed.map((r) => r.rule).join(', ')} (${shown}; policy ${verdict.file})`;
  return `refused by policy: ${what}; nothing was sent`;
}

/**
 * A run the policy refuses, with the verdict that refused it as data: its message is the CLI's, which showed the
 * violations above it; `inFull()` says the first few of them instead, for an answer or a record that stands alone (a
 * gateway's answer, the gate's audit entry).
 */
export class PolicyRefusal extends CoinopError {
  constructor(readonly verdict: PolicyVerdict) {
    const approvals = verdict.rules.some((r) => r.status === 'fail' && r.rule === 'approvals');
    super('policy', refusalMessage(verdict, true), {
      hint: approvals
        ? 'have the content approved (coinop approve FILE) and pass the approval files (--approvals, or next to the file)'
        : 'the policy changes only by editing its file (coinop policy show)',
    });
  }

  /** The refusal with its first violations said in it (and how many more). */
  inFull(): string {
    return refusalMessage(this.verdict, false);
  }
}

/** The refusal of a run the policy does not allow (its violations shown above its message). */
export const refusal = (verdict: PolicyVerdict): PolicyRefusal => new PolicyRefusal(verdict);
