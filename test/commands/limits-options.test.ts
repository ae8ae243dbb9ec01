// coinop limits: raw flags to checked options.
import { describe, expect, it } from 'vitest';
import { parseLimitsOptions } from '../../src/commands/limits/options.js';
import { periodText } from '../../src/commands/limits/run.js';
import { usageMessage } from './support.js';

describe('parseLimitsOptions', () => {
  it('takes a transfer type of the OpenAPI, CRYPTO_WITHDRAWAL by default (commander fills it in)', () => {
    expect(parseLimitsOptions({ type: 'CRYPTO_WITHDRAWAL' })).toEqual({ type: 'CRYPTO_WITHDRAWAL' });
    expect(parseLimitsOptions({ type: 'PAXOS_TRANSFER_DEBIT' })).toEqual({ type: 'PAXOS_TRANSFER_DEBIT' });
    expect(usageMessage(() => parseLimitsOptions({ type: 'PLATFORM_TRANSFER_DEBIT' }))).toMatch(
      /^--type: must be one of INTERNAL_TRANSFER_DEBIT, /,
    );
    expect(() => parseLimitsOptions({})).toThrow(/internal: the flag value type/);
  });
});

describe('periods for people', () => {
  it.each([
    ['0', 'each transfer'],
    ['86400', '24 h'],
    ['604800', '7 days'],
    ['3600', '1 h'],
    ['900', '15 min'],
    ['90', '90 s'],
    [undefined, '-'],
    ['soon', 'soon'],
  ])('%s: %s', (seconds, text) => {
    expect(periodText(seconds)).toBe(text);
  });
});
