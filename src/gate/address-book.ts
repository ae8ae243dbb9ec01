// The policy over the address book, step 3 of the gate for an address book write: a policy that allows destinations
// by nickname trusts the book to say where each nickname points, so a write that gives such a nickname to an address
// that did not have it (re-pointing it, or naming a new address so) is refused unless the policy pins the nickname to
// exactly that address (src/policy/evaluate.ts bookWriteProblem). What the audit entry of every write says: the
// nickname, the address and network, what the nickname and the address were before when the book said.
import type { PutCryptoDestinationAddressRequest } from '../contract/index.js';
import type { AuditWhat } from '../audit/entry.js';
import type { ServiceClient } from '../client/service-client.js';
import { CoinopError } from '../errors.js';
import { type BookEntry, bookWriteProblem } from '../policy/evaluate.js';
import type { LoadedPolicy } from '../policy/policy.js';

type Entry = BookEntry & { id?: string; identity_id?: string };

async function find(client: ServiceClient, query: Record<string, unknown>): Promise<Entry[]> {
  const { data } = await client.call('listCryptoDestinationAddresses', {
    query: { ...query, limit: 1000 },
  });
  return Array.isArray(data.addresses) ? data.addresses : [];
}

/** The book before the write: the entry it changes (none: a new address) and the entries holding the nickname. */
async function before(
  client: ServiceClient,
  body: PutCryptoDestinationAddressRequest,
): Promise<{ entry?: Entry; holders: Entry[] }> {
  const found =
    body.id !== undefined
      ? await find(client, { ids: [body.id] })
      : (await find(client, { crypto_networks: [body.crypto_network], addresses: [body.address] })).filter(
          (e) => (e.identity_id ?? undefined) === body.identity_id,
        );
  const entry = found[0];
  const nickname = body.nickname ?? entry?.nickname;
  return { entry, holders: nickname !== undefined ? await find(client, { nicknames: [nickname] }) : [] };
}

const policyOf = (loaded: LoadedPolicy | undefined): AuditWhat =>
  loaded ? { policy_file: loaded.file, policy_sha256: loaded.sha256 } : {};

/** What an address book write asks for, as its audit entries name it. */
export function bookWriteWhat(body: { [K in keyof PutCryptoDestinationAddressRequest]?: unknown }): AuditWhat {
  return {
    ...(body.id !== undefined ? { id: body.id } : {}),
    ...(body.nickname !== undefined ? { nickname: body.nickname } : {}),
    ...(body.address !== undefined ? { address: body.address } : {}),
    ...(typeof body.crypto_network === 'string' ? { network: body.crypto_network } : {}),
    ...(body.bookmarked_status !== undefined ? { bookmarked: body.bookmarked_status } : {}),
    ...(body.identity_id !== undefined ? { identity_id: body.identity_id } : {}),
  };
}

/**
 * An address-book write against the context's policy: what its audit entry says (the book before it), and the
 * refusal when the policy does not allow it (category policy; `what` then names the rule).
 */
export async function checkBookWrite(
  client: ServiceClient,
  loaded: LoadedPolicy | undefined,
  body: PutCryptoDestinationAddressRequest,
): Promise<{ what: AuditWhat; refusal?: CoinopError }> {
  const asked = bookWriteWhat(body);
  const needed = Array.isArray(loaded?.policy.destinations);
  let book: { entry?: Entry; holders: Entry[] } | undefined;
  try {
    book = await before(client, body);
  } catch (e) {
    // The policy needs the book to decide (the write is not sent); without one, the audit entry says less.
    if (needed) throw e;
  }
  const entry = book?.entry;
  const nickname = body.nickname ?? entry?.nickname;
  const address = body.address ?? entry?.address;
  const network = body.crypto_network ?? entry?.crypto_network;
  const previous = book?.holders.filter(
    (h) => h.nickname === nickname && !(h.address === address && h.crypto_network === network),
  );
  const what: AuditWhat = {
    ...asked,
    ...(nickname !== undefined ? { nickname } : {}),
    ...(address !== undefined ? { address } : {}),
    ...(network !== undefined ? { network } : {}),
    ...(entry
      ? { id: entry.id, previous_nickname: entry.nickname ?? null }
      : book && body.id === undefined
        ? { new_address: true }
        : {}),
    ...(previous?.length
      ? { previous_address: previous[0].address, previous_network: previous[0].crypto_network }
      : {}),
    ...policyOf(loaded),
  };
  if (!loaded || !needed || nickname === undefined || address === undefined || network === undefined) return { what };
  const problem = bookWriteProblem(loaded.policy, { nickname, address, crypto_network: network }, book?.holders ?? []);
  if (!problem) return { what };
  return {
    what: { ...what, rules: ['destinations'] },
    refusal: new CoinopError(
      'policy',
      `refused by policy: rule destinations: ${problem} (policy ${loaded.file}); nothing was written to the address book`,
      { hint: 'the policy changes only by editing its file (coinop policy show)' },
    ),
  };
}
