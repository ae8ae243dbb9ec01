// Lower layers do not reach up: nothing in src/contract, client, config, batch, local, market, policy, audit, events,
// render, send, gate, embedded, mcp or gateway imports from src/cli or src/commands (Biome's import restriction says
// the same inside npm test; this names each arrow); the team gateway (src/gateway) stands on the contract, the client,
// config, the gate, the policy and the audit log, never on the local service, the MCP server or the batch; src/cli is
// the commands' toolkit and never imports a command; no command folder imports another's, nor the root command (the
// files at the top of src/commands, which put the groups together and hand a group what it needs of another's work
// through RootPorts); the demo constants and the embedded start (src/embedded) sit
// below config and the client, which never import the local service; and render takes its writer and stream state
// as small interfaces of its own, so it imports nothing from src/client.
import { posix } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { modules, walk, type Module } from './support.js';

/** The src modules a module imports (static, re-exported or dynamic), as paths from the repository root. */
function importsOf(mod: Module): string[] {
  const specs: string[] = [];
  walk(mod.source, (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      specs.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      specs.push(node.arguments[0].text);
    }
  });
  return specs.filter((s) => s.startsWith('.')).map((s) => posix.join(posix.dirname(mod.file), s));
}

const RULES: Array<{ folder: string; forbidden: string[] }> = [
  { folder: 'src/contract', forbidden: ['src/cli/', 'src/commands/'] },
  { folder: 'src/client', forbidden: ['src/cli/', 'src/commands/', 'src/local/'] },
  { folder: 'src/config', forbidden: ['src/cli/', 'src/commands/', 'src/local/', 'src/client/'] },
  { folder: 'src/embedded', forbidden: ['src/cli/', 'src/commands/', 'src/config/', 'src/client/'] },
  { folder: 'src/gate', forbidden: ['src/cli/', 'src/commands/'] },
  { folder: 'src/cli', forbidden: ['src/commands/'] },
  { folder: 'src/batch', forbidden: ['src/cli/', 'src/commands/'] },
  { folder: 'src/local', forbidden: ['src/cli/', 'src/commands/'] },
  { folder: 'src/market-data', forbidden: ['src/cli/', 'src/commands/'] },
  { folder: 'src/send', forbidden: ['src/cli/', 'src/commands/'] },
  { folder: 'src/close', forbidden: ['src/cli/', 'src/commands/', 'src/client/'] },
  { folder: 'src/statement', forbidden: ['src/cli/', 'src/commands/', 'src/client/'] },
  { folder: 'src/mcp', forbidden: ['src/cli/', 'src/commands/'] },
  { folder: 'src/policy', forbidden: ['src/cli/', 'src/commands/'] },
  { folder: 'src/audit', forbidden: ['src/cli/', 'src/commands/'] },
  { folder: 'src/events', forbidden: ['src/cli/', 'src/commands/'] },
  { folder: 'src/reconcile', forbidden: ['src/cli/', 'src/commands/', 'src/client/'] },
  { folder: 'src/render', forbidden: ['src/cli/', 'src/commands/', 'src/client/'] },
  {
    folder: 'src/gateway',
    forbidden: ['src/cli/', 'src/commands/', 'src/local/', 'src/mcp/', 'src/batch/', 'src/embedded/', 'src/render/'],
  },
];

/** The command group a file of src/commands belongs to (its folder), or undefined for the root command's files. */
const groupOf = (file: string): string | undefined => {
  const parts = file.split('/');
  return parts.length > 3 ? parts[2] : undefined;
};

describe('layers', () => {
  it('no command folder imports another command folder, or the root command', () => {
    const bad = modules('src/commands').flatMap((mod) => {
      const group = groupOf(mod.file);
      if (!group) return [];
      return importsOf(mod)
        .filter((t) => t.startsWith('src/commands/') && groupOf(t) !== group)
        .map((t) => `${mod.file} -> ${t}`);
    });
    expect(bad).toEqual([]);
  });

  it('finds imports of every kind', () => {
    const m = {
      file: 'src/render/x.ts',
      source: ts.createSourceFile(
        'x.ts',
        "import a from '../cli/io.js';\nexport * from './y.js';\nconst b = import('../client/stream.js');",
        ts.ScriptTarget.ES2022,
        true,
      ),
    };
    expect(importsOf(m)).toEqual(['src/cli/io.js', 'src/render/y.js', 'src/client/stream.js']);
  });

  for (const { folder, forbidden } of RULES) {
    it(`${folder} imports nothing from ${forbidden.join(', ')}`, () => {
      const bad = modules(folder).flatMap((m) =>
        importsOf(m)
          .filter((t) => forbidden.some((f) => t.startsWith(f)))
          .map((t) => `${m.file} -> ${t}`),
      );
      expect(bad).toEqual([]);
    });
  }
});
