// coinop local deposit: a real argv to checked options, and each flag rule's message.
import { describe, expect, it } from 'vitest';
import { CRYPTO_ASSETS } from '../../src/contract/catalogue.js';
import { LOCAL_DEPOSIT_FLAG_TABLE } from '../../src/commands/local/flags.js';
import { type LocalDepositOptions, parseLocalDepositOptions as parseRaw } from '../../src/commands/local/options.js';
import { parseArgv } from '../support/argv.js';
import { usageMessage } from './support.js';

const parseLocalDepositOptions = (argv: string[]) => parseRaw(parseArgv(LOCAL_DEPOSIT_FLAG_TABLE, argv));
const NONE: LocalDepositOptions = { address: undefined, refId: undefined, amount: undefined, asset: undefined };
const FORMAT = 'must be a plain decimal number such as 0.05 (digits and one point, no sign or exponent)';

describe('parseLocalDepositOptions', () => {
  it.each([
    ['no flags: everything left to ask for', [], {}],
    ['an address and an amount', ['--address', 'bc1qxyz', '--amount', '0.5'], { address: 'bc1qxyz', amount: '0.5' }],
    [
      'a ref_id, an asset and an amount in its decimals',
      ['--ref-id', 'r', '--asset', 'USDP', '--amount', '1.123456'],
      {
        refId: 'r',
        asset: 'USDP',
        amount: '1.123456',
      },
    ],
    [
      'any number of decimals without an asset (the service checks them)',
      ['--amount', '.000000000001'],
      {
        amount: '.000000000001',
      },
    ],
  ])('%s', (_name, raw, expected) => {
    expect(parseLocalDepositOptions(raw)).toEqual({ ...NONE, ...expected });
  });

  it.each([
    [['--address', 'a', '--ref-id', 'r'], '--address and --ref-id: give one, not both'],
    [['--amount', '-1'], `--amount: ${FORMAT}`],
    [['--amount', '1e5'], `--amount: ${FORMAT}`],
    [['--amount', '0.0'], '--amount: must be greater than 0'],
    [['--asset', 'EUR'], `--asset: must be a crypto asset (${CRYPTO_ASSETS.join(', ')})`],
    [['--asset', 'usd'], `--asset: must be a crypto asset (${CRYPTO_ASSETS.join(', ')})`],
    [['--asset', 'BTC', '--amount', '0.123456789'], '--amount: at most 8 decimals for BTC'],
  ])('%j is refused', (raw, message) => {
    expect(usageMessage(() => parseLocalDepositOptions(raw))).toBe(message);
  });
});
