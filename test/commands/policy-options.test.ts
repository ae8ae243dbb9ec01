// coinop policy check and init, and coinop approve: raw arguments and flags (as commander hands them over) to
// checked options, and every rule's message.
import { describe, expect, it } from 'vitest';
import { type ApproveOptions, parseApproveOptions } from '../../src/commands/approve/options.js';
import { parsePolicyCheckArgs, parsePolicyInitOptions } from '../../src/commands/policy/options.js';
import { usageMessage } from './support.js';

describe('coinop policy check and init', () => {
  it('check takes a file, or none for the profile own', () => {
    expect(parsePolicyCheckArgs(undefined)).toEqual({ file: undefined });
    expect(parsePolicyCheckArgs('team.yaml')).toEqual({ file: 'team.yaml' });
    expect(usageMessage(() => parsePolicyCheckArgs(' '))).toBe('FILE: must be a path to a policy file');
    expect(usageMessage(() => parsePolicyCheckArgs('-'))).toBe(
      'FILE: give a path (a policy is checked as the file it is)',
    );
  });

  it('init replaces a file only with --force', () => {
    expect(parsePolicyInitOptions({})).toEqual({ force: false });
    expect(parsePolicyInitOptions({ force: true })).toEqual({ force: true });
    expect(() => parsePolicyInitOptions({ force: 'yes' })).toThrow(/internal: the flag value force/);
  });
});

const NONE: ApproveOptions = {
  file: undefined,
  showKey: false,
  format: undefined,
  profileId: undefined,
  skipInvalid: false,
  allowRepeat: false,
  yes: false,
};

const VALID: [
  name: string,
  file: string | undefined,
  raw: Record<string, unknown>,
  expected: Partial<ApproveOptions>,
][] = [
  ['a file', 'payouts.csv', {}, { file: 'payouts.csv' }],
  ['--show-key alone', undefined, { showKey: true }, { showKey: true }],
  [
    'every flag of a batch',
    'payouts.txt',
    { format: 'csv', profileId: 'p-1', skipInvalid: true, allowRepeat: true, yes: true },
    { file: 'payouts.txt', format: 'csv', profileId: 'p-1', skipInvalid: true, allowRepeat: true, yes: true },
  ],
];

const INVALID: [file: string | undefined, raw: Record<string, unknown>, message: string][] = [
  [undefined, {}, 'missing FILE: the batch file or saved withdrawal to approve'],
  ['payouts.csv', { showKey: true }, '--show-key: give no FILE (it prints the key and signs nothing)'],
  ['-', {}, 'FILE: give a file (the approval is written next to it)'],
  ['', {}, 'FILE: give a file (the approval is written next to it)'],
  ['payouts.csv', { format: 'xml' }, '--format: must be one of csv, jsonl, json'],
];

describe('coinop approve', () => {
  it.each(VALID)('%s', (_name, file, raw, expected) => {
    expect(parseApproveOptions(file, raw)).toEqual({ ...NONE, ...expected });
  });

  it.each(INVALID)('%s %j is refused', (file, raw, message) => {
    expect(usageMessage(() => parseApproveOptions(file, raw))).toBe(message);
  });
});
