// The one gate for money. Every request that moves money or changes where money may go (a crypto withdrawal, a fiat
// withdrawal, an internal transfer, a stablecoin conversion, a sandbox deposit, an address book write, a fiat account,
// a deposit address), whatever sends it (withdraw, withdraw fiat, transfer internal, convert, sandbox deposit,
// destinations put, fiat-accounts create, coinop api, the MCP tools), passes the same checks in one fixed order:
//
//   prepare   1. canonicalised: the request as the service will receive it, one spelling per destination
//             2. checked: the contract's rules, and the address against its network (format, checksum, testnet
//                rules, the network's own prefixes)
//   judge     3. the context's policy (a file that does not load refuses), 4. the approvals, against the exact
//             content including the ref_id: a verdict for a preview, nothing reserved
//   send      under the lock of this context and service: 3 and 4 again, 5. reserved against the rolling caps;
//             then 6. the attempt written to the audit trail durably (no entry written, nothing sent), 7. sent, and
//             its outcome recorded
//
// A command adds its prompts around it (the confirmation between judge and send); the MCP server its own gates. Any
// refusal on the way (by the checks, the policy, the caller's own preflights through refuse(), the operator's no,
// or the service) is one audit entry with the request's fields, the whole reason and the result `refused` (or
// `cancelled`), so every attempt is in the trail.
import type { AuditEvent, AuditOutcome, AuditWhat } from '../audit/entry.js';
import { charged, outcomeOfError, transferOutcome } from '../audit/outcomes.js';
import {
  type ServiceClient,
  type CallParts,
  type CallResult,
  checkRequest,
  type FlagNames,
} from '../client/service-client.js';
import type { CataloguePolicy } from '../client/catalogue-policy.js';
import { addressCheckFor, type Environment } from '../config/environments.js';
import { CoinopError, toCoinopError } from '../errors.js';
import { type ApprovalScope, ContentBuilder, type ParsedApproval } from '../policy/approvals.js';
import { type CheckOptions, checkWithdrawals } from '../policy/check.js';
import type { PolicyVerdict } from '../policy/evaluate.js';
import type { LoadedPolicy } from '../policy/policy.js';
import { PolicyRefusal, refusal } from '../policy/refusal.js';
import { insufficientFunds, readFunds, shortfall } from '../send/funds.js';
import { fiatWithdrawalType, readFiatAccount } from '../send/fiat.js';
import { refuseOverLimit, withdrawalLimits } from '../send/limits-preflight.js';
import { checkAddress, leavingWords, withdrawalFigures } from '../send/withdrawal.js';
import { canonicalBody } from './canonical.js';
import {
  AUDIT_KIND,
  environmentRefusal,
  type MoneyBody,
  type MoneyCall,
  type MoneyOperationId,
  isCall,
  policyRequestOf,
  requestWhat,
  text,
} from './money.js';
import { type Reservation, type ReservationBook, Reservations } from './reservations.js';
import { dec, operations, type ResponseOf } from '../contract/index.js';
import { type HeldRequest, isHeld } from '../client/gateway-calls.js';
import { checkBookWrite } from './address-book.js';

/** The audit trail as the gate writes to it. */
export interface GateAudit {
  /** Written durably before it returns; throws when the trail cannot be written (then nothing is sent). */
  record(event: AuditEvent): Promise<void>;
  /** What happened after: a trail that cannot be written is a warning, never the request's error. */
  note(event: AuditEvent): Promise<void>;
}

/** What the gate stands on: the connection, the context's policy, the audit trail and this machine's reservations. */
export interface MoneyGateDeps {
  client: ServiceClient;
  /** coinop's context: its name and environment. */
  context: { name: string; environment: Environment };
  /** Which service answers (Connection.serviceId): caps and reservations are kept per context and service. */
  serviceId: string;
  dataDir: string;
  /** The context's policy: undefined without a file; throws a CoinopError (category policy) when it cannot be loaded. */
  policy(): Promise<LoadedPolicy | undefined>;
  audit: GateAudit;
  catalogue: CataloguePolicy;
  now(): number;
  /** Each verdict the policy gives (a dry run's too), for the caller to show. */
  onVerdict?(v: PolicyVerdict, command: string, dryRun: boolean): void;
  /**
   * The attempt is out: the caller records it as unknown should the process end before its outcome (Ctrl-C while
   * the request is on its way); the function returned says the outcome came.
   */
  inFlight?(event: AuditEvent): () => void;
  /** Where reservations are kept: this machine's file for the context and service unless given (a gateway's store). */
  reservations?: ReservationBook;
  /** The service's last day as the caller keeps it (a gateway's copy); without it, read at every verdict. */
  history?: CheckOptions['history'];
}

