// Types of scripts/docs-exit-codes.mjs, for the tests that import it.
export interface ExitCodeDoc {
  code: number;
  name: string;
  meaning: string;
}
export const ROOT: string;
export const SOURCE: string;
export const DOC: string;
export const BEGIN: string;
export const END: string;
export function exitCodes(source: string): ExitCodeDoc[];
export function exitCodeTable(codes: ExitCodeDoc[]): string;
export function withExitCodeTable(doc: string, table: string): string;
export function expectedDoc(root?: string): string;
