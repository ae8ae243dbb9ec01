// The filters of transfers list that the hosted service's ListTransfers has no query parameter for (asset, network,
// destination address, metadata), and those of its filters it does not take together (the OpenAPI: ids, ref_ids,
// profile_ids, identity_ids, account_ids and type each "can be combined with created_at.* or updated_at.* filtering
// options only"): coinop applies them to each page as it arrives, and never sends them.
import { type AppliedTransferFilters, appliedTransferTest } from '../../contract/index.js';
import { usageError } from '../../cli/errors.js';

/** What a transfer must hold to be listed; every filter given must hold (a list: any of its values). */
export interface TransferFilter {
  assets?: string[];
  networks?: string[];
  /** Destination addresses; 0x addresses in any case. */
  destinations?: string[];
  /** Metadata: each key must be present, with this value when one is given. */
  metadata?: { key: string; value?: string }[];
  /** Filters of the API the service was not asked for (it does not take them with the one sent), by query field. */
  api?: AppliedTransferFilters;
}

/** --metadata KEY=VALUE (or KEY: present with any value), each checked. */
export function metadataFilters(values: string[] | undefined): TransferFilter['metadata'] {
  if (!values) return undefined;
  return values.map((given) => {
    const eq = given.indexOf('=');
    const key = eq < 0 ? given : given.slice(0, eq);
    if (!key.trim()) throw usageError(`--metadata: "${given}" has no key; give KEY=VALUE or KEY`);
    return eq < 0 ? { key } : { key, value: given.slice(eq + 1) };
  });
}

/** An address as compared: 0x addresses (EVM) in lower case, any other as it is. */
const addressKey = (a: string) => (/^0x[0-9a-f]+$/i.test(a) ? a.toLowerCase() : a);

/** Whether the filter has anything to apply. */
export function hasFilter(filter: TransferFilter): boolean {
  return !!(filter.assets || filter.networks || filter.destinations || filter.metadata || filter.api);
}

/** The test a transfer passes when it holds everything the filter asks. */
export function transferMatcher(filter: TransferFilter): (t: Record<string, unknown>) => boolean {
  const f = filter;
  const assets = f.assets && new Set(f.assets.map((a) => a.toUpperCase()));
  const networks = f.networks && new Set(f.networks.map((n) => n.toUpperCase()));
  const destinations = f.destinations && new Set(f.destinations.map(addressKey));
  const api = f.api && appliedTransferTest(f.api);
  return (transfer) => {
    const t = transfer;
    if (api && !api(t)) return false;
    if (assets && !assets.has(String(t.asset ?? '').toUpperCase())) return false;
    if (networks && !networks.has(String(t.crypto_network ?? '').toUpperCase())) return false;
    if (
      destinations &&
      !(typeof t.destination_address === 'string' && destinations.has(addressKey(t.destination_address)))
    )
      return false;
    if (f.metadata) {
      const m = (t.metadata ?? {}) as Record<string, unknown>;
      for (const { key, value } of f.metadata) {
        if (!(key in m)) return false;
        if (value !== undefined && m[key] !== value) return false;
      }
    }
    return true;
  };
}

/** The items that pass, as they come (a page at a time: nothing more is held). */
export async function* filtered<T extends object>(items: AsyncIterable<T>, filter: TransferFilter): AsyncGenerator<T> {
  const keep = transferMatcher(filter);
  for await (const item of items) if (keep(item as Record<string, unknown>)) yield item;
}
