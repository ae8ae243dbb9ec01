// Service profiles of the local service as the API shows them, and their balances. The balances are the ledger that
// withdrawals, deposits and internal transfers move (ledger.ts, internal-transfers.ts): read after the settlements
// that are due, so a FAILED withdrawal's refund shows at once.
import { randomUUID } from './lazy-crypto.js';
import { ASSETS, problems, type CreateProfileRequest, type Profile, type ProfileBalance } from '../contract/index.js';
import type { Core } from './core.js';
import { profileNotFound, settleDue } from './ledger.js';
import type { ProfileRow } from './store.js';

/** The alias of GET /v2/profiles/{profile_id} for the default profile. */
const DEFAULT_ALIAS = 'default';

export function profileResource(row: ProfileRow): Profile {
  return {
    id: row.id,
    // A profile made through the control API may have no nickname.
    nickname: row.nickname ?? '',
    type: row.type,
    ...(row.description !== null ? { description: row.description } : {}),
  };
}

/** A profile by id (or, with `alias`, the default profile for "default"); a 404 when there is none. */
export function profileOr404(core: Core, id: string, alias = false): ProfileRow {
  const row = alias && id === DEFAULT_ALIAS ? core.store.defaultProfile() : core.store.profile(id);
  if (!row) throw profileNotFound(id);
  return row;
}

/**
 * A NORMAL profile of the customer of the default profile (the account the API's clients act for), its nickname
 * unique among that customer's profiles: a 409 with the existing profile otherwise.
 */
export function createProfile(core: Core, body: CreateProfileRequest): Profile {
  const { store } = core;
  return store.immediate(() => {
    const customerId = store.defaultProfile()?.customer_id ?? randomUUID();
    const taken = store.profileByNickname(customerId, body.nickname);
    if (taken)
      throw problems.alreadyExists(`nickname ${body.nickname} already exists`, { existing: profileResource(taken) });
    const id = randomUUID();
    store.insertProfile({
      id,
      customer_id: customerId,
      nickname: body.nickname,
      type: 'NORMAL',
      description: body.description ?? null,
      created_ms: core.clock.now(),
    });
    return profileResource(store.profile(id)!);
  });
}

const balance = (asset: string, amount: string | undefined): ProfileBalance => ({
  asset,
  available: amount ?? '0',
  // Nothing is committed to orders: the local service takes none.
  trading: '0',
});

/** A profile's balances: of `assets`, or of every asset of the catalogue and then any other it holds. */
export function profileBalances(core: Core, profileId: string, assets?: string[]): ProfileBalance[] {
  settleDue(core);
  const profile = profileOr404(core, profileId);
  const held = new Map(core.store.balances(profile.id).map((b) => [b.asset, b.amount]));
  const names = assets ?? [...Object.keys(ASSETS), ...held.keys()];
  return [...new Set(names)].map((asset) => balance(asset, held.get(asset)));
}

export function profileBalance(core: Core, profileId: string, asset: string): ProfileBalance {
  settleDue(core);
  const profile = profileOr404(core, profileId);
  return balance(asset, core.store.balance(profile.id, asset));
}
