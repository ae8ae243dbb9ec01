// coinop transfer internal: raw flags (as commander hands them over) to checked options, and every flag rule's message.
import { describe, expect, it } from 'vitest';
import { ASSETS } from '../../src/contract/catalogue.js';
import {
  parseInternalTransferOptions,
  type InternalTransferOptions,
} from '../../src/commands/internal-transfer/options.js';
import { usageMessage } from './support.js';

/** The catalogue's assets, as the refusal of an unknown one lists them. */
const _EVERY_ASSET = Object.keys(ASSETS).join(', ');

/** What commander gives when no flag is typed: the declared defaults. */
const DEFAULTS = { waitTimeout: '600' };
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

const VALID: [name: string, raw: Record<string, unknown>, expected: Partial<InternalTransferOptions>][] = [
  ['no flags: everything left to ask for (the sender defaults to the coinop profile)', {}, {}],
  [
    'every value flag, the amount kept as written',
    { fromProfileId: 'a', toProfileId: 'b', asset: 'USD', amount: '0012.50', refId: 'r-1' },
    { fromProfileId: 'a', toProfileId: 'b', asset: 'USD', amount: '0012.50', refId: 'r-1' },
  ],
  ['a crypto asset', { asset: 'BTC' }, { asset: 'BTC' }],
  [
    'both sides metadata, "=" in a value',
    { meta: ['why=rebalance'], recipientMeta: ['note=a=b'] },
    { metadata: { why: 'rebalance' }, recipientMetadata: { note: 'a=b' } },
  ],
  ['switches', { dryRun: true, yes: true, wait: true }, { dryRun: true, yes: true, wait: true }],
  ['--wait-timeout in seconds', { waitTimeout: '30' }, { waitTimeout: 30 }],
];

const INVALID: [raw: Record<string, unknown>, message: string][] = [
  [
    { fromProfileId: 'a', toProfileId: 'a' },
    '--to-profile-id: must not be the profile it is sent from (--from-profile-id)',
  ],
  // By its shape only: the catalogue is the run's, once it knows the service.
  [{ asset: 'b-tc' }, '--asset: "b-tc" must be letters, digits and _ only (such as BTC or BITCOIN_CASH)'],
  [
    { amount: '-5' },
    '--amount: must be a plain decimal number such as 0.05 (digits and one point, no sign or exponent)',
  ],
  [
    { amount: '1e3' },
    '--amount: must be a plain decimal number such as 0.05 (digits and one point, no sign or exponent)',
  ],
  [{ meta: ['novalue'] }, '--meta: "novalue" must be key=value'],
  [{ recipientMeta: ['k=a', 'k=b'] }, '--recipient-meta: key "k" is given twice'],
  [{ waitTimeout: '0' }, '--wait-timeout: must be a positive time such as 30, 30s, 5m or 1h'],
];

describe('parseInternalTransferOptions', () => {
  it.each(VALID)('%s', (_name, raw, expected) => {
    expect(parseInternalTransferOptions({ ...DEFAULTS, ...raw })).toEqual({ ...NONE, ...expected });
  });

  it.each(INVALID)('%j is refused', (raw, message) => {
    expect(usageMessage(() => parseInternalTransferOptions({ ...DEFAULTS, ...raw }))).toBe(message);
  });

  it('takes flag values of the declared types only (a mismatch is a bug, not bad input)', () => {
    expect(() => parseInternalTransferOptions({ ...DEFAULTS, amount: 5 })).toThrow(/internal: the flag value amount/);
    expect(() => parseInternalTransferOptions({})).toThrow(/internal: the flag value waitTimeout/);
  });
});