/** A request as it comes to the gate: its body as given, checked against the operation's contract by prepare(). */
export interface MoneyRequest<Op extends MoneyOperationId = MoneyOperationId> {
  operation: Op;
  body: Record<string, unknown>;
  /** What sends it: withdraw, transfer internal, api, mcp withdraw, ... (in the audit entry). */
  command: string;
  /** The approvals given for it, and the scope an approval of it states. */
  approvals?: { scope: ApprovalScope; files: ParsedApproval[] };
  /** More the audit entry says (the nickname paid by). */
  what?: AuditWhat;
  /** The caller's names for the fields in messages (its flags). */
  flags?: FlagNames;
}

/** A request through steps 1 and 2: canonical and checked, its body the operation's request as the contract types it. */
export interface Prepared<Op extends MoneyOperationId = MoneyOperationId> {
  request: MoneyRequest<Op>;
  body: MoneyBody<Op>;
  what: AuditWhat;
  refId: string | null;
}

/** What a refusal records of a request: a prepared one, or one refused before it was checked (its body as given). */
export type Refused = Pick<Prepared, 'request' | 'what' | 'refId'>;

/** The operation and the checked body of a prepared request. */
const callOf = <Op extends MoneyOperationId>(prepared: Prepared<Op>): MoneyCall<Op> => ({
  operation: prepared.request.operation,
  body: prepared.body,
});

/** The body is the operation's request, as the contract types it: checkRequest throws (a usage error) otherwise. */
function checkBody<Op extends MoneyOperationId>(
  request: MoneyRequest<Op>,
  body: Record<string, unknown>,
  catalogue: CataloguePolicy,
): asserts body is Record<string, unknown> & MoneyBody<Op> {
  checkRequest(operations[request.operation], { body }, request.flags, catalogue);
}

/**
 * What the service answered to a request sent: the operation's response as the contract types it, or a gateway's
 * (coinop gateway) answer that it holds the request for its approvers.
 */
export interface Sent<Op extends MoneyOperationId = MoneyOperationId> {
  data: ResponseOf<Op> | HeldRequest;
  /** The service answered that this ref_id was sent before: no money moved this time (unless submittedByThisCall). */
  alreadySubmitted: boolean;
  /** ... and this call's own first attempt was that earlier one (its answer was lost on the way). */
  submittedByThisCall: boolean;
}

/** The verdict judge() gave each request: a refusal by it is recorded with its rules and file. */
const judged = new WeakMap<object, PolicyVerdict>();

/** The policy refusals the gate made itself (when it sends), not a caller's after showing the verdict. */
const gateRefusals = new WeakSet<PolicyRefusal>();

/** The gate's own refusal of a verdict that does not allow the request, its violations carried as data. */
function refusedByPolicy(verdict: PolicyVerdict): PolicyRefusal {
  const refused = refusal(verdict);
  gateRefusals.add(refused);
  return refused;
}

/** Errors the gate recorded already: recorded once, however many callers see them pass. */
const recorded = new WeakSet<object>();

export const wasRecorded = (e: unknown): boolean => typeof e === 'object' && e !== null && recorded.has(e);

/**
 * The outcome of a request refused before anything was sent: `cancelled` when the operator stopped it. A policy
 * refusal made by the gate itself is recorded in full (its first violations said), as nothing showed them before.
 */
