// coinop withdraw: a real argv, parsed by the command's declared flags, to checked options, and every flag rule's
// message.
import { describe, expect, it } from 'vitest';
import { parseWithdrawOptions, type WithdrawOptions } from '../../src/commands/withdraw/options.js';
import { WITHDRAW_FLAG_TABLE } from '../../src/commands/withdraw/flags.js';
import { parseArgv } from '../support/argv.js';
import { usageMessage } from './support.js';

const NONE: WithdrawOptions = {
  asset: undefined,
  network: undefined,
  address: undefined,
  amount: undefined,
  total: undefined,
  feeId: undefined,
  quote: false,
  refId: undefined,
  profileId: undefined,
  identityId: undefined,
  accountId: undefined,
  balanceAsset: undefined,
  memo: undefined,
  metadata: undefined,
  beneficiary: undefined,
  dryRun: false,
  yes: false,
  wait: false,
  waitApproval: false,
  waitTimeout: 600,
  save: undefined,
  request: undefined,
  approvals: undefined,
};

const VALID: [name: string, argv: string[], expected: Partial<WithdrawOptions>][] = [
  ['no flags: everything left to ask for', [], {}],
  [
    'every value flag',
    [
      '--asset',
      'BTC',
      '--network',
      'BITCOIN',
      '--address',
      '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
      '--amount',
      '0.01',
      '--fee-id',
      'fee-1',
      '--ref-id',
      'r-1',
      '--profile-id',
      'p-1',
      '--identity-id',
      'i-1',
      '--account-id',
      'a-1',
      '--balance-asset',
      'BTC',
      '--memo',
      'rent',
    ],
    {
      asset: 'BTC',
      network: 'BITCOIN',
      address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
      amount: '0.01',
      feeId: 'fee-1',
      refId: 'r-1',
      profileId: 'p-1',
      identityId: 'i-1',
      accountId: 'a-1',
      balanceAsset: 'BTC',
      memo: 'rent',
    },
  ],
  ['--total instead of --amount, kept as written', ['--total', '000.50'], { total: '000.50' }],
  ['switches', ['--quote', '--dry-run', '--yes', '--wait'], { quote: true, dryRun: true, yes: true, wait: true }],
  ['--wait-timeout in seconds', ['--wait-timeout', '86400'], { waitTimeout: 86400 }],
  ['--wait-timeout as a duration', ['--wait-timeout', '15m'], { waitTimeout: 900 }],
  [
    '--meta pairs, "=" in a value',
    ['--meta', 'invoice=42', '--meta', 'note=a=b'],
    { metadata: { invoice: '42', note: 'a=b' } },
  ],
  ['--beneficiary as an object', ['--beneficiary', '{"name":"Ada"}'], { beneficiary: { name: 'Ada' } }],
  ['an empty --asset is asked for, not refused', ['--asset', ''], { asset: '' }],
  [
    'asset, network and balance asset in any case, kept in capitals',
    ['--asset', ' btc', '--network', 'Bitcoin', '--balance-asset', 'usd'],
    { asset: 'BTC', network: 'BITCOIN', balanceAsset: 'USD' },
  ],
  ['--to a nickname of the address book', ['--to', 'treasury', '--asset', 'ETH'], { to: 'treasury', asset: 'ETH' }],
  [
    '--dry-run --save FILE: the request saved for approval',
    ['--amount', '1', '--dry-run', '--save', 'w.json'],
    { amount: '1', dryRun: true, save: 'w.json' },
  ],
  [
    '--request FILE with the switches and approval files',
    ['--request', 'w.json', '--quote', '--yes', '--approvals', 'a.txt', '--approvals', 'b.txt'],
    { request: 'w.json', quote: true, yes: true, approvals: ['a.txt', 'b.txt'] },
  ],
  [
    'an asset and network outside the catalogue pass by their shape (the run checks them against the service)',
    ['--asset', 'USDC', '--network', 'OPTIMISM'],
    { asset: 'USDC', network: 'OPTIMISM' },
  ],
];

