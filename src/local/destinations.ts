// The address book of the local service: crypto destination addresses, created or updated by one PUT (by id, or by
// network, address and identity), each with a nickname unique within its identity (first-party ones share one scope).
import { randomUUID } from './lazy-crypto.js';
import { problems, type CryptoDestinationAddress, type PutCryptoDestinationAddressRequest } from '../contract/index.js';
import type { Core } from './core.js';
import { isoMillis } from './service-clock.js';
import type { DestinationRow } from './store.js';
import { releaseHeldWithdrawals } from './held-transfers.js';
import { checkVaspKnown, VASPS } from './vasps.js';

export function destinationResource(row: DestinationRow): CryptoDestinationAddress {
  return {
    id: row.id,
    ...(row.identity_id !== null ? { identity_id: row.identity_id } : {}),
    crypto_network: row.crypto_network,
    address: row.address,
    nickname: row.nickname,
    status: row.status,
    created_at: isoMillis(row.created_ms),
    bookmarked: row.bookmarked === 1,
    ...(row.travelrule_json !== null ? { travelrule_metadata: withVaspName(JSON.parse(row.travelrule_json)) } : {}),
  };
}

/** Travel rule details as answered: a VASP of the directory with its name (CryptoDestinationAddressVasp.name). */
function withVaspName(meta: { vasp?: { id?: string } }): Record<string, unknown> {
  const name = meta.vasp?.id !== undefined ? VASPS.find((v) => v.id === meta.vasp?.id)?.name : undefined;
  return name ? { ...meta, vasp: { ...meta.vasp, name } } : meta;
}

/** A nickname another address of the same identity holds is a 409 naming that address. */
function checkNicknameFree(core: Core, nickname: string, identityId: string | null, ownId?: string): void {
  const holder = core.store.destinationByNickname(nickname, identityId);
  if (holder && holder.id !== ownId) {
    throw problems.alreadyExists(`nickname already exists: ${nickname} names destination address ${holder.id}`, {
      existing: destinationResource(holder),
    });
  }
}

/** A nickname for a new address that says what it is, made unique with a counter: "ethereum-9a55", "ethereum-9a55-2". */
function freeNickname(core: Core, network: string, address: string, identityId: string | null): string {
  const base = `${network.toLowerCase()}-${address.slice(-4).toLowerCase()}`;
  let nickname = base;
  for (let i = 2; core.store.destinationByNickname(nickname, identityId); i++) nickname = `${base}-${i}`;
  return nickname;
}

/** PUT /v2/transfer/crypto-destination-address: updates the address it names, or creates it. */
export function putDestination(core: Core, body: PutCryptoDestinationAddressRequest): CryptoDestinationAddress {
  const { store } = core;
  checkVaspKnown(body.travelrule_metadata?.vasp?.id);
  return store.immediate(() => {
    const identityId = body.identity_id ?? null;
    const existing =
      body.id !== undefined
        ? store.destination(body.id)
        : store.destinationByKey(body.crypto_network!, body.address!, identityId);
    if (body.id !== undefined && !existing)
      throw problems.notFound(`crypto destination address not found with id ${body.id}`);
    const travelrule = body.travelrule_metadata !== undefined ? JSON.stringify(body.travelrule_metadata) : undefined;
    if (existing) {
      if (body.nickname !== undefined) checkNicknameFree(core, body.nickname, existing.identity_id, existing.id);
      store.updateDestination({
        id: existing.id,
        nickname: body.nickname ?? existing.nickname,
        bookmarked: body.bookmarked_status === undefined ? existing.bookmarked : body.bookmarked_status ? 1 : 0,
        travelrule_json: travelrule ?? existing.travelrule_json,
      });
      const saved = store.destination(existing.id)!;
      if (travelrule !== undefined) releaseHeldWithdrawals(core, saved);
      return destinationResource(saved);
    }
    const network = body.crypto_network!;
    const address = body.address!;
    if (body.nickname !== undefined) checkNicknameFree(core, body.nickname, identityId);
    const id = randomUUID();
    store.insertDestination({
      id,
      identity_id: identityId,
      crypto_network: network,
      address,
      nickname: body.nickname ?? freeNickname(core, network, address, identityId),
      bookmarked: body.bookmarked_status ? 1 : 0,
      status: 'APPROVED',
      travelrule_json: travelrule ?? null,
      created_ms: core.clock.now(),
    });
    const saved = store.destination(id)!;
    if (travelrule !== undefined) releaseHeldWithdrawals(core, saved);
    return destinationResource(saved);
  });
}