function refusedOutcome(error: unknown): AuditOutcome {
  const ce = toCoinopError(error);
  const said = ce instanceof PolicyRefusal && gateRefusals.has(ce) ? ce.inFull() : ce.message;
  const message = said.length > 2000 ? `${said.slice(0, 1999)}…` : said;
  return {
    result: ce.category === 'cancelled' ? 'cancelled' : 'refused',
    error: { category: ce.category, message },
  };
}

/**
 * Records a request refused before it was sent (once per error) and throws the error: what the gate does at every
 * refusal, and what a caller does for its own checks before it has a gate (bad input, before connecting).
 */
export async function refuseRequest(
  audit: Pick<GateAudit, 'note'>,
  prepared: Pick<Prepared, 'request' | 'refId'> & { what?: AuditWhat },
  error: unknown,
): Promise<never> {
  if (!wasRecorded(error)) {
    const body = prepared.request.body;
    await audit.note({
      kind: AUDIT_KIND[prepared.request.operation],
      ref_id: prepared.refId,
      what: prepared.what ?? {
        ...requestWhat(prepared.request.operation, body),
        ...prepared.request.what,
        command: prepared.request.command,
      },
      outcome: refusedOutcome(error),
    });
    if (typeof error === 'object' && error !== null) recorded.add(error);
  }
  throw error;
}

/** The requests that may be retried only because they carry a ref_id: none leaves without one. */
const REF_ID_REQUIRED = new Set<MoneyOperationId>([
  'createCryptoWithdrawal',
  'createFiatWithdrawal',
  'createInternalTransfer',
  'createStablecoinConversion',
]);

export class MoneyGate {
  private readonly reservations: ReservationBook;
  /** The client the gate sends through (a gateway's follow-up requests go the same way). */
  get client(): ServiceClient {
    return this.deps.client;
  }
  constructor(private readonly deps: MoneyGateDeps) {
    this.reservations = deps.reservations ?? new Reservations(deps.dataDir, deps.context.name, deps.serviceId);
  }

  /** Steps 1 and 2: the request canonicalised and checked; a refusal is recorded and thrown. */
  async prepare<Op extends MoneyOperationId>(request: MoneyRequest<Op>): Promise<Prepared<Op>> {
    const { operation } = request;
    const raw = request.body;
    const refId = typeof raw.ref_id === 'string' ? raw.ref_id : null;
    const first: Refused = { request, what: this.whatOf(request, raw), refId };
    try {
      const wrongPlace = environmentRefusal(operation, this.deps.context.environment);
      if (wrongPlace) throw new CoinopError('usage', wrongPlace);
      checkBody(request, raw, this.deps.catalogue);
      if (REF_ID_REQUIRED.has(operation) && refId === null)
        throw new CoinopError(
          'usage',
          'ref_id: a request that moves money carries a ref_id, so a retry never sends it twice',
          {
            hint: 'add -f ref_id=<a name of your own for this payment>',
          },
        );
      const body = canonicalBody(operation, raw);
      this.checkDestination(operation, body, request.flags);
      return { request, body, what: this.whatOf(request, body), refId };
    } catch (e) {
      return this.refuse(first, e);
    }
  }

  /** Steps 3 and 4 for a preview (a dry run, the confirmation): the policy's verdict; nothing reserved or recorded. */
  async judge(prepared: Prepared, options: { dryRun: boolean }): Promise<PolicyVerdict> {
    try {
      const policy = await this.deps.policy();
      await this.bookCheck(prepared, policy);
      const verdict = await this.verdict(prepared, policy, []);
      judged.set(prepared, verdict);
      this.deps.onVerdict?.(verdict, prepared.request.command, options.dryRun);
      return verdict;
    } catch (e) {
      if (options.dryRun) throw e;
      return this.refuse(prepared, e);
    }
  }

  /**
   * A refusal on the way to sending (the gate's own checks, the policy, the caller's preflights, the operator's no):
   * one audit entry with the request's fields and the whole reason, then the error thrown.
   */
  async refuse(prepared: Refused, error: unknown, more: AuditWhat = {}): Promise<never> {
    const v = judged.get(prepared);
    if (v && !v.allowed && error instanceof CoinopError && error.category === 'policy')
      more = { ...verdictFields(v), ...more };
    return refuseRequest(this.deps.audit, { ...prepared, what: { ...prepared.what, ...more } }, error);
  }

