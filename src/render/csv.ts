// CSV (RFC 4180): fields quoted when they hold a comma, quote, line break or edge space; quotes doubled.

export function csvField(v: unknown): string {
  const s = v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvRow(values: unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
