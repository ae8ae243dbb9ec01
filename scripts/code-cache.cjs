// Makes dist/app/main.cjs.cache and local.cjs.cache, the V8 code caches bin/load.js loads the bundles with, and one CLI
// cache per everyday command (main.cjs.<command>.cache, each made in a process of its own from that command alone,
// which bin/load.js takes when the command line starts with that command): loads the bundle from source,
// runs a few everyday commands in this process against the embedded local service in a scratch directory (output
// discarded, nothing of the operator's touched), then saves the bytecode of every function they compiled. Functions
// those commands never ran compile on first use as usual. Run by scripts/build.mjs after the bundle is in place.
'use strict';
const { mkdtempSync, rmSync, writeFileSync, renameSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { PassThrough } = require('node:stream');
const { spawnSync } = require('node:child_process');
const { loadApp, loaded, cacheFile, CACHE, OWN_CACHE } = require('../bin/load.js');

// What an operator runs all day, and what the speed targets measure. Bytecode of everything else is not worth its
// place: a bigger cache takes longer to read in at every start (all of these: about 600 KB).
const COMMANDS = [
  ['prices', 'BTCUSD', '--increment', 'ONE_HOUR', '-o', 'json'],
  ['addresses', 'list', '-o', 'table'],
  ['transfers', 'list', '-o', 'json'],
  ['stream', 'book', 'BTCUSD', '-o', 'ndjson', '--count', '20'],
];
// The everyday commands of rare.cjs (scripts/rare-commands.mjs: every group but the everyday reads): run after those
// above, they train rare.cjs's own cache (and the shared CLI cache with what of main.cjs they run).
// The README's withdrawal, quoted first as a fee and then sent.
const WITHDRAWAL = ['--asset', 'BTC', '--network', 'BITCOIN', '--address', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'];
const RARE_COMMANDS = [
  ['balances', '-o', 'json'],
  ['fee', 'quote', ...WITHDRAWAL, '--amount', '0.01', '-o', 'json'],
  ['withdraw', ...WITHDRAWAL, '--amount', '0.01', '--quote', '--yes', '-o', 'json'],
  ['withdraw', '--help'],
];

// `--only=<command>`: that command alone, saved as its own CLI cache.
const only = /^--only=(.+)$/.exec(process.argv[2] ?? '')?.[1];
const mine = only ? COMMANDS.filter((args) => args[0] === only) : COMMANDS;
if (only && mine.length !== 1) throw new Error(`code cache: no everyday command ${only}`);
for (const name of OWN_CACHE)
  if (!COMMANDS.some((args) => args[0] === name))
    throw new Error(`code cache: bin/load.js names ${name}, never run here`);

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
    const run = async (args) => {
      const sink = () => new PassThrough().resume();
      const code = await app.runCli(['node', 'coinop', ...args], {
        stdin: new PassThrough(),
        stdout: sink(),
        stderr: sink(),
        env,
      });
      if (code !== 0) throw new Error(`coinop ${args.join(' ')} exited ${code}`);
    };
    for (const args of mine) await run(args);
    const cli = { script, id, file: CACHE.replace(/\.cache$/, '') };
    const cached = (b) => cacheFile(b.id, b.script.createCachedData());
    const save = (path, bytes) => {
      const tmp = `${path}.${process.pid}`;
      writeFileSync(tmp, bytes);
      renameSync(tmp, path);
    };
    if (only) {
      save(`${cli.file}.${only}.cache`, cached(cli));
      return;
    }
    // The local service's cache (its bundle was loaded when the commands started it) as the everyday reads leave it:
    // the embedded default of a read deserializes no bytecode of the service's writes.
    if (!loaded.local) throw new Error('the local service bundle was never loaded');
    const local = cached(loaded.local);
    for (const args of RARE_COMMANDS) await run(args);
    if (!loaded.rare) throw new Error('the rare bundle was never loaded');
    save(`${loaded.local.file}.cache`, local);
    // The CLI's cache, rare.cjs's, and the vendor packages' (coinop stream's WebSocket client among them).
    for (const b of [cli, loaded.rare, loaded.vendor]) if (b) save(`${b.file}.cache`, cached(b));
    for (const name of OWN_CACHE) {
      const r = spawnSync(process.execPath, [__filename, `--only=${name}`], { encoding: 'utf8', env: process.env });
      if (r.status !== 0) throw new Error(`the cache of ${name}: ${(r.stderr || r.status).toString().trim()}`);
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
