// src/local, src/market-data and src/render use other libraries through their public APIs: no reads of underscore
// fields such as ws's `_socket` or node:http's `_httpMessage`.
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { modules, parse, walk, type Module } from './support.js';

function underscoreFields(mod: Module): string[] {
  const found: string[] = [];
  walk(mod.source, (node) => {
    const name = ts.isPropertyAccessExpression(node)
      ? node.name.text
      : ts.isElementAccessExpression(node) && ts.isStringLiteral(node.argumentExpression)
        ? node.argumentExpression.text
        : undefined;
    if (name?.startsWith('_'))
      found.push(`${mod.file}:${mod.source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${name}`);
  });
  return found;
}

describe('private fields of other libraries', () => {
  it('finds a private field however it is read', () => {
    const source = parse('x.ts', "const a = (ws as any)._socket;\nconst b = s['_httpMessage'];\nconst c = o.public;");
    expect(underscoreFields({ file: 'x.ts', source })).toEqual(['x.ts:1 _socket', 'x.ts:2 _httpMessage']);
  });

  for (const folder of ['src/local', 'src/market-data', 'src/render']) {
    it(`${folder} reads none`, () => {
      expect(modules(folder).flatMap(underscoreFields)).toEqual([]);
    });
  }
});
