// coinop transfer internal: a real argv, parsed by the command's declared flags, to checked options.
import { describe, expect, it } from 'vitest';
import { ASSETS } from '../../src/contract/catalogue.js';
import {
  parseInternalTransferOptions,
  type InternalTransferOptions,
} from '../../src/commands/internal-transfer/options.js';
import { INTERNAL_TRANSFER_FLAG_TABLE } from '../../src/commands/internal-transfer/flags.js';
import { parseArgv } from '../support/argv.js';
import { usageMessage } from './support.js';

/** The catalogue's assets, as the refusal of an unknown one lists them. */
const _EVERY_ASSET = Object.keys(ASSETS).join(', ');

const NONE: InternalTransferOptions = {
  fromProfileId: undefined,
  toProfileId: undefined,
  asset: undefined,
  amount: undefined,
  refId: undefined,
  metadata: undefined,
  recipientMetadata: undefined,
  dryRun: false,
  yes: false,
  wait: false,
  waitTimeout: 600,
};

const VALID: [name: string, argv: string[], expected: Partial<InternalTransferOptions>][] = [
  ['no flags: everything left to ask for (the sender defaults to the coinop profile)', [], {}],
  [
    'every value flag, the amount kept as written',
    ['--from-profile-id', 'a', '--to-profile-id', 'b', '--asset', 'USD', '--amount', '0012.50', '--ref-id', 'r-1'],
    { fromProfileId: 'a', toProfileId: 'b', asset: 'USD', amount: '0012.50', refId: 'r-1' },
  ],
  ['a crypto asset', ['--asset', 'BTC'], { asset: 'BTC' }],
  [
    'both sides metadata, "=" in a value',
    ['--meta', 'why=rebalance', '--recipient-meta', 'note=a=b'],
    { metadata: { why: 'rebalance' }, recipientMetadata: { note: 'a=b' } },
  ],
  ['switches', ['--dry-run', '--yes', '--wait'], { dryRun: true, yes: true, wait: true }],
  ['--wait-timeout in seconds', ['--wait-timeout', '30'], { waitTimeout: 30 }],
];

const INVALID: [argv: string[], message: string][] = [
  [
    ['--from-profile-id', 'a', '--to-profile-id', 'a'],
    '--to-profile-id: must not be the profile it is sent from (--from-profile-id)',
  ],
  // By its shape only: the catalogue is the run's, once it knows the service.
  [['--asset', 'b-tc'], '--asset: "b-tc" must be letters, digits and _ only (such as BTC or BITCOIN_CASH)'],
  [
    ['--amount', '-5'],
    '--amount: must be a plain decimal number such as 0.05 (digits and one point, no sign or exponent)',
  ],
  [
    ['--amount', '1e3'],
    '--amount: must be a plain decimal number such as 0.05 (digits and one point, no sign or exponent)',
  ],
  [['--meta', 'novalue'], '--meta: "novalue" must be key=value'],
  [['--recipient-meta', 'k=a', '--recipient-meta', 'k=b'], '--recipient-meta: key "k" is given twice'],
  [['--wait-timeout', '0'], '--wait-timeout: must be a positive time such as 30, 30s, 5m or 1h'],
];

describe('parseInternalTransferOptions', () => {
  it.each(VALID)('%s', (_name, argv, expected) => {
    expect(parseInternalTransferOptions(parseArgv(INTERNAL_TRANSFER_FLAG_TABLE, argv))).toEqual({
      ...NONE,
      ...expected,
    });
  });

  it.each(INVALID)('%j is refused', (argv, message) => {
    expect(usageMessage(() => parseInternalTransferOptions(parseArgv(INTERNAL_TRANSFER_FLAG_TABLE, argv)))).toBe(
      message,
    );
  });

  it('takes flag values of the declared types only (a mismatch is a bug, not bad input)', () => {
    const DEFAULTS = { waitTimeout: '600' };
    expect(() => parseInternalTransferOptions({ ...DEFAULTS, amount: 5 })).toThrow(/internal: the flag value amount/);
    expect(() => parseInternalTransferOptions({})).toThrow(/internal: the flag value waitTimeout/);
  });
});
