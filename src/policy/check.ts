// checkWithdrawals: the one entry point for anything that moves money (the CLI's withdraw, batch and internal
// transfers, and the agent server to come). It asks the service what the rules need to know (the address book, the
// withdrawals of the last 24 hours, its clock), verifies the approvals given, and evaluates (evaluate.ts). The
// service's transfers are the count, not a counter of this machine's, so a second machine or process sees the same.
import {
  dec,
  type Decimal,
  FIAT_WITHDRAWAL_TRANSFER_TYPES,
  type StablecoinConversion,
  type Transfer,
} from '../contract/index.js';
import type { ServiceClient } from '../client/service-client.js';
import { type ApprovalContent, type ParsedApproval, verifyApprovals } from './approvals.js';
import {
  type BookEntry,
  evaluate,
  type PolicyContext,
  type PolicyRequest,
  type PolicyVerdict,
  type RecentWithdrawal,
  type VerifiedAddress,
} from './evaluate.js';
import type { LoadedPolicy, Policy } from './policy.js';

export interface CheckOptions {
  client: ServiceClient;
  /** The context's policy; undefined: it has no policy file (no rules). */
  policy: LoadedPolicy | undefined;
  environment: string;
  /** The coinop context's default service profile (the caps count every profile the credentials reach). */
  defaultProfileId?: string;
  /** The run's requests; called once per pass (a batch is read from its staged copy each time). */
  requests: () => Iterable<PolicyRequest>;
  /** How many requests there are, when the caller knows: without a policy they are then not read at all. */
  count?: number;
  /** The content the run sends and the approvals given for it. */
  approvals?: { content: ApprovalContent; files: ParsedApproval[] };
  /** This machine's clock, used only when the service sends no Date. */
  machineNow: () => number;
  /**
   * What this machine admitted that the service may not show yet (the gate's reservations): counted with the
   * service's withdrawals of the last 24 hours unless the service holds their ref_id already.
   */
  reserved?: RecentWithdrawal[];
  /** Told every ref_id the service holds among its withdrawals of the last day (when it was asked). */
  onSeen?: (refIds: Set<string>) => void;
  /**
   * The service's last day from elsewhere than a read now (a gateway's copy, read a moment ago: what it admitted
   * since is in `reserved`); without it the service is asked at every check.
   */
  history?: () => Promise<LastDay>;
}

/** The service's withdrawals of the last 24 hours, as one read of them found them. */
export interface LastDay {
  recent: RecentWithdrawal[];
  /** Every ref_id the service held in that time, FAILED ones too. */
  seen: Set<string>;
  /** The time, by `clock`. */
  now: number;
  clock: 'service' | 'machine';
  /** The start of the 24 hours `recent` covers. */
  since: number;
  /** What `recent` sent per asset (summed once per read, not at every check). */
  totals: ReadonlyMap<string, Decimal>;
}

/** What withdrawals sent per asset. */
function sums(list: Iterable<RecentWithdrawal>, start: ReadonlyMap<string, Decimal> = new Map()): Map<string, Decimal> {
  const out = new Map(start);
  for (const t of list) out.set(t.asset, (out.get(t.asset) ?? dec(0)).plus(dec(t.amount)));
  return out;
}

/** A withdrawal request as the policy sees it (`row`: its row in a batch file); given by total, the total counts. */
export function withdrawalRequest(
  body: {
    profile_id?: string;
    asset: string;
    crypto_network: string;
    destination_address: string;
    amount?: string;
    total?: string;
    ref_id?: string;
  },
  row?: number,
): PolicyRequest {
  return {
    kind: 'withdrawal',
    ...(row !== undefined ? { row } : {}),
    ...(body.ref_id !== undefined ? { ref_id: body.ref_id } : {}),
    ...(body.profile_id !== undefined ? { profile_id: body.profile_id } : {}),
    asset: body.asset,
    amount: body.amount ?? body.total ?? '0',
    crypto_network: body.crypto_network,
    destination_address: body.destination_address,
  };
}

