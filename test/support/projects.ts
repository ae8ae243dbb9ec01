// Which vitest project a test file belongs to (vitest.config.ts):
//   proof - the fuzz, load, race and property proofs (test/proof, test/proof-cli, *.property and *-fuzz files):
//           long by design, so apart;
//   e2e   - every other file that starts a child process or a pseudo-terminal (coinop as a process, a pty, a shell);
//   unit  - the rest: in process only, the fast loop (`npm run test:unit`).
// A file is e2e when its text shows one of the ways the tests start a process (PROCESS_MARKERS); a new helper that
// starts one belongs in that list. The unit project keeps the list honest: there child_process refuses to start
// anything (test/support/in-process-only.ts), so a unit file that starts a process fails and says where it belongs.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export type ProjectName = 'unit' | 'e2e' | 'proof';

export const PROOF_DIRS = ['test/proof/', 'test/proof-cli/'];
/** Property and fuzz files elsewhere (test/local/*.property.test.ts, desk-fuzz): proofs too, long by design. */
export const PROOF_FILE = /(\.property|[-.]fuzz)\.test\.ts$/;

/** The ways a test starts another process: node's child_process, node-pty, and the helpers built on them. */
export const PROCESS_MARKERS: RegExp[] = [
  /['"]node:child_process['"]|['"]child_process['"]/, // spawn, execFile, fork ...
  /['"]node-pty['"]/,
  /\/src\/cli\/pager\.js['"]/, // src/cli/pager.ts: a real pager process
  /['"](\.\/|\.\.\/cli\/)terminal\.js['"]/, // test/cli/terminal.ts: coinop on a pty (Term)
  /\/support\/harness\.js['"]/, // test/batch/support/harness.ts: coinop as a child process (run)
  /\brunCoinop\(/, // test/cli/helpers.ts: coinop as a child process
  /\b(sb|own|short)\.run\(|\.run\(\s*\[/, // a sandbox's run(): coinop as a child process (runIn is in process)
];

/** The project of one test file, by its path (relative to the root, with /) and its text. */
export function projectOf(path: string, text: string): ProjectName {
  // A file may say where it runs, when its text misleads (this project's own test quotes every marker).
  const declared = /^\/\/ vitest project: (unit|e2e|proof)$/m.exec(text)?.[1] as ProjectName | undefined;
  if (declared) return declared;
  if (PROOF_DIRS.some((d) => path.startsWith(d)) || PROOF_FILE.test(path)) return 'proof';
  return PROCESS_MARKERS.some((m) => m.test(text)) ? 'e2e' : 'unit';
}

function testFiles(root: string, dir = 'test'): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...testFiles(root, p));
    else if (e.name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

/** Every test file under root/test, by project, as paths relative to root. */
export function testProjects(root: string): Record<ProjectName, string[]> {
  const out: Record<ProjectName, string[]> = { unit: [], e2e: [], proof: [] };
  for (const f of testFiles(root).sort())
    out[projectOf(relative(root, join(root, f)), readFileSync(join(root, f), 'utf8'))].push(f);
  return out;
}
