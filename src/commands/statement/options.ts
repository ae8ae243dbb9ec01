// coinop statement: its flags checked once into the options the run works with.
import { usageError } from '../../cli/errors.js';
import { parseTime, type RawFlags } from '../../cli/options.js';
import { monthPeriod, type Period } from '../../statement/period.js';
import { STATEMENT_FLAG_TABLE } from './flags.js';

export interface StatementOptions {
  /** The coinop context's service profile when not given. */
  profileId?: string;
  period: Period;
}

/** The period of --month, or of --from and --to (--to defaults to now), as ISO times with milliseconds. */
export function parsePeriod(flags: { month?: string; from?: string; to?: string }, now: number): Period {
  if (flags.month !== undefined) {
    if (flags.from !== undefined || flags.to !== undefined)
      throw usageError('--month and --from/--to: give one, not both');
    const period = monthPeriod(flags.month);
    if (!period) throw usageError(`--month: "${flags.month}" is not a month; give YYYY-MM, such as 2026-11`);
    return period;
  }
  if (flags.from === undefined) throw usageError('--month or --from: give the period, such as --month 2026-11');
  const from = new Date(Date.parse(parseTime('--from', flags.from, now)!)).toISOString();
  const to = new Date(flags.to === undefined ? now : Date.parse(parseTime('--to', flags.to, now)!)).toISOString();
  if (from >= to) throw usageError('--from: must be before --to');
  return { from, to };
}

export function parseStatementOptions(raw: RawFlags, now: number): StatementOptions {
  const f = STATEMENT_FLAG_TABLE.read(raw);
  if (f.profileId !== undefined && !f.profileId.trim()) throw usageError('--profile-id: must not be empty');
  return { profileId: f.profileId, period: parsePeriod(f, now) };
}