  /**
   * Steps 3 to 7: under this context and service's lock, the policy and the approvals again and the reservation
   * against the rolling caps; then the attempt durably in the audit trail; then the request, once, and its outcome.
   * `leaving` is called as the request leaves (to say its ref_id, or what Ctrl-C would mean now). Unless the caller
   * ran coinop's own preflights already (`preflighted`: withdraw and the MCP tools show them first), the gate runs
   * them here: the balance and the transfer limits.
   */
  async send<Op extends MoneyOperationId>(
    prepared: Prepared<Op>,
    leaving?: () => void,
    options: { preflighted?: boolean } = {},
  ): Promise<Sent<Op>> {
    const refId = prepared.refId;
    if (!options.preflighted) await this.preflight(prepared);
    const kind = AUDIT_KIND[prepared.request.operation];
    // The request's fields as admit() leaves them (an address book write adds what the book said before it).
    const attemptOf = (verdict: PolicyVerdict): AuditEvent => {
      const approvers = (verdict.approvals ?? []).filter((a) => a.status === 'valid' && a.key_id);
      const fields = prepared.what;
      return {
        kind,
        ref_id: refId,
        what: verdict.file ? { ...fields, policy_file: verdict.file, policy_sha256: verdict.sha256 } : fields,
        outcome: { result: 'attempt' },
        ...(approvers.length ? { approver_keys: approvers.map((a) => a.key_id as string) } : {}),
      };
    };
    const { reserved, verdict, recorded: written } = await this.admit(prepared, attemptOf);
    const what = prepared.what;
    const attempt = attemptOf(verdict);
    if (!written)
      try {
        await this.deps.audit.record(attempt);
      } catch (e) {
        if (reserved) await this.release(refId);
        return this.refuse(prepared, e);
      }
    const landed = this.deps.inFlight?.(attempt) ?? (() => {});
    leaving?.();
    let res: CallResult<ResponseOf<Op> | HeldRequest>;
    try {
      // The body was checked against the operation's request when it was prepared (checkBody).
      const parts = { body: prepared.body } as CallParts<Op>;
      res = await this.deps.client.call(prepared.request.operation, parts, prepared.request.flags);
    } catch (e) {
      landed();
      const outcome = outcomeOfError(e);
      // Nothing left, or the service said no: the reservation goes. Unknown: it may have gone, it stays counted.
      if (reserved && (outcome.result === 'refused' || outcome.result === 'failed')) await this.release(refId);
      await this.deps.audit.note({ kind, ref_id: refId, what, outcome });
      if (typeof e === 'object' && e !== null) recorded.add(e);
      throw e;
    }
    landed();
    const data = res.data;
    const again = !!res.alreadySubmitted && !res.submittedByThisCall;
    let outcome: AuditOutcome;
    let saved: AuditWhat;
    // A gateway (coinop gateway) that holds the request for its approvers answers 202 with the held request's id.
    if (isHeld(data)) {
      outcome = { result: 'held' };
      saved = { pending_id: data.pending_id };
    } else {
      // The operation's answer (none for an empty one), read field by field for the audit trail.
      const answer: Record<string, unknown> = { ...(data ?? {}) };
      outcome =
        typeof answer.id === 'string' || typeof answer.status === 'string'
          ? transferOutcome(answer, again)
          : { result: 'sent', ...(again ? { already_submitted: true } : {}) };
      saved = prepared.request.operation === 'putCryptoDestinationAddress' ? savedEntry(answer) : charged(answer);
    }
    await this.deps.audit.note({ kind, ref_id: refId, what: { ...what, ...saved }, outcome });
    return { data, alreadySubmitted: !!res.alreadySubmitted, submittedByThisCall: !!res.submittedByThisCall };
  }

