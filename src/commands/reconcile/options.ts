// coinop reconcile: its flags, checked, as a typed options object (declared in index.ts).
import { usageError } from '../../cli/errors.js';
import { type Period, readPeriod, readTableView } from '../../cli/list-flags.js';
import type { RawFlags } from '../../cli/options.js';
import { RECONCILE_LINE_COLUMNS } from '../../render/columns.js';
import type { TableView } from '../../render/table.js';
import { RECONCILE_FLAG_TABLE } from './flags.js';

export interface ReconcileOptions {
  /** The period: from always, to (default now) always, as RFC 3339. */
  period: Required<Period>;
  profileIds?: string[];
  journals?: string;
  /** The context must be a coinop gateway (--gateway). */
  gateway?: boolean;
  view?: TableView;
}

export function parseReconcileOptions(raw: RawFlags, now: number): ReconcileOptions {
  const f = RECONCILE_FLAG_TABLE.read(raw);
  if (f.from === undefined) throw usageError('--from: give the start of the period (such as 2026-11-01, or 30d)');
  const period = readPeriod({ from: f.from, to: f.to ?? 'now' }, now) as Required<Period>;
  if (f.profileId && f.profileId.length > 100) throw usageError('--profile-id: at most 100 profiles');
  if (f.journals !== undefined && !f.journals.trim()) throw usageError('--journals: give a folder');
  return {
    period,
    ...(f.profileId ? { profileIds: f.profileId } : {}),
    ...(f.journals !== undefined ? { journals: f.journals } : {}),
    ...(f.gateway ? { gateway: true } : {}),
    view: readTableView(raw, RECONCILE_LINE_COLUMNS),
  };
}
