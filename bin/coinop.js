#!/usr/bin/env node
// Launcher: the program lives in dist/ (built by `npm install` through the prepare script).
import('../dist/cli/main.js').then((m) => m.main(process.argv)).catch((err) => {
  process.stderr.write(`coinop: ${err && err.message ? err.message : err}\n`);
  process.exitCode = 1;
});
