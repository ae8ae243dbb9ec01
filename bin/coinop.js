#!/usr/bin/env node
// Launcher: the program is the bundle in dist/app/ (built by `npm install` through the prepare script).
// CommonJS (bin/package.json) because node starts a CommonJS entry faster; --version is answered here from
// package.json, so it loads nothing else.
const argv = process.argv;
if (argv.length === 3 && (argv[2] === '--version' || argv[2] === '-V')) {
  const { readFileSync } = require('node:fs');
  process.stdout.write(JSON.parse(readFileSync(require('node:path').join(__dirname, '..', 'package.json'), 'utf8')).version + '\n');
} else {
  import('../dist/app/main.js').then((m) => m.main(argv)).catch((err) => {
    process.stderr.write(`coinop: ${err && err.message ? err.message : err}\n`);
    process.exitCode = 1;
  });
}
