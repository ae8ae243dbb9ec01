// `npm test`: build, type-check (the sources, then the sources with the tests), lint, run every vitest project (unit,
// e2e, proof: vitest.config.ts), and close with the line `N passed, N failed`.
// `node scripts/test.mjs unit|e2e|proof [vitest args]` (npm run test:unit, test:e2e, test:proof) runs one project
// alone, after the build when it runs coinop's build (e2e, proof), with the same closing line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';

const PROJECTS = ['unit', 'e2e', 'proof'];
const run = (cmd, args, env = {}) => spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
const finish = (passed, failed, skipped = 0) => {
  console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(failed > 0 ? 1 : 0);
};

const project = PROJECTS.includes(process.argv[2]) ? process.argv[2] : undefined;
const vitestArgs = process.argv.slice(project ? 3 : 2);

// The unit project runs in process from the sources; the others run bin/coinop.js, which loads dist/.
if (project !== 'unit' && run(process.execPath, ['scripts/build.mjs']).status !== 0) finish(0, 1);
if (!project) {
  for (const tsconfig of ['tsconfig.json', 'tsconfig.test.json']) {
    if (run(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', tsconfig]).status !== 0) {
      console.error(`type check failed (${tsconfig})`);
      finish(0, 1);
    }
  }
  // Formatting and lint (Biome): unused code, import cycles, and the layering rule (biome.jsonc) fail the run.
  if (run(process.execPath, ['node_modules/@biomejs/biome/bin/biome', 'ci', '.']).status !== 0) {
    console.error('lint failed: run npm run lint:fix, then fix what it cannot');
    finish(0, 1);
  }
}
// The gateway's tests run against the machine's PostgreSQL (127.0.0.1:5432, database test): it must answer first.
if (project !== 'proof' && run(process.execPath, ['scripts/wait-postgres.mjs']).status !== 0) finish(0, 1);
const dir = mkdtempSync(join(tmpdir(), 'coinop-test-'));
const summary = join(dir, 'summary.json');
// One worker per core (vitest's default leaves one core idle): unit files are CPU-bound and in process, and an e2e
// file spends most of its time waiting on the child process it runs.
const only = [...(project ? ['--project', project] : []), `--maxWorkers=${availableParallelism()}`];
const r = run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...only, ...vitestArgs], {
  COINOP_TEST_SUMMARY: summary,
});
const counts = existsSync(summary) ? JSON.parse(readFileSync(summary, 'utf8')) : { passed: 0, failed: 1, skipped: 0 };
rmSync(dir, { recursive: true, force: true });
if (r.status !== 0 && counts.failed === 0) counts.failed = 1;
finish(counts.passed, counts.failed, counts.skipped);
