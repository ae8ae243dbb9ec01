// coinop api METHOD PATH: the arguments and flags, checked, as a typed options object (declared in index.ts).
import { HTTP_METHODS } from '../../contract/enums.js';
import { usageError } from '../../cli/errors.js';
import { choiceFlag, readFlags, type RawFlags } from '../../cli/options.js';

export interface ApiOptions {
  method: string;
  /** Under /v2 unless it names /v2, /_local or /oauth2 already. */
  path: string;
  /** -f pairs, dots nested (objects without a prototype). */
  fields: Record<string, unknown>;
  /** GET and DELETE send the fields as the query. */
  sendsQuery: boolean;
  /** --input: a file, or - for stdin. */
  input?: string;
  paginate: boolean;
  include: boolean;
  /** A money-moving request in production goes without the typed confirmation. */
  yes: boolean;
}

function setPath(obj: Record<string, unknown>, key: string, value: string): void {
  const parts = key.split('.');
  let o = obj;
  // Objects without a prototype, so "constructor" or "__proto__" is a field like any other, sent as written.
  for (const p of parts.slice(0, -1)) {
    if (!Object.hasOwn(o, p) || typeof o[p] !== 'object' || o[p] === null) o[p] = Object.create(null);
    o = o[p] as Record<string, unknown>;
  }
  const last = parts[parts.length - 1];
  // A key given twice becomes a list, as query parameters do.
  if (Object.hasOwn(o, last)) o[last] = Array.isArray(o[last]) ? [...(o[last] as unknown[]), value] : [o[last], value];
  else o[last] = value;
}

export function parseApiOptions(methodArg: string, pathArg: string, raw: RawFlags): ApiOptions {
  const f = readFlags(raw);
  const method = choiceFlag('METHOD', methodArg, HTTP_METHODS)!;
  if (/^[a-z]+:\/\//i.test(pathArg))
    throw usageError(
      'PATH: give a path such as /v2/transfer/transfers, not a URL (set COINOP_BASE_URL for another server)',
    );
  let path = pathArg.startsWith('/') ? pathArg : `/${pathArg}`;
  if (!/^\/(v2|_local|oauth2)(\/|$)/.test(path)) path = `/v2${path}`;
  if (/\s/.test(path)) throw usageError('PATH: must not contain spaces');
  const fields: Record<string, unknown> = Object.create(null);
  for (const field of f.list('field') ?? []) {
    const i = field.indexOf('=');
    if (i <= 0) throw usageError(`--field: "${field}" must be key=value`);
    setPath(fields, field.slice(0, i), field.slice(i + 1));
  }
  const paginate = f.on('paginate');
  const input = f.text('input');
  if (paginate && method !== 'GET') throw usageError('--paginate: only with GET');
  if (input && method === 'GET') throw usageError('--input: a GET request has no body');
  return {
    method,
    path,
    fields,
    sendsQuery: method === 'GET' || method === 'DELETE',
    input: input || undefined,
    paginate,
    include: f.on('include'),
    yes: f.on('yes'),
  };
}
