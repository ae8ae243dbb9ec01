// coinop local start: raw flags to checked options, and raw flags to the usage error, in process.
import { describe, expect, it } from 'vitest';
import { parseLocalStartOptions } from '../../src/commands/local/options.js';
import { usageMessage } from './support.js';

describe('local start options', () => {
  it.each([
    { raw: {}, want: { memory: false, rateLimits: true } },
    {
      raw: { port: '7357', host: '127.0.0.1' },
      want: { port: 7357, host: '127.0.0.1', memory: false, rateLimits: true },
    },
    {
      raw: { port: '0', host: '::1', db: 'state.db', memory: true, seed: '42' },
      want: { port: 0, host: '::1', db: 'state.db', memory: true, seed: 42, rateLimits: true },
    },
    // --no-rate-limits: commander hands rateLimits false.
    { raw: { rateLimits: false }, want: { memory: false, rateLimits: false } },
  ])('$raw', ({ raw, want }) => {
    expect(JSON.parse(JSON.stringify(parseLocalStartOptions(raw)))).toEqual(want);
  });

  it.each([
    [{ port: '65536' }, '--port: must be from 0 to 65535'],
    [{ port: 'http' }, '--port: must be a whole number from 0 to 65535'],
    [{ seed: '-1' }, '--seed: must be a whole number from 0 to 2147483647'],
    [{ seed: '2147483648' }, '--seed: must be from 0 to 2147483647'],
  ])('%o: %s', (raw, message) => {
    expect(usageMessage(() => parseLocalStartOptions(raw))).toBe(message);
  });
});
