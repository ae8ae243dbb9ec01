// The gates of the tools that move money or create resources. A call previews by default: what it would send, the
// fee, the balance after and the policy's verdict, and nothing is sent. It sends only when every gate is open:
//   1. the operator started the server with --allow-writes;
//   2. in production, also with --allow-production;
//   3. the call says `confirm: true`;
//   4. the context's policy allows it (when there is a policy).
// The server's own gates (1, 2) are checked before anything is asked of the service; the policy's once the request
// and its figures are known.
import { CoinopError } from '../errors.js';
import type { PolicyVerdict } from './ports.js';
import { plain } from './schema.js';
import type { ServerDeps } from './tool.js';

export interface GateState {
  /** The call said confirm: true. */
  confirm: boolean;
  allow_writes: boolean;
  production: boolean;
  allow_production: boolean;
  /** The policy's verdict on this call, or `none` without a policy. */
  policy: 'allowed' | 'refused' | 'none';
  /** A call with confirm: true would be let through now. */
  open: boolean;
  /** What stops a confirmed call, in words (empty when open). */
  closed_by: string[];
}

const NO_WRITES = 'this MCP server was started without --allow-writes';
const NO_PRODUCTION = 'this MCP server was started without --allow-production, and the context is a production one';

export function gateState(deps: ServerDeps, confirm: boolean, verdict: PolicyVerdict | undefined): GateState {
  const production = deps.context.environment === 'production';
  const closedBy = [
    ...(deps.allowWrites ? [] : [NO_WRITES]),
    ...(production && !deps.allowProduction ? [NO_PRODUCTION] : []),
    ...(verdict && !verdict.allowed ? [`the context's policy refuses it (${verdict.reasons.join('; ')})`] : []),
  ];
  return {
    confirm,
    allow_writes: deps.allowWrites,
    production,
    allow_production: deps.allowProduction,
    policy: verdict ? (verdict.allowed ? 'allowed' : 'refused') : 'none',
    open: closedBy.length === 0,
    closed_by: closedBy,
  };
}

/** The server's own gates, for a confirmed call: refused before anything is asked of the service. */
export function refuseClosedServer(deps: ServerDeps, tool: string): void {
  if (!deps.allowWrites)
    throw new CoinopError('usage', `refusing to send: ${NO_WRITES}; nothing was sent`, {
      hint: `call ${tool} without confirm for a preview; sending needs the operator to restart coinop mcp with --allow-writes`,
    });
  if (deps.context.environment === 'production' && !deps.allowProduction)
    throw new CoinopError('usage', `refusing to send in production: ${NO_PRODUCTION}; nothing was sent`, {
      hint: 'sending in production needs the operator to restart coinop mcp with --allow-writes --allow-production',
    });
}

/** The policy's gate, for a confirmed call: the policy's own refusal (category policy). */
export function refusePolicy(verdict: PolicyVerdict | undefined): void {
  if (verdict && !verdict.allowed)
    throw (
      verdict.refusal ??
      new CoinopError('policy', `refused by policy: ${verdict.reasons.join('; ')}; nothing was sent`, {
        hint: 'read the coinop://policy resource for its rules',
      })
    );
}

/** What a preview says to do next. */
export function nextStep(tool: string, refId: string, gates: GateState): string {
  if (!gates.open) return `Nothing was sent. A confirmed call would be refused: ${gates.closed_by.join('; ')}.`;
  return `Nothing was sent. To send it, call ${tool} again with the same arguments, ref_id "${refId}" and confirm: true (a retry with that ref_id never sends twice).`;
}

/** The policy's verdict as a tool's output reports it (without the error a confirmed call would end with). */
export const POLICY_SCHEMA = plain.object(
  {
    allowed: { schema: plain.boolean("The policy's verdict."), required: true },
    reasons: { schema: plain.array(plain.string('A violation.'), 'Why not (empty when allowed).'), required: true },
    detail: { schema: plain.object({}, "The policy's whole decision: every rule's verdict, the file, the clock.") },
  },
  "The context's policy's verdict on this call.",
);

/** The verdict for an answer: what the output schema says of it. */
export const verdictView = (v: PolicyVerdict) => ({
  allowed: v.allowed,
  reasons: v.reasons,
  ...(v.detail !== undefined ? { detail: v.detail } : {}),
});

/** The gates as a tool's output reports them. */
export const GATES_SCHEMA = plain.object(
  {
    confirm: { schema: plain.boolean('The call said confirm: true.'), required: true },
    allow_writes: { schema: plain.boolean('The server was started with --allow-writes.'), required: true },
    production: { schema: plain.boolean('The coinop context is a production one.'), required: true },
    allow_production: { schema: plain.boolean('The server was started with --allow-production.'), required: true },
    policy: { schema: plain.enum(['allowed', 'refused', 'none'], "The policy's verdict, or none."), required: true },
    open: { schema: plain.boolean('A call with confirm: true would send now.'), required: true },
    closed_by: {
      schema: plain.array(plain.string('A gate that is closed.'), 'What stops a confirmed call.'),
      required: true,
    },
  },
  'The gates a call goes through before it sends.',
);
