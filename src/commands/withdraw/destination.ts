// withdraw --to NICKNAME: the destination from the address book. The address and its network come from the book; the
// asset from --asset, or the network's only one. An unknown nickname is a usage error that names a close one.
import { ASSETS, CRYPTO_ASSETS, type CryptoNetwork, didYouMean, networksForAsset } from '../../contract/index.js';
import type { Connection } from '../../cli/invocation.js';
import type { Ports } from '../../cli/ports.js';
import { usageError } from '../../cli/errors.js';
import type { FlagNames } from '../../client/service-client.js';
import type { WithdrawOptions } from './options.js';
import { keepCompletionWords } from '../../config/completion-words.js';

export interface BookDestination {
  nickname: string;
  address: string;
  network: CryptoNetwork;
  /** From --asset, or the only asset of the network (asked for on a terminal when there are several). */
  asset: string;
}

const BOOK_FLAGS: FlagNames = { nicknames: '--to', identity_ids: '--identity-id' };
/** The most addresses of the book read to suggest a close nickname. */
const SUGGEST_FROM = 1000;

async function suggestions(conn: Connection, dataDir: string, typed: string): Promise<string> {
  const nicknames: string[] = [];
  for await (const a of conn.client.items('listCryptoDestinationAddresses', {
    query: { limit: 1000 },
  })) {
    if (a.nickname) nicknames.push(a.nickname);
    if (nicknames.length >= SUGGEST_FROM) break;
  }
  keepCompletionWords(dataDir, conn.context.name, 'destinations', nicknames);
  return didYouMean(typed, nicknames);
}

/** The one address of the book --to names (within --identity-id when given). */
async function lookUp(conn: Connection, dataDir: string, nickname: string, identityId: string | undefined) {
  const query = { nicknames: [nickname], ...(identityId !== undefined ? { identity_ids: [identityId] } : {}) };
  const { data } = await conn.client.call('listCryptoDestinationAddresses', { query }, BOOK_FLAGS);
  const found = data.addresses ?? [];
  if (!found.length) {
    const close = await suggestions(conn, dataDir, nickname);
    throw usageError(
      `--to: no address in the address book is called "${nickname}"${close}`,
      'see coinop destinations list, or add it with coinop destinations put',
    );
  }
  if (found.length > 1) {
    const identities = found.map((a) => a.identity_id ?? '(yours)').join(', ');
    throw usageError(
      `--to: "${nickname}" names ${found.length} addresses of the book (identities ${identities})`,
      'give --identity-id',
    );
  }
  return found[0];
}

export async function bookDestination(
  ctx: Pick<Ports, 'service' | 'prompter'>,
  options: WithdrawOptions & { to: string },
): Promise<BookDestination> {
  const conn = await ctx.service.connect();
  const entry = await lookUp(conn, ctx.service.dataDir(), options.to, options.identityId);
  const network = entry.crypto_network as CryptoNetwork;
  if (entry.status !== undefined && entry.status !== 'APPROVED')
    throw usageError(
      `--to: "${options.to}" is ${entry.status} in the address book; only an APPROVED address can be paid`,
    );
  if (options.network !== undefined && options.network !== network)
    throw usageError(
      `--network: "${options.to}" is a ${network} address, not ${options.network}`,
      'leave --network out with --to',
    );
  const carried = CRYPTO_ASSETS.filter((a) => ASSETS[a].networks[network]);
  if (options.asset !== undefined && !networksForAsset(options.asset).includes(network))
    throw usageError(
      `--asset: ${options.asset} cannot be sent on ${network}, the network of "${options.to}" (it carries ${carried.join(', ')})`,
    );
  const pr = ctx.prompter;
  let asset = options.asset ?? (carried.length === 1 ? carried[0] : undefined);
  if (asset === undefined) {
    if (!pr.allowed) throw usageError(`missing --asset: ${network} carries ${carried.join(', ')}`, 'give --asset');
    asset = await pr.select(`Asset to send on ${network}`, carried);
  }
  return { nickname: entry.nickname ?? options.to, address: entry.address, network, asset };
}
