// Support for the CLI proofs: a seeded generator of odd values, and what an internal failure looks like on stderr.
import { seededRng } from '../../src/market-data/rng.js';

/** What must never reach the operator: stack frames, JavaScript error names, the catch-all of unexpected errors. */
export const INTERNAL =
  /\n\s+at [^\n]*(\.js|\.ts|node:)|\b(TypeError|ReferenceError|RangeError|SyntaxError|AssertionError|EvalError)\b|Cannot read propert|is not a function|is not iterable|undefined is not|\[object Object\]|run again with --debug for details|internal:/;

/** Strings that break naive code: empty, blank, huge, unicode of every sort, shell and format metacharacters. */
export const oddStrings: string[] = [
  '',
  ' ',
  '\t',
  '\n',
  '-',
  '--',
  '=',
  ',',
  ',,,',
  '.',
  '..',
  '...',
  '0',
  '-0',
  '00',
  '-1',
  '1e400',
  'NaN',
  'Infinity',
  'null',
  'undefined',
  'true',
  '{}',
  '[]',
  '{"a":1}',
  '"',
  "'",
  '`',
  '\\',
  '%s%s%s',
  '%n',
  '${HOME}',
  '$(id)',
  '`id`',
  '; rm -rf /',
  '| cat',
  '../../etc/passwd',
  '/dev/null',
  'ünïcødé',
  'Ω≈ç√∫',
  '日本語',
  '💸💰🚀',
  '👨‍👩‍👧‍👦',
  '\u202eevil',
  '\u200b',
  '\u00a0',
  '\ufeff',
  'e\u0301',
  'ﬀ',
  'İ',
  'ß',
  '١٢٣',
  '１２３',
  '\u001b[31mred\u001b[0m',
  '\r',
  'a\rb',
  'a\nb',
  '<script>',
  "' OR 1=1 --",
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
];

export class Rng {
  /** A float in [0, 1) from the project's seeded generator (src/market-data/rng.ts). */
  readonly next: () => number;
  constructor(seed: number) {
    this.next = seededRng(seed >>> 0 || 1);
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  bool(): boolean {
    return this.next() < 0.5;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
  word(): string {
    const n = this.int(1, 12);
    let w = '';
    for (let i = 0; i < n; i++) w += 'abcdefghijklmnopqrstuvwxyz-'[this.int(0, i === 0 ? 25 : 26)];
    return w;
  }
  decimal(maxDecimals: number): string {
    const d = this.int(0, maxDecimals);
    return `${this.int(0, 999)}${d ? `.${Array.from({ length: d }, () => this.int(0, 9)).join('')}` : ''}`;
  }
  /** An odd string: from the list, a huge one, random code points, or a mix. */
  odd(): string {
    switch (this.int(0, 5)) {
      case 0:
      case 1:
        return this.pick(oddStrings);
      case 2:
        return this.pick(['x', 'é', '💸', '9', ' ']).repeat(this.int(1_000, 60_000));
      case 3:
        return Array.from({ length: this.int(1, 30) }, () =>
          String.fromCodePoint(
            this.pick([
              this.int(0x20, 0x7e),
              this.int(0xa0, 0x2fff),
              this.int(0x1f300, 0x1faff),
              this.int(0xe000, 0xf8ff),
            ]),
          ),
        ).join('');
      case 4:
        return this.pick(oddStrings) + this.word() + this.pick(oddStrings);
      default:
        return `\u0000${this.word()}`;
    }
  }
}

/** A comma-separated list of n distinct entries. */
export const tooMany = (n: number) => Array.from({ length: n }, (_, i) => `id-${i}`).join(',');
