// Where the tests find the repository and the CLI: one definition each.
import { join, resolve } from 'node:path';

/** The repository's root. */
export const ROOT = resolve(__dirname, '../..');

/** The CLI a test runs as a process: bin/coinop.js, or COINOP_TEST_BIN (another build to try the same tests on). */
export const BIN = process.env.COINOP_TEST_BIN ?? join(ROOT, 'bin/coinop.js');