  /**
   * coinop's own preflights for a request whose caller did not run them (coinop api, transfer internal): what leaves
   * (a withdrawal's total, or its amount when the fee is not known; an internal transfer's amount) against the
   * available balance, and a withdrawal against what is left of the transfer limits. A shortfall is refused and
   * recorded; a balance or limit that cannot be read is left to the service.
   */
  async preflight(prepared: Prepared): Promise<void> {
    const op = prepared.request.operation;
    if (op === 'createStablecoinConversion') return this.conversionPreflight(prepared);
    if (op !== 'createCryptoWithdrawal' && op !== 'createInternalTransfer' && op !== 'createFiatWithdrawal') return;
    const b = prepared.body;
    const withdrawal = op !== 'createInternalTransfer';
    const asset = String(b.asset).toUpperCase();
    const profileId = String(withdrawal ? b.profile_id : b.from_profile_id);
    const own = !withdrawal || typeof b.balance_asset !== 'string' || b.balance_asset.toUpperCase() === asset;
    const figures = withdrawalFigures({ amount: text(b.amount), total: text(b.total) }, undefined);
    const words = withdrawal ? leavingWords({ total: text(b.total) }, false) : 'the amount';
    let refusal: CoinopError | undefined;
    if (own) {
      const funds = await readFunds(this.deps, profileId, [asset]);
      if (shortfall(funds, asset, figures.leaving)) refusal = insufficientFunds(asset, figures.leaving, funds, words);
    }
    if (!refusal && withdrawal) {
      const transferType =
        op === 'createFiatWithdrawal'
          ? fiatWithdrawalType((await readFiatAccount(this.deps, String(b.fiat_account_id))).account)
          : 'CRYPTO_WITHDRAWAL';
      const limits = await withdrawalLimits(
        this.deps,
        { asset, leaving: figures.leaving, words, transferType },
        this.deps.now(),
      );
      try {
        refuseOverLimit(limits);
      } catch (e) {
        refusal = e as CoinopError;
      }
    }
    // A retry of a request that went out already is answered with the earlier transfer, not refused for what it took.
    if (refusal && !(await this.held(prepared.refId))) return this.refuse(prepared, refusal);
  }

  /**
   * A conversion's preflight: what it takes of its source asset against the profile's available balance (no transfer
   * limit covers conversions). A shortfall is refused and recorded unless the service holds the conversion already.
   */
  private async conversionPreflight(prepared: Prepared): Promise<void> {
    const b = prepared.body;
    const asset = String(b.source_asset).toUpperCase();
    const amount = dec(String(b.amount));
    const funds = await readFunds(this.deps, String(b.profile_id), [asset]);
    if (!shortfall(funds, asset, amount)) return;
    if (await this.held(prepared.refId, 'listStablecoinConversions')) return;
    return this.refuse(prepared, insufficientFunds(asset, amount, funds, 'the amount'));
  }

  /** Whether the service holds a transfer (or a conversion) with this ref_id already. */
  async held(
    refId: string | null,
    list: 'listTransfers' | 'listStablecoinConversions' = 'listTransfers',
  ): Promise<boolean> {
    if (!refId) return false;
    if (list === 'listStablecoinConversions')
      try {
        const { data } = await this.deps.client.call(list, { query: { ref_id: refId } });
        return (data.items ?? []).some((c) => c.ref_id === refId);
      } catch {
        return false;
      }
    try {
      const { data } = await this.deps.client.call('listTransfers', {
        query: { ref_ids: [refId] },
      });
      return (data.items ?? []).some((t) => t.ref_id === refId);
    } catch {
      return false;
    }
  }

  /**
   * A batch's rows at the gate: under this context and service's lock, the policy's verdict on them (`judge`, given
   * what this machine reserved already, less the batch's own rows), and, when it allows, every row reserved, so a
   * withdrawal started beside the batch counts what the batch has yet to send. Rows refused or never sent are
   * released with release(); rows sent go once the service shows them.
   */
  async reserveRows<T extends { allowed: boolean }>(
    batchId: string,
    rows: () => Iterable<{ ref_id: string; asset: string; amount: string }>,
    judge: (reserved: Reservation[], onSeen: (seen: Set<string>) => void) => Promise<T>,
  ): Promise<T> {
    const now = this.deps.now();
    return this.reservations.exclusive(async () => {
      const held = (await this.reservations.read(now)).filter((h) => h.batch_id !== batchId);
      const mine = new Set<string>();
      for (const r of rows()) mine.add(r.ref_id);
      let seen = new Set<string>();
      const verdict = await judge(
        held.filter((h) => !mine.has(h.ref_id)),
        (s) => (seen = s),
      );
      if (!verdict.allowed) return verdict;
      const kept = held.filter((h) => !mine.has(h.ref_id));
      for (const r of rows())
        if (!seen.has(r.ref_id))
          kept.push({ ref_id: r.ref_id, asset: r.asset, amount: r.amount, at: now, batch_id: batchId });
      await this.reservations.write(kept, seen, now);
      return verdict;
    });
  }

