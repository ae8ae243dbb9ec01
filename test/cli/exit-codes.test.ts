// The exit-code list of `--help` and the man page is written from EXIT (src/cli/exit-codes.ts): every code, once, in
// its order, so a new or renumbered code shows in help without a second edit.
import { describe, expect, it } from 'vitest';
import { EXIT, EXIT_CODE_HELP } from '../../src/cli/exit-codes.js';

describe('exit codes in help', () => {
  it('lists every code of EXIT once, in order, each with its line', () => {
    const [title, ...lines] = EXIT_CODE_HELP.split('\n');
    expect(title).toBe('Exit codes:');
    expect(lines.map((l) => Number(l.trim().split(' ')[0]))).toEqual(Object.values(EXIT));
    for (const l of lines) expect(l).toMatch(/^ {2}\d+ +\S/);
  });

  it('lines up the meanings whatever the number of digits', () => {
    const starts = EXIT_CODE_HELP.split('\n')
      .slice(1)
      .map((l) => l.search(/[a-zA-Z]/));
    expect(new Set(starts).size).toBe(1);
  });
});
