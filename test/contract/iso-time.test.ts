// The contract's UTC times (src/contract/iso-time.ts) are written from the date's fields, without toISOString (whose
// first call loads the machine's time zone): they must be exactly what toISOString writes.
import { describe, expect, it } from 'vitest';
import { isoMillis, isoSeconds } from '../../src/contract/iso-time.js';

/** Times over the four-digit years, fractions included, and either side of them. */
function times(): number[] {
  const out = [
    0,
    -1,
    1,
    951_782_400_000,
    Date.UTC(2024, 1, 29, 23, 59, 59, 500),
    Date.UTC(9999, 11, 31, 23, 59, 59, 999),
  ];
  out.push(Date.UTC(0, 0, 1) - 1, -62_167_219_200_001, -62_167_219_200_000, 253_402_300_800_000, -8.64e15, 8.64e15);
  for (let t = -62_167_219_200_000; t < 253_402_300_800_000; t += 7_777_777_777_777) out.push(t, t + 123, t + 999);
  return out;
}

describe('UTC times', () => {
  it('isoMillis is toISOString, from year 0 to 9999 and beyond', () => {
    for (const t of times()) expect(isoMillis(t), String(t)).toBe(new Date(t).toISOString());
    expect(() => isoMillis(Number.NaN)).toThrow(RangeError);
  });

  it('isoSeconds is toISOString in whole seconds, without the fraction', () => {
    for (const t of times())
      expect(isoSeconds(t), String(t)).toBe(new Date(Math.floor(t / 1000) * 1000).toISOString().replace('.000Z', 'Z'));
    expect(isoSeconds(Date.parse('2026-03-01T12:00:00.999Z'))).toBe('2026-03-01T12:00:00Z');
    expect(() => isoSeconds(Number.NaN)).toThrow(RangeError);
  });
});
