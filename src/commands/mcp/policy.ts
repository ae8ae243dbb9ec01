// The context's policy for coinop mcp: the same file, the same evaluation (src/policy checkWithdrawals) and the same
// refusal as withdraw, withdraw batch and transfer internal, read again at every call (a policy edited while the
// server runs counts from the next call). A file that does not load refuses every write. Approvals cannot be given
// through a tool: under a policy that asks for them, a withdrawal the approvals rule covers is refused.
import type { CreateCryptoWithdrawalRequest } from '../../contract/index.js';
import type { Connection } from '../../cli/invocation.js';
import type { Ports } from '../../cli/ports.js';
import { toCoinopError } from '../../errors.js';
import type { MoneyIntent, PolicyPort } from '../../mcp/ports.js';
import { withdrawalRequest } from '../../policy/check.js';
import type { PolicyRequest, PolicyVerdict } from '../../policy/evaluate.js';
import { policyLocation } from '../../policy/location.js';
import { policyJson } from '../../policy/policy.js';
import { approvalScope, withdrawalContent } from '../../cli/approval-content.js';
import { policyVerdict, contextPolicy, refusal } from '../../cli/policy-enforce.js';

/** The requests of an intent as the policy sees them; none for what it has no rule on (a deposit address). */
function requestsOf(intent: MoneyIntent): (() => Iterable<PolicyRequest>) | undefined {
  const body = intent.body as Record<string, string> | undefined;
  if (intent.kind === 'withdrawal' && body)
    return () => [withdrawalRequest(body as unknown as CreateCryptoWithdrawalRequest)];
  if (intent.kind === 'internal_transfer' && body)
    return () => [{ kind: 'internal', profile_id: body.from_profile_id, asset: body.asset, amount: body.amount }];
  const rows = intent.rows;
  if (intent.kind === 'batch' && rows)
    return function* () {
      for (const r of rows()) yield withdrawalRequest(r.body as unknown as CreateCryptoWithdrawalRequest, r.row);
    };
  return undefined;
}

/** Each violation of each rule that refused, in words. */
const reasonsOf = (v: PolicyVerdict): string[] =>
  v.rules
    .filter((r) => r.status === 'fail')
    .flatMap((r) => r.violations.map((x) => `${r.rule}: ${x.row !== undefined ? `row ${x.row}: ` : ''}${x.message}`));

export function policyPort(
  ctx: Pick<Ports, 'service' | 'policy' | 'clock'>,
  connection: () => Promise<Connection> | undefined,
): PolicyPort {
  return {
    async check(intent, options) {
      const requests = requestsOf(intent);
      if (!requests) return undefined;
      const command = `mcp ${intent.tool}`;
      const loaded = await contextPolicy(ctx, command);
      if (!loaded) return undefined;
      const conn = await (connection() ?? ctx.service.connect());
      const body = intent.body as CreateCryptoWithdrawalRequest | undefined;
      const v = await policyVerdict(ctx, conn, loaded, {
        command,
        dryRun: !options.sending,
        requests,
        // No approval can come with a tool call: the rule sees none (and refuses what it covers).
        approvals:
          loaded.policy.approvals && intent.kind === 'withdrawal' && body
            ? {
                content: withdrawalContent(approvalScope(ctx.service.context(), 'withdrawal', body.profile_id), body),
                files: [],
              }
            : undefined,
        defaultProfileId: ctx.service.context().profileId,
      });
      return { allowed: v.allowed, reasons: reasonsOf(v), detail: v, ...(v.allowed ? {} : { refusal: refusal(v) }) };
    },
    async describe() {
      const loc = policyLocation(ctx.policy.configDir(), ctx.service.context().name);
      if (!loc.exists) return { file: null, rules: 'none: the context has no policy file' };
      try {
        const loaded = await contextPolicy(ctx, 'mcp');
        return loaded
          ? { file: loaded.file, sha256: loaded.sha256, policy: policyJson(loaded.policy) }
          : { file: null };
      } catch (e) {
        return { file: loc.path, error: toCoinopError(e).message };
      }
    },
  };
}
