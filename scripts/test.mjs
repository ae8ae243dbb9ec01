// `npm test`: build, type-check, lint, run the vitest suite, and close with the line `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const run = (cmd, args, env = {}) => spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
const finish = (passed, failed, skipped = 0) => {
  console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(failed > 0 ? 1 : 0);
};

if (run(process.execPath, ['scripts/build.mjs']).status !== 0) finish(0, 1);
// The sources as they are built (tsconfig.json), then the sources with the tests (tsconfig.test.json).
for (const project of ['tsconfig.json', 'tsconfig.test.json']) {
  if (run(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', project]).status !== 0) {
    console.error(`type check failed (${project})`);
    finish(0, 1);
  }
}
// Formatting and lint (Biome): unused code, import cycles, and the layering rule (biome.jsonc) fail the run.
if (run(process.execPath, ['node_modules/@biomejs/biome/bin/biome', 'ci', '.']).status !== 0) {
  console.error('lint failed: run npm run lint:fix, then fix what it cannot');
  finish(0, 1);
}
const dir = mkdtempSync(join(tmpdir(), 'coinop-test-'));
const summary = join(dir, 'summary.json');
const r = run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)], {
  COINOP_TEST_SUMMARY: summary,
});
const counts = existsSync(summary) ? JSON.parse(readFileSync(summary, 'utf8')) : { passed: 0, failed: 1, skipped: 0 };
rmSync(dir, { recursive: true, force: true });
if (r.status !== 0 && counts.failed === 0) counts.failed = 1;
finish(counts.passed, counts.failed, counts.skipped);
