// coinop withdraw batch: a real argv, parsed by the command's declared flags, to checked options.
import { describe, expect, it } from 'vitest';
import { type BatchOptions, parseBatchOptions } from '../../src/commands/withdraw/batch/options.js';
import { BATCH_FLAG_TABLE } from '../../src/commands/withdraw/batch/flags.js';
import { parseArgv } from '../support/argv.js';
import { usageMessage } from './support.js';

const NONE: BatchOptions = {
  format: undefined,
  profileId: undefined,
  dryRun: false,
  yes: false,
  resume: false,
  retryFailed: false,
  skipInvalid: false,
  waitSeconds: 0,
  waitApprovalSeconds: 0,
  concurrency: 4,
  rate: 18,
  journal: undefined,
  allowRepeat: false,
  allowPartial: false,
  approvals: undefined,
};
const RATE = '--rate: must be a number of withdrawals per second from 0 (no limit) to 10000';

const VALID: [name: string, argv: string[], expected: Partial<BatchOptions>][] = [
  ['the defaults', [], {}],
  [
    'value flags',
    ['--format', 'jsonl', '--profile-id', 'p-1', '--journal', '/tmp/j', '--concurrency', '64'],
    { format: 'jsonl', profileId: 'p-1', journal: '/tmp/j', concurrency: 64 },
  ],
  [
    'switches',
    ['--yes', '--skip-invalid', '--allow-repeat', '--allow-partial', '--dry-run'],
    { yes: true, skipInvalid: true, allowRepeat: true, allowPartial: true, dryRun: true },
  ],
  ['--resume', ['--resume'], { resume: true }],
  ['--retry-failed implies --resume', ['--retry-failed'], { resume: true, retryFailed: true }],
  ['--wait follows for --wait-timeout seconds', ['--wait', '--wait-timeout', '30'], { waitSeconds: 30 }],
  ['without --wait nothing is followed', ['--wait-timeout', '30'], { waitSeconds: 0 }],
  [
    '--wait-approval waits for --wait-timeout seconds',
    ['--wait-approval', '--wait-timeout', '45'],
    { waitApprovalSeconds: 45 },
  ],
  ['--wait-timeout takes a duration', ['--wait', '--wait-timeout', '2h'], { waitSeconds: 7200 }],
  ['--rate 0 is no client-side limit', ['--rate', '0'], { rate: Infinity }],
  ['a fractional --rate', ['--rate', '2.5'], { rate: 2.5 }],
  ['the largest --rate', ['--rate', '10000'], { rate: 10000 }],
  [
    '--approvals files, repeatable',
    ['--approvals', 'a.txt', '--approvals', 'b.txt'],
    { approvals: ['a.txt', 'b.txt'] },
  ],
];

const INVALID: [argv: string[], message: string][] = [
  [['--concurrency', '0'], '--concurrency: must be from 1 to 64'],
  [['--concurrency', '65'], '--concurrency: must be from 1 to 64'],
  [['--concurrency', 'many'], '--concurrency: must be a whole number from 1 to 64'],
  [['--rate', 'fast'], RATE],
  [['--rate', '10001'], RATE],
  [['--rate', '-1'], RATE],
  [['--rate', '1e3'], RATE],
  // Checked whether or not --wait is given.
  [['--wait-timeout', '0'], '--wait-timeout: must be a positive time such as 30, 30s, 5m or 1h'],
  [['--wait-timeout', '604801', '--wait'], '--wait-timeout: must be at most 168 h'],
  [['--wait-timeout', 'soon'], '--wait-timeout: must be a positive time such as 30, 30s, 5m or 1h'],
  [['--dry-run', '--resume'], '--dry-run: cannot be combined with --resume (a dry run sends nothing to resume)'],
  [['--dry-run', '--retry-failed'], '--dry-run: cannot be combined with --resume (a dry run sends nothing to resume)'],
  [['--format', 'xml'], '--format: must be one of csv, jsonl, json'],
  [['--concurrency', '0', '--rate', 'fast'], '--concurrency: must be from 1 to 64'],
];

describe('parseBatchOptions', () => {
  const parse = (argv: string[]) => parseBatchOptions(parseArgv(BATCH_FLAG_TABLE, argv));

  it.each(VALID)('%s', (_name, argv, expected) => {
    expect(parse(argv)).toEqual({ ...NONE, ...expected });
  });

  it.each(INVALID)('%j is refused', (argv, message) => {
    expect(usageMessage(() => parse(argv))).toBe(message);
  });

  it('takes --format in any case, as its canonical spelling', () => {
    expect(parse(['--format', 'JSONL', '-y'])).toEqual({ ...NONE, format: 'jsonl', yes: true });
  });

  it('reads the global and withdraw flags merged in without taking them for its own', () => {
    const flags = parseArgv(BATCH_FLAG_TABLE, []);
    expect(parseBatchOptions({ ...flags, profile: 'sandbox', output: 'json', json: false, input: true })).toEqual(NONE);
  });
});
