// Loads the CLI bundle (dist/app/main.cjs) as CommonJS, compiled with the V8 code cache the build saved beside it
// (main.cjs.cache), so a start deserializes bytecode instead of parsing and compiling the program. The cache is taken
// only when it begins with the bundle's own first line (the build's id) and its bytes match the SHA-1 on its second
// line: V8 itself checks only the source's length, its version and its flags, and aborts the process on damaged
// bytecode. Otherwise the bundle compiles from source as any module would.
'use strict';
const { createHash } = require('node:crypto');
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
      if (id.startsWith('// coinop build ') && cache.toString('latin1', 0, id.length) === id) {
        const sha1 = cache.toString('latin1', id.length, id.length + 41);
        const data = cache.subarray(id.length + 41);
        if (sha1 === `${createHash('sha1').update(data).digest('hex')}\n`) cachedData = data;
      }
    } catch {
      /* no cache: compiled from source */
    }
  }
  const script = new Script(wrap(source), { filename: FILE, cachedData });
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, createRequire(FILE), module, FILE, dirname(FILE));
  return { app: module.exports, script, id, cacheRejected: cachedData ? script.cachedDataRejected : undefined };
}

/** The cache file's bytes for a build id and V8's cached data: the id line, the data's SHA-1 line, the data. */
function cacheFile(id, data) {
  return Buffer.concat([Buffer.from(`${id}${createHash('sha1').update(data).digest('hex')}\n`, 'latin1'), data]);
}

module.exports = { loadApp, cacheFile, CACHE };
