// coinop's global flags come from one table (src/cli/global-flags.ts): the program declares exactly its options,
// every spelling of a flag that takes a value is skipped when the lazy loader looks for the command's name, and the
// hook reads the typed values into ctx.globals.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { GLOBAL_FLAG_TABLE, VALUE_FLAGS } from '../../src/cli/global-flags.js';
import { createContext } from '../../src/cli/invocation.js';
import { makeIO } from '../../src/cli/io.js';
import { baseProgram, groupNamed } from '../../src/commands/program-base.js';

const program = () =>
  baseProgram(
    createContext(
      makeIO({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough() }, { env: {} }),
      {},
      '0.0.0',
    ),
  );

describe('global flags', () => {
  it('the program declares the options of the table, in its order, and only them (besides --version and --help)', () => {
    const declared = program()
      .options.map((o) => o.flags)
      .filter((f) => f !== '-V, --version');
    expect(declared).toEqual(GLOBAL_FLAG_TABLE.keys.map((k) => GLOBAL_FLAG_TABLE.specs[k].flag));
    expect(program().options.find((o) => o.long === '--profile')!.hidden).toBe(true);
  });

  it('the flags taking a value are every spelling of those declared with <value>', () => {
    expect([...VALUE_FLAGS]).toEqual(['--context', '--profile', '-o', '--output']);
    for (const o of program().options) expect(VALUE_FLAGS.has(o.long!)).toBe(o.required);
  });

  it("a global flag's value is not taken for the command's name", () => {
    expect(groupNamed(['node', 'coinop', '-o', 'json', 'prices'])).toBe('prices');
    expect(groupNamed(['node', 'coinop', '--context', 'sandbox', 'balances'])).toBe('balances');
    expect(groupNamed(['node', 'coinop', '--profile', 'prices', 'balances'])).toBe('balances');
    expect(groupNamed(['node', 'coinop', '--json', 'prices'])).toBe('prices');
  });

  it('reads the typed values of a real argv', () => {
    const p = program();
    p.parse(['-o', 'CSV', '--no-input', '--context', 'x'], { from: 'user' });
    expect(GLOBAL_FLAG_TABLE.read(p.opts())).toEqual({
      context: 'x',
      profile: undefined,
      output: 'csv',
      json: false,
      input: false,
      color: true,
      pager: true,
      debug: false,
    });
  });
});
