// coinop fee quote: a real argv, parsed by the command's declared flags, to checked options.
import { describe, expect, it } from 'vitest';
import { type FeeQuoteOptions, parseFeeQuoteOptions } from '../../src/commands/fee/options.js';
import { FEE_QUOTE_FLAG_TABLE } from '../../src/commands/fee/flags.js';
import { parseArgv } from '../support/argv.js';
import { usageMessage } from './support.js';

const NONE: FeeQuoteOptions = {
  asset: undefined,
  network: undefined,
  address: undefined,
  amount: undefined,
  total: undefined,
};
const ETH_ADDRESS = '0xF0Aa84466e353E5390be37FE2934301c07c19a55';
const FORMAT = 'must be a plain decimal number such as 0.05 (digits and one point, no sign or exponent)';

const VALID: [name: string, argv: string[], expected: Partial<FeeQuoteOptions>][] = [
  ['no flags: everything left to ask for', [], {}],
  [
    'every flag, the amount',
    ['--asset', 'ETH', '--network', 'ETHEREUM', '--address', ETH_ADDRESS, '--amount', '1'],
    { asset: 'ETH', network: 'ETHEREUM', address: ETH_ADDRESS, amount: '1' },
  ],
  ['the total instead', ['--total', '.5'], { total: '.5' }],
];

const INVALID: [argv: string[], message: string][] = [
  [['--amount', '1', '--total', '1'], '--amount and --total: give exactly one, not both'],
  [['--amount', '1.5.2'], `--amount: ${FORMAT}`],
  [['--amount', '+1'], `--amount: ${FORMAT}`],
  [['--total', '1,5'], `--total: ${FORMAT}`],
  [['--amount', 'x', '--total', 'y'], '--amount and --total: give exactly one, not both'],
];

describe('parseFeeQuoteOptions', () => {
  it.each(VALID)('%s', (_name, argv, expected) => {
    expect(parseFeeQuoteOptions(parseArgv(FEE_QUOTE_FLAG_TABLE, argv))).toEqual({ ...NONE, ...expected });
  });

  it.each(INVALID)('%j is refused', (argv, message) => {
    expect(usageMessage(() => parseFeeQuoteOptions(parseArgv(FEE_QUOTE_FLAG_TABLE, argv)))).toBe(message);
  });
});
