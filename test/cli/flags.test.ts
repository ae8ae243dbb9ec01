// The flag tables (src/cli/flags.ts): one declaration gives the commander options, the typed values read from a real
// argv, the request field -> flag map and the flags' names.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { defineFlags, longFlag } from '../../src/cli/flags.js';
import { makeProgram } from '../../src/commands/program.js';
import { createContext } from '../../src/cli/invocation.js';
import { makeIO } from '../../src/cli/io.js';
import { PassThrough } from 'node:stream';
import { parseArgv } from '../support/argv.js';
import { usageMessage } from '../commands/support.js';

const TABLE = defineFlags({
  amount: { kind: 'text', flag: '--amount <amount>', help: 'amount to send', field: 'amount' },
  feeId: { kind: 'text', flag: '--fee-id <id>', help: 'fee quote', field: 'fee_id' },
  waitTimeout: { kind: 'default', flag: '--wait-timeout <time>', help: 'how long', default: '600' },
  yes: { kind: 'switch', flag: '-y, --yes', help: 'do not ask' },
  meta: { kind: 'list', flag: '--meta <key=value>', help: 'pairs', field: 'metadata' },
  id: { kind: 'list', split: true, flag: '--id <id>', help: 'ids' },
  bookmark: { kind: 'toggle', flag: '--bookmark', help: 'bookmark it', noHelp: 'take it away' },
  order: { kind: 'choice', flag: '--order <order>', help: 'direction', choices: ['ASC', 'DESC'] },
  old: { kind: 'text', flag: '--old <v>', help: 'an old spelling', hidden: true },
} as const);

describe('defineFlags', () => {
  it('declares each flag in the table order, with its help, default and choices', () => {
    const cmd = TABLE.declare(new Command('x'));
    expect(cmd.options.map((o) => o.flags)).toEqual([
      '--amount <amount>',
      '--fee-id <id>',
      '--wait-timeout <time>',
      '-y, --yes',
      '--meta <key=value>',
      '--id <id>',
      '--bookmark',
      '--no-bookmark',
      '--order <order>',
      '--old <v>',
    ]);
    expect(cmd.options.map((o) => o.description)).toContain('take it away');
    expect(cmd.options.find((o) => o.long === '--order')?.argChoices).toEqual(['ASC', 'DESC']);
    expect(cmd.helpInformation()).not.toContain('--old');
  });

  it('reads the typed values of a real argv; unset ones as their kind says', () => {
    const none = TABLE.read(parseArgv(TABLE, []));
    expect(none).toEqual({
      amount: undefined,
      feeId: undefined,
      waitTimeout: '600',
      yes: false,
      meta: undefined,
      id: undefined,
      bookmark: undefined,
      order: undefined,
      old: undefined,
    });
    const argv = ['--amount=1', '-y', '--meta', 'a=b', '--meta', 'c=d', '--id', 'x, y', '--id', 'z'];
    const all = TABLE.read(parseArgv(TABLE, [...argv, '--no-bookmark', '--order', 'asc', '--old', 'o']));
    expect(all).toEqual({
      ...none,
      amount: '1',
      yes: true,
      meta: ['a=b', 'c=d'],
      id: ['x', 'y', 'z'],
      bookmark: false,
      order: 'ASC',
      old: 'o',
    });
    expect(TABLE.read(parseArgv(TABLE, ['--bookmark'])).bookmark).toBe(true);
  });

  it('refuses a value outside the choices as a usage error naming the flag', () => {
    expect(usageMessage(() => parseArgv(TABLE, ['--order', 'up']))).toBe('--order: must be one of ASC, DESC');
  });

  it('takes values of the declared kinds only (a mismatch is a bug of the declarations, not bad input)', () => {
    expect(() => TABLE.read({ waitTimeout: '600', amount: 5 })).toThrow(
      /internal: the flag value amount is not a string/,
    );
    expect(() => TABLE.read({ waitTimeout: '600', yes: 'y' })).toThrow(/internal: the flag value yes is not a switch/);
    expect(() => TABLE.read({ waitTimeout: '600', meta: 'a=b' })).toThrow(
      /internal: the flag value meta is not a list/,
    );
    expect(() => TABLE.read({})).toThrow(/internal: the flag value waitTimeout is not given/);
  });

  it('maps each request field to its flag, and names the flags', () => {
    expect(TABLE.fields).toEqual({ amount: '--amount', fee_id: '--fee-id', metadata: '--meta' });
    expect(TABLE.flag('feeId')).toBe('--fee-id');
    expect(TABLE.flag('yes')).toBe('--yes');
    expect(TABLE.keys).toEqual(['amount', 'feeId', 'waitTimeout', 'yes', 'meta', 'id', 'bookmark', 'order', 'old']);
  });

  it('lists the flags given, in the table order', () => {
    const raw = parseArgv(TABLE, ['--meta', 'a=b', '--amount', '1', '--no-bookmark']);
    expect(TABLE.given(raw)).toEqual(['amount', 'waitTimeout', 'meta']);
    expect(TABLE.given(raw, ['meta', 'feeId', 'amount'])).toEqual(['meta', 'amount']);
  });

  it('refuses a key that is not the attribute commander gives the flag', () => {
    const wrong = defineFlags({ fee: { kind: 'text', flag: '--fee-id <id>', help: 'fee' } });
    expect(() => wrong.declare(new Command('x'))).toThrow('internal: flag --fee-id <id> is declared under the key fee');
  });

  it('declares only the keys asked for, in the table order', () => {
    const cmd = TABLE.declare(new Command('x'), ['order', 'amount']);
    expect(cmd.options.map((o) => o.long)).toEqual(['--amount', '--order']);
  });

  it("takes an exact choice only as spelled, with commander's message", () => {
    const exact = defineFlags({
      format: { kind: 'choice', exact: true, flag: '--format <format>', help: 'format', choices: ['csv', 'json'] },
    } as const);
    expect(exact.read(parseArgv(exact, ['--format', 'csv'])).format).toBe('csv');
    expect(() => parseArgv(exact, ['--format', 'CSV'])).toThrow(
      "error: option '--format <format>' argument 'CSV' is invalid. Allowed choices are csv, json.",
    );
  });

  it('gives a choice with a default its default when not given, and the canonical spelling when given', () => {
    const t = defineFlags({
      type: { kind: 'choice', flag: '--type <type>', help: 'type', choices: ['A_B', 'C_D'], default: 'A_B' },
    } as const);
    expect(t.read(parseArgv(t, [])).type).toBe('A_B');
    expect(t.read(parseArgv(t, ['--type', 'c_d'])).type).toBe('C_D');
    expect(() => t.read({})).toThrow(/internal: the flag value type is not given/);
  });

  it('reads a lone --no- switch as on unless given', () => {
    const t = defineFlags({ rateLimits: { kind: 'switch', flag: '--no-rate-limits', help: 'none' } });
    expect(t.read(parseArgv(t, [])).rateLimits).toBe(true);
    expect(t.read(parseArgv(t, ['--no-rate-limits'])).rateLimits).toBe(false);
  });
});

