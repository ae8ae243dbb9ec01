// Which of the service's profiles a value given by hand names (the list read by allProfiles): a UUID, a unique prefix of one (8 hex characters or
// more, as coinop shows them), a nickname (exact, any case), or `default` (the DEFAULT profile, unless a profile has
// that nickname). The one rule for a flag (src/cli/service-profiles.ts) and a batch row's profile_id (src/batch/rows.ts):
// each says the problem its own way (the flag's name, or the row and column).
import { isUuid } from '../contract/operations.js';
import { ID_MAX_LENGTH, type Profile } from '../contract/schemas.js';
import { closeNames } from '../contract/suggest.js';
import { shortId } from '../render/table.js';
import type { ServiceClient } from './service-client.js';

const PREFIX = /^[0-9a-f]{8}[0-9a-f-]*$/i;

/**
 * Whether a value must be looked up in the service's list to be sent: not a whole UUID, nor the service's own alias
 * `default` (both are sent as given when nothing needs checking first), nor too long to be any id.
 */
export const namesByLookup = (given: string): boolean => {
  const value = given.trim();
  return value !== '' && !isUuid(value) && value !== 'default' && value.length <= ID_MAX_LENGTH;
};

/** "nickname (short id)", or the id alone when the nickname is not known. */
export const profileLabel = (p: { id: string; nickname?: string }): string =>
  p.nickname ? `${p.nickname} (${shortId(p.id)})` : p.id;

/** The profile named, or why none is: the problem (without the flag or column) and a hint. */
export type ProfileMatch = { profile: Profile } | { problem: string; hint: string };

function ambiguous(given: string, found: Profile[]): ProfileMatch {
  return {
    problem: `"${given}" names ${found.length} service profiles: ${found.map((p) => profileLabel(p)).join(', ')}`,
    hint: 'give the whole id, or more of it',
  };
}

/** The one profile `given` names among `profiles` (id, nickname, `default`, unique id prefix), or why none is. */
export function findProfile(profiles: readonly Profile[], given: string): ProfileMatch {
  const wanted = given.trim().toLowerCase();
  const byId = profiles.find((p) => p.id.toLowerCase() === wanted);
  if (byId) return { profile: byId };
  const byName = profiles.filter((p) => p.nickname.toLowerCase() === wanted);
  if (byName.length > 1) return ambiguous(given, byName);
  if (byName.length === 1) return { profile: byName[0] };
  const byType = wanted === 'default' ? profiles.find((p) => p.type === 'DEFAULT') : undefined;
  if (byType) return { profile: byType };
  if (PREFIX.test(wanted)) {
    const byPrefix = profiles.filter((p) => p.id.toLowerCase().startsWith(wanted));
    if (byPrefix.length > 1) return ambiguous(given, byPrefix);
    if (byPrefix.length === 1) return { profile: byPrefix[0] };
  }
  const near = closeNames(
    given,
    profiles.map((p) => p.nickname),
  );
  return {
    problem: `no service profile of this context is "${given}" (by nickname, id or id prefix)`,
    hint: near.length
      ? `did you mean ${near.map((n) => `"${n}"`).join(' or ')}? (coinop profiles lists them)`
      : 'coinop profiles lists them',
  };
}

/** Every profile of the client's customer (GET /v2/profiles, every page). */
export async function allProfiles(client: Pick<ServiceClient, 'items'>): Promise<Profile[]> {
  const all: Profile[] = [];
  for await (const p of client.items('listProfiles', { query: {} })) all.push(p);
  return all;
}
