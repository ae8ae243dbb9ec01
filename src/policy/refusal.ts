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

/**
 * `listed`: the caller showed the violations already (the CLI's verdict above the error); otherwise (a gateway's
 * answer) the first few are said in the message itself.
 */
export function refusal(verdict: PolicyVerdict, listed = true): CoinopError {
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
  const approvals = failed.some((r) => r.rule === 'approvals');
  return new CoinopError('policy', `refused by policy: ${what}; nothing was sent`, {
    hint: approvals
      ? 'have the content approved (coinop approve FILE) and pass the approval files (--approvals, or next to the file)'
      : 'the policy changes only by editing its file (coinop policy show)',
  });
}
