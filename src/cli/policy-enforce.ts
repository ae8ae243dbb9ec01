// The policy where money moves (withdraw, withdraw batch, transfer internal): the context's policy loaded (a file
// that does not load refuses everything), the verdict asked of src/policy and handed to the listeners, a dry run's
// verdicts shown, and a run the policy refuses stopped before anything is sent, every violation listed (exit 8).
// No flag skips it: the policy changes only by changing its file.
import type { Connection } from './invocation.js';
import type { Ports } from './ports.js';
import { CoinopError } from './errors.js';
import type { ApprovalContent, ParsedApproval } from '../policy/approvals.js';
import type { PolicyRequest, PolicyVerdict, RecentWithdrawal } from '../policy/evaluate.js';
import { policyLocation } from '../policy/location.js';
import type { LoadedPolicy } from '../policy/policy.js';
import { palette } from '../render/style.js';
import { type RefusedRun, refusal, violationLine, violationText } from '../policy/refusal.js';

export { refusal } from '../policy/refusal.js';

/**
 * The coinop context's policy: undefined only when there is certainly no file; a file that does not load, or one
 * whose presence cannot be known (a dangling symbolic link, a folder that cannot be looked into), refuses (exit 8).
 */
export async function contextPolicy(
  ctx: Pick<Ports, 'service' | 'policy'>,
  command: string,
  options: { quiet?: boolean; request?: { ref_id?: string; [field: string]: unknown } } = {},
): Promise<LoadedPolicy | undefined> {
  const name = ctx.service.context().name;
  const loc = policyLocation(ctx.policy.configDir(), name);
  if (!loc.exists) return undefined;
  const refuse = (error: string, hint: string): never => {
    // quiet: the caller (the gate) records the refusal itself, with the request it refuses.
    if (!options.quiet)
      ctx.policy.event({ type: 'policy-unloadable', command, file: loc.path, error, request: options.request });
    throw new CoinopError('policy', `refused by policy: ${error}; nothing was sent`, { hint });
  };
  if (loc.problem)
    refuse(
      `the policy cannot be read, so nothing that moves money runs: ${loc.problem}`,
      `fix or remove it (coinop doctor checks it); coinop policy show shows the policy once it reads`,
    );
  if (loc.others.length)
    refuse(
      `context ${name} has more than one policy file (${[loc.path, ...loc.others].join(', ')})`,
      'keep one of them',
    );
  const { loadPolicyFile, PolicyFileError } = await import('../policy/load.js');
  try {
    return loadPolicyFile(loc.path);
  } catch (e) {
    if (!(e instanceof PolicyFileError)) throw e;
    return refuse(
      `the policy file does not load, so nothing that moves money runs: ${e.message}`,
      `fix the file; coinop policy check ${loc.path} lists every problem`,
    );
  }
}

export interface PolicyRun {
  /** withdraw, withdraw batch, transfer internal. */
  command: string;
  dryRun: boolean;
  requests: () => Iterable<PolicyRequest>;
  /** How many requests there are, when known: a context without a policy then reads none of them (a batch's rows). */
  count?: number;
  /** The content the run sends and the approvals given, for withdrawals. */
  approvals?: { content: ApprovalContent; files: ParsedApproval[] };
  defaultProfileId?: string;
  /** What this machine admitted that the service may not show yet (the gate's reservations), for the caps. */
  reserved?: RecentWithdrawal[];
  onSeen?: (refIds: Set<string>) => void;
}

/** The policy's verdict on a run (every rule, every approval), handed to the listeners. */
export async function policyVerdict(
  ctx: Pick<Ports, 'clock' | 'policy'>,
  conn: Connection,
  policy: LoadedPolicy | undefined,
  run: PolicyRun,
): Promise<PolicyVerdict> {
  const { checkWithdrawals } = await import('../policy/check.js');
  const verdict = await checkWithdrawals({
    client: conn.client,
    policy,
    environment: conn.context.environment,
    defaultProfileId: run.defaultProfileId,
    requests: run.requests,
    count: run.count,
    approvals: run.approvals,
    machineNow: () => ctx.clock.now(),
    reserved: run.reserved,
    onSeen: run.onSeen,
  });
  ctx.policy.event({ type: 'policy-verdict', command: run.command, dry_run: run.dryRun, verdict });
  return verdict;
}

const SHOWN = 20;

/** Each rule's verdict for a person (a dry run), on stderr: the rule, pass/fail/off/n/a, why, its violations. */
export function verdictText(ctx: Pick<Ports, 'display' | 'service'>, verdict: PolicyVerdict): string {
  const p = palette(ctx.display.io.colourErr);
  if (!verdict.file)
    return `${p.bold('Policy')}: none (no policy file for context ${ctx.service.context().name}: no rules)\n`;
  const status = (s: string) => (s === 'fail' ? p.red(s) : s === 'pass' ? p.green(s) : p.dim(s));
  const lines = [
    `${p.bold('Policy')} ${verdict.file} (${verdict.allowed ? 'allows this run' : p.red('refuses this run')}; ${verdict.clock} clock ${verdict.checked_at})`,
  ];
  for (const r of verdict.rules) {
    lines.push(`  ${r.rule.padEnd(18)} ${status(r.status.padEnd(4))}  ${r.detail}`);
    for (const x of r.violations.slice(0, SHOWN)) lines.push(`      ${violationText(x)}`);
    if (r.violations_total > SHOWN) lines.push(`      … and ${r.violations_total - SHOWN} more (-o json lists them)`);
  }
  return `${lines.join('\n')}\n`;
}

const machine = (ctx: Pick<Ports, 'display'>) => ctx.display.format() === 'json' || ctx.display.format() === 'ndjson';

/** A dry run's verdicts on stderr: for a person, or one JSON object ({"policy": verdict}) in the machine formats. */
export function showVerdict(ctx: Pick<Ports, 'display' | 'service'>, verdict: PolicyVerdict): void {
  // Without a policy file there is no verdict worth a machine's reading; a person is told in a line.
  if (!verdict.file && machine(ctx)) return;
  ctx.display.io.err(machine(ctx) ? `${JSON.stringify({ policy: verdict })}\n` : verdictText(ctx, verdict));
}

/** Stops a run the policy refuses, every violation listed first (a JSON object each in the machine formats). */
export function refuseUnlessAllowed(ctx: Pick<Ports, 'display'>, verdict: PolicyVerdict, run?: RefusedRun): void {
  if (verdict.allowed) return;
  const failed = verdict.rules.filter((r) => r.status === 'fail');
  const total = failed.reduce((n, r) => n + r.violations_total, 0);
  if (total > 1) {
    let shown = 0;
    for (const r of failed)
      for (const x of r.violations) {
        if (machine(ctx)) ctx.display.io.err(`${JSON.stringify({ rule: r.rule, ...x })}\n`);
        else if (++shown <= SHOWN) ctx.display.io.err(`policy: ${violationLine(r, x)}\n`);
      }
    if (!machine(ctx) && total > SHOWN) ctx.display.io.err(`… and ${total - SHOWN} more (-o json lists them all)\n`);
  }
  throw refusal(verdict, run);
}
