// Evaluating a policy: pure functions from the requests of a run and what is known around them (the address book,
// the service's withdrawals of the last 24 hours, the service's clock, the approvals given) to a verdict per rule.
// The verdict is the record of the decision: which file (and its hash) decided, at what time by which clock, each
// rule's outcome with every violation, and each approval with its approver's key fingerprint.
import { ADDRESS_RULES, addressReason, canonicalAddress, dec, type Decimal, fmt } from '../contract/index.js';
import { type ApprovalContent, type ApprovalResult, sumsByAsset } from './approvals.js';
import { inWindow, timeOfDay } from './hours.js';
import { type LoadedPolicy, limitFor, type Policy, RULES, type RuleName } from './policy.js';

/** One request of a run, as the policy sees it. */
export interface PolicyRequest {
  /**
   * A crypto withdrawal, an internal transfer, a fiat withdrawal (to a fiat account), a transfer to another customer
   * of the service (paxos: to the recipient's profile), or a stablecoin conversion (USD to a stablecoin or back, in the
   * profile: `asset` is what it takes, `target_asset` what it gives).
   */
  kind: 'withdrawal' | 'internal' | 'fiat' | 'paxos' | 'conversion';
  /** The row of a batch file. */
  row?: number;
  /** Its ref_id, when a service transfer with the same one is this request already sent (not counted twice). */
  ref_id?: string;
  profile_id?: string;
  asset: string;
  /** The amount, or for a request given by its total (fee included) that total: the most it sends. */
  amount: string;
  crypto_network?: string;
  destination_address?: string;
  /** A fiat withdrawal's destination: the fiat account's id, which the policy's destinations list by id. */
  fiat_account_id?: string;
  /** A transfer to another customer's destination: the recipient's profile id, which the policy's destinations list. */
  to_profile_id?: string;
  /** A conversion's target asset (the policy's assets must allow it as well as the source). */
  target_asset?: string;
}

/** An address of the service's address book. */
export interface BookEntry {
  address: string;
  crypto_network: string;
  nickname?: string;
  bookmarked?: boolean;
}

/** An address the service verified as the customer's own (an APPROVED address verification). */
export interface VerifiedAddress {
  network: string;
  address: string;
}

/** A withdrawal the service holds, created in the last 24 hours and not FAILED or CANCELLED. */
export interface RecentWithdrawal {
  asset: string;
  amount: string;
  ref_id?: string;
}

export interface PolicyContext {
  environment: string;
  /** Milliseconds since the epoch, by `clock`. */
  now: number;
  /** Whose clock: the service's (the Date of its answer) or, when it gave none, this machine's. */
  clock: 'service' | 'machine';
  book?: BookEntry[];
  /** The addresses the service verified (verified_only). */
  verified?: VerifiedAddress[];
  recent?: RecentWithdrawal[];
  /** The start of the 24 hours `recent` covers. */
  since?: number;
  /** What `recent` sent per asset, when the caller has summed it already (else it is summed here). */
  sent?: ReadonlyMap<string, Decimal>;
  approvals?: { content: ApprovalContent; results: ApprovalResult[] };
}

export type RuleStatus = 'pass' | 'fail' | 'off' | 'n/a';

export interface Violation {
  row?: number;
  message: string;
}

export interface RuleVerdict {
  rule: RuleName;
  /** pass, fail, off (the policy does not set it) or n/a (it does not apply to these requests). */
  status: RuleStatus;
  detail: string;
  violations: Violation[];
  /** How many violations there were (only the first VIOLATIONS_KEPT are listed). */
  violations_total: number;
}

/** The decision on a run: what the audit trail records. */
export interface PolicyVerdict {
  allowed: boolean;
  /** The policy file and the SHA-256 of its bytes; null: the context has no policy file (no rules). */
  file: string | null;
  sha256?: string;
  checked_at: string;
  clock: 'service' | 'machine';
  environment: string;
  requests: number;
  rules: RuleVerdict[];
  /** Every approval given, with its approver's key fingerprint and whether it counted. */
  approvals?: ApprovalResult[];
}

export const VIOLATIONS_KEPT = 10_000;

/** A rule's verdict being built: violations are kept up to VIOLATIONS_KEPT and counted beyond. */
class Rule {
  status: RuleStatus = 'pass';
  detail = '';
  readonly violations: Violation[] = [];
  total = 0;
  constructor(readonly name: RuleName) {}
  violate(violation: Violation): void {
    this.status = 'fail';
    if (this.total++ < VIOLATIONS_KEPT) this.violations.push(violation);
  }
  done(): RuleVerdict {
    return {
      rule: this.name,
      status: this.status,
      detail: this.detail,
      violations: this.violations,
      violations_total: this.total,
    };
  }
}

