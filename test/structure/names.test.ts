// Names say what things are, once each: what src/local, src/market-data and src/render export is exported nowhere
// else in src, and no module of the local service shares its file name with one of src/batch (request log vs batch
// journal, request limits vs the batch's rate limit).
import { posix } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { modules, type Module } from './support.js';

function exportedNames(mod: Module): string[] {
  const names: string[] = [];
  for (const st of mod.source.statements) {
    if (!ts.canHaveModifiers(st) || !ts.getModifiers(st)?.some((x) => x.kind === ts.SyntaxKind.ExportKeyword)) continue;
    const named = st as ts.Statement & { name?: ts.Node };
    if (named.name && ts.isIdentifier(named.name)) names.push(named.name.text);
    if (ts.isVariableStatement(st))
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) names.push(d.name.text);
  }
  return [...new Set(names)];
}

const OWN = ['src/local/', 'src/market-data/', 'src/render/'];

describe('names', () => {
  it('what src/local, src/market-data and src/render export is exported nowhere else', () => {
    const where = new Map<string, string[]>();
    for (const m of modules()) for (const n of exportedNames(m)) where.set(n, [...(where.get(n) ?? []), m.file]);
    const clashes = [...where]
      .filter(([, files]) => files.length > 1 && files.some((f) => OWN.some((o) => f.startsWith(o))))
      .map(([n, files]) => `${n}: ${files.join(', ')}`);
    expect(clashes).toEqual([]);
  });

  it('no module of src/local has the file name of one in src/batch', () => {
    const batch = new Set(modules('src/batch').map((m) => posix.basename(m.file)));
    expect(
      modules('src/local')
        .map((m) => m.file)
        .filter((f) => batch.has(posix.basename(f))),
    ).toEqual([]);
  });
});
