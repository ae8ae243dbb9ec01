// No block of MIN_LINES or more lines stands, identical to the letter, in two places of src or test: code written
// twice is written once and called twice (test helpers live in test/support, one module per concern).
// Lines are compared trimmed, with runs of white space folded; blank lines, comment lines, lines of only brackets,
// braces and punctuation, and import lines are passed over. Each window of MIN_LINES kept lines is hashed once, so
// the whole tree takes a fraction of a second.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support.js';

const MIN_LINES = 6;
/**
 * Pairs that main brought in while this test was written (the gateway's own code), to be made one and removed:
 * `a ~ b` as the test prints them. No new entry: extract the shared code instead.
 */
const ALLOWED = new Set<string>([]);
const FOLDERS = ['src', 'test'];

interface Line {
  /** 1-based line number in the file. */
  at: number;
  text: string;
}

interface Block {
  file: string;
  from: number;
  to: number;
}

const PUNCTUATION_ONLY = /^[\s{}()[\];,.]*$/;
const COMMENT = /^(\/\/|\/\*|\*)/;

/** The lines of a file that count, trimmed and folded: no blank, comment, bracket-only or import line. */
function normalised(text: string): Line[] {
  const out: Line[] = [];
  let inImport = false;
  let inComment = false;
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim().replace(/\s+/g, ' ');
    if (inComment) {
      if (line.includes('*/')) inComment = false;
      return;
    }
    if (inImport) {
      if (/\bfrom\s*['"]/.test(line) || line.endsWith(';')) inImport = false;
      return;
    }
    if (line.startsWith('/*') && !line.includes('*/')) {
      inComment = true;
      return;
    }
    if (/^(import|export)\b.*\bfrom\s*['"]/.test(line) || /^import\s*['"]/.test(line)) return;
    if (/^import\b/.test(line) || /^export (type )?\{[^}]*$/.test(line)) {
      inImport = true;
      return;
    }
    if (PUNCTUATION_ONLY.test(line) || COMMENT.test(line)) return;
    out.push({ at: index + 1, text: line });
  });
  return out;
}

/** Pairs of places where MIN_LINES or more kept lines are the same, one entry per maximal run. */
function duplicateBlocks(files: { file: string; text: string }[], min = MIN_LINES): [Block, Block][] {
  const lines = files.map((f) => normalised(f.text));
  const first = new Map<string, { file: number; index: number }>();
  const runs = new Map<string, [Block, Block]>();
  lines.forEach((ls, fi) => {
    let previous: { key: string; other: { file: number; index: number } } | undefined;
    for (let i = 0; i + min <= ls.length; i++) {
      const hash = createHash('sha1')
        .update(
          ls
            .slice(i, i + min)
            .map((l) => l.text)
            .join('\n'),
        )
        .digest('base64');
      const seen = first.get(hash);
      if (!seen) {
        first.set(hash, { file: fi, index: i });
        previous = undefined;
        continue;
      }
      // A window that overlaps its own first place is a repeated line pattern, not a second copy.
      if (seen.file === fi && i - seen.index < min) {
        previous = undefined;
        continue;
      }
      const other = lines[seen.file];
      const continues = previous && previous.other.file === seen.file && previous.other.index + 1 === seen.index;
      const key = continues && previous ? previous.key : `${fi}:${i}`;
      const run = runs.get(key);
      const here: Block = { file: files[fi].file, from: ls[i].at, to: ls[i + min - 1].at };
      const there: Block = {
        file: files[seen.file].file,
        from: other[seen.index].at,
        to: other[seen.index + min - 1].at,
      };
      runs.set(
        key,
        run
          ? [
              { ...run[0], to: here.to },
              { ...run[1], to: there.to },
            ]
          : [here, there],
      );
      previous = { key, other: { file: seen.file, index: seen.index } };
    }
  });
  return [...runs.values()];
}

function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

describe('duplicates', () => {
  it('finds a block of six lines written twice, whatever the indentation, and nothing shorter', () => {
    const block = ['const a = 1;', 'const b = 2;', '', '// a comment', 'call(a, b);', '});', 'const c = a + b;'];
    const twice = [
      { file: 'x.ts', text: ['function f() {', ...block, 'more();', 'return c;', '}'].join('\n') },
      { file: 'y.ts', text: ['import { a } from "./a.js";', ...block.map((l) => `    ${l}`)].join('\n') },
    ];
    expect(duplicateBlocks(twice)).toEqual([]);
    twice[1].text += '\nmore();\nreturn c;\n';
    expect(duplicateBlocks(twice)).toEqual([
      [
        { file: 'y.ts', from: 2, to: 10 },
        { file: 'x.ts', from: 2, to: 10 },
      ],
    ]);
    const pattern = Array.from({ length: 9 }, (_, i) => (i % 2 ? 'b();' : 'a();')).join('\n');
    expect(duplicateBlocks([{ file: 'z.ts', text: pattern }])).toEqual([]);
  });

  it('passes over imports, however they are wrapped', () => {
    const text = ['import {', '  a,', '  b,', '} from "./a.js";', 'x();'].join('\n');
    expect(normalised(text)).toEqual([{ at: 5, text: 'x();' }]);
  });

  it(`no block of ${MIN_LINES} or more identical lines stands twice in src or test`, () => {
    const files = FOLDERS.flatMap(tsFiles).map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }));
    const found = duplicateBlocks(files).map(([a, b]) => `${a.file}:${a.from}-${a.to} ~ ${b.file}:${b.from}-${b.to}`);
    expect(found.filter((pair) => !ALLOWED.has(pair))).toEqual([]);
    expect([...ALLOWED].filter((pair) => !found.includes(pair))).toEqual([]);
  });
});
