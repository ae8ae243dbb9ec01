// coinop limits: a real argv to checked options.
import { describe, expect, it } from 'vitest';
import { declareLimits } from '../../src/commands/limits/flags.js';
import { parseLimitsOptions } from '../../src/commands/limits/options.js';
import { parseArgv } from '../support/argv.js';
import { periodText } from '../../src/commands/limits/run.js';
import { usageMessage } from './support.js';

describe('parseLimitsOptions', () => {
  const parse = (argv: string[]) => parseLimitsOptions(parseArgv(declareLimits, argv));

  it('takes a transfer type of the OpenAPI, in any case, CRYPTO_WITHDRAWAL by default', () => {
    expect(parse([])).toEqual({ type: 'CRYPTO_WITHDRAWAL' });
    expect(parse(['--type', 'paxos_transfer_debit'])).toEqual({ type: 'PAXOS_TRANSFER_DEBIT' });
    expect(parse(['--type', 'WIRE_DEPOSIT', '--wide'])).toEqual({ type: 'WIRE_DEPOSIT', view: { wide: true } });
    expect(usageMessage(() => parse(['--type', 'PLATFORM_TRANSFER_DEBIT']))).toMatch(
      /^--type: "PLATFORM_TRANSFER_DEBIT" is not one of the \d+ choices \(did you mean PAXOS_TRANSFER_DEBIT\?\)$/,
    );
    expect(usageMessage(() => parse(['--type', 'MOON']))).toMatch(/^--type: must be one of INTERNAL_TRANSFER_DEBIT, /);
    expect(() => parseLimitsOptions({})).toThrow(/internal: the flag value type/);
  });
});

describe('periods for people', () => {
  it.each([
    ['0', 'each transfer'],
    ['86400', '24 h'],
    ['604800', '7 days'],
    ['3600', '1 h'],
    ['900', '15 min'],
    ['90', '90 s'],
    [undefined, '-'],
    ['soon', 'soon'],
  ])('%s: %s', (seconds, text) => {
    expect(periodText(seconds)).toBe(text);
  });
});
