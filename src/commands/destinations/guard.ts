// The policy over the address book: a policy that allows destinations by nickname trusts the book to say where each
// nickname points, so a write that gives such a nickname to an address that did not have it (re-pointing it, or naming
// a new address so) is refused unless the policy pins the nickname to exactly that address (src/policy/evaluate.ts
// bookWriteProblem). Every write, allowed or refused, is in the audit trail (kind address_book): the nickname, the
// address and network, what the nickname and the address were before when the book said, and the outcome.
import type { PutCryptoDestinationAddressRequest } from '../../api/index.js';
import type { AuditWhat } from '../../audit/entry.js';
import { outcomeOfError } from '../../cli/audit.js';
import type { CliContext, Connection } from '../../cli/context.js';
import { CoinopError } from '../../cli/errors.js';
import { type BookEntry, bookWriteProblem } from '../../policy/evaluate.js';
import type { LoadedPolicy } from '../../policy/policy.js';
import { profilePolicy } from '../policy/enforce.js';

const COMMAND = 'destinations put';

type Entry = BookEntry & { id?: string; identity_id?: string };

async function find(conn: Connection, query: Record<string, unknown>): Promise<Entry[]> {
  const { data } = await conn.client.call<{ addresses?: Entry[] }>('listCryptoDestinationAddresses', {
    query: { ...query, limit: 1000 },
  });
  return Array.isArray(data.addresses) ? data.addresses : [];
}

/** The book before the write: the entry it changes (none: a new address) and the entries holding the nickname. */
async function before(
  conn: Connection,
  body: PutCryptoDestinationAddressRequest,
): Promise<{ entry?: Entry; holders: Entry[] }> {
  const found =
    body.id !== undefined
      ? await find(conn, { ids: [body.id] })
      : (await find(conn, { crypto_networks: [body.crypto_network], addresses: [body.address] })).filter(
          (e) => (e.identity_id ?? undefined) === body.identity_id,
        );
  const entry = found[0];
  const nickname = body.nickname ?? entry?.nickname;
  return { entry, holders: nickname !== undefined ? await find(conn, { nicknames: [nickname] }) : [] };
}

const policyOf = (loaded: LoadedPolicy | undefined): AuditWhat =>
  loaded ? { policy_file: loaded.file, policy_sha256: loaded.sha256 } : {};

/**
 * Checks an address-book write against the profile's policy before it is sent: a refusal is recorded (kind
 * address_book, result refused) and thrown (exit 8); else what the audit entry of the write says.
 */
export async function guardBookWrite(
  ctx: CliContext,
  conn: Connection,
  body: PutCryptoDestinationAddressRequest,
): Promise<AuditWhat> {
  const asked: AuditWhat = {
    command: COMMAND,
    ...(body.id !== undefined ? { id: body.id } : {}),
    ...(body.nickname !== undefined ? { nickname: body.nickname } : {}),
    ...(body.address !== undefined ? { address: body.address } : {}),
    ...(body.crypto_network !== undefined ? { network: body.crypto_network } : {}),
    ...(body.bookmarked_status !== undefined ? { bookmarked: body.bookmarked_status } : {}),
    ...(body.identity_id !== undefined ? { identity_id: body.identity_id } : {}),
  };
  const refuse = async (what: AuditWhat, message: string, hint: string): Promise<never> => {
    await ctx.audit.note(
      { kind: 'address_book', what, outcome: { result: 'refused', error: { category: 'policy', message } } },
      conn,
    );
    throw new CoinopError('policy', `${message}; nothing was written to the address book`, { hint });
  };
  let loaded: LoadedPolicy | undefined;
  try {
    loaded = await profilePolicy(ctx, COMMAND);
  } catch (e) {
    if (!(e instanceof CoinopError) || e.category !== 'policy') throw e;
    return refuse(asked, e.message.replace(/; nothing was sent$/, ''), e.hint ?? 'fix the policy file');
  }
  const needed = Array.isArray(loaded?.policy.destinations);
  let book: { entry?: Entry; holders: Entry[] } | undefined;
  try {
    book = await before(conn, body);
  } catch (e) {
    // The policy needs the book to decide (the write is not sent); without one, the audit entry says less.
    if (needed) {
      await ctx.audit.note(
        { kind: 'address_book', what: { ...asked, ...policyOf(loaded) }, outcome: outcomeOfError(e) },
        conn,
      );
      throw e;
    }
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
  if (!loaded || !needed || nickname === undefined || address === undefined || network === undefined) return what;
  const problem = bookWriteProblem(loaded.policy, { nickname, address, crypto_network: network }, book?.holders ?? []);
  if (!problem) return what;
  return refuse(
    { ...what, rules: ['destinations'] },
    `refused by policy: rule destinations: ${problem} (policy ${loaded.file})`,
    'the policy changes only by editing its file (coinop policy show)',
  );
}
