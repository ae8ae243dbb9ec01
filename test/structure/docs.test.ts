// The documentation: the exit-code table of docs/output-errors-exit-codes.md is the one scripts/docs-exit-codes.mjs
// writes from src/cli/exit-codes.ts (run it after changing a code or its comment), and every relative link of the
// README and docs/ (and the READMEs beside the code) leads to a file, and to a heading of it when it names one.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BEGIN,
  DOC,
  END,
  exitCodes,
  exitCodeTable,
  expectedDoc,
  SOURCE,
  withExitCodeTable,
} from '../../scripts/docs-exit-codes.mjs';
import { EXIT } from '../../src/cli/exit-codes.js';
import { ROOT } from './support.js';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

describe('the exit-code table', () => {
  it('is read from the code: every code of EXIT, in order, each with its meaning', () => {
    const codes = exitCodes(read(SOURCE));
    expect(codes.map((c) => [c.name, c.code])).toEqual(Object.entries(EXIT));
    for (const c of codes) expect(c.meaning, c.name).toMatch(/^\S.{5,}$/);
  });

  it('in the docs is the one the code gives (else: node scripts/docs-exit-codes.mjs)', () => {
    const doc = read(DOC);
    expect(doc.split(BEGIN).length, 'one begin marker').toBe(2);
    expect(doc.split(END).length, 'one end marker').toBe(2);
    expect(doc === expectedDoc(ROOT), `${DOC} is stale: run node scripts/docs-exit-codes.mjs`).toBe(true);
  });

  it('changes with the code: a changed meaning or a new code is a different table', () => {
    const source = read(SOURCE);
    const doc = read(DOC);
    const changed = source.replace('/** usage or validation error: nothing was sent */', '/** usage error */');
    expect(changed).not.toBe(source);
    expect(withExitCodeTable(doc, exitCodeTable(exitCodes(changed)))).not.toBe(doc);
    const added = source.replace('  timeout: 10,', '  timeout: 10,\n  /** something new */\n  other: 11,');
    expect(withExitCodeTable(doc, exitCodeTable(exitCodes(added)))).toContain('| 11   | something new');
    expect(() => exitCodes(source.replace('/** success */', ''))).toThrow(/EXIT.ok has no doc comment/);
  });

  it('is listed once: the README and the other pages link to it rather than copy it', () => {
    const pages = markdownFiles().filter((f) => f !== DOC);
    for (const f of pages) expect(read(f), f).not.toMatch(/^\|\s*10\s*\|\s*still pending/m);
  });
});

/** README.md, docs/*.md, spec/README.md and the READMEs under src. */
function markdownFiles(): string[] {
  const under = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
      const p = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return under(p);
      return entry.name.endsWith('.md') ? [p] : [];
    });
  const srcReadmes = under('src').filter((f) => f.endsWith('/README.md'));
  return ['README.md', ...under('docs'), 'spec/README.md', ...srcReadmes];
}

/** The links of a markdown text, outside code blocks and code spans. */
function links(text: string): string[] {
  const out: string[] = [];
  let fence = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fence = !fence;
    if (fence) continue;
    const prose = line.replace(/`[^`]*`/g, '');
    for (const m of prose.matchAll(/\]\(([^)\s]+)\)/g)) out.push(m[1]);
  }
  return out;
}

/** GitHub's anchors of a markdown text's headings (lower case, punctuation dropped, spaces to -, repeats numbered). */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fence = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fence = !fence;
    const h = !fence && /^#{1,6} (.+)$/.exec(line);
    if (!h) continue;
    const base = h[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

describe('links of the documentation', () => {
  const files = markdownFiles();

  it('finds the pages and their links', () => {
    expect(files).toContain('docs/architecture.md');
    expect(links(read('README.md')).length).toBeGreaterThan(10);
    expect(links('[a](b.md) `[c](d.md)`\n```\n[e](f.md)\n```')).toEqual(['b.md']);
    expect([...anchors('# One gate: what it does\n## A\n## A')]).toEqual(['one-gate-what-it-does', 'a', 'a-1']);
  });

  it.each(files)('every relative link of %s leads to a file (and a heading of it)', (file) => {
    const broken: string[] = [];
    for (const link of links(read(file))) {
      if (/^[a-z]+:/i.test(link)) continue; // https:, mailto:
      const [path, anchor] = link.split('#');
      const target = path ? join(dirname(join(ROOT, file)), decodeURIComponent(path)) : join(ROOT, file);
      if (!existsSync(target)) {
        broken.push(`${link}: no ${relative(ROOT, target)}`);
        continue;
      }
      if (anchor && statSync(target).isFile() && target.endsWith('.md'))
        if (!anchors(readFileSync(target, 'utf8')).has(anchor)) broken.push(`${link}: no heading #${anchor}`);
    }
    expect(broken).toEqual([]);
  });
});

/**
 * The repository paths a markdown text names (src/, test/, scripts/, bin/), in prose, code spans and code blocks alike:
 * each a whole path (not the tail of another, as node_modules/.bin/tsc), without a placeholder (`<group>`, `*`, `...`).
 */
function repoPaths(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/(?<![\w./@-])(?:src|test|scripts|bin)\/[\w./-]*[\w]/g)) {
    const next = text[(m.index ?? 0) + m[0].length];
    if (next === '<' || next === '*' || m[0].includes('...')) continue;
    out.add(m[0]);
  }
  return [...out];
}

describe('paths named in the documentation', () => {
  const files = markdownFiles();

  it('finds the paths a page names, and only whole ones', () => {
    expect(
      repoPaths(
        'see src/commands/main.ts, `src/client/service-client.ts` and\n```\nnode scripts/build.mjs\n```\n' +
          'not node_modules/.bin/tsc nor src/commands/<group>/index.ts beyond src/commands nor src/*/README.md',
      ),
    ).toEqual(['src/commands/main.ts', 'src/client/service-client.ts', 'scripts/build.mjs', 'src/commands']);
  });

  it.each(files)('every src/, test/, scripts/ and bin/ path %s names exists', (file) => {
    const missing = repoPaths(read(file)).filter((p) => !existsSync(join(ROOT, p)));
    expect(missing, `${file} names paths that do not exist (moved? renamed?)`).toEqual([]);
  });
});

describe('files named by the READMEs beside the code', () => {
  const readmes = markdownFiles().filter((f) => f.startsWith('src/'));

  it.each(readmes)('every `file.ts` %s names is in its folder (or a path from the root)', (file) => {
    const names = [...read(file).matchAll(/`([\w./-]+\.(?:ts|mjs|cjs|js))`/g)].map((m) => m[1]);
    const missing = names.filter((n) => !existsSync(join(ROOT, dirname(file), n)) && !existsSync(join(ROOT, n)));
    expect(missing).toEqual([]);
  });
});
