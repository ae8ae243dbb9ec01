// Parsing of flag values shared by commands: repeatable lists, key=value pairs, times and counts.
import { usageError } from './errors.js';

/** commander argParser for a repeatable flag that also takes comma-separated values. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',').map((s) => s.trim()).filter((s) => s !== '')];
}

/** commander argParser for a repeatable flag kept verbatim (values may contain commas). */
export function repeat(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** key=value pairs (--meta, -f); the first "=" splits, so values may contain "=". */
export function keyValues(flag: string, pairs: string[] | undefined): Record<string, string> | undefined {
  if (!pairs?.length) return undefined;
  // No prototype: "constructor" is an ordinary key, not one "given twice".
  const out: Record<string, string> = Object.create(null);
  for (const p of pairs) {
    const i = p.indexOf('=');
    if (i <= 0) throw usageError(`${flag}: "${p}" must be key=value`);
    const k = p.slice(0, i);
    if (k === '__proto__') throw usageError(`${flag}: "__proto__" cannot be a key`);
    if (Object.hasOwn(out, k)) throw usageError(`${flag}: key "${k}" is given twice`);
    out[k] = p.slice(i + 1);
  }
  return out;
}

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

/**
 * A time flag: an RFC 3339 date-time as is, "now", or a duration back from now ("90m", "24h", "7d").
 * Anything else is left for the contract to name as not a date-time.
 */
export function parseTime(v: string | undefined, now: number): string | undefined {
  if (v === undefined) return undefined;
  if (v === 'now') return iso(now);
  const m = /^(\d{1,6})([smhdw])(?: ago)?$/.exec(v.trim());
  if (m) return iso(now - Number(m[1]) * UNITS[m[2]] * 1000);
  return v;
}

export const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/** A whole number flag within bounds (checked here, so the message names the flag). */
export function intFlag(flag: string, v: string | undefined, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v.trim())) throw usageError(`${flag}: must be a whole number from ${min} to ${max}`);
  const n = Number(v);
  if (n < min || n > max) throw usageError(`${flag}: must be from ${min} to ${max}`);
  return n;
}
