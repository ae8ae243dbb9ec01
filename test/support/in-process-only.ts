// Setup of the unit project (vitest.config.ts): unit tests run in process, so starting a child process there is an
// error that names the fix, instead of a slow and load-sensitive test hiding in the fast loop.
import { createRequire, syncBuiltinESMExports } from 'node:module';

const childProcess = createRequire(import.meta.url)('node:child_process') as Record<string, unknown>;
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
  childProcess[name] = () => {
    throw new Error(
      `child_process.${name}: the unit project runs in process only; a test file that starts a process belongs in ` +
        'e2e (add the helper that starts it to PROCESS_MARKERS in test/support/projects.ts)',
    );
  };
}
// ES module imports of node:child_process (import { spawn } from ...) see the replacements too.
syncBuiltinESMExports();