/** The one spelling on a network of the policy's and the address book's addresses (few), null where invalid. */
const listedSpelling = new Map<string, string | null>();

/**
 * Whether a listed address (the policy's, the address book's) is the destination `addr` on `net`: in their one
 * spelling on that network (canonicalAddress: bech32 and CashAddr in any case, CashAddr with or without its prefix,
 * EVM in any casing), and the listed address valid there: an address of another network (a 0x account on SOLANA) is
 * not the same destination. On a network coinop does not know, as written.
 */
function sameOn(net: string): (listed: string, addr: string) => boolean {
  if (!Object.hasOwn(ADDRESS_RULES, net)) return (listed, addr) => listed === addr;
  // The request's address is spelled once for all the listed ones it is compared with.
  let given: string | undefined;
  let mine = '';
  return (listed, addr) => {
    if (addr !== given) [given, mine] = [addr, canonicalAddress(net, addr)];
    const key = `${net} ${listed}`;
    let one = listedSpelling.get(key);
    if (one === undefined) {
      one = addressReason(net, listed) === undefined ? canonicalAddress(net, listed) : null;
      if (listedSpelling.size >= 10_000) listedSpelling.clear();
      listedSpelling.set(key, one);
    }
    return one === mine;
  };
}

const where = (r: PolicyRequest) => (r.row !== undefined ? { row: r.row } : {});

/** Whether a withdrawal's destination is one the policy allows; why not, when it is not. */
function destinationProblem(policy: Policy, request: PolicyRequest, book: BookEntry[]): string | undefined {
  const addr = request.destination_address ?? '';
  const net = request.crypto_network ?? '';
  const sameAddress = sameOn(net);
  if (policy.destinations === 'bookmarked_only') {
    const entry = book.find((e) => e.crypto_network === net && sameAddress(e.address, addr));
    if (entry?.bookmarked) return undefined;
    return entry
      ? `${addr} (${net}) is in the address book${entry.nickname ? ` as ${entry.nickname}` : ''} but not bookmarked`
      : `${addr} (${net}) is not a bookmarked address of the address book`;
  }
  const list = policy.destinations ?? [];
  const pins = policy.pins ?? new Map();
  // A pinned nickname allows its pinned address, whatever the address book says.
  for (const pin of pins.values()) if (pin.network === net && sameAddress(pin.address, addr)) return undefined;
  const named = book.filter((e) => e.nickname !== undefined && list.includes(e.nickname) && !pins.has(e.nickname));
  if (named.some((e) => e.crypto_network === net && sameAddress(e.address, addr))) return undefined;
  if (list.some((entry) => sameAddress(entry, addr))) return undefined;
  const repointed = book.find(
    (e) => e.nickname !== undefined && pins.has(e.nickname) && e.crypto_network === net && sameAddress(e.address, addr),
  );
  if (repointed) {
    const pin = pins.get(repointed.nickname!)!;
    return `${addr} (${net}) is ${repointed.nickname} in the address book, but the policy pins ${repointed.nickname} to ${pin.address} (${pin.network})`;
  }
  return `${addr} (${net}) is not among the policy's destinations`;
}

/**
 * Whether a fiat withdrawal's fiat account is one the policy allows: its id among the destinations. The address book
 * (bookmarked_only) holds crypto addresses only, so under it no fiat account is allowed.
 */
function fiatDestinationProblem(policy: Policy, request: PolicyRequest): string | undefined {
  return idDestinationProblem(policy, 'fiat account', request.fiat_account_id ?? '');
}

/**
 * Whether a transfer to another customer goes to a recipient the policy allows: the recipient's profile id among the
 * destinations. The address book holds crypto addresses only, so under bookmarked_only no recipient is allowed.
 */
function recipientDestinationProblem(policy: Policy, request: PolicyRequest): string | undefined {
  return idDestinationProblem(policy, 'recipient profile', request.to_profile_id ?? '');
}

/** A destination named by its id (a fiat account's, a recipient profile's) against the policy's destinations. */
function idDestinationProblem(policy: Policy, what: string, id: string): string | undefined {
  const named = `${what} ${id}`;
  if (policy.destinations === 'bookmarked_only')
    return `${named}: destinations are bookmarked_only, and the address book holds crypto addresses only (list the ${what}'s id among the destinations)`;
  if ((policy.destinations ?? []).includes(id)) return undefined;
  return `${named} is not among the policy's destinations`;
}

