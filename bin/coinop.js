#!/usr/bin/env node
// Launcher: the program is the bundle in dist/app/ (built by `npm install` through the prepare script), loaded by
// ./load.js with its code cache. CommonJS (bin/package.json) because node starts a CommonJS entry faster. --version is answered here from
// package.json, and the top-level --help from the copy the build saved (dist/app/help-80.txt: the text commander
// renders when stdout is not a terminal or is 80 columns wide), so neither loads anything else.
const argv = process.argv;
/**
 * Writes the text to stdout with one write(2), without making process.stdout (a stream, with node:tty or node:net
 * behind it, is about as much of a start as the rest of --version); what that write does not take, or an error
 * (EAGAIN), goes through process.stdout as before. EPIPE (the reader has gone, as in `coinop --version | true`) ends
 * the write quietly, as the rest of coinop does.
 */
function print(text) {
  const bytes = Buffer.from(text);
  let written = 0;
  try {
    written = require('node:fs').writeSync(1, bytes);
  } catch (err) {
    if (err && err.code === 'EPIPE') return;
    /* process.stdout takes it all */
  }
  if (written < bytes.length) process.stdout.write(bytes.subarray(written));
}
const only = argv.length === 3 ? argv[2] : undefined;
let answered = false;
if (only === '--version' || only === '-V') {
  const { readFileSync } = require('node:fs');
  print(`${JSON.parse(readFileSync(require('node:path').join(__dirname, '..', 'package.json'), 'utf8')).version}\n`);
  answered = true;
} else if ((only === '--help' || only === '-h') && (!process.stdout.isTTY || process.stdout.columns === 80)) {
  try {
    print(require('node:fs').readFileSync(require('node:path').join(__dirname, '..', 'dist', 'app', 'help-80.txt')));
    answered = true;
  } catch {
    /* no saved copy: commander renders it */
  }
}
if (!answered) {
  const fail = (err) => {
    const unbuilt = err && err.code === 'ENOENT' && String(err.path).endsWith('main.cjs');
    process.stderr.write(
      unbuilt
        ? 'coinop: not built yet: run npm install (or npm run build) in its folder\n'
        : `coinop: ${err?.message ? err.message : err}\n`,
    );
    process.exitCode = 1;
  };
  try {
    require('./load.js').loadApp().app.main(argv).catch(fail);
  } catch (err) {
    fail(err);
  }
}
