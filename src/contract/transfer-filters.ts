// ListTransfers' filters and the OpenAPI's rule on them: ids, ref_ids, profile_ids, identity_ids, account_ids and type
// each "can be combined with created_at.* or updated_at.* filtering options only" (spec/, GET /transfer/transfers).
// The local service refuses a query that breaks the rule (a 400 naming the field); a client that was asked for such
// a combination sends the part the service takes and applies the rest to each page itself (splitTransferQuery).
import { openApiTransferType } from './enums.js';
import type { Issue } from './validate.js';

/**
 * The filters that go alone with the time filters (the page's limit, order, order_by and cursor aside), in the order
 * a client that must pick one asks for it: the most selective first.
 */
export const TRANSFER_LONE_FILTERS = ['ids', 'ref_ids', 'account_ids', 'identity_ids', 'profile_ids', 'type'] as const;
/** The other filters (besides the time filters): they go together, but with none of the lone ones. */
export const TRANSFER_SHARED_FILTERS = ['crypto_tx_hashes', 'group_ids', 'statuses', 'secondary_statuses'] as const;
export type TransferFilterKey = (typeof TRANSFER_LONE_FILTERS)[number] | (typeof TRANSFER_SHARED_FILTERS)[number];

const isLone = (k: string) => (TRANSFER_LONE_FILTERS as readonly string[]).includes(k);

/** The filters of a ListTransfers query that are given (an empty list is none), lone ones first, in their order. */
export function transferFiltersGiven(query: Record<string, unknown>): TransferFilterKey[] {
  const given = (k: string) => query[k] !== undefined && !(Array.isArray(query[k]) && !query[k].length);
  return [...TRANSFER_LONE_FILTERS, ...TRANSFER_SHARED_FILTERS].filter(given);
}

/** The rule: the first other filter given with a lone one. */
export function transferFilterIssues(query: Record<string, unknown>): Issue[] {
  const [first, ...others] = transferFiltersGiven(query);
  if (!others.length || !isLone(first)) return [];
  return [
    {
      field: others[0],
      rule: `cannot be given with ${first}: ${first} goes with the created_at and updated_at filters only`,
    },
  ];
}

/** Filters of ListTransfers a client applies itself, by query field: a transfer passes when it has one of the values. */
export type AppliedTransferFilters = Partial<Record<TransferFilterKey, string[]>>;

/**
 * A ListTransfers query as a client asks a hosted service: the types by the OpenAPI's names (its enumeration has
 * PAXOS_TRANSFER_* where spec/SERVICE.md says PLATFORM_TRANSFER_*), and, when the filters given may not go together,
 * the part the service takes (ids or ref_ids alone; else the transaction hashes and group ids with the statuses; else
 * the first lone filter) with the rest `applied` by the client to each page. Time filters, order and paging are
 * always sent.
 */
export function splitTransferQuery(query: Record<string, unknown>): {
  query: Record<string, unknown>;
  applied?: AppliedTransferFilters;
} {
  const out = { ...query };
  if (Array.isArray(out.type)) out.type = [...new Set(out.type.map((t) => openApiTransferType(String(t))))];
  const given = transferFiltersGiven(out);
  const lone = given.filter(isLone);
  if (!lone.length || given.length === 1) return { query: out };
  const byIds = lone.find((k) => k === 'ids' || k === 'ref_ids');
  const sent = byIds
    ? [byIds]
    : given.includes('crypto_tx_hashes') || given.includes('group_ids')
      ? given.filter((k) => !isLone(k))
      : [lone[0]];
  const applied: AppliedTransferFilters = {};
  for (const k of given) {
    if (sent.includes(k)) continue;
    applied[k] = ([] as unknown[]).concat(out[k]).map(String);
    delete out[k];
  }
  return { query: out, applied };
}

/** The field of a transfer each filter reads (a type by the OpenAPI's name, as the filter sent is). */
const FIELD: Record<TransferFilterKey, (t: Record<string, unknown>) => unknown> = {
  ids: (t) => t.id,
  ref_ids: (t) => t.ref_id,
  account_ids: (t) => t.account_id,
  identity_ids: (t) => t.identity_id,
  profile_ids: (t) => t.profile_id,
  type: (t) => (typeof t.type === 'string' ? openApiTransferType(t.type) : undefined),
  crypto_tx_hashes: (t) => t.crypto_tx_hash,
  group_ids: (t) => t.group_id,
  statuses: (t) => t.status,
  secondary_statuses: (t) => (t.secondary_status as { name?: unknown } | undefined)?.name,
};

/** The test of the filters a client applies: every one given must hold. */
export function appliedTransferTest(applied: AppliedTransferFilters): (t: Record<string, unknown>) => boolean {
  const tests = Object.entries(applied).map(([k, values]) => ({
    field: FIELD[k as TransferFilterKey],
    values: new Set(k === 'type' ? values.map(openApiTransferType) : values),
  }));
  return (t) =>
    tests.every(({ field, values }) => {
      const v = field(t);
      return typeof v === 'string' && values.has(v);
    });
}
