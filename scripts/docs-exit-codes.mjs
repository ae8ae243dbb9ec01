// Writes the exit-code table of docs/output-errors-exit-codes.md from src/cli/exit-codes.ts, where each code of EXIT
// carries its meaning as its doc comment: `node scripts/docs-exit-codes.mjs`. The table sits between BEGIN and END;
// test/structure/docs.test.ts fails when it differs from what this writes.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SOURCE = 'src/cli/exit-codes.ts';
export const DOC = 'docs/output-errors-exit-codes.md';
export const BEGIN = '<!-- exit codes: written from src/cli/exit-codes.ts by node scripts/docs-exit-codes.mjs -->';
export const END = '<!-- end of exit codes -->';

/** The codes of `export const EXIT = { ... }` in the source text, in order: code, name and meaning (its doc comment). */
export function exitCodes(source) {
  const start = source.indexOf('export const EXIT = {');
  const end = source.indexOf('} as const;', start);
  if (start < 0 || end < 0) throw new Error(`${SOURCE}: no \`export const EXIT = { ... } as const;\``);
  const body = source.slice(start, end);
  const codes = [];
  const entry = /(?:\/\*\*([\s\S]*?)\*\/\s*)?(\w+):\s*(\d+),/g;
  let m;
  while ((m = entry.exec(body))) {
    const [, doc, name, code] = m;
    if (!doc) throw new Error(`${SOURCE}: EXIT.${name} has no doc comment (its meaning in the docs' table)`);
    const meaning = doc
      .split('\n')
      .map((line) => line.replace(/^\s*\*?\s?/, '').trim())
      .filter(Boolean)
      .join(' ');
    codes.push({ code: Number(code), name, meaning });
  }
  return codes;
}

/** The markdown table of the codes, its columns padded as a formatter would leave them. */
export function exitCodeTable(codes) {
  const rows = [['code', 'meaning'], ...codes.map((c) => [String(c.code), c.meaning.replaceAll('|', '\\|')])];
  const widths = [0, 1].map((i) => Math.max(3, ...rows.map((r) => r[i].length)));
  const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(rows[0]), line(widths.map((w) => '-'.repeat(w))), ...rows.slice(1).map(line)].join('\n');
}

/** The document with the text between its markers replaced by the table; throws when a marker is missing. */
export function withExitCodeTable(doc, table) {
  const a = doc.indexOf(BEGIN);
  const b = doc.indexOf(END, a);
  if (a < 0 || b < 0) throw new Error(`${DOC}: the markers of the exit-code table are missing (${BEGIN} ... ${END})`);
  return `${doc.slice(0, a + BEGIN.length)}\n${table}\n${doc.slice(b)}`;
}

/** The document as it should be, from the files under root. */
export function expectedDoc(root = ROOT) {
  const codes = exitCodes(readFileSync(join(root, SOURCE), 'utf8'));
  return withExitCodeTable(readFileSync(join(root, DOC), 'utf8'), exitCodeTable(codes));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(join(ROOT, DOC), expectedDoc());
  console.log(`wrote the exit-code table of ${DOC}`);
}
