// What the MCP server is given rather than makes: the context's policy (rules checked before money moves) and the
// audit trail (a record of every tool call). Each is optional: a server without a policy has no verdict to show or
// obey, and one without an audit trail records nothing. `coinop mcp` (src/commands/mcp) plugs in coinop's own.
import type { BatchFormat } from '../batch/reader.js';
import type { AuditEvent, AuditOutcome, AuditWhat } from '../audit/entry.js';
import type { CoinopError } from '../errors.js';

/** One movement of money (or a resource that receives it) as a tool would make it: what a policy judges. */
export interface MoneyIntent {
  /** The tool's kind of write; a batch's rows are given by `rows`. */
  kind: 'withdrawal' | 'internal_transfer' | 'deposit_address' | 'batch';
  /** The tool that asks. */
  tool: string;
  /** The coinop context and its environment (local, sandbox, production, custom). */
  context: string;
  environment: string;
  /** The service profile debited (or, for a deposit address, credited). */
  profile_id: string;
  asset?: string;
  crypto_network?: string;
  destination_address?: string;
  /** A withdrawal's amount and total as far as known (the fee may be unknown in a preview), decimal strings. */
  amount?: string;
  total?: string;
  fee?: string;
  /** An internal transfer's receiving profile. */
  to_profile_id?: string;
  ref_id?: string;
  /** The request body that is (or would be) sent. */
  body?: Record<string, unknown>;
  /** A batch's valid rows, in order, each with its request body (read once per call). */
  rows?: () => Iterable<{ row: number; body: Record<string, unknown> }>;
}

export interface PolicyVerdict {
  allowed: boolean;
  /** Why not, in words: each violation of each rule that refused (empty when allowed). */
  reasons: string[];
  /** The policy's whole decision (every rule's verdict, the file and its hash, the clock): the audit trail's record. */
  detail?: unknown;
  /** The error a confirmed call that the policy refuses ends with (as the CLI's, exit 8 there). */
  refusal?: CoinopError;
}

export interface PolicyPort {
  /**
   * The verdict on one intent (`sending`: a confirmed call, not a preview); undefined when the context has no policy
   * or it has nothing to say of this kind. A refusal is a verdict (allowed: false); a policy that cannot be read
   * throws (nothing moves while it is broken).
   */
  check(intent: MoneyIntent, o: { sending: boolean }): Promise<PolicyVerdict | undefined>;
  /** The policy for the coinop://policy resource: what it holds, for an agent to read before it asks. */
  describe(): Promise<unknown>;
}

/** An attempt recorded in the audit trail, whose outcome is recorded once it is known. */
export interface AuditAttempt {
  done(outcome: AuditOutcome, what?: AuditWhat): Promise<void>;
  failed(e: unknown): Promise<void>;
}

/**
 * The audit trail (src/audit): entries as the commands write them, each naming the MCP client that asked (`agent`,
 * "name version" from the handshake) besides who runs coinop.
 */
export interface AuditPort {
  /** Before a request that moves money leaves: a trail that cannot be written throws, and nothing is sent. */
  attempt(event: Omit<AuditEvent, 'outcome'>, agent: string): Promise<AuditAttempt>;
  /** What happened (a tool call's end, a fee quote): a trail that cannot be written is a warning, never an error. */
  note(event: AuditEvent, agent: string): Promise<void>;
}

/** How a batch is sent: as `coinop withdraw batch FILE --resume --yes` sends it (journal, guards, policy, report). */
export interface BatchPort {
  /** `agent`: the MCP client that asked, named in the batch's audit entries. */
  run(o: {
    file: string;
    format?: BatchFormat;
    profileId?: string;
    skipInvalid: boolean;
    agent: string;
  }): Promise<BatchRun>;
}

export interface BatchRun {
  /** The report, a row each, as `-o json` prints it (row, ref_id, result, transfer_id, status, amounts, problem). */
  rows: Record<string, unknown>[];
  /** What the run said besides (its problems, repeats, where its journal is), line by line. */
  log: string[];
  /** How it ended when not every row went through: the run's error (rows failed; nothing sent; refused). */
  error?: CoinopError;
  /** The batch had run before (to its end, or every row of it): this run sent nothing. */
  ranBefore: boolean;
}