describe('flags set in code', () => {
  it('raw() gives what a parse of the same flags gives, defaults filled in', () => {
    const fromArgv = parseArgv(TABLE, ['--amount', '1', '--yes', '--order', 'DESC']);
    expect(TABLE.read(TABLE.raw({ amount: '1', yes: true, order: 'DESC' }))).toEqual(TABLE.read(fromArgv));
    expect(TABLE.raw({}).waitTimeout).toBe('600');
  });

  it('valueSpellings() names each spelling of the flags that take a value', () => {
    const t = defineFlags({
      output: { kind: 'text', flag: '-o, --output <format>', help: 'x' },
      json: { kind: 'switch', flag: '--json', help: 'y' },
      limit: { kind: 'default', flag: '--limit [n]', help: 'z', default: '1' },
    });
    expect(t.valueSpellings()).toEqual(['-o', '--output', '--limit']);
  });
});

describe('longFlag', () => {
  it("names the long flag of every option of the command tree as commander's Option does", () => {
    const io = makeIO({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough() }, { env: {} });
    const all: Command[] = [];
    const walk = (command: Command) => {
      all.push(command);
      for (const sub of command.commands) walk(sub);
    };
    walk(makeProgram(createContext(io, {}, '0.0.0')));
    const options = all.flatMap((command) => command.options);
    expect(options.length).toBeGreaterThan(300);
    for (const o of options) expect(longFlag(o.flags), o.flags).toBe(o.long);
    // Flags without a long form, and spellings commander reads alike.
    expect(longFlag('-y')).toBeUndefined();
    expect(longFlag('-o,--output <format>')).toBe('--output');
    expect(longFlag('-o|--output [format]')).toBe('--output');
  });
});
