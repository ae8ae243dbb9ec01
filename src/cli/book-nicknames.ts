// The address book's nicknames of destinations given by address (a batch's rows, as approve shows them): one read of
// the book for up to LIST_FILTER_MAX addresses. Nothing is named when the book cannot be read (a client without
// transfer:read_crypto_destination_address): the addresses are shown alone, as before.
import { canonicalAddress, LIST_FILTER_MAX } from '../contract/index.js';
import type { Connection } from './invocation.js';
import { bookEntryFor } from './travel-rule.js';

/** A destination as a row gives it: its network and address, and the identity it pays for (if any). */
export interface RowDestination {
  network: string;
  address: string;
  identityId?: string;
}

const keyOf = (network: string, address: string) => `${network}\u0000${canonicalAddress(network, address)}`;

/** What the book calls each destination; `named(d)` is its nickname, or undefined when it has none. */
export async function bookNicknames(
  conn: Pick<Connection, 'client'>,
  destinations: readonly RowDestination[],
): Promise<(d: RowDestination) => string | undefined> {
  // An EVM address may be kept in lower case or in its checksum spelling: both are asked for.
  const spellings = new Set(
    destinations.flatMap((d) => (/^0x/i.test(d.address) ? [d.address, d.address.toLowerCase()] : [d.address])),
  );
  const addresses = [...spellings].slice(0, LIST_FILTER_MAX);
  const entries = new Map<string, { nickname?: string; identity_id?: string }[]>();
  if (!addresses.length) return () => undefined;
  try {
    const { data } = await conn.client.call('listCryptoDestinationAddresses', { query: { addresses, limit: 1000 } });
    for (const e of data.addresses ?? []) {
      const key = keyOf(e.crypto_network, e.address);
      entries.set(key, [...(entries.get(key) ?? []), e]);
    }
  } catch {
    return () => undefined;
  }
  return (d) => bookEntryFor(entries.get(keyOf(d.network, d.address)) ?? [], d.identityId)?.nickname || undefined;
}