  /** Takes back reservations whose requests were refused or never left. */
  async releaseRows(refIds: Iterable<string>): Promise<void> {
    await this.reservations.release(refIds, this.deps.now());
  }

  /**
   * The policy's verdict now, with what this machine has reserved; reserves (under the lock) when it allows, and
   * there writes the attempt too when the book can (`recorded`: the attempt is in the trail, with its reservation).
   */
  private async admit(
    prepared: Prepared,
    attemptOf: (verdict: PolicyVerdict) => AuditEvent,
  ): Promise<{ reserved: boolean; verdict: PolicyVerdict; recorded: boolean }> {
    const policy = await this.policyOrRefuse(prepared);
    await this.bookCheck(prepared, policy);
    const request = policyRequestOf(callOf(prepared));
    const caps = !!(policy?.policy.maxPer24h && request && request.kind !== 'internal' && prepared.refId);
    if (!caps) {
      const verdict = await this.verdictOrRefuse(prepared, policy, []);
      if (!verdict.allowed) return this.refuse(prepared, refusedByPolicy(verdict), verdictFields(verdict));
      return { reserved: false, verdict, recorded: false };
    }
    const now = this.deps.now();
    const r = request!;
    try {
      return await this.reservations.exclusive(async () => {
        const held = await this.reservations.read(now, r.asset);
        let seen = new Set<string>();
        const verdict = await this.verdictOrRefuse(
          prepared,
          policy,
          held.filter((h) => h.ref_id !== prepared.refId),
          (s) => (seen = s),
        );
        if (!verdict.allowed) return this.refuse(prepared, refusedByPolicy(verdict), verdictFields(verdict));
        if (!seen.has(prepared.refId!) && !held.some((h) => h.ref_id === prepared.refId))
          held.push({ ref_id: prepared.refId!, asset: r.asset, amount: r.amount, at: now });
        await this.reservations.write(held, seen, now);
        const record = this.reservations.record;
        if (!record) return { reserved: true, verdict, recorded: false };
        try {
          await record.call(this.reservations, attemptOf(verdict));
        } catch (e) {
          // Thrown out of the section so its reservation goes with it; refused below for what it was.
          throw new AttemptUnwritten(e);
        }
        return { reserved: true, verdict, recorded: true };
      });
    } catch (e) {
      if (e instanceof AttemptUnwritten) return this.refuse(prepared, e.reason);
      if (wasRecorded(e)) throw e;
      return this.refuse(prepared, lockError(e, this.reservations.lockPath));
    }
  }

  /**
   * An address book write against the policy (a nickname it allows given to another address is refused); what the
   * book said before the write goes into the request's audit entries.
   */
  private async bookCheck(prepared: Prepared, policy: LoadedPolicy | undefined): Promise<void> {
    const call = callOf(prepared);
    if (!isCall(call, 'putCryptoDestinationAddress')) return;
    let checked: Awaited<ReturnType<typeof checkBookWrite>>;
    try {
      checked = await checkBookWrite(this.deps.client, policy, call.body);
    } catch (e) {
      return this.refuse(prepared, e);
    }
    prepared.what = { ...prepared.what, ...checked.what };
    if (checked.refusal) return this.refuse(prepared, checked.refusal);
  }

  private async policyOrRefuse(prepared: Prepared): Promise<LoadedPolicy | undefined> {
    try {
      return await this.deps.policy();
    } catch (e) {
      return this.refuse(prepared, e);
    }
  }

