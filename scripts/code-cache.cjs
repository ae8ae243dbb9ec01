// Makes dist/app/main.cjs.cache and local.cjs.cache, the V8 code caches bin/load.js loads the bundles with: loads the bundle from source,
// runs a few everyday commands in this process against the embedded local service in a scratch directory (output
// discarded, nothing of the operator's touched), then saves the bytecode of every function they compiled. Functions
// those commands never ran compile on first use as usual. Run by scripts/build.mjs after the bundle is in place.
'use strict';
const { mkdtempSync, rmSync, writeFileSync, renameSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { PassThrough } = require('node:stream');
const { loadApp, loaded, cacheFile, CACHE } = require('../bin/load.js');

// What an operator runs all day, and what the speed targets measure. Bytecode of everything else is not worth its
// place: a bigger cache takes longer to read in at every start (all of these: about 600 KB).
const COMMANDS = [
  ['prices', 'BTCUSD', '--increment', 'ONE_HOUR', '-o', 'json'],
  ['addresses', 'list', '-o', 'table'],
  ['transfers', 'list', '-o', 'json'],
  ['stream', 'book', 'BTCUSD', '-o', 'ndjson', '--count', '20'],
];

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'coinop-code-cache-'));
  const env = {
    PATH: process.env.PATH,
    HOME: join(dir, 'home'),
    COINOP_CONFIG_DIR: join(dir, 'config'),
    COINOP_DATA_DIR: join(dir, 'data'),
    NO_COLOR: '1',
  };
  try {
    const { app, script, id } = loadApp({ useCache: false });
    for (const args of COMMANDS) {
      const sink = () => new PassThrough().resume();
      const code = await app.runCli(['node', 'coinop', ...args], {
        stdin: new PassThrough(),
        stdout: sink(),
        stderr: sink(),
        env,
      });
      if (code !== 0) throw new Error(`coinop ${args.join(' ')} exited ${code}`);
    }
    // The CLI's cache, and the local service's (its bundle was loaded when the commands started it).
    if (!loaded.local) throw new Error('the local service bundle was never loaded');
    for (const b of [{ script, id, file: CACHE.replace(/\.cache$/, '') }, loaded.local]) {
      const tmp = `${b.file}.cache.${process.pid}`;
      writeFileSync(tmp, cacheFile(b.id, b.script.createCachedData()));
      renameSync(tmp, `${b.file}.cache`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`code cache: ${err?.stack ? err.stack : err}\n`);
    process.exit(1);
  },
);
