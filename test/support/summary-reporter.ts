// Counts passed, failed and skipped tests; `npm test` prints them as its closing line `N passed, N failed`.
import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const m of modules) {
      const tests = [...m.children.allTests()];
      for (const t of tests) {
        const s = t.result().state;
        if (s === 'passed') passed++;
        else if (s === 'failed') failed++;
        else skipped++;
      }
      // A file that failed to load has no tests but must still count as a failure.
      if (tests.length === 0 && m.state() === 'failed') failed++;
    }
    failed += errors.length;
    const out = process.env.COINOP_TEST_SUMMARY;
    if (out) writeFileSync(out, JSON.stringify({ passed, failed, skipped }));
  }
}
