// What a plain request evaluates at start (issue 24): the modules `coinop prices` reaches by static imports from the
// root command, its own command folder and what the invocation loads for every request (its context and connection,
// imported dynamically by src/cli/invocation.ts). The src/contract barrel (index.ts) evaluates every contract module, the address codecs and hashes
// among them; a module on this path imports each name from the contract module that defines it instead. Imports of
// types only, and dynamic import() (loaded when used), do not count.
import { existsSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { modules, walk, type Module } from './support.js';
import { RARE_COMMAND_DIRS } from '../../scripts/rare-commands.mjs';

/** The src modules a module evaluates when it is evaluated: its static imports and re-exports of values. */
function valueImportsOf(mod: Module): string[] {
  const specs: string[] = [];
  for (const n of mod.source.statements) {
    if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier)) {
      const clause = n.importClause;
      const named = clause?.namedBindings;
      const typesOnly =
        clause?.isTypeOnly ||
        (clause &&
          !clause.name &&
          named &&
          ts.isNamedImports(named) &&
          named.elements.length > 0 &&
          named.elements.every((e) => e.isTypeOnly));
      if (!typesOnly) specs.push(n.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(n) && !n.isTypeOnly && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier))
      specs.push(n.moduleSpecifier.text);
  }
  return specs
    .filter((s) => s.startsWith('.'))
    .map((s) => posix.join(posix.dirname(mod.file), s).replace(/\.js$/, '.ts'));
}

/** The src modules a module imports with import(), when it runs. */
function dynamicImportsOf(mod: Module): string[] {
  const specs: string[] = [];
  walk(mod.source, (node) => {
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    )
      specs.push(node.arguments[0].text);
  });
  return specs.map((s) => posix.join(posix.dirname(mod.file), s).replace(/\.js$/, '.ts'));
}

/** Every module evaluated with the given ones, by static value imports. */
function evaluatedWith(start: string[], byFile: Map<string, Module>): Set<string> {
  const seen = new Set<string>();
  const todo = [...start];
  while (todo.length) {
    const file = todo.pop()!;
    const m = byFile.get(file);
    if (!m || seen.has(file)) continue;
    seen.add(file);
    todo.push(...valueImportsOf(m));
  }
  return seen;
}

describe('start-up imports', () => {
  const byFile = new Map(modules().map((m) => [m.file, m]));

  it('coinop prices evaluates no src/contract barrel: each contract name comes from its own module', () => {
    const connection = dynamicImportsOf(byFile.get('src/cli/invocation.ts')!);
    expect(connection).toContain('src/client/tokens.ts');
    // The scope check every command's preAction hook imports (it evaluated the barrel, 1-2 ms of each start).
    const hook = dynamicImportsOf(byFile.get('src/commands/program-base.ts')!).filter((f) => f.startsWith('src/cli/'));
    expect(hook).toContain('src/cli/scope-check.ts');
    const start = [
      'src/commands/main.ts',
      ...[...byFile.keys()].filter((f) => f.startsWith('src/commands/prices/')),
      ...connection,
      ...hook,
    ];
    expect(start.every((f) => byFile.has(f))).toBe(true);
    const evaluated = evaluatedWith(start, byFile);
    // The walk does reach the contract (the client checks every request against it).
    expect(evaluated.has('src/contract/operations.ts')).toBe(true);
    const importers = [...evaluated].filter((f) => valueImportsOf(byFile.get(f)!).includes('src/contract/index.ts'));
    expect(importers).toEqual([]);
  });
});

describe('the rare bundle (scripts/build.mjs: rare.cjs)', () => {
  const byFile = new Map(modules().map((m) => [m.file, m]));
  // The work of the rarely run commands is built into rare.cjs: the modules each of these commands import()s. A plain
  // request reaches none of it, and no module imports one of them statically (a static import would keep it, and all
  // it needs, in main.cjs, which every start reads and evaluates).
  const RARE = RARE_COMMAND_DIRS;
  const declaration = (f: string) => f.endsWith('/index.ts') || f.endsWith('/flags.ts');

  it('the build splits the folders of scripts/rare-commands.mjs', () => {
    const build = readFileSync(join(process.cwd(), 'scripts/build.mjs'), 'utf8');
    expect(build).toContain('const RARE_DIRS = RARE_COMMAND_DIRS.map(');
    for (const dir of RARE) expect(existsSync(join(process.cwd(), dir)), dir).toBe(true);
  });

  it('a plain request evaluates none of their work, nor the MCP server, the gateway, batches or the event feed', () => {
    const start = [
      'src/commands/main.ts',
      ...[...byFile.keys()].filter((f) => f.startsWith('src/commands/prices/')),
      ...dynamicImportsOf(byFile.get('src/cli/invocation.ts')!),
    ];
    const evaluated = [...evaluatedWith(start, byFile)];
    expect(evaluated.filter((f) => RARE.some((d) => f.startsWith(d)) && !declaration(f))).toEqual([]);
    expect(evaluated.filter((f) => /^src\/(mcp|gateway|batch|events)\//.test(f))).toEqual([]);
  });

  it('their run modules are only ever import()ed', () => {
    const statically = [...byFile.values()].flatMap((m) =>
      valueImportsOf(m)
        .filter((f) => RARE.some((d) => f.startsWith(d)) && !declaration(f))
        // (one run module importing another is within rare.cjs)
        .filter((f) => declaration(m.file) || !RARE.some((d) => m.file.startsWith(d) && f.startsWith(d)))
        .map((f) => `${m.file} -> ${f}`),
    );
    expect(statically).toEqual([]);
  });
});
