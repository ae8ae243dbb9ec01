// Loads the CLI bundle (dist/app/main.cjs) as CommonJS, compiled with the V8 code cache the build saved beside it
// (main.cjs.cache), the local service's bundle (local.cjs, with local.cjs.cache) when the CLI starts a service,
// every command but the everyday reads (rare.cjs, with rare.cjs.cache) when one of them runs, and the packages most command lines
// never run (vendor.cjs, with vendor.cjs.cache: WebSocket, the config writer, the address codecs) when one is used,
// so a start deserializes bytecode instead of parsing and compiling the program. A cache is taken only when it begins
// with the bundle's own first line (the build's id) and its bytes match the checksum on its second line: V8 itself
// checks only the source's length, its version and its flags, and aborts the process on damaged bytecode. Otherwise
// the bundle compiles from source as any module would. The checksum is zlib's CRC-32 (native, ~0.3 ms over the CLI's
// cache, where a sum computed in JS took 5 ms and more of every start): a cryptographic hash would bring node:crypto,
// which a plain request otherwise never loads, and the threat is a damaged file, not a forged one (whoever can write
// dist/ can write the bundle itself).
'use strict';
const { closeSync, fstatSync, openSync, readSync } = require('node:fs');
// The CommonJS loader's own createRequire: node:module (the public module, with the ES module loader and source maps
// behind it) is not loaded for it.
const { createRequire } = module.constructor;
const { dirname, join } = require('node:path');
const { Script } = require('node:vm');

const DIR = join(__dirname, '..', 'dist', 'app');
const FILE = join(DIR, 'main.cjs');
const CACHE = `${FILE}.cache`;

/**
 * The commands with a CLI cache of their own (main.cjs.<command>.cache, made by scripts/code-cache.cjs from that
 * command alone): a start deserializes the bytecode its command runs, not that of every everyday command (the shared
 * cache is about a quarter larger, and V8 reads all of what it is given). Any other command line takes main.cjs.cache.
 */
const OWN_CACHE = new Set(['prices', 'addresses', 'transfers', 'stream']);

/**
 * The cache files of a bundle for this command line, in the order tried: the command's own (argv[2], when it has
 * one), then the bundle's shared cache.
 */
function cachesFor(name, file, argv = process.argv) {
  const shared = `${file}.cache`;
  return name === 'main' && OWN_CACHE.has(argv[2]) ? [`${file}.${argv[2]}.cache`, shared] : [shared];
}

/** The first of the files that can be opened, with its size, or undefined. */
function openFirst(paths) {
  for (const path of paths) {
    let fd;
    try {
      fd = openSync(path, 'r');
      return { fd, size: fstatSync(fd).size };
    } catch {
      if (fd !== undefined) closeSync(fd);
      /* the next one */
    }
  }
  return undefined;
}

/** Reads the open file whole into the start of `buffer` (as large as the file); closes it. Returns the bytes read. */
function readInto(fd, buffer, size) {
  try {
    let n = 0;
    while (n < size) {
      const got = readSync(fd, buffer, n, size - n, n);
      if (got === 0) break;
      n += got;
    }
    return n;
  } finally {
    closeSync(fd);
  }
}

/** The bundles loaded in this process, by name (main, local): scripts/code-cache.cjs saves each one's cache. */
const loaded = {};

/**
 * A bundle of dist/app (main.cjs: the CLI; local.cjs: the local service, loaded by the CLI when it starts one;
 * rare.cjs: the work of the rarely run commands; vendor.cjs: packages loaded on first use): its
 * exports, its compiled script and its build id line. Loaded once per process.
 */