const INVALID: [argv: string[], message: string][] = [
  [['--amount', '1', '--total', '2'], '--amount and --total: give exactly one, not both'],
  [['--fee-id', 'f', '--quote'], '--fee-id and --quote: give one (--quote gets a fee id for you)'],
  [['--wait-timeout', 'soon'], '--wait-timeout: must be a positive time such as 30, 30s, 5m or 1h'],
  [['--wait-timeout', '0'], '--wait-timeout: must be a positive time such as 30, 30s, 5m or 1h'],
  [['--wait-timeout', '86401'], '--wait-timeout: must be at most 24 h'],
  [['--meta', 'novalue'], '--meta: "novalue" must be key=value'],
  [['--meta', 'k=a', '--meta', 'k=b'], '--meta: key "k" is given twice'],
  [
    ['--beneficiary', '{oops'],
    '--beneficiary: must be a JSON object such as {"person_details":{"first_name":"Ada","last_name":"Lovelace"}}',
  ],
  [['--beneficiary', '[1]'], '--beneficiary: must be a JSON object'],
  [['--beneficiary', 'null'], '--beneficiary: must be a JSON object'],
  [
    ['--amount', '-1'],
    '--amount: must be a plain decimal number such as 0.05 (digits and one point, no sign or exponent)',
  ],
  [
    ['--amount', '1e5'],
    '--amount: must be a plain decimal number such as 0.05 (digits and one point, no sign or exponent)',
  ],
  [
    ['--total', '1.5.2'],
    '--total: must be a plain decimal number such as 0.05 (digits and one point, no sign or exponent)',
  ],
  [
    ['--to', 'treasury', '--address', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'],
    '--to and --address: give one (--to takes the address from the address book)',
  ],
  [['--to', ' '], '--to: must be a nickname of the address book'],
  [['--save', 'w.json'], '--save: only with --dry-run (it saves the request for approval; nothing is sent)'],
  [['--request', 'w.json', '--amount', '1'], '--request and --amount: give one (the saved request holds every value)'],
  [['--request', 'w.json', '--to', 'treasury'], '--request and --to: give one (the saved request holds every value)'],
  [['--request', 'w.json', '--meta', 'a=b'], '--request and --meta: give one (the saved request holds every value)'],
  // Several mistakes: the first rule in the order the command has always checked them names one.
  [['--amount', 'x', '--fee-id', 'f', '--quote'], '--fee-id and --quote: give one (--quote gets a fee id for you)'],
  [
    ['--amount', 'x', '--asset', 'eur'],
    '--amount: must be a plain decimal number such as 0.05 (digits and one point, no sign or exponent)',
  ],
  [['--amount', '1', '--total', '1', '--beneficiary', '{x'], '--amount and --total: give exactly one, not both'],
];

describe('parseWithdrawOptions', () => {
  const parse = (argv: string[]) => parseWithdrawOptions(parseArgv(WITHDRAW_FLAG_TABLE, argv));

  it.each(VALID)('%s', (_name, argv, expected) => {
    expect(parse(argv)).toEqual({ ...NONE, ...expected });
  });

  it.each(INVALID)('%j is refused', (argv, message) => {
    expect(usageMessage(() => parse(argv))).toBe(message);
  });

  it('takes the short flag and the spellings commander allows (--flag=value)', () => {
    expect(parse(['-y', '--amount=0.5', '--meta=a=b'])).toEqual({
      ...NONE,
      yes: true,
      amount: '0.5',
      metadata: { a: 'b' },
    });
  });

  it('takes flag values of the declared types only (a mismatch is a bug, not bad input)', () => {
    const DEFAULTS = { waitTimeout: '600' };
    expect(() => parseWithdrawOptions({ ...DEFAULTS, amount: 5 })).toThrow(/internal: the flag value amount/);
    expect(() => parseWithdrawOptions({ ...DEFAULTS, yes: 'y' })).toThrow(/internal: the flag value yes/);
    expect(() => parseWithdrawOptions({ ...DEFAULTS, meta: 'k=v' })).toThrow(/internal: the flag value meta/);
    expect(() => parseWithdrawOptions({})).toThrow(/internal: the flag value waitTimeout/);
  });
});