const DAY_MS = 24 * 3600 * 1000;
/** The first read reaches this far back by this machine's clock; the service's own clock then says what counts. */
const FIRST_LOOK_MS = 2 * DAY_MS;
const CHUNK = 100;

function chunks<T>(list: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** Every item of a list operation's pages, and the Date of its first answer. */
async function listAll<T>(
  client: ServiceClient,
  id: 'listTransfers' | 'listCryptoDestinationAddresses' | 'listStablecoinConversions' | 'listVerifications',
  query: Record<string, unknown>,
  itemsKey: string,
  max = Infinity,
): Promise<{ items: T[]; date?: string }> {
  const items: T[] = [];
  let date: string | undefined;
  let cursor: string | undefined;
  const seen = new Set<string>();
  for (;;) {
    const res = await client.callAny(id, {
      query: { ...query, ...(cursor ? { page_cursor: cursor } : {}) },
    });
    date ??= res.date;
    const page = res.data[itemsKey];
    if (Array.isArray(page)) items.push(...(page as T[]));
    cursor = typeof res.data.next_page_cursor === 'string' ? res.data.next_page_cursor || undefined : undefined;
    if (!cursor || seen.has(cursor) || items.length >= max) return { items, date };
    seen.add(cursor);
  }
}

/** The entries of the address book the destinations rule needs: every bookmarked one, or the policy's nicknames. */
async function addressBook(client: ServiceClient, policy: Policy): Promise<BookEntry[]> {
  const queries =
    policy.destinations === 'bookmarked_only'
      ? [{ bookmarked_status: true }]
      : chunks((policy.destinations ?? []).filter((d) => d.length <= 100)).map((nicknames) => ({ nicknames }));
  const out: BookEntry[] = [];
  for (const q of queries) {
    const { items } = await listAll<BookEntry>(
      client,
      'listCryptoDestinationAddresses',
      { ...q, limit: 1000 },
      'addresses',
    );
    out.push(...items);
  }
  return out;
}

/** The addresses the service verified as the customer's own, for verified_only: every APPROVED verification. */
async function verifiedAddresses(client: ServiceClient): Promise<VerifiedAddress[]> {
  const { items } = await listAll<VerifiedAddress>(
    client,
    'listVerifications',
    { status: 'APPROVED', limit: 1000 },
    'items',
  );
  return items.map(({ network, address }) => ({ network, address }));
}

/**
 * What counts against the rolling 24 hours: crypto withdrawals, fiat withdrawals (of every fiat network) and transfers
 * to another customer (the sender's side, by the OpenAPI's name: its list filter has no PLATFORM_ one).
 */
const WITHDRAWAL_TYPES = ['CRYPTO_WITHDRAWAL', ...FIAT_WITHDRAWAL_TRANSFER_TYPES, 'PAXOS_TRANSFER_DEBIT'] as const;

/**
 * The service's withdrawals of the last 24 hours by its own clock (the Date of its answer), of every service profile
 * the credentials reach (no profile filter: money moved out of another profile counts as much); with `timeOnly`, one
 * small read for the clock. `seen`: every ref_id the service holds in that time, FAILED ones too.
 */
export async function lastDay(client: ServiceClient, machineNow: number, timeOnly: boolean): Promise<LastDay> {
  const read = async (since: number, max = Infinity) =>
    listAll<Transfer>(
      client,
      'listTransfers',
      { type: WITHDRAWAL_TYPES, 'created_at.gte': new Date(since).toISOString(), limit: timeOnly ? 1 : 1000 },
      'items',
      max,
    );
  const first = await read(machineNow - FIRST_LOOK_MS, timeOnly ? 1 : Infinity);
  const served = first.date ? Date.parse(first.date) : Number.NaN;
  const now = Number.isFinite(served) ? served : machineNow;
  const clock = Number.isFinite(served) ? 'service' : 'machine';
  const since = now - DAY_MS;
  if (timeOnly) return { recent: [], seen: new Set(), now, clock, since, totals: new Map() };
  // A service clock more than a day behind this machine's: read again from its own day's start.
  const items = since < machineNow - FIRST_LOOK_MS ? (await read(since)).items : first.items;
  const seen = new Set(items.flatMap((t) => (t.ref_id ? [t.ref_id] : [])));
  const recent = items
    .filter((t) => t.status !== 'FAILED' && t.status !== 'CANCELLED' && Date.parse(t.created_at) >= since)
    .map((t) => ({ asset: t.asset, amount: t.amount, ref_id: t.ref_id }));
  return { recent, seen, now, clock, since, totals: sums(recent) };
}

/**
 * The service's stablecoin conversions since `since` (the start of its last day), not CANCELLED or FAILED, as what
 * they took of their source asset; `seen`: every ref_id among them. Read only for a run with a conversion: a
 * conversion's rolling 24 hours count the withdrawals and the conversions of the day (a withdrawal's, the withdrawals).
 */
async function conversionsSince(
  client: ServiceClient,
  since: number,
): Promise<{ recent: RecentWithdrawal[]; seen: Set<string> }> {
  const { items } = await listAll<StablecoinConversion>(
    client,
    'listStablecoinConversions',
    { 'created_at.begin': new Date(since).toISOString(), limit: 1000 },
    'items',
  );
  const seen = new Set(items.flatMap((c) => (c.ref_id ? [c.ref_id] : [])));
  const recent = items
    .filter((c) => c.status !== 'FAILED' && c.status !== 'CANCELLED' && c.source_asset && c.amount)
    .map((c) => ({ asset: c.source_asset!, amount: c.amount!, ref_id: c.ref_id }));
  return { recent, seen };
}

/** The verdict of the context's policy on a run, with what the service says (nothing is sent without a policy). */
export async function checkWithdrawals(options: CheckOptions): Promise<PolicyVerdict> {
  const base = { environment: options.environment, now: options.machineNow(), clock: 'machine' } as const;
  if (!options.policy)
    return evaluate(undefined, options.count === undefined ? options.requests() : [], base, options.count);
  const p = options.policy.policy;
  let withdrawals = false;
  let crypto = false;
  let conversions = false;
  for (const r of options.requests()) {
    if (r.kind !== 'internal') withdrawals = true;
    if (r.kind === 'withdrawal') crypto = true;
    if (r.kind === 'conversion') conversions = true;
  }
  const ctx: PolicyContext = { ...base };
  if (p.destinations && crypto) ctx.book = await addressBook(options.client, p);
  if (p.verifiedOnly && crypto) ctx.verified = await verifiedAddresses(options.client);
  const window = !!p.maxPer24h && withdrawals;
  if (window || p.hours) {
    let day = options.history ? await options.history() : await lastDay(options.client, base.now, !window);
    if (window && conversions) {
      const c = await conversionsSince(options.client, day.since);
      day = { ...day, recent: [...day.recent, ...c.recent], seen: new Set([...day.seen, ...c.seen]) };
      day.totals = sums(c.recent, day.totals);
    }
    const reserved = (options.reserved ?? []).filter((r) => !(r.ref_id && day.seen.has(r.ref_id)));
    const recent = [...day.recent, ...reserved];
    Object.assign(ctx, {
      now: day.now,
      clock: day.clock,
      ...(window ? { recent, since: day.since, sent: sums(reserved, day.totals) } : {}),
    });
    if (window) options.onSeen?.(day.seen);
  }
  if (options.approvals && p.approvals)
    ctx.approvals = {
      content: options.approvals.content,
      results: verifyApprovals(options.approvals.files, options.approvals.content, p.approvals.keys),
    };
  return evaluate(options.policy, options.requests(), ctx);
}
