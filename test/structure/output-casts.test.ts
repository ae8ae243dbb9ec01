// Output.one, list and table take any object (src/render/output.ts): a typed answer goes in as it is. No call in src
// casts its argument to a string-keyed record (`x as unknown as Record<string, unknown>`), which would hide a wrong
// type from the compiler again.
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { modules, walk } from './support.js';

const OUTPUT_METHODS = new Set(['one', 'list', 'table']);

/** Whether `node` holds a cast (`as`) to Record<...> or Record<...>[] anywhere inside it. */
function castsToRecord(node: ts.Node): boolean {
  let found = false;
  walk(node, (n) => {
    if (ts.isAsExpression(n) && /^Record<string, unknown>(\[\])?$/.test(n.type.getText())) found = true;
  });
  return found;
}

describe('output takes typed values', () => {
  it('no output call casts its argument to Record<string, unknown>', () => {
    const bad = modules('src').flatMap((m) => {
      const found: string[] = [];
      walk(m.source, (n) => {
        if (
          ts.isCallExpression(n) &&
          ts.isPropertyAccessExpression(n.expression) &&
          OUTPUT_METHODS.has(n.expression.name.text) &&
          n.arguments.length > 0 &&
          castsToRecord(n.arguments[0])
        ) {
          const { line } = m.source.getLineAndCharacterOfPosition(n.getStart());
          found.push(`${m.file}:${line + 1}`);
        }
      });
      return found;
    });
    expect(bad).toEqual([]);
  });
});
