// The filters of transfers list that the hosted service's ListTransfers has no query parameter for (asset, network,
// destination address, metadata): coinop applies them to each page as it arrives, and never sends them.
import { usageError } from '../../cli/errors.js';

/** What a transfer must hold to be listed; every filter given must hold (a list: any of its values). */
export interface TransferFilter {
  assets?: string[];
  networks?: string[];
  /** Destination addresses; 0x addresses in any case. */
  destinations?: string[];
  /** Metadata: each key must be present, with this value when one is given. */
  metadata?: { key: string; value?: string }[];
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
  return !!(filter.assets || filter.networks || filter.destinations || filter.metadata);
}

/** The test a transfer passes when it holds everything the filter asks. */
export function transferMatcher(filter: TransferFilter): (t: Record<string, unknown>) => boolean {
  const f = filter;
  const assets = f.assets && new Set(f.assets.map((a) => a.toUpperCase()));
  const networks = f.networks && new Set(f.networks.map((n) => n.toUpperCase()));
  const destinations = f.destinations && new Set(f.destinations.map(addressKey));
  return (transfer) => {
    const t = transfer;
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