function loadBundle(name, { useCache = true, cachePath } = {}) {
  if (loaded[name]) return loaded[name];
  const file = join(DIR, `${name}.cjs`);
  const bundleFd = openSync(file, 'r');
  let size;
  try {
    size = fstatSync(bundleFd).size;
  } catch (err) {
    closeSync(bundleFd);
    throw err;
  }
  // No cache (or a node without zlib.crc32): compiled from source.
  const cache = useCache ? openFirst(cachePath ? [cachePath] : cachesFor(name, file)) : undefined;
  // One buffer for the bundle's text and then its cache: each page of memory a start touches first costs a page
  // fault, which on a virtual machine is dear (2,000 of them were ~30 ms of CPU on the 2-core one of
  // docs/performance.md), and the text is copied into a string of its own before the cache is read.
  const buffer = Buffer.allocUnsafeSlow(Math.max(size, cache ? cache.size : 0));
  const length = readInto(bundleFd, buffer, size);
  // ASCII only (esbuild escapes the rest; the build checks): read as latin1, which skips UTF-8 decoding (~1-2 ms).
  const source = buffer.toString('latin1', 0, length);
  const id = source.slice(0, source.indexOf('\n') + 1);
  let cachedData;
  if (cache) {
    try {
      const data = buffer.subarray(0, readInto(cache.fd, buffer, cache.size));
      if (id.startsWith('// coinop build ') && data.toString('latin1', 0, id.length) === id) {
        const sum = data.toString('latin1', id.length, id.length + SUM_LINE);
        const body = data.subarray(id.length + SUM_LINE);
        if (sum === checksum(body)) cachedData = body;
      }
    } catch {
      /* compiled from source */
    }
  }
  // The bundle is its own module wrapper (scripts/build.mjs): the text is compiled as read. Module.wrap's
  // concatenation would make V8 copy it whole onto the young heap (1.6 MB, a scavenge at every start), where node
  // keeps a text this long outside the heap.
  const script = new Script(source, { filename: file, cachedData });
  const module = { exports: {} };
  const bundle = {
    exports: module.exports,
    script,
    id,
    file,
    cacheRejected: cachedData ? script.cachedDataRejected : undefined,
  };
  loaded[name] = bundle;
  script.runInThisContext().call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  bundle.exports = module.exports;
  return bundle;
}

/** The CLI bundle's exports, the compiled script (scripts/code-cache.cjs asks it for a cache) and the build's id line. */
function loadApp({ useCache = true, cachePath } = {}) {
  const b = loadBundle('main', { useCache, cachePath });
  return { app: b.exports, script: b.script, id: b.id, cacheRejected: b.cacheRejected };
}

/** The length of the checksum line: 16 hex digits and a newline. */
const SUM_LINE = 17;

/**
 * The data's checksum line: its CRC-32 and its length, 8 hex digits each. Node before 20.15 has no zlib.crc32: the
 * call throws, and the bundle compiles from source (the build then saves no cache).
 */
function checksum(data) {
  const hex = (x) => (x >>> 0).toString(16).padStart(8, '0');
  return `${hex(crc32()(data))}${hex(data.length)}\n`;
}

/**
 * zlib's CRC-32 from node's zlib binding itself: loading node:zlib (its streams and classes, which nothing else of a
 * plain request uses) cost more than the sum (about 1.5 ms of every start, where the binding is 0.1 ms). The
 * binding's crc32 is the one zlib.crc32 calls. process.binding() is deprecated in the documentation only; where
 * node is asked to warn of such deprecations (--pending-deprecation), or where the binding has no crc32, node:zlib.
 */
let crc;
function crc32() {
  if (crc) return crc;
  const pending =
    process.execArgv.includes('--pending-deprecation') ||
    /--pending-deprecation/.test(process.env.NODE_OPTIONS ?? '') ||
    process.env.NODE_PENDING_DEPRECATION === '1';
  let native;
  try {
    native = pending ? undefined : process.binding('zlib').crc32;
  } catch {
    /* not offered: node:zlib */
  }
  crc = typeof native === 'function' ? (data) => native(data, 0) : require('node:zlib').crc32;
  return crc;
}

/** The cache file's bytes for a build id and V8's cached data: the id line, the data's checksum line, the data. */
function cacheFile(id, data) {
  return Buffer.concat([Buffer.from(`${id}${checksum(data)}`, 'latin1'), data]);
}

module.exports = { loadApp, loadBundle, loaded, cacheFile, cachesFor, CACHE, OWN_CACHE };
