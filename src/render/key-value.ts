// The key/value layout of one thing for people: keys dimmed and padded to the longest, two spaces, the value.
import type { Palette } from './style.js';

/** One line per row (no newlines), keys aligned; `indent` goes before each line. */
export function keyValueLines(
  rows: readonly (readonly [key: string, value: string])[],
  palette: Palette,
  indent = '',
): string[] {
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${indent}${palette.dim(k.padEnd(width))}  ${v}`);
}

/** The fields of a nested object as rows with dotted keys ("wire.routing_details.bank_name"), leaves in order. */
export function flatEntries(obj: Record<string, unknown>, prefix = ''): [key: string, value: unknown][] {
  const rows: [string, unknown][] = [];
  for (const [k, v] of Object.entries(obj)) {
    if (v && typeof v === 'object' && !Array.isArray(v))
      rows.push(...flatEntries(v as Record<string, unknown>, `${prefix}${k}.`));
    else rows.push([`${prefix}${k}`, v]);
  }
  return rows;
}
