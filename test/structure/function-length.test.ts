// Every function in src stays under MAX_LINES lines (its whole span, nested functions included).
// ALLOWED lists today's offenders outside src/local, src/market-data and src/render by file and name; shorten one and
// remove its entry. Nothing under those three folders may be listed.
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { modules, parse, walk } from './support.js';

const MAX_LINES = 100;
const STRICT_FOLDERS = ['src/local/', 'src/market-data/', 'src/render/'];

/** `file:name` of functions allowed, for now, to be longer than MAX_LINES. */
const ALLOWED = new Set<string>([]);

interface LongFunction {
  id: string;
  lines: number;
}

function nameOf(node: ts.Node): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name && (ts.isIdentifier(named.name) || ts.isStringLiteral(named.name))) return named.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const p = node.parent;
  if (
    p &&
    (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) &&
    ts.isIdentifier(p.name)
  )
    return p.name.text;
  return `<anonymous@${node.getSourceFile().getLineAndCharacterOfPosition(node.getStart()).line + 1}>`;
}

function isFunction(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** Functions of a module longer than `max` lines. */
function longFunctions(file: string, sf: ts.SourceFile, max = MAX_LINES): LongFunction[] {
  const found: LongFunction[] = [];
  walk(sf, (node) => {
    if (!isFunction(node) || !node.body) return;
    const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
    const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
    if (last - first + 1 > max) found.push({ id: `${file}:${nameOf(node)}`, lines: last - first + 1 });
  });
  return found;
}

describe('function length', () => {
  const long = modules().flatMap((m) => longFunctions(m.file, m.source));

  it('measures a function by its whole span', () => {
    const body = Array.from({ length: 101 }, (_, i) => `  const a${i} = ${i};`).join('\n');
    const text = `export function big() {\n${body}\n}\nconst small = () => 1;\n`;
    expect(longFunctions('x.ts', parse('x.ts', text))).toEqual([{ id: 'x.ts:big', lines: 103 }]);
    expect(longFunctions('x.ts', parse('x.ts', `const f = function () {\n${body}\n};`))).toEqual([
      { id: 'x.ts:f', lines: 103 },
    ]);
  });

  it('allows no long function in src/local, src/market-data or src/render', () => {
    expect([...ALLOWED].filter((id) => STRICT_FOLDERS.some((f) => id.startsWith(f)))).toEqual([]);
  });

  it(`no function in src is longer than ${MAX_LINES} lines unless listed`, () => {
    expect(long.filter((f) => !ALLOWED.has(f.id)).map((f) => `${f.id} (${f.lines} lines)`)).toEqual([]);
  });

  it('lists no function that is gone or short now (remove its entry)', () => {
    const ids = new Set(long.map((f) => f.id));
    expect([...ALLOWED].filter((id) => !ids.has(id))).toEqual([]);
  });
});