/** Why a crypto withdrawal's address fails verified_only: the service holds no APPROVED verification of it there. */
function unverifiedProblem(request: PolicyRequest, verified: VerifiedAddress[]): string | undefined {
  const addr = request.destination_address ?? '';
  const net = request.crypto_network ?? '';
  const sameAddress = sameOn(net);
  if (verified.some((v) => v.network === net && sameAddress(v.address, addr))) return undefined;
  const elsewhere = verified.filter((v) => v.network !== net && v.address.toLowerCase() === addr.toLowerCase());
  return `${addr} (${net}) is not verified by the service as the customer's own${elsewhere.length ? ` (it is on ${elsewhere.map((v) => v.network).join(', ')}, not ${net})` : ''}: prove it with coinop addresses verify --network ${net} --address ${addr}`;
}

/** An address-book write as the policy sees it: the nickname an address will have once it is written. */
export interface BookWrite {
  nickname: string;
  address: string;
  crypto_network: string;
}

/**
 * Why the policy refuses an address-book write, if it does: one that gives a nickname the policy allows to an address
 * that did not have it (re-pointing it, or naming a new address so) would let withdrawals go where the policy file
 * never said. Allowed: a nickname the policy does not list; the address it pins the nickname to; the address that
 * holds the nickname already (`holders`: the book's entries with that nickname); an address the policy lists itself.
 */
export function bookWriteProblem(policy: Policy, write: BookWrite, holders: BookEntry[]): string | undefined {
  if (!Array.isArray(policy.destinations) || !policy.destinations.includes(write.nickname)) return undefined;
  const to = `${write.address} (${write.crypto_network})`;
  const sameAddress = sameOn(write.crypto_network);
  const pin = policy.pins?.get(write.nickname);
  if (pin) {
    if (pin.network === write.crypto_network && sameAddress(pin.address, write.address)) return undefined;
    return `the policy pins ${write.nickname} to ${pin.address} (${pin.network}); the address book cannot give it to ${to}`;
  }
  if (
    holders.some(
      (h) =>
        h.nickname === write.nickname &&
        h.crypto_network === write.crypto_network &&
        sameAddress(h.address, write.address),
    )
  )
    return undefined;
  if (policy.destinations.some((d) => sameAddress(d, write.address))) return undefined;
  const before = holders.filter((h) => h.nickname === write.nickname);
  return `${write.nickname} is a destination the policy allows; giving it to ${to}${before.length ? ` in place of ${before.map((h) => `${h.address} (${h.crypto_network})`).join(', ')}` : ''} would let withdrawals go there without a change of the policy file (pin it there: destinations: [{nickname: ${write.nickname}, address: ${write.address}, network: ${write.crypto_network}}])`;
}

/** The rules that look at each request on its own; the 24-hour sums are gathered on the way. */
function eachRequest(
  policy: Policy,
  requests: Iterable<PolicyRequest>,
  ctx: PolicyContext,
  rules: Map<RuleName, Rule>,
  sent: ReadonlyMap<string, Decimal>,
): { count: number; withdrawals: number; pending: Map<string, Pending> } {
  const book = ctx.book ?? [];
  const counted = new Set((ctx.recent ?? []).flatMap((t) => (t.ref_id ? [t.ref_id] : [])));
  const pending = new Map<string, Pending>();
  let count = 0;
  let withdrawals = 0;
  for (const r of requests) {
    count++;
    if (policy.assets && !policy.assets.includes(r.asset))
      rules.get('assets')!.violate({ ...where(r), message: `${r.asset} is not an asset the policy allows` });
    if (policy.assets && r.target_asset !== undefined && !policy.assets.includes(r.target_asset))
      rules.get('assets')!.violate({
        ...where(r),
        message: `${r.target_asset} (the conversion's target) is not an asset the policy allows`,
      });
    if (r.kind === 'internal') continue;
    withdrawals++;
    // A conversion stays in its profile: no destination or network; the maxima count what it takes of its source.
    if (policy.destinations && r.kind !== 'conversion') {
      const problem =
        r.kind === 'fiat'
          ? fiatDestinationProblem(policy, r)
          : r.kind === 'paxos'
            ? recipientDestinationProblem(policy, r)
            : destinationProblem(policy, r, book);
      if (problem) rules.get('destinations')!.violate({ ...where(r), message: problem });
    }
    if (r.kind === 'withdrawal' && policy.verifiedOnly) {
      const problem = unverifiedProblem(r, ctx.verified ?? []);
      if (problem) rules.get('verified_only')!.violate({ ...where(r), message: problem });
    }
    if (r.kind === 'withdrawal' && policy.networks && !policy.networks.includes(r.crypto_network ?? ''))
      rules
        .get('networks')!
        .violate({ ...where(r), message: `${r.crypto_network} is not a network the policy allows` });
    const most = limitFor(policy.maxPerWithdrawal, r.asset);
    if (most !== undefined && dec(r.amount).gt(dec(most)))
      rules.get('max_per_withdrawal')!.violate({
        ...where(r),
        message: `${r.amount} ${r.asset} is over the most one withdrawal may send, ${most} ${r.asset}`,
      });
    const cap = limitFor(policy.maxPer24h, r.asset);
    if (cap !== undefined && !(r.ref_id && counted.has(r.ref_id))) {
      const acc = pending.get(r.asset) ?? { sum: dec(0) };
      acc.sum = acc.sum.plus(dec(r.amount));
      if (acc.firstOver === undefined && (sent.get(r.asset) ?? dec(0)).plus(acc.sum).gt(dec(cap)))
        acc.firstOver = r.row;
      pending.set(r.asset, acc);
    }
  }
  return { count, withdrawals, pending };
}

