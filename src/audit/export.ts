// The audit log for accountants and spreadsheets: each entry as one flat row with stable columns (documented in the
// docs/audit.md; columns are added at the end, never renamed or moved).
import type { AuditEntry } from './entry.js';

export const EXPORT_COLUMNS = [
  'seq',
  'time',
  'kind',
  'result',
  'ref_id',
  'asset',
  'network',
  'amount',
  'fee',
  'total',
  'destination',
  'profile_id',
  'to_profile_id',
  'transfer_id',
  'status',
  'already_submitted',
  'fee_id',
  'error_category',
  'error_message',
  'batch_id',
  'row',
  'rules',
  'os_user',
  'client_id',
  'profile',
  'environment',
  'service_id',
  'approver_keys',
  'agent',
  'sha256',
  'operator',
] as const;

export type ExportRow = Record<(typeof EXPORT_COLUMNS)[number], string | number | null>;

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const list = (v: unknown): string | null => (Array.isArray(v) && v.length ? v.map(String).join(';') : null);

/** One entry as a row; `sha256` is its line's hash (what the next entry's prev holds). */
export function exportRow(entry: AuditEntry, sha256: string): ExportRow {
  const w = entry.what ?? {};
  const o = entry.outcome ?? { result: 'unknown' };
  const who = entry.who ?? { os_user: '' };
  return {
    seq: entry.seq,
    time: text(entry.time),
    kind: text(entry.kind),
    result: text(o.result),
    ref_id: text(entry.ref_id),
    asset: text(w.asset),
    network: text(w.network),
    amount: text(w.amount),
    fee: text(w.fee) ?? text(o.fee),
    total: text(w.total),
    destination: text(w.destination),
    profile_id: text(w.profile_id),
    to_profile_id: text(w.to_profile_id),
    transfer_id: text(o.transfer_id),
    status: text(o.status),
    already_submitted: o.already_submitted ? 'true' : null,
    fee_id: text(o.fee_id) ?? text(w.fee_id),
    error_category: text(o.error?.category),
    error_message: text(o.error?.message),
    batch_id: text(w.batch_id),
    row: typeof w.row === 'number' ? w.row : null,
    rules: list(w.rules),
    os_user: text(who.os_user),
    client_id: text(who.client_id),
    profile: text(who.profile),
    environment: text(who.environment),
    service_id: text(who.service_id),
    approver_keys: list(who.approver_keys),
    agent: text(who.agent),
    sha256,
    operator: text(who.operator),
  };
}

/** A time range of entries: from (inclusive) and to (exclusive), ISO times; either may be open. */
export interface EntryRange {
  from?: string;
  to?: string;
}

export const inRange = (entry: AuditEntry, range: EntryRange): boolean =>
  (range.from === undefined || entry.time >= range.from) && (range.to === undefined || entry.time < range.to);
