// coinop vasps list|get and deposits update|reject: the raw flags, checked once. What update and reject leave out is
// asked for on a terminal by the run (and the whole request checked there again).
import { isUuid, operations } from '../../contract/index.js';
import { usageError } from '../../cli/errors.js';
import { intFlag, type RawFlags } from '../../cli/options.js';
import { type Party, partyOf } from '../../cli/travel-rule.js';
import { checkRequest, type FlagNames } from '../../client/service-client.js';
import { SHAPE_ONLY } from '../../client/catalogue-policy.js';
import { readTableView } from '../../cli/list-flags.js';
import { VASP_COLUMNS } from '../../render/columns.js';
import type { TableView } from '../../render/table.js';
import { DEPOSIT_REJECT_FLAG_TABLE, DEPOSIT_UPDATE_FLAG_TABLE, VASP_LIST_FLAG_TABLE } from './flags.js';

export interface VaspListOptions {
  /** The request's query, checked against the contract. */
  query: Record<string, unknown>;
  all: boolean;
  view?: TableView;
}

export const VASP_LIST_FLAGS: FlagNames = VASP_LIST_FLAG_TABLE.fields;

export function parseVaspListOptions(raw: RawFlags): VaspListOptions {
  const f = VASP_LIST_FLAG_TABLE.read(raw);
  const query: Record<string, unknown> = {
    search: f.search,
    ids: f.id,
    limit: intFlag('--limit', f.limit, 1, 1000),
    order: f.order,
    page_cursor: f.cursor,
  };
  for (const k of Object.keys(query)) if (query[k] === undefined) delete query[k];
  checkRequest(operations.listVasps, { query }, VASP_LIST_FLAGS, SHAPE_ONLY);
  return { query, all: f.all, view: readTableView(raw, VASP_COLUMNS) };
}

/** The id given to get, checked (a picker on a terminal when none). */
export function parseVaspId(id: string | undefined): string | undefined {
  if (id !== undefined) checkRequest(operations.getVasp, { params: { id } }, { id: 'ID' }, SHAPE_ONLY);
  return id;
}

export interface DepositAnswerOptions {
  id: string;
  identityId?: string;
  /** update: the originator from the flags (asked for on a terminal when not given). */
  originator?: Party;
  yes: boolean;
}

export const DEPOSIT_UPDATE_FLAGS: FlagNames = { ...DEPOSIT_UPDATE_FLAG_TABLE.fields, id: 'ID' };
export const DEPOSIT_REJECT_FLAGS: FlagNames = { ...DEPOSIT_REJECT_FLAG_TABLE.fields, id: 'ID' };

/** The deposit's id: a UUID, as the service says (its 400 otherwise). */
function depositId(id: string): string {
  if (!isUuid(id)) throw usageError(`ID: must be a deposit's id (a UUID), not ${id}`);
  return id;
}

export function parseDepositUpdateOptions(id: string, raw: RawFlags): DepositAnswerOptions {
  const f = DEPOSIT_UPDATE_FLAG_TABLE.read(raw);
  const originator = partyOf('--originator', {
    firstName: f.originatorFirstName,
    lastName: f.originatorLastName,
    institution: f.originatorInstitution,
  });
  if (f.identityId !== undefined && !f.identityId.trim()) throw usageError('--identity-id: must not be empty');
  return { id: depositId(id), identityId: f.identityId, originator, yes: f.yes };
}

export function parseDepositRejectOptions(id: string, raw: RawFlags): DepositAnswerOptions {
  const f = DEPOSIT_REJECT_FLAG_TABLE.read(raw);
  if (f.identityId !== undefined && !f.identityId.trim()) throw usageError('--identity-id: must not be empty');
  return { id: depositId(id), identityId: f.identityId, yes: f.yes };
}
