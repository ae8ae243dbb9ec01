// coinop fee quote: raw flags to checked options, and every flag rule's message.
import { describe, expect, it } from 'vitest';
import { type FeeQuoteOptions, parseFeeQuoteOptions } from '../../src/commands/fee/options.js';
import { ETH_ADDRESS } from '../support/addresses.js';
import { usageMessage } from './support.js';

const NONE: FeeQuoteOptions = {
  asset: undefined,
  network: undefined,
  address: undefined,
  amount: undefined,
  total: undefined,
};
const FORMAT = 'must be a plain decimal number such as 0.05 (digits and one point, no sign or exponent)';

const VALID: [name: string, raw: Record<string, unknown>, expected: Partial<FeeQuoteOptions>][] = [
  ['no flags: everything left to ask for', {}, {}],
  [
    'every flag, the amount',
    { asset: 'ETH', network: 'ETHEREUM', address: ETH_ADDRESS, amount: '1' },
    { asset: 'ETH', network: 'ETHEREUM', address: ETH_ADDRESS, amount: '1' },
  ],
  ['the total instead', { total: '.5' }, { total: '.5' }],
];

const INVALID: [raw: Record<string, unknown>, message: string][] = [
  [{ amount: '1', total: '1' }, '--amount and --total: give exactly one, not both'],
  [{ amount: '1.5.2' }, `--amount: ${FORMAT}`],
  [{ amount: '+1' }, `--amount: ${FORMAT}`],
  [{ total: '1,5' }, `--total: ${FORMAT}`],
  [{ amount: 'x', total: 'y' }, '--amount and --total: give exactly one, not both'],
];

describe('parseFeeQuoteOptions', () => {
  it.each(VALID)('%s', (_name, raw, expected) => {
    expect(parseFeeQuoteOptions(raw)).toEqual({ ...NONE, ...expected });
  });

  it.each(INVALID)('%j is refused', (raw, message) => {
    expect(usageMessage(() => parseFeeQuoteOptions(raw))).toBe(message);
  });
});
