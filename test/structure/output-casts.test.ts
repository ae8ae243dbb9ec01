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
  walk(node, (inner) => {
    if (ts.isAsExpression(inner) && /^Record<string, unknown>(\[\])?$/.test(inner.type.getText())) found = true;
  });
  return found;
}

describe('output takes typed values', () => {
  it('no output call casts its argument to Record<string, unknown>', () => {
    const bad = modules('src').flatMap((mod) => {
      const found: string[] = [];
      walk(mod.source, (node) => {
        if (
          ts.isCallExpression(node) &&
          ts.isPropertyAccessExpression(node.expression) &&
          OUTPUT_METHODS.has(node.expression.name.text) &&
          node.arguments.length > 0 &&
          castsToRecord(node.arguments[0])
        ) {
          const { line } = mod.source.getLineAndCharacterOfPosition(node.getStart());
          found.push(`${mod.file}:${line + 1}`);
        }
      });
      return found;
    });
    expect(bad).toEqual([]);
  });
});
