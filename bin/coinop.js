#!/usr/bin/env node
// Launcher: the program is the bundle in dist/app/ (built by `npm install` through the prepare script).
// --version is answered here from package.json, so it loads nothing else.
import { readFileSync } from 'node:fs';

const argv = process.argv;
if (argv.length === 3 && (argv[2] === '--version' || argv[2] === '-V')) {
  process.stdout.write(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version + '\n');
} else {
  import('../dist/app/main.js').then((m) => m.main(argv)).catch((err) => {
    process.stderr.write(`coinop: ${err && err.message ? err.message : err}\n`);
    process.exitCode = 1;
  });
}
