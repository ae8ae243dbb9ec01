// The error that refuses a run the policy does not allow: the rules it breaks, the one violation when there is one,
// the file. Shared by every way money is sent (the gate, the commands' dry runs, the MCP server).
import { CoinopError } from '../errors.js';
import type { PolicyVerdict, RuleVerdict } from './evaluate.js';
import type { RuleName } from './policy.js';

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
 * How the refused run is sent, for the approvals rule's hint: a batch file (`coinop approve FILE` takes it as it is),
 * or the command that saves a single withdrawal for approval (`--dry-run --save FILE`), or a saved request already
 * (--request FILE). Without it, a run of several requests is taken as a batch and one request as a withdrawal.
 */
export interface RefusedRun {
  batch?: string;
  /** The command that sends (and saves) the single request: `withdraw`, `withdraw fiat`. */
  command?: string;
  /** The saved request the run was sent from (--request FILE). */
  request?: string;
}

const POLICY_FILE = (file: string | null) => (file ? `edit ${file}` : 'coinop policy show');

/** What fixes each rule: approvals cannot change a destination, a maximum or the hours. */
const RULE_FIX: Record<RuleName, (r: RuleVerdict, file: string | null, run: RefusedRun) => string> = {
  destinations: (_, f) =>
    `send to a destination the policy lists (a saved one: --to NICKNAME, coinop destinations list), or add it to its destinations (${POLICY_FILE(f)})`,
  verified_only: () =>
    'send to an address the service verified as yours (coinop addresses verify), or turn verified_only off in the policy',
  networks: (_, f) => `use a network the policy lists, or add it to its networks (${POLICY_FILE(f)})`,
  assets: (_, f) => `use an asset the policy lists, or add it to its assets (${POLICY_FILE(f)})`,
  max_per_withdrawal: (_, f) =>
    `split it into withdrawals within the limit, or raise max_per_withdrawal in the policy (${POLICY_FILE(f)})`,
  max_per_24h: (_, f) =>
    `wait until earlier withdrawals are 24 hours old, or raise max_per_24h in the policy (${POLICY_FILE(f)})`,
  hours: (r, f) => `wait for the policy's hours (${r.detail}), or change hours in the policy (${POLICY_FILE(f)})`,
  approvals: (_, __, run) => approvalsFix(run),
};

function approvalsFix(run: RefusedRun): string {
  const pass = 'the approval files next to it or named with --approvals';
  if (run.request)
    return `have ${run.request} approved (coinop approve ${run.request}), then send it again with ${pass}`;
  if (run.batch)
    return `have the batch approved (coinop approve ${run.batch}), then run coinop withdraw batch ${run.batch} again with ${pass}`;
  const command = run.command ?? 'withdraw';
  return `save the request (coinop ${command} ... --dry-run --save FILE), have it approved (coinop approve FILE), then send it with coinop ${command} --request FILE`;
}

/** The fix of each rule that refused, in the policy's order: one hint for the whole refusal. */
export function refusalHint(verdict: PolicyVerdict, run: RefusedRun = {}): string {
  const failed = verdict.rules.filter((r) => r.status === 'fail');
  const batchLike = !run.command && !run.request && !run.batch && verdict.requests > 1;
  const how = batchLike ? { batch: 'FILE' } : run;
  const fixes = failed.map((r) => ({ rule: r.rule, fix: RULE_FIX[r.rule](r, verdict.file, how) }));
  if (fixes.length === 1) return fixes[0].fix;
  return fixes.map((f) => `${f.rule}: ${f.fix}`).join('; ');
}

/**
 * A run the policy refuses, with the verdict that refused it as data: its message is the CLI's, which showed the
 * violations above it; `inFull()` says the first few of them instead, for an answer or a record that stands alone (a
 * gateway's answer, the gate's audit entry). Its hint says how to fix each rule that refused.
 */
export class PolicyRefusal extends CoinopError {
  constructor(
    readonly verdict: PolicyVerdict,
    run: RefusedRun = {},
  ) {
    super('policy', refusalMessage(verdict, true), { hint: refusalHint(verdict, run) });
  }

  /** The refusal with its first violations said in it (and how many more). */
  inFull(): string {
    return refusalMessage(this.verdict, false);
  }
}

/** The refusal of a run the policy does not allow (its violations shown above its message). */
export const refusal = (verdict: PolicyVerdict, run?: RefusedRun): PolicyRefusal => new PolicyRefusal(verdict, run);
