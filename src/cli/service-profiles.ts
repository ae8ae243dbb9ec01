// The service's profiles as commands take them (--profile-id, --from-profile-id, --to-profile-id, a batch's default):
// a UUID, a unique prefix of one (8 hex characters or more, as coinop shows them), or a nickname (exact, any case).
// They are resolved against GET /v2/profiles, listed at most once per connection (so once per command and context);
// a full UUID is taken without asking when the command needs no check. Ambiguous or unknown: a usage error naming the
// flag, with the nearest names, before anything is asked or confirmed. On a terminal a missing one is picked from the
// list. Each listing keeps the names for shell completion (src/config/profile-names.ts).
import { ID_MAX_LENGTH, type Profile } from '../contract/schemas.js';
import { shortId } from '../render/table.js';
import { keepCompletionWords } from '../config/completion-words.js';
import { allProfiles, findProfile, profileLabel } from '../client/profile-match.js';
import { isUuid } from '../contract/operations.js';
import { CoinopError, usageError } from './errors.js';
import type { Connection } from './invocation.js';
import type { Connector } from './ports.js';
import type { Prompter } from './prompt.js';

/** A service profile as a command names it: its id, and its nickname once the list was read. */
export interface ProfileRef {
  id: string;
  nickname?: string;
}

export { isUuid, profileLabel };

const lists = new WeakMap<Connection, Promise<Profile[]>>();

/** Every profile of the connection's customer: GET /v2/profiles once per connection, its names kept for completion. */
export function serviceProfiles(conn: Connection, dataDir: string): Promise<Profile[]> {
  let list = lists.get(conn);
  if (!list) {
    list = (async () => {
      const all = await allProfiles(conn.client);
      keepCompletionWords(
        dataDir,
        conn.context.name,
        'service-profiles',
        all.map((p) => p.nickname),
        true,
      );
      return all;
    })();
    list.catch(() => lists.delete(conn));
    lists.set(conn, list);
  }
  return list;
}

const ref = (p: Profile): ProfileRef => ({ id: p.id, nickname: p.nickname });

/** The one profile `given` names among `profiles` (id, unique id prefix, or nickname), or a usage error naming `flag`. */
export function matchProfile(profiles: readonly Profile[], given: string, flag: string): ProfileRef {
  const found = findProfile(profiles, given);
  if ('problem' in found) throw usageError(`${flag}: ${found.problem}`, found.hint);
  return ref(found.profile);
}

export interface ProfileAsk {
  /** The flag that gives it, named in every message. */
  flag: string;
  /** What the flag (or the context, for a default) gave. */
  given?: string;
  /** The question of the picker when nothing was given on a terminal. */
  question: string;
  /** Look a full UUID up too (a command that sends or confirms must refuse an unknown one first). */
  verify?: boolean;
  /** A profile the picker leaves out (the sender, when the recipient is asked for). */
  exclude?: string;
}

export type ProfileDeps = { service: Pick<Connector, 'connect' | 'dataDir'>; prompter: Prompter };

/** The profile a flag names, or the operator's pick on a terminal; else a usage error naming the flag. */
export async function profileNamed(deps: ProfileDeps, ask: ProfileAsk): Promise<ProfileRef> {
  const given = ask.given?.trim();
  // The shape's rule first, as the request's check says it (nothing is listed for an id no service takes).
  if (given && given.length > ID_MAX_LENGTH)
    throw usageError(`${ask.flag}: must be at most ${ID_MAX_LENGTH} characters`);
  if (given) {
    // A full id, or the service's own alias `default`, is sent as given when nothing needs checking first.
    if ((isUuid(given) || given === 'default') && !ask.verify) return { id: given };
    return matchProfile(await listed(deps, ask.flag, given), given, ask.flag);
  }
  if (!deps.prompter.allowed) throw usageError(`missing ${ask.flag}`, deps.prompter.hint(ask.flag));
  const profiles = (await listed(deps, ask.flag)).filter((p) => p.id !== ask.exclude);
  if (!profiles.length) throw usageError(`missing ${ask.flag}: the service lists no profile to choose from`);
  return pickProfile(deps.prompter, ask.question, profiles);
}

