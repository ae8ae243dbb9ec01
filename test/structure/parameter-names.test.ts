// No one-letter parameter names in src or test: a function declaration, function expression, method, constructor,
// accessor or arrow function with a block body names its parameters for what they are (`options`, `row`, `request`).
// An arrow function whose body is a single expression is exempt (`(r) => r.id`), and so is `_` (a parameter not
// used).
// ALLOWED names a file that may keep some, with how many (none today: keep it so).
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { modules, parse, walk } from './support.js';

/** File -> how many one-letter parameters it may still have. */
const ALLOWED: Record<string, number> = {};

function hasNamedBody(
  node: ts.Node,
): node is ts.SignatureDeclaration & { parameters: ts.NodeArray<ts.ParameterDeclaration> } {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    (ts.isArrowFunction(node) && ts.isBlock(node.body))
  );
}

/** `name@line` of each one-letter parameter of a module's functions (single-expression arrows exempt). */
function oneLetterParameters(sf: ts.SourceFile): string[] {
  const found: string[] = [];
  walk(sf, (node) => {
    if (!hasNamedBody(node)) return;
    for (const p of node.parameters)
      if (ts.isIdentifier(p.name) && p.name.text.length === 1 && p.name.text !== '_')
        found.push(`${p.name.text}@${sf.getLineAndCharacterOfPosition(p.getStart(sf)).line + 1}`);
  });
  return found;
}

describe('parameter names', () => {
  const counts = new Map(
    [...modules('src'), ...modules('test')].map((m) => [m.file, oneLetterParameters(m.source)] as const),
  );

  it('finds one-letter parameters of functions and methods, not of single-expression arrows', () => {
    const text = [
      'function f(o: Options, row: Row) { return o; }',
      'class C { m(v: number) { return v; } }',
      'const g = (x: number) => x + 1;',
      'const h = (y: number) => { return y; };',
      'const k = function (z: number, _: unknown) { return z; };',
    ].join('\n');
    expect(oneLetterParameters(parse('x.ts', text))).toEqual(['o@1', 'v@2', 'y@4', 'z@5']);
  });

  it('no file has more one-letter parameters than it is allowed', () => {
    const over = [...counts]
      .filter(([file, found]) => found.length > (ALLOWED[file] ?? 0))
      .map(([file, found]) => `${file}: ${found.join(', ')} (allowed ${ALLOWED[file] ?? 0})`);
    expect(over).toEqual([]);
  });

  it('allows no more than a file still has (lower or remove its entry)', () => {
    const stale = Object.entries(ALLOWED)
      .filter(([file, n]) => (counts.get(file)?.length ?? 0) < n)
      .map(([file, n]) => `${file}: ${counts.get(file)?.length ?? 0} < ${n}`);
    expect(stale).toEqual([]);
  });
});
