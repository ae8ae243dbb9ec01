// coinop deposit-instructions create and list: a real argv, parsed by the commands' declared flags, to checked
// options, and every flag rule's message.
import { describe, expect, it } from 'vitest';
import {
  parseInstructionsCreateOptions,
  parseInstructionsListOptions,
} from '../../src/commands/deposit-instructions/options.js';
import {
  declareInstructionsList,
  INSTRUCTIONS_CREATE_FLAG_TABLE,
} from '../../src/commands/deposit-instructions/flags.js';
import { parseArgv } from '../support/argv.js';
import { usageMessage } from './support.js';

const create = (argv: string[]) => parseInstructionsCreateOptions(parseArgv(INSTRUCTIONS_CREATE_FLAG_TABLE, argv));

describe('parseInstructionsCreateOptions', () => {
  it('takes every flag; the network upper-cased', () => {
    expect(
      create([
        '--network',
        'wire',
        '--routing-type',
        'swift',
        '--profile-id',
        'p',
        '--identity-id',
        'i',
        '--account-id',
        'a',
        '--ref-id',
        'r',
        '--meta',
        'customer=42',
      ]),
    ).toEqual({
      network: 'WIRE',
      routingType: 'SWIFT',
      profileId: 'p',
      identityId: 'i',
      accountId: 'a',
      refId: 'r',
      metadata: { customer: '42' },
    });
    expect(create([])).toEqual({});
  });

  it.each([
    [['--network', 'ACH'], '--network: must be one of WIRE, DBS_ACT, CUBIX, SCB, RTP'],
    [['--network', 'RTP', '--routing-type', 'ABA'], '--routing-type: is for --network WIRE only, not RTP'],
    [['--meta', 'novalue'], '--meta: "novalue" must be key=value'],
  ])('%j is refused', (argv, message) => {
    expect(usageMessage(() => create(argv))).toBe(message);
  });
});

describe('parseInstructionsListOptions', () => {
  const NOW = Date.parse('2026-11-20T12:00:00Z');
  const list = (argv: string[]) => parseInstructionsListOptions(parseArgv(declareInstructionsList, argv), NOW);

  it('filters and the shared list flags', () => {
    expect(list(['--id', 'a', '--ref-id', 'r', '--created-from', '7d', '--all'])).toEqual({
      query: { ids: ['a'], ref_ids: ['r'], 'created_at.gte': '2026-11-13T12:00:00Z' },
      all: true,
    });
  });

  it.each([
    [['--limit', '1001'], '--limit: must be from 1 to 1000'],
    [
      ['--created-until', '2026-13-01T00:00:00Z'],
      '--created-until: "2026-13-01T00:00:00Z" is not a time; give an RFC 3339',
    ],
    [
      [
        '--ref-id',
        'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
      ],
      '--ref-id: must be at most 128 characters',
    ],
  ])('%j is refused', (argv, message) => {
    expect(usageMessage(() => list(argv))).toContain(message);
  });
});