  private async verdictOrRefuse(
    prepared: Prepared,
    policy: LoadedPolicy | undefined,
    reserved: { ref_id: string; asset: string; amount: string }[],
    onSeen?: (s: Set<string>) => void,
  ): Promise<PolicyVerdict> {
    try {
      const v = await this.verdict(prepared, policy, reserved, onSeen);
      this.deps.onVerdict?.(v, prepared.request.command, false);
      return v;
    } catch (e) {
      return this.refuse(prepared, e);
    }
  }

  /** The policy's verdict on the request, with the approvals given and what this machine reserved. */
  private verdict(
    prepared: Prepared,
    policy: LoadedPolicy | undefined,
    reserved: { ref_id: string; asset: string; amount: string }[],
    onSeen?: (s: Set<string>) => void,
  ): Promise<PolicyVerdict> {
    const request = policyRequestOf(callOf(prepared));
    const a = prepared.request.approvals;
    let approvals: Parameters<typeof checkWithdrawals>[0]['approvals'];
    if (a && policy?.policy.approvals) {
      const b = new ContentBuilder(a.scope);
      b.add(prepared.body);
      approvals = { content: b.finish(), files: a.files };
    }
    return checkWithdrawals({
      client: this.deps.client,
      policy,
      environment: this.deps.context.environment,
      requests: () => (request ? [request] : []),
      approvals,
      machineNow: this.deps.now,
      reserved,
      onSeen,
      history: this.deps.history,
    });
  }

  private async release(refId: string | null): Promise<void> {
    if (!refId) return;
    try {
      await this.reservations.release([refId], this.deps.now());
    } catch {
      /* kept: counted a day at most, which errs on the side of the cap */
    }
  }

  /** The address of a withdrawal or an address book entry against its network, by the context's environment. */
  private checkDestination(op: MoneyOperationId, body: Record<string, unknown>, flags?: FlagNames): void {
    const check = addressCheckFor(this.deps.context.environment);
    if (op === 'createCryptoWithdrawal')
      checkAddress(String(body.crypto_network), String(body.destination_address), check, flags);
    if (op === 'putCryptoDestinationAddress')
      checkAddress(String(body.crypto_network), String(body.address), check, flags);
  }

  private whatOf(request: MoneyRequest, body: Record<string, unknown>): AuditWhat {
    return { ...requestWhat(request.operation, body), ...request.what, command: request.command };
  }
}

/** What the service saved of an address book entry (read leniently: an answer without it adds nothing). */
function savedEntry(data: Record<string, unknown>): AuditWhat {
  const saved = (data.address && typeof data.address === 'object' ? data.address : data) as Record<string, unknown>;
  const out: AuditWhat = {};
  for (const [k, name] of [
    ['id', 'id'],
    ['nickname', 'nickname'],
    ['address', 'address'],
    ['crypto_network', 'network'],
  ] as const)
    if (typeof saved[k] === 'string') out[name] = saved[k];
  return out;
}

/** What an audit entry of a policy refusal adds: the rules that refused, and the policy file that decided. */
export function verdictFields(verdict: PolicyVerdict): AuditWhat {
  return {
    rules: verdict.rules.filter((r) => r.status === 'fail').map((r) => r.rule),
    ...(verdict.file ? { policy_file: verdict.file, policy_sha256: verdict.sha256 } : {}),
    ...(verdict.approvals?.length
      ? { approvals: verdict.approvals.map((a) => ({ key_id: a.key_id ?? null, status: a.status })) }
      : {}),
  };
}

/** The attempt could not be written in the admission's section: nothing was reserved, nothing is sent. */
class AttemptUnwritten extends Error {
  constructor(readonly reason: unknown) {
    super('the attempt could not be written to the audit trail');
  }
}

function lockError(error: unknown, lockPath: string): CoinopError {
  const ce = toCoinopError(error);
  if (ce.category !== 'internal') return ce;
  return new CoinopError('file', `the gate's lock ${lockPath} could not be taken (${ce.message}); nothing was sent`, {
    hint: 'another coinop process may be sending for this context: try again when it is done',
  });
}
