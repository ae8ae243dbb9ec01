// Files named on the command line (--file, --input): read as text, and parsed as JSON, with errors that name the
// flag, the file and the rule but never quote the content. A wrong file may hold anything (a key, a password).
import { readFileSync } from 'node:fs';
import { usageError } from './errors.js';

/** Why a file cannot be read, in words. */
export function readProblem(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory';
    default:
      return error.code ?? 'read error';
  }
}

export function readTextFile(flag: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw usageError(`${flag}: cannot read ${path}: ${readProblem(e as NodeJS.ErrnoException)}`);
  }
}

/** JSON text given by `flag` (from `what`: a file's path, or "standard input"); the parser's message is left out. */
export function parseJsonText(flag: string, what: string, text: string, rule: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw usageError(`${flag}: ${what} is not JSON (${rule})`);
  }
}
