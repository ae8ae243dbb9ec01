// Loads the CLI bundle (dist/app/main.cjs) as CommonJS, compiled with the V8 code cache the build saved beside it
// (main.cjs.cache), so a start deserializes bytecode instead of parsing and compiling the program. The cache is taken
// only when it begins with the bundle's own first line (the build's id); V8 refuses one made by another V8 version
// or with other flags, and the bundle then compiles from source as any module would.
'use strict';
const { readFileSync } = require('node:fs');
const { createRequire, wrap } = require('node:module');
const { dirname, join } = require('node:path');
const { Script } = require('node:vm');

const FILE = join(__dirname, '..', 'dist', 'app', 'main.cjs');
const CACHE = `${FILE}.cache`;

/** The bundle's exports, the compiled script (scripts/code-cache.cjs asks it for a cache) and the build's id line. */
function loadApp({ useCache = true } = {}) {
  const source = readFileSync(FILE, 'utf8');
  const id = source.slice(0, source.indexOf('\n') + 1);
  let cachedData;
  if (useCache) {
    try {
      const cache = readFileSync(CACHE);
      if (id.startsWith('// coinop build ') && cache.toString('latin1', 0, id.length) === id) cachedData = cache.subarray(id.length);
    } catch {
      /* no cache: compiled from source */
    }
  }
  const script = new Script(wrap(source), { filename: FILE, cachedData });
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, createRequire(FILE), module, FILE, dirname(FILE));
  return { app: module.exports, script, id, cacheRejected: cachedData ? script.cachedDataRejected : undefined };
}

module.exports = { loadApp, CACHE };
