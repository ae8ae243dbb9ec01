// coinop audit list|verify|export: their flags, checked, as typed options objects (declared in index.ts).
import { AUDIT_KINDS, AUDIT_RESULTS, type AuditKind, type AuditResult } from '../../audit/entry.js';
import type { ExpectedHead } from '../../audit/verify.js';
import { usageError } from '../../cli/errors.js';
import { intFlag, parseTime, type RawFlags, TIME_FORMS } from '../../cli/options.js';
import { AUDIT_EXPORT_FLAG_TABLE, AUDIT_LIST_FLAG_TABLE, AUDIT_VERIFY_FLAG_TABLE } from './flags.js';
import type { Format } from '../../render/output.js';
import { readTableView } from '../../cli/list-flags.js';
import { AUDIT_LIST_COLUMNS } from '../../render/columns.js';
import type { TableView } from '../../render/table.js';

/** The time range of a listing or an export: --from at or after, --to strictly before (ISO times with ms). */
export interface TimeRange {
  from?: string;
  to?: string;
}

export interface AuditListOptions extends TimeRange {
  kinds?: AuditKind[];
  results?: AuditResult[];
  refIds?: string[];
  assets?: string[];
  /** --columns, --wide (the table's). */
  view?: TableView;
  /** The latest this many matching entries; undefined with --all (every one, streamed). */
  limit?: number;
}

export interface AuditVerifyOptions {
  head?: ExpectedHead;
}

export interface AuditExportOptions extends TimeRange {
  format: Exclude<Format, 'table'>;
}

/** The most entries --limit keeps in memory; --all streams any number. */
export const AUDIT_LIMIT_MAX = 100_000;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2})))?$/;

/** The milliseconds of an RFC 3339 time, or of a date alone (midnight UTC); NaN when it is no real moment. */
function rfc3339Ms(time: string): number {
  const m = RFC3339.exec(time);
  if (!m) return Number.NaN;
  const [y, mo, d, h = 0, mi = 0, s = 0] = m.slice(1, 7).map((x) => (x === undefined ? undefined : Number(x)));
  const day = new Date(Date.UTC(y!, mo! - 1, d!));
  const real =
    day.getUTCFullYear() === y &&
    day.getUTCMonth() === mo! - 1 &&
    day.getUTCDate() === d &&
    h! <= 23 &&
    mi! <= 59 &&
    s! <= 59 &&
    (m[9] === undefined || (Number(m[9]) <= 23 && Number(m[10]) <= 59));
  return real ? Date.parse(m[4] === undefined ? `${time}T00:00:00Z` : time) : Number.NaN;
}

/**
 * A time flag in the grammar of the other commands (RFC 3339, now, or back from now such as 24h or 7d ago), or a
 * date alone (midnight UTC); as an ISO time with milliseconds, the way the log writes its times.
 */
export function timeBound(flag: string, value: string | undefined, now: number): string | undefined {
  if (value === undefined) return undefined;
  // The log's times have milliseconds: now is this very moment, not the start of its second.
  if (value.trim().toLowerCase() === 'now') return new Date(now).toISOString();
  // The one time grammar of every command (its error names the flag and the accepted forms).
  const ms = rfc3339Ms(parseTime(flag, value, now)!);
  // A time so far back that it has no RFC 3339 form the log could hold (before the year 0).
  if (!Number.isFinite(ms)) throw usageError(`${flag}: "${value}" is too far back: give ${TIME_FORMS}`);
  return new Date(ms).toISOString();
}

function timeRange(flags: { from?: string; to?: string }, now: number): TimeRange {
  const from = timeBound('--from', flags.from, now);
  const to = timeBound('--to', flags.to, now);
  if (from !== undefined && to !== undefined && from >= to) throw usageError('--from: must be before --to');
  return { from, to };
}

/** A repeatable flag whose values are one of `allowed`. */
function oneOf<T extends string>(flag: string, values: string[] | undefined, allowed: readonly T[]): T[] | undefined {
  if (!values) return undefined;
  for (const v of values)
    if (!(allowed as readonly string[]).includes(v)) throw usageError(`${flag}: must be one of ${allowed.join(', ')}`);
  return values as T[];
}

export function parseAuditListOptions(raw: RawFlags, now: number): AuditListOptions {
  const f = AUDIT_LIST_FLAG_TABLE.read(raw);
  const { all } = f;
  const limit = intFlag('--limit', f.limit, 1, AUDIT_LIMIT_MAX);
  if (all && limit !== undefined) throw usageError('--limit and --all: give one, not both');
  return {
    ...timeRange(f, now),
    kinds: oneOf('--kind', f.kind, AUDIT_KINDS),
    results: oneOf('--outcome', f.outcome, AUDIT_RESULTS),
    refIds: f.refId,
    assets: f.asset?.map((a) => a.toUpperCase()),
    limit: all ? undefined : (limit ?? 100),
    view: readTableView(raw, AUDIT_LIST_COLUMNS),
  };
}

export function parseAuditVerifyOptions(raw: RawFlags): AuditVerifyOptions {
  const { head } = AUDIT_VERIFY_FLAG_TABLE.read(raw);
  if (head === undefined) return {};
  const m = /^(\d{1,15}):([0-9a-fA-F]{8,64})$/.exec(head.trim());
  if (!m || Number(m[1]) < 1)
    throw usageError('--head: must be SEQ:SHA256 as coinop audit verify prints it, such as 42:3f2a9c01d4e5');
  return { head: { seq: Number(m[1]), sha256: m[2].toLowerCase() } };
}

/** `output`: the -o given, if any (an export is CSV unless asked otherwise; a table is no export). */
export function parseAuditExportOptions(raw: RawFlags, output: Format | undefined, now: number): AuditExportOptions {
  if (output === 'table') throw usageError('-o: an export is csv, json or ndjson, not a table');
  return { ...timeRange(AUDIT_EXPORT_FLAG_TABLE.read(raw), now), format: output ?? 'csv' };
}