/**
 * The list, its errors naming `flag` (or a batch's column); for a full UUID when it cannot be read (a client without
 * funding:read_profile), a list of that one id: the UUID is taken as given (the service says whether it knows it).
 */
export async function listed(deps: Pick<ProfileDeps, 'service'>, flag: string, given?: string): Promise<Profile[]> {
  const conn = await deps.service.connect();
  try {
    return await serviceProfiles(conn, deps.service.dataDir());
  } catch (e) {
    if (given && isUuid(given) && e instanceof CoinopError && e.category === 'auth')
      return [{ id: given, nickname: '', type: '' }];
    if (e instanceof CoinopError) throw new CoinopError(e.category, `${flag}: ${e.message}`, { hint: e.hint });
    throw e;
  }
}

/**
 * The profiles a list's filter names (a flag given more than once): full ids as given (a filter needs no check: an
 * unknown id matches nothing), nicknames and id prefixes looked up in the one list.
 */
export async function profileIdsNamed(
  deps: Pick<ProfileDeps, 'service'>,
  flag: string,
  given: readonly string[] | undefined,
): Promise<string[] | undefined> {
  if (!given) return undefined;
  const values = given.map((g) => g.trim());
  if (values.every((g) => isUuid(g) || g.length > ID_MAX_LENGTH)) return values;
  const profiles = await listed(deps, flag);
  return values.map((g) => (isUuid(g) || g.length > ID_MAX_LENGTH ? g : matchProfile(profiles, g, flag).id));
}

/** The picker: nickname and short id, filtered by what is typed. */
export async function pickProfile(pr: Prompter, question: string, profiles: readonly Profile[]): Promise<ProfileRef> {
  const choices = profiles.map((p) => ({
    value: p.id,
    name: `${p.nickname}  ${shortId(p.id)}${p.type === 'DEFAULT' ? '  (default)' : ''}`,
  }));
  const id = await pr.search(question, async (term) =>
    term
      ? choices.filter((c) => c.name.toLowerCase().includes(term.toLowerCase()) || c.value.startsWith(term))
      : choices,
  );
  return ref(profiles.find((p) => p.id === id) as Profile);
}

/**
 * The label of a profile the command already holds by id (the context's default, say), for a confirmation or a dry
 * run: the nickname from the list when it can be read, else the id alone.
 */
export async function labelOf(deps: Pick<ProfileDeps, 'service'>, id: string): Promise<string> {
  try {
    const conn = await deps.service.connect();
    const found = (await serviceProfiles(conn, deps.service.dataDir())).find((p) => p.id === id);
    return profileLabel(found ? ref(found) : { id });
  } catch {
    return id;
  }
}

/**
 * A profile the command holds by id, with its nickname when a profile or a list it has read already names it (the
 * profile --profile-id named, the list a batch's names were looked up in): nothing is asked for it.
 */
export function knownProfile(id: string, known: readonly { id: string; nickname?: string }[]): ProfileRef {
  const found = known.find((p) => p.id === id && p.nickname);
  return found ? { id, nickname: found.nickname } : { id };
}

/** How a confirmation or a dry run names the profile: with its nickname when `shown` (one list per command at most). */
export async function shownLabel(
  deps: Pick<ProfileDeps, 'service'>,
  profile: ProfileRef,
  shown: boolean,
): Promise<string> {
  return profile.nickname || !shown ? profileLabel(profile) : labelOf(deps, profile.id);
}

/**
 * The service profile a command acts for: --profile-id's (looked up, so an unknown one is refused first), else the
 * context's (taken as saved), else picked on a terminal.
 */
export function commandProfile(
  deps: ProfileDeps,
  flagValue: string | undefined,
  contextDefault: string | undefined,
  question = "The service's profile",
): Promise<ProfileRef> {
  return profileNamed(deps, {
    flag: '--profile-id',
    given: flagValue ?? contextDefault,
    question,
    verify: flagValue !== undefined,
  });
}
