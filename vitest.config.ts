// Three projects (test/support/projects.ts decides which file goes where):
//   unit  - in process, no child process or terminal: npm run test:unit, the fast loop;
//   e2e   - coinop as a child process or on a pseudo-terminal, shells, pagers: npm run test:e2e (needs the build);
//   proof - fuzz, load, races, properties (test/proof, test/proof-cli): npm run test:proof (needs the build).
// npm test (scripts/test.mjs) runs all three, as CI does.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { testProjects } from './test/support/projects.js';

const files = testProjects(fileURLToPath(new URL('.', import.meta.url)));

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Only the unit project runs on threads (vitest 3 sets isolation per pool, not per project).
    poolOptions: { threads: { isolate: false } },
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: files.unit,
          setupFiles: ['./test/support/in-process-only.ts'],
          // No process, no mock, no global the files change: threads that keep one module graph each serve them all
          // (a fresh process loading src/ again for each of 80-odd files was a third of the run).
          pool: 'threads',
        },
      },
      { extends: true, test: { name: 'e2e', include: files.e2e } },
      // A proof makes thousands of requests or invocations (10-30 s on a quiet machine): its hang guard is wider.
      { extends: true, test: { name: 'proof', include: files.proof, testTimeout: 180_000 } },
    ],
  },
});
