// coinop policy check and init, and coinop approve: arguments and a real argv to checked options, and every rule's
// message.
import { describe, expect, it } from 'vitest';
import { APPROVE_FLAG_TABLE } from '../../src/commands/approve/flags.js';
import { type ApproveOptions, parseApproveOptions as parseRaw } from '../../src/commands/approve/options.js';
import { POLICY_INIT_FLAG_TABLE } from '../../src/commands/policy/flags.js';
import { parsePolicyCheckArgs, parsePolicyInitOptions } from '../../src/commands/policy/options.js';
import { parseArgv } from '../support/argv.js';
import { usageMessage } from './support.js';

const parseApproveOptions = (file: string | undefined, argv: string[]) =>
  parseRaw(file, parseArgv(APPROVE_FLAG_TABLE, argv));
const parseInit = (argv: string[]) => parsePolicyInitOptions(parseArgv(POLICY_INIT_FLAG_TABLE, argv));

describe('coinop policy check and init', () => {
  it("check takes a file, or none for the context's own", () => {
    expect(parsePolicyCheckArgs(undefined)).toEqual({ file: undefined });
    expect(parsePolicyCheckArgs('team.yaml')).toEqual({ file: 'team.yaml' });
    expect(usageMessage(() => parsePolicyCheckArgs(' '))).toBe('FILE: must be a path to a policy file');
    expect(usageMessage(() => parsePolicyCheckArgs('-'))).toBe(
      'FILE: give a path (a policy is checked as the file it is)',
    );
  });

  it('init replaces a file only with --force', () => {
    expect(parseInit([])).toEqual({ force: false });
    expect(parseInit(['--force'])).toEqual({ force: true });
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

const VALID: [name: string, file: string | undefined, argv: string[], expected: Partial<ApproveOptions>][] = [
  ['a file', 'payouts.csv', [], { file: 'payouts.csv' }],
  ['--show-key alone', undefined, ['--show-key'], { showKey: true }],
  [
    'every flag of a batch',
    'payouts.txt',
    ['--format', 'csv', '--profile-id', 'p-1', '--skip-invalid', '--allow-repeat', '-y'],
    { file: 'payouts.txt', format: 'csv', profileId: 'p-1', skipInvalid: true, allowRepeat: true, yes: true },
  ],
];

const INVALID: [file: string | undefined, argv: string[], message: string][] = [
  [undefined, [], 'missing FILE: the batch file or saved withdrawal to approve'],
  ['payouts.csv', ['--show-key'], '--show-key: give no FILE (it prints the key and signs nothing)'],
  ['-', [], 'FILE: give a file (the approval is written next to it)'],
  ['', [], 'FILE: give a file (the approval is written next to it)'],
];

describe('coinop approve', () => {
  it.each(VALID)('%s', (_name, file, argv, expected) => {
    expect(parseApproveOptions(file, argv)).toEqual({ ...NONE, ...expected });
  });

  it.each(INVALID)('%s %j is refused', (file, argv, message) => {
    expect(usageMessage(() => parseApproveOptions(file, argv))).toBe(message);
  });

  it("takes --format only as spelled, with commander's message (and checks it for any other caller)", () => {
    for (const v of ['xml', 'CSV'])
      expect(() => parseApproveOptions('payouts.csv', ['--format', v])).toThrow(
        `error: option '--format <format>' argument '${v}' is invalid. Allowed choices are csv, jsonl, json.`,
      );
    expect(usageMessage(() => parseRaw('payouts.csv', { format: 'xml' }))).toBe(
      '--format: must be one of csv, jsonl, json',
    );
  });
});