/** What this run is about to send of an asset that has a 24-hour limit, and its first row over the limit. */
interface Pending {
  sum: Decimal;
  firstOver?: number;
}

/** What the service's withdrawals of the last 24 hours sent, per asset. */
function sentByAsset(ctx: PolicyContext): ReadonlyMap<string, Decimal> {
  if (ctx.sent) return ctx.sent;
  const sent = new Map<string, Decimal>();
  for (const t of ctx.recent ?? []) sent.set(t.asset, (sent.get(t.asset) ?? dec(0)).plus(dec(t.amount)));
  return sent;
}

/** The rolling 24 hours: what the service sent per asset, plus what this run is about to send. */
function rolling24h(
  policy: Policy,
  ctx: PolicyContext,
  pending: Map<string, Pending>,
  sent: ReadonlyMap<string, Decimal>,
  rule: Rule,
): void {
  const since = ctx.since !== undefined ? new Date(ctx.since).toISOString() : 'the last 24 h';
  const lines: string[] = [];
  for (const [asset, acc] of [...pending].sort(([a], [b]) => a.localeCompare(b))) {
    const cap = limitFor(policy.maxPer24h, asset)!;
    const before = sent.get(asset) ?? dec(0);
    const after = before.plus(acc.sum);
    lines.push(`${asset} ${fmt(before)} sent + ${fmt(acc.sum)} now of ${cap}`);
    if (after.gt(dec(cap)))
      rule.violate({
        message: `${asset}: ${fmt(before)} sent since ${since} (the service's withdrawals) + ${fmt(acc.sum)} in this run = ${fmt(after)}, over the 24-hour limit of ${cap} ${asset}${acc.firstOver !== undefined ? ` (from row ${acc.firstOver} on)` : ''}`,
      });
  }
  rule.detail = lines.length ? lines.join('; ') : 'nothing in this run counts against it';
}

function hours(policy: Policy, ctx: PolicyContext, rule: Rule): void {
  const windows = policy.hours!;
  const clock = ctx.clock === 'service' ? "by the service's clock" : "by this machine's clock";
  const open = windows.find((w) => inWindow(w, ctx.now));
  const first = windows[0];
  const at = `${timeOfDay(ctx.now, (open ?? first).zone).text} ${(open ?? first).zone}`;
  if (open) {
    rule.detail = `${at} is within ${open.text} (${clock})`;
    return;
  }
  rule.detail = `${at} is outside ${windows.map((w) => w.text).join(', ')} (${clock})`;
  rule.violate({ message: `sending is allowed ${windows.map((w) => w.text).join(', ')}; it is ${at} (${clock})` });
}

