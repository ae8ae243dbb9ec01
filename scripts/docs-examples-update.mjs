// Writes what the pages' examples printed into the pages, for the examples that no longer match:
//   DOCS_UPDATE=/tmp/docs.jsonl node node_modules/vitest/vitest.mjs run test/docs/examples.test.ts
//   node scripts/docs-examples-update.mjs /tmp/docs.jsonl
// Each line of the file names a page, the line of an example's command and how many lines it showed, and what it
// printed (test/docs/examples.test.ts writes it). Read the diff after: shorten long outputs again with `...`.
import { readFileSync, writeFileSync } from 'node:fs';

const updates = readFileSync(process.argv[2], 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));
const pages = new Map();
for (const u of updates) pages.set(u.page, [...(pages.get(u.page) ?? []), u]);
for (const [page, list] of pages) {
  const lines = readFileSync(page, 'utf8').split('\n');
  for (const u of list.sort((a, b) => b.line - a.line)) {
    let at = u.line - 1;
    const indent = /^\s*/.exec(lines[at])[0];
    while (/\\\s*$/.test(lines[at])) at++;
    const printed = u.text.trim() ? u.text.replace(/\n+$/, '').split('\n') : [];
    const shown = printed.filter((l) => !l.startsWith('progress: ')).map((l) => `${indent}${l}`.trimEnd());
    lines.splice(at + 1, u.count, ...shown);
    console.log(`${page}:${u.line}: ${u.count} lines -> ${shown.length}`);
  }
  writeFileSync(page, lines.join('\n'));
}
