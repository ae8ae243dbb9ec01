// CSV (RFC 4180): fields quoted when they hold a comma, quote, line break or edge space; quotes doubled.

export function csvField(value: unknown): string {
  const s =
    value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvRow(values: unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