/** Whether the run needs approvals (production, above the threshold), and whether it has enough. */
function approvals(policy: Policy, ctx: PolicyContext, withdrawals: number, rule: Rule): void {
  const a = policy.approvals!;
  if (!a.environments.includes(ctx.environment)) {
    rule.status = 'n/a';
    rule.detail = `approvals are needed in ${a.environments.join(', ')}, not ${ctx.environment}`;
    return;
  }
  if (!withdrawals) {
    rule.status = 'n/a';
    rule.detail = 'approvals cover withdrawals';
    return;
  }
  if (!ctx.approvals) {
    rule.violate({ message: 'internal: the content to approve was not worked out' });
    return;
  }
  const { content, results } = ctx.approvals;
  const sums = sumsByAsset(content);
  const over = [...sums].filter(([asset, sum]) => {
    const above = a.above ? limitFor(a.above, asset) : undefined;
    return !a.above || above === undefined || sum.gt(dec(above));
  });
  if (!over.length) {
    rule.detail = `not needed: ${[...sums].map(([asset, s]) => `${asset} ${fmt(s)} is not above ${limitFor(a.above, asset)}`).join(', ')}`;
    return;
  }
  const valid = results.filter((r) => r.status === 'valid');
  const who = valid.map((r) => (r.approver ? `${r.approver} (${r.key_id})` : r.key_id)).join(', ');
  const why = a.above
    ? `the run's ${over.map(([asset, s]) => `${asset} total ${fmt(s)}`).join(', ')} is above the threshold`
    : 'every run needs them';
  if (valid.length >= a.required) {
    rule.detail = `${valid.length} of ${a.required} approvals (${why}): ${who}`;
    return;
  }
  rule.detail = `${valid.length} of ${a.required} approvals (${why})${who ? `: ${who}` : ''}`;
  rule.violate({
    message: `needs ${a.required} approval${a.required === 1 ? '' : 's'} by distinct keys of the policy over exactly this content (sha256 ${content.digest.slice(0, 12)}…), has ${valid.length}`,
  });
  for (const r of results) if (r.status !== 'valid') rule.violate({ message: `${r.file}: not counted: ${r.reason}` });
}

/** The verdict on a run; without a policy (no file), everything is allowed and no rule applies. */
export function evaluate(
  loaded: LoadedPolicy | undefined,
  requests: Iterable<PolicyRequest>,
  ctx: PolicyContext,
  /** Without a policy: how many requests there are, when known (the requests are then not counted one by one). */
  known?: number,
): PolicyVerdict {
  const rules = new Map(RULES.map((n) => [n, new Rule(n)]));
  const base = {
    checked_at: new Date(ctx.now).toISOString(),
    clock: ctx.clock,
    environment: ctx.environment,
  };
  if (!loaded) {
    let n = known ?? 0;
    if (known === undefined) for (const _ of requests) n++;
    for (const r of rules.values()) {
      r.status = 'off';
      r.detail = 'no policy file';
    }
    return { allowed: true, file: null, ...base, requests: n, rules: [...rules.values()].map((r) => r.done()) };
  }
  const p = loaded.policy;
  const sent = sentByAsset(ctx);
  const { count, withdrawals, pending } = eachRequest(p, requests, ctx, rules, sent);
  rolling24h(p, ctx, pending, sent, rules.get('max_per_24h')!);
  if (p.hours) hours(p, ctx, rules.get('hours')!);
  if (p.approvals) approvals(p, ctx, withdrawals, rules.get('approvals')!);
  settle(p, rules, withdrawals);
  const verdicts = [...rules.values()].map((r) => r.done());
  return {
    allowed: verdicts.every((v) => v.status !== 'fail'),
    file: loaded.file,
    sha256: loaded.sha256,
    ...base,
    requests: count,
    rules: verdicts,
    ...(ctx.approvals ? { approvals: ctx.approvals.results } : {}),
  };
}

/** Rules the policy does not set are off; the withdrawal rules do not apply to a run of internal transfers only. */
function settle(policy: Policy, rules: Map<RuleName, Rule>, withdrawals: number): void {
  const set: Record<RuleName, boolean> = {
    destinations: !!policy.destinations,
    verified_only: !!policy.verifiedOnly,
    networks: !!policy.networks,
    assets: !!policy.assets,
    max_per_withdrawal: !!policy.maxPerWithdrawal,
    max_per_24h: !!policy.maxPer24h,
    hours: !!policy.hours,
    approvals: !!policy.approvals,
  };
  const withdrawalOnly: RuleName[] = ['destinations', 'verified_only', 'networks', 'max_per_withdrawal', 'max_per_24h'];
  for (const r of rules.values()) {
    if (!set[r.name]) {
      r.status = 'off';
      r.detail = 'not set by the policy';
    } else if (!withdrawals && withdrawalOnly.includes(r.name)) {
      r.status = 'n/a';
      r.detail = 'applies to withdrawals, not internal transfers';
    } else if (r.status === 'pass' && !r.detail) r.detail = 'every request keeps it';
  }
}
