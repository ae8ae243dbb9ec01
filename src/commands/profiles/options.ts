// coinop profiles: raw flags checked once into the options each command works with. The list's query is checked
// whole against the contract here, so a bad flag is named before anything is sent.
import { operations } from '../../contract/index.js';
import { usageError } from '../../cli/errors.js';
import type { RawFlags } from '../../cli/options.js';
import { timeFilters } from '../../cli/flags.js';
import { checkRequest, type FlagNames } from '../../client/service-client.js';
import { SHAPE_ONLY } from '../../client/catalogue-policy.js';
import { PROFILES_CREATE_FLAG_TABLE, PROFILES_GET_FLAG_TABLE, PROFILES_LIST_FLAG_TABLE } from './flags.js';
import { readTableView } from '../../cli/list-flags.js';
import { PROFILE_COLUMNS } from '../../render/columns.js';
import type { TableView } from '../../render/table.js';

export interface ProfilesListOptions {
  /** The listProfiles query, checked. */
  query: Record<string, unknown>;
  all: boolean;
  /** --columns, --wide. */
  view?: TableView;
}

export interface ProfilesGetOptions {
  /** A profile id or "default"; the coinop context's service profile when not given. */
  id?: string;
  includeDeactivated: boolean;
}

export interface ProfilesCreateOptions {
  /** Asked for on a terminal when not given. */
  nickname?: string;
  description?: string;
}

export const PROFILES_FLAGS: FlagNames = {
  ...PROFILES_LIST_FLAG_TABLE.fields,
  ...PROFILES_CREATE_FLAG_TABLE.fields,
  ...PROFILES_GET_FLAG_TABLE.fields,
  profile_id: 'ID',
};

export function parseProfilesListOptions(raw: RawFlags, now: number): ProfilesListOptions {
  const f = PROFILES_LIST_FLAG_TABLE.read(raw);
  const query: Record<string, unknown> = { ...timeFilters(f, 'created', 'created_at', now) };
  const given = { ids: f.id, nickname: f.nickname, limit: f.limit };
  const more = { order: f.order, page_cursor: f.cursor };
  for (const [k, v] of Object.entries({ ...given, ...more })) if (v !== undefined) query[k] = v;
  checkRequest(operations.listProfiles, { query }, PROFILES_FLAGS, SHAPE_ONLY);
  return { query, all: f.all, view: readTableView(raw, PROFILE_COLUMNS) };
}

export function parseProfilesGetOptions(id: string | undefined, raw: RawFlags): ProfilesGetOptions {
  const f = PROFILES_GET_FLAG_TABLE.read(raw);
  if (id !== undefined) checkRequest(operations.getProfile, { params: { profile_id: id } }, PROFILES_FLAGS, SHAPE_ONLY);
  return { id, includeDeactivated: f.includeDeactivated };
}

export function parseProfilesCreateOptions(raw: RawFlags): ProfilesCreateOptions {
  const { nickname, description } = PROFILES_CREATE_FLAG_TABLE.read(raw);
  if (nickname !== undefined && !nickname.trim()) throw usageError('--nickname: must not be blank');
  // The rest of the body's rules (lengths) with the nickname as given, or one that passes when it is still to ask.
  const body = { nickname: nickname ?? 'to be asked', ...(description !== undefined ? { description } : {}) };
  checkRequest(operations.createProfile, { body }, PROFILES_FLAGS, SHAPE_ONLY);
  return { nickname, description };
}
