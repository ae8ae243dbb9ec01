// Reading src for the structure tests: every TypeScript module, parsed, named by its path from the repository root.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { ROOT } from '../support/paths.js';

export { ROOT } from '../support/paths.js';

export interface Module {
  /** Path from the repository root, with forward slashes (src/local/service.ts). */
  file: string;
  source: ts.SourceFile;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

export function parse(file: string, text: string): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
}

/**
 * Parsed once per version of the file: the structure tests share a worker (the unit project's threads keep one module
 * graph), and each would parse all of src again.
 */
const parsed = new Map<string, { version: string; source: ts.SourceFile }>();

/** The modules under a folder of the repository (default src). */
export function modules(folder = 'src'): Module[] {
  return tsFiles(join(ROOT, folder)).map((path) => {
    const file = relative(ROOT, path).split('\\').join('/');
    const { mtimeMs, size } = statSync(path);
    const version = `${mtimeMs}:${size}`;
    let hit = parsed.get(path);
    if (hit?.version !== version)
      parsed.set(path, (hit = { version, source: parse(file, readFileSync(path, 'utf8')) }));
    return { file, source: hit.source };
  });
}

/** Calls `visit` on every node of the tree. */
export function walk(node: ts.Node, visit: (n: ts.Node) => void): void {
  visit(node);
  ts.forEachChild(node, (child) => walk(child, visit));
}
