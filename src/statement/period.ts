// The periods a statement or a close covers: a calendar month in UTC.

/** A period: from (inclusive) to (exclusive), ISO times with milliseconds. */
export interface Period {
  from: string;
  to: string;
}

/** The calendar month YYYY-MM in UTC, or undefined when `month` is no such month. */
export function monthPeriod(month: string): Period | undefined {
  const m = /^(\d{4})-(\d{2})$/.exec(month.trim());
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12) return undefined;
  const y = Number(m[1]);
  const mo = Number(m[2]) - 1;
  return { from: new Date(Date.UTC(y, mo, 1)).toISOString(), to: new Date(Date.UTC(y, mo + 1, 1)).toISOString() };
}
