// Builds dist/ from src/ for Node 20. Type checking is `npm run typecheck`.
//   dist/**     one ESM file per TypeScript module (what the bench and proof scripts import, such as
//               dist/local/service.js).
//   dist/app/   the CLI as the launcher runs it (bin/load.js): main.cjs, a CommonJS bundle (with local.cjs, the local
//               service, and rare.cjs, the rarely run commands' work, loaded when used), and main.cjs.cache,
//               the V8 code cache of a training run (scripts/code-cache.cjs), so a start deserializes bytecode
//               instead of parsing and compiling. Each command's modules are still evaluated only when it runs
//               (esbuild wraps what is imported dynamically). Measured on Node 20 for `coinop prices`: ESM with code
//               splitting 200 ms, this bundle without a cache 188 ms, with its cache 154 ms (node -e 0: 106 ms).
// Both use the contract's request validators precompiled (Ajv standalone code, see src/contract/precompiled.ts), kept
// in one store beside the bundles (dist/app/validators.txt) and read one validator at a time.
import { build as esbuild } from 'esbuild';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CORE_COMMAND_GROUPS, RARE_COMMAND_DIRS } from './rare-commands.mjs';

/** esbuild's build, failing on a warning too: each one has been a bundle that misbehaves at run time. */
async function build(options) {
  const result = await esbuild(options);
  if (result.warnings.length) throw new Error(`build: esbuild warned ${result.warnings.length} time(s), see above`);
  return result;
}

const require = createRequire(import.meta.url);

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
const define = { __COINOP_VERSION__: JSON.stringify(version) };

// Built aside and swapped in at the end, so a coinop or test running meanwhile never finds dist/ half made.
const out = `dist.build-${process.pid}`;
rmSync(out, { recursive: true, force: true });
// A failed build leaves nothing behind (after a good one, `out` has become dist/ and this finds nothing).
process.on('exit', () => rmSync(out, { recursive: true, force: true }));
await build({
  entryPoints: walk('src'),
  outdir: out,
  outbase: 'src',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  define,
  logLevel: 'warning',
});

// The first line names this build; the code cache starts with the same line, so a cache made from another bundle is
// never used (V8 itself checks only the source's length, its own version and its flags). The validators' store
// (below) starts each chunk with it too.
const buildId = `// coinop build ${version} ${randomBytes(8).toString('hex')}`;
// Every operation's params, query and body schema, compiled once here with the options validate.ts uses.
// Kept out of the bundles: each validator's code is a chunk of one text file, dist/app/validators.txt, which the
// generated src/contract/precompiled.ts reads a chunk of (by the offset its index gives) and compiles the first time a
// schema is checked. In the bundles (main.cjs and local.cjs each), the validators' code was 594 KB of the text every
// start read and copied into a string, where a request uses one or two of them (a few KB).
async function precompiledValidators() {
  const { Ajv } = require('ajv');
  const standaloneCode = require('ajv/dist/standalone').default;
  const addFormats = require('ajv-formats').default;
  const { operations } = await import(pathToFileURL(resolve(out, 'contract/operations.js')).href);
  const { validatorKeyHash } = await import(pathToFileURL(resolve(out, 'contract/validator-key.js')).href);
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    validateFormats: true,
    validateSchema: false,
    code: { source: true, esm: true },
  });
  addFormats(ajv, ['date-time']);
  const ids = new Map();
  const add = (schema) => {
    const key = schema && JSON.stringify(schema);
    if (!key || ids.has(key)) return;
    ids.set(key, `v${ids.size}`);
    ajv.addSchema(schema, `v${ids.size - 1}`);
  };
  for (const op of Object.values(operations)) for (const part of ['params', 'query', 'body']) add(op[part]);
  // The policy file's schema (src/policy/schema.ts), checked whenever a profile has a policy.
  add((await import(pathToFileURL(resolve(out, 'policy/schema.js')).href)).PolicyFile);
  const index = {};
  const chunks = [];
  let offset = 0;
  for (const [key, id] of ids) {
    const code = standaloneCode(ajv, { [id]: id }).replace('"use strict";', '');
    const exported = new RegExp(`export const ${id} = (\\w+);`);
    const fn = exported.exec(code)?.[1];
    if (!fn || /\bexport\b/.test(code.replace(exported, '')))
      throw new Error(`build: unexpected standalone code for ${id}`);
    // The validator's code as the body of a function of `require`, which returns the validator.
    const body = `${code.replace(exported, '')}\nreturn ${fn};\n`;
    for (const [, helper] of body.matchAll(/\brequire\(("[^"]*")\)/g))
      if (!VALIDATOR_HELPERS.includes(JSON.parse(helper)))
        throw new Error(`build: the validator ${id} requires ${helper}, not one of the helpers precompiled.ts gives`);
    // A chunk: the build's id line, the schema's JSON key on a line, the body (all ASCII: the offsets are bytes).
    const chunk = `${buildId}\n${key}\n${body}`;
    if (/[^\x00-\x7f]/.test(chunk)) throw new Error(`build: the validator ${id} is not ASCII`);
    const hash = validatorKeyHash(key);
    if (index[hash]) throw new Error(`build: two validators' keys hash alike (${hash})`);
    index[hash] = [offset, chunk.length];
    chunks.push(chunk);
    offset += chunk.length;
  }
  return { store: chunks.join(''), module: validatorModule(index) };
}

/** The Ajv run-time helpers the validators' code require()s, given to it by precompiled.ts (bundled: a few KB). */
const VALIDATOR_HELPERS = ['ajv/dist/runtime/ucs2length', 'ajv-formats/dist/formats'];

/** The generated src/contract/precompiled.ts: the store's index, and a validator made from its chunk when first asked. */
function validatorModule(index) {
  const helpers = VALIDATOR_HELPERS.map((h) => `  ${JSON.stringify(h)}: () => require(${JSON.stringify(h)}),`);
  return `// Generated by scripts/build.mjs: the validators' code is in dist/app/validators.txt.
import { closeSync, openSync, readSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validatorKeyHash } from './validator-key.js';
const BUILD = ${JSON.stringify(buildId)};
const INDEX = ${JSON.stringify(index)};
const HELPERS = {
${helpers.join('\n')}
};
const helper = (id) => HELPERS[id]();
const made = new Map();
let file;
/** The chunk of the store at [offset, length], or undefined when the file cannot be read. */
function chunkAt([offset, length]) {
  file ??= fileURLToPath(new URL('../app/validators.txt', import.meta.url));
  let fd;
  try {
    fd = openSync(file, 'r');
    const bytes = Buffer.allocUnsafe(length);
    return bytes.subarray(0, readSync(fd, bytes, 0, length, offset)).toString('latin1');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
export function precompiledValidator(key) {
  const ready = made.get(key);
  if (ready) return ready;
  const at = INDEX[validatorKeyHash(key)];
  const chunk = at && chunkAt(at);
  // A chunk of this very build, for this very schema; otherwise (a store rebuilt meanwhile) Ajv compiles it.
  const head = BUILD + '\\n' + key + '\\n';
  if (!chunk?.startsWith(head)) return undefined;
  const fn = new Function('require', chunk.slice(head.length))(helper);
  made.set(key, fn);
  return fn;
}
`;
}
const validators = await precompiledValidators();

// The contract's schemas and the policy file's as the plain JSON they are, so the CLI bundle does not load TypeBox to
// build them again. Functions (schema builders used only inside schemas.ts) are left out: importing one fails the build.
// Each schema is parsed from its JSON when first read: a plain request checks one or two of the contract's 150, and
// parsing them all was ~2 ms and 185 KB of young objects at every start. Until then a schema is a proxy of one small
// object (a getter per key took as long as parsing, in closures); consumers only read schemas (JSON.stringify, Ajv).
// The JSON itself is a store beside the bundles (dist/app/schemas.txt, each schema a chunk that starts with the build's
// id line), read whole when a schema is first read: in the bundle's text it was 96 KB that every start read, copied into a string and
// deserialized again from the code cache (the top level's constants).
const LAZY_SCHEMA = `import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
const BUILD = ${JSON.stringify(`${buildId}\n`)};
let store;
function schemaText([offset, length]) {
  // Read whole on first use (98 KB): the local service reads every schema as it starts.
  store ??= readFileSync(fileURLToPath(new URL('../app/schemas.txt', import.meta.url)));
  const text = store.toString('utf8', offset, offset + length);
  if (!text.startsWith(BUILD)) throw new Error('dist/app/schemas.txt is not of the build that is running (rebuilt meanwhile?): run the command again');
  return text.slice(BUILD.length);
}
const SCHEMA = {
  get: (lazy, key) => parsed(lazy)[key],
  has: (lazy, key) => key in parsed(lazy),
  ownKeys: (lazy) => Reflect.ownKeys(parsed(lazy)),
  getOwnPropertyDescriptor: (lazy, key) => Reflect.getOwnPropertyDescriptor(parsed(lazy), key),
  set: () => false,
  defineProperty: () => false,
  deleteProperty: () => false,
};
function parsed(lazy) {
  lazy.value ??= JSON.parse(schemaText(lazy.at));
  return lazy.value;
}
function lazy(offset, length) {
  return new Proxy({ at: [offset, length], value: undefined }, SCHEMA);
}`;
/** The schemas' store: its chunks, and the byte offset of the next. */
const schemaStore = { chunks: [], bytes: 0 };
async function plainSchemas(module) {
  const mod = await import(pathToFileURL(resolve(out, module)).href);
  const plain = Object.fromEntries(Object.entries(mod).filter(([, v]) => typeof v !== 'function'));
  // JSON, which V8 reads several times faster than the same data written as object literals (the contract's schemas
  // took ~7 ms of every start to build as literals), each schema's its own, parsed when first read (LAZY_SCHEMA).
  const lines = Object.entries(plain).map(([k, v]) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return `export const ${k} = ${JSON.stringify(v)};`;
    const chunk = Buffer.from(`${buildId}\n${JSON.stringify(v)}`, 'utf8');
    const at = schemaStore.bytes;
    schemaStore.chunks.push(chunk);
    schemaStore.bytes += chunk.length;
    return `export const ${k} = lazy(${at}, ${chunk.length});`;
  });
  return `// Generated by scripts/build.mjs from src/${module.replace(/\.js$/, '.ts')}.\n${LAZY_SCHEMA}\n${lines.join('\n')}\n`;
}
const schemas = await plainSchemas('contract/schemas.js');
const policySchemas = await plainSchemas('policy/schema.js');
const gatewaySchemas = await plainSchemas('contract/gateway-schemas.js');
// The validators require() two small Ajv run-time helpers (in the bundles, bundled: the ajv-runtime-helpers plugin).
writeFileSync(
  join(out, 'contract/precompiled.js'),
  `import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n${validators.module}`,
);
mkdirSync(join(out, 'app'), { recursive: true });
writeFileSync(join(out, 'app/validators.txt'), validators.store);
writeFileSync(join(out, 'app/schemas.txt'), Buffer.concat(schemaStore.chunks));

// Packages the bundles evaluate on first use (the lazy-packages plugin): the address codecs and hashes, chalk (colour
// only: src/render/style.ts) and decimal.js (the first amount reckoned: src/contract/money.ts's decimalClass).
const LAZY_PACKAGES = /^(@scure\/base|@noble\/hashes\/(sha2|sha3|utils)\.js|hash-wasm|chalk|decimal\.js)$/;
// Packages kept out of main.cjs, rare.cjs and local.cjs, in a bundle of their own (vendor.cjs, loaded through bin/load.js when one
// of them is first used): the WebSocket client (coinop stream), the config file's writer (conf, with semver and the
// rest of its dependencies: a command that saves settings), the curves, hashes and codecs of address checks and
// ownership proofs. They were 250 KB of the 1.16 MB of text every start read and copied (each page of it a page
// fault, dear on a virtual machine), and a symbol table of their functions in every code cache, for packages a plain
// request never runs. The local service (local.cjs) takes them from it too (its WebSocket server starts with the first
// stream client, its address checks with the first address): the embedded default read 170 KB of them at every start,
// and one process holds one copy of each, the CLI's and its embedded service's.
const VENDOR_PACKAGES = /^(ws|conf|@scure\/base|@noble\/(hashes|curves)\/[\w.-]+\.js)$/;
/** The packages vendor.cjs holds (each id as the bundles import it), gathered while the other bundles are built. */
const vendorIds = new Set();
const VENDOR_LOAD = "require('../../bin/load.js').loadBundle('vendor').exports.load";
// A bundle's text after its id line: one expression, the function of its module. Run as a script (bin/load.js), its
// value is that function; required as a module (node wraps it again), it calls that function with the module's own
// arguments, so a bundle is still a plain CommonJS file.
const BUNDLE_HEAD =
  "(typeof arguments === 'object' ? (f) => f.apply(this, arguments) : (f) => f)(function (exports, require, module, __filename, __dirname) {";
const BUNDLE_TAIL = '\n});';
// The CLI (main.cjs), and the local service (local.cjs: what `coinop local start` and the embedded default run), each
// with its own code cache: a command against a running service never reads, hashes or deserializes the service's
// code. The CLI loads local.cjs through bin/load.js when it starts a service (the split-local plugin).
const LOCAL_ENTRY = `export { startLocalService } from './service.ts';\nexport { runLocalStart, DEFAULT_LOCAL_PORT } from './cli.ts';\n`;
// The modules the build generates (the contract's and the policy's schemas as plain JSON, the precompiled validators).
const GENERATED_MODULES = [
  {
    name: 'plain-schemas',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/]contract[\\/]schemas\.ts$/ }, () => {
        replaced.add('src/contract/schemas.ts');
        return { contents: schemas, loader: 'js' };
      });
      b.onLoad({ filter: /[\\/]src[\\/]policy[\\/]schema\.ts$/ }, () => {
        replaced.add('src/policy/schema.ts');
        return { contents: policySchemas, loader: 'js' };
      });
      // The gateway's schemas: TypeBox was 120 KB of main.cjs for them (src/client/gateway-calls.ts needs their paths).
      b.onLoad({ filter: /[\\/]src[\\/]contract[\\/]gateway-schemas\.ts$/ }, () => {
        replaced.add('src/contract/gateway-schemas.ts');
        return { contents: gatewaySchemas, loader: 'js' };
      });
    },
  },
  {
    name: 'precompiled-validators',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/]contract[\\/]precompiled\.ts$/ }, () => {
        replaced.add('src/contract/precompiled.ts');
        return { contents: validators.module, loader: 'js', resolveDir: resolve('src/contract') };
      });
    },
  },
];
/** better-sqlite3's addon as dist/app reaches it (a relative path; src/local/store.ts resolves the package if it is not there). */
function betterSqlite3Addon() {
  const addon = join(
    dirname(require.resolve('better-sqlite3/package.json')),
    'build',
    'Release',
    'better_sqlite3.node',
  );
  return relative(resolve('dist/app'), addon).split(sep).join('/');
}
/** The expression main.cjs and rare.cjs load a vendor package by (recording it), or undefined for another package. */
function vendorLoad(pkg) {
  if (!VENDOR_PACKAGES.test(pkg)) return undefined;
  vendorIds.add(pkg);
  return `${VENDOR_LOAD}(${JSON.stringify(pkg)})`;
}
/** Whether every import of the package in the importer names what it takes (import { a, b } from 'pkg'). */
function namedOnly(importer, pkg) {
  const quoted = pkg.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const text = readFileSync(importer, 'utf8');
  const all = (text.match(new RegExp(`^import\\s[^;]*?from\\s*['"]${quoted}['"]`, 'gm')) ?? []).filter(
    (i) => !/^import\s+type\s/.test(i),
  );
  return all.length > 0 && all.every((i) => /^import\s*\{[^}]*\}\s*from/.test(i));
}
async function appBundle(name, entry, split, { vendor = name !== 'vendor' } = {}) {
  return build({
    entryPoints: { [name]: entry },
    // What the bundle holds, module by module (COINOP_METAFILE=<file> writes it for esbuild's analyzer).
    // (Always made: the rare bundle is cut along what main.cjs holds.)
    metafile: true,
    outdir: join(out, 'app'),
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    define: {
      ...define,
      'import.meta.url': '__importMetaUrl',
      // The local service's database addon, from dist/app (src/local/store.ts checks it is there).
      ...(name === 'local' ? { __BETTER_SQLITE3_ADDON__: JSON.stringify(betterSqlite3Addon()) } : {}),
    },
    // Loaded from node_modules at run time: the native addon, and Ajv (whose compiler the precompiled validators
    // replace), so no start parses it; its small run-time helpers (ajv/dist/runtime, ajv-formats' formats) are
    // required from node_modules too.
    // Packages that only some commands use are required from node_modules by the module that needs them, when it first
    // runs (each is a CommonJS build): the MCP SDK and its zod (coinop mcp), the YAML parser (policy files), the
    // prompts with their external editor's iconv-lite and chardet (asking). Bundled, they were 1 MB of the 2.6 MB every
    // start reads, hashes and hands to V8 with its code cache. (ws stays in: the embedded service starts with it.)
    // The local service bundles better-sqlite3's JavaScript (its start always opens the database: loading the package
    // from node_modules, a dozen files resolved and compiled without a cache, was 4-7 ms of CPU of the embedded
    // default); the addon itself is loaded from node_modules by its path (store.ts).
    external: [
      ...(name === 'local' ? [] : ['better-sqlite3']),
      'pg',
      'ajv',
      'ajv-formats',
      '@modelcontextprotocol/sdk',
      'yaml',
      '@inquirer/core',
      '@inquirer/prompts',
      // hash-wasm (230 KB, its WebAssembly as text): required on the first EIP-55 address, while its keccak compiles
      // in the background (src/contract/addresses.ts), never by a start.
      'hash-wasm',
    ],
    // The modules' own createRequire(import.meta.url) resolve from the bundle's place.
    // Each bundle is its own CommonJS wrapper (BUNDLE_HEAD, BUNDLE_TAIL): bin/load.js hands V8 the file's text as read,
    // which node keeps outside V8's heap (an external string, over 1 MB), where Module.wrap's concatenation made V8
    // copy the whole bundle into one string on the young heap at every start (1.6 MB: a scavenge of its own).
    banner: {
      js: `${buildId}\n${BUNDLE_HEAD}const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;`,
    },
    footer: { js: BUNDLE_TAIL },
    // Less to read, copy into a string, deserialize and parse at every start, identifiers included (main.cjs 902 ->
    // 700 KB, local.cjs 401 -> 329 KB; 130-200 fewer page faults a start). A class's or a function's own name is then
    // the minifier's: coinop's errors set theirs (this.name = 'CoinopError'), commander's are told apart by their
    // code (src/commands/main.ts), and a stack trace of the bundle names its places through main.cjs.map.
    minifyWhitespace: true,
    minifySyntax: true,
    minifyIdentifiers: true,
    plugins: [
      ...split,
      {
        // Packages that load a module at start for a feature coinop does not use: loaded on first use instead.
        // commander: child_process for executable subcommands (coinop has none).
        name: 'lazy-requires',
        setup(b) {
          const lazy = [
            [
              /[\\/]commander[\\/]lib[\\/]command\.js$/,
              "const childProcess = require('node:child_process');",
              "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };",
            ],
          ];
          for (const [filter, from, to] of lazy) {
            b.onLoad({ filter }, (args) => {
              const text = readFileSync(args.path, 'utf8');
              if (!text.includes(from)) throw new Error(`lazy-requires: ${args.path} no longer has: ${from}`);
              return { contents: text.replace(from, to), loader: 'js' };
            });
          }
        },
      },
      {
        // The modules' createRequire(import.meta.url) is the bundle's own require (bin/load.js made it for the bundle's
        // file, import.meta.url's file): node:module, which a plain request otherwise never loads (its ES module
        // loader and source maps with it, about 1 ms of every start), stays unloaded. Only createRequire is imported.
        name: 'bundle-require',
        setup(b) {
          b.onResolve({ filter: /^node:module$/ }, (args) =>
            args.kind === 'import-statement' ? { path: 'createRequire', namespace: 'bundle-require' } : undefined,
          );
          b.onLoad({ filter: /.*/, namespace: 'bundle-require' }, () => ({
            contents: 'exports.createRequire = () => require;',
            loader: 'js',
          }));
        },
      },
      {
        // chalk's colour detection (its vendored supports-color) loads node:tty and node:os and inspects the terminal
        // at start; coinop never asks it (src/render/style.ts makes its chalks with a level the IO object decided):
        // chalk gets a detection that finds no colour, as it does in a browser.
        name: 'chalk-no-detection',
        setup(b) {
          b.onResolve({ filter: /^#supports-color$/ }, (args) =>
            /[\\/]chalk[\\/]/.test(args.importer) ? { path: 'supports-color', namespace: 'no-detection' } : undefined,
          );
          b.onLoad({ filter: /.*/, namespace: 'no-detection' }, () => ({
            contents: 'export default { stdout: false, stderr: false };',
            loader: 'js',
          }));
        },
      },
      {
        // The precompiled validators' two run-time helpers are bundled (a few KB): requiring them from node_modules cost
        // every start the package lookups (realpath, package.json reads) of about 5 ms. Ajv's compiler stays outside.
        name: 'ajv-runtime-helpers',
        setup(b) {
          b.onResolve({ filter: /^(ajv\/dist\/runtime\/|ajv-formats\/dist\/formats$)/ }, (args) => ({
            path: require.resolve(args.path, { paths: [args.resolveDir] }),
          }));
        },
      },
      {
        // The address codecs and hashes (src/contract/addresses.ts, the market list's cache name) are bundled but
        // evaluated when a name of theirs is first used, not when the importing module is: a plain request never
        // checks an address, yet evaluating them (hash-wasm alone is 230 KB, mostly its WebAssembly as text) cost every
        // start their code in the code cache and their set-up. Each import becomes an object of getters that requires
        // the package (bundled, so evaluated once, on the first get).
        name: 'lazy-packages',
        setup(b) {
          b.onResolve({ filter: LAZY_PACKAGES }, (args) =>
            args.kind === 'import-statement'
              ? { path: `${args.path} for ${keyOf(args.importer)}`, namespace: 'lazy-package', pluginData: args }
              : undefined,
          );
          // In main.cjs and rare.cjs, the vendor packages' named imports are lazy too (@noble/curves as well), their
          // package taken from vendor.cjs.
          if (vendor)
            b.onResolve({ filter: VENDOR_PACKAGES }, (args) =>
              args.kind === 'import-statement' && namedOnly(args.importer, args.path)
                ? { path: `${args.path} for ${keyOf(args.importer)}`, namespace: 'lazy-package', pluginData: args }
                : undefined,
            );
          b.onLoad({ filter: /.*/, namespace: 'lazy-package' }, async ({ pluginData: { path: pkg, importer } }) => {
            // The names the importer takes (import { a, b as c } from 'pkg'), or every name the package exports.
            const quoted = pkg.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
            const clauses = [
              ...readFileSync(importer, 'utf8').matchAll(
                new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*['"]${quoted}['"]`, 'g'),
              ),
            ];
            let names = clauses
              .flatMap((m) => m[1].split(','))
              .map((n) => n.trim())
              .filter((n) => n && !n.startsWith('type '))
              .map((n) => n.split(/\s+as\s+/)[0]);
            if (!clauses.length) {
              try {
                names = Object.keys(require(pkg));
              } catch {
                names = Object.keys(await import(pkg));
              }
            }
            const get = names
              .filter((n) => n !== 'default' && n !== '__esModule')
              .map(
                (n) =>
                  `Object.defineProperty(exports, ${JSON.stringify(n)}, { enumerable: true, get: () => load()[${JSON.stringify(n)}] });`,
              );
            const from = (vendor && vendorLoad(pkg)) || `require(${JSON.stringify(pkg)})`;
            return {
              contents: `let m;\nconst load = () => (m ??= ${from});\n${get.join('\n')}\n`,
              loader: 'js',
              resolveDir: resolve('.'),
            };
          });
        },
      },
      {
        // Any other import of a vendor package (a default import, import()): the package from vendor.cjs when the
        // importing module is evaluated (ws by src/client/stream.ts, conf by src/config/store.ts's import()).
        name: 'vendor-packages',
        setup(b) {
          if (!vendor) return;
          // The stubs load vendor.cjs through the launcher's module (as main.cjs does local.cjs and rare.cjs).
          b.onResolve({ filter: /^\.\.\/\.\.\/bin\/load\.js$/ }, (args) => ({ path: args.path, external: true }));
          b.onResolve({ filter: VENDOR_PACKAGES }, (args) =>
            args.kind === 'import-statement' || args.kind === 'dynamic-import'
              ? { path: args.path, namespace: 'vendor-package' }
              : undefined,
          );
          b.onLoad({ filter: /.*/, namespace: 'vendor-package' }, async (args) => {
            // Every name the package exports (an import() is destructured: `const { WebSocketServer } = await
            // import('ws')`), and its default.
            let names;
            try {
              names = Object.keys(require(args.path));
            } catch {
              names = Object.keys(await import(args.path));
            }
            const named = names
              .filter((n) => n !== 'default' && n !== '__esModule' && /^[A-Za-z_$][\w$]*$/.test(n))
              .map((n) => `export const ${n} = m[${JSON.stringify(n)}];`);
            return {
              // ESM, so that the default export is the package's default (esbuild's interop would make a CommonJS
              // stub's whole exports the default of a module of this "type": "module" package).
              contents: `const m = ${vendorLoad(args.path)};\nexport default m && m.__esModule ? m.default : m;\n${named.join('\n')}\n`,
              loader: 'js',
              resolveDir: resolve('.'),
            };
          });
        },
      },
      {
        // An import() of an external package would stay an import() in the bundle, which the launcher cannot run: it
        // becomes a bundled stub that require()s the package when the import() runs.
        name: 'lazy-externals',
        setup(b) {
          b.onResolve({ filter: /^(@inquirer\/|@modelcontextprotocol\/sdk|yaml$|pg$|better-sqlite3$)/ }, (args) =>
            args.kind === 'dynamic-import' ? { path: args.path, namespace: 'lazy-external' } : undefined,
          );
          b.onLoad({ filter: /.*/, namespace: 'lazy-external' }, (args) => ({
            contents: `module.exports = require(${JSON.stringify(args.path)});`,
            loader: 'js',
            resolveDir: resolve('.'),
          }));
        },
      },
      ...GENERATED_MODULES,
    ],
    logLevel: 'warning',
  });
}
// In main.cjs, the local service's two entry modules are the local bundle, loaded (with its cache) on first use.
const splitLocal = {
  name: 'split-local',
  setup(b) {
    b.onResolve({ filter: /[\\/]local[\\/](service|cli)\.js$/ }, (args) =>
      resolve(args.resolveDir, args.path).startsWith(resolve('src/local'))
        ? { path: 'local-bundle', namespace: 'split-local' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'split-local' }, () => ({
      contents: "module.exports = require('../../bin/load.js').loadBundle('local').exports;",
      loader: 'js',
    }));
    b.onResolve({ filter: /^\.\.\/\.\.\/bin\/load\.js$/ }, (args) => ({ path: args.path, external: true }));
  },
};
// The modules the plain-schemas and precompiled-validators plugins stand in for, as each bundle met them: a plugin whose
// filter no longer matches (a moved file) would silently bundle TypeBox and Ajv's run-time compilation again.
const replaced = new Set();
const SUBSTITUTED = [
  'src/contract/schemas.ts',
  'src/contract/precompiled.ts',
  'src/policy/schema.ts',
  'src/contract/gateway-schemas.ts',
];

// The rare bundle (rare.cjs, with a code cache of its own): every command group but the everyday reads, and the work
// of the rarely run commands of those (addresses create and verify), loaded through bin/load.js when one of them runs.
// main.cjs is what every start reads, hands to V8 with its code cache and evaluates the top level of (every function of
// the bundle is declared there, and is in every code cache of it): it holds the everyday reads whole (prices, markets,
// addresses, transfers, stream) and what every command shares. A module main.cjs holds is never copied into rare.cjs:
// rare.cjs takes it from main.cjs's own instance (one CoinopError class, one settings object), through the registry
// main.cjs hands it on entry. What is split: a group's index.ts as the command tree's loaders import() it (a group not in
// CORE_COMMAND_GROUPS), and every module imported with import() from within the folders of RARE_COMMAND_DIRS (their run
// modules). Both lists: scripts/rare-commands.mjs.
const RARE_DIRS = RARE_COMMAND_DIRS.map((d) => resolve(d));
const keyOf = (file) => relative(resolve('.'), file).split(sep).join('/');
const isRareEntry = (file) => RARE_DIRS.some((d) => file.startsWith(d + sep)) && !file.endsWith(`${sep}index.ts`);
// A command group's module (src/commands/<group>/index.ts) as the command tree's loaders import it, for a group
// main.cjs does not hold (scripts/rare-commands.mjs: CORE_COMMAND_GROUPS).
const PROGRAM_BASE = resolve('src/commands/program-base.ts');
const COMMANDS_DIR = resolve('src/commands');
const isRareGroup = (file, importer) =>
  importer === PROGRAM_BASE &&
  basename(file) === 'index.ts' &&
  dirname(dirname(file)) === COMMANDS_DIR &&
  !CORE_COMMAND_GROUPS.includes(basename(dirname(file)));
const rareEntries = new Set();
/** main.cjs's side: an import() of a rare entry becomes the rare bundle's copy; the registry it hands over. */
function splitRare(needed) {
  return {
    name: 'split-rare',
    setup(b) {
      b.onResolve({ filter: /\.js$/ }, (args) => {
        if (args.namespace !== 'file' || !args.path.startsWith('.')) return undefined;
        const file = resolve(args.resolveDir, args.path).replace(/\.js$/, '.ts');
        // A static import (the flag tables the command tree declares) stays in main.cjs.
        if (!(isRareEntry(file) || isRareGroup(file, args.importer)) || args.kind !== 'dynamic-import')
          return undefined;
        rareEntries.add(keyOf(file));
        return { path: keyOf(file), namespace: 'rare-entry' };
      });
      b.onLoad({ filter: /.*/, namespace: 'rare-entry' }, (args) => ({
        contents: `module.exports = require('../../bin/load.js').loadBundle('rare').exports.enter(require('coinop:main-modules').modules, ${JSON.stringify(args.path)});`,
        loader: 'js',
      }));
      b.onResolve({ filter: /^coinop:main-modules$/ }, () => ({ path: 'modules', namespace: 'main-modules' }));
      b.onLoad({ filter: /.*/, namespace: 'main-modules' }, () => {
        // Each module through a module of its own (below), required when rare.cjs first asks for it: entering
        // rare.cjs evaluates the modules of main.cjs that the command uses, not every one rare.cjs could use (among
        // them the prompts, whose package is read from node_modules).
        const keys = [...needed].sort();
        for (const key of keys) if (!exportsOf.get(key)) throw new Error(`build: the exports of ${key} are not known`);
        const entries = keys.map(
          (key) => `  ${JSON.stringify(key)}: () => require(${JSON.stringify(`coinop:main-module:${key}`)}).get(),`,
        );
        return {
          contents: `export const modules = {\n${entries.join('\n')}\n};\n`,
          loader: 'js',
          resolveDir: resolve('.'),
        };
      });
      b.onResolve({ filter: /^coinop:main-module:/ }, (args) => ({
        path: args.path.slice('coinop:main-module:'.length),
        namespace: 'main-module',
      }));
      b.onLoad({ filter: /.*/, namespace: 'main-module' }, (args) => {
        // The module as an object of getters over its exports (live bindings). Named imports, not the module's
        // namespace object: esbuild builds the namespace object of a module that is require()d at every start of
        // main.cjs, a getter for each export; this module's own has one.
        const names = exportsOf.get(args.path);
        const imports = `import { ${names.map((n) => `${n} as m$${n}`).join(', ')} } from ${JSON.stringify(resolve(args.path))};`;
        const getters = names.map((n) => `get ${n}() { return m$${n}; }`).join(', ');
        return {
          contents: `${imports}\nexport const get = () => ({ ${getters} });\n`,
          loader: 'js',
          resolveDir: resolve('.'),
        };
      });
    },
  };
}
/** rare.cjs's side: an import of a module main.cjs holds is main.cjs's instance of it. */
function fromMain(mainFiles, needed) {
  const SKIP = Symbol('from-main');
  return {
    name: 'from-main',
    setup(b) {
      b.onResolve({ filter: /^coinop:rare-link$/ }, () => ({ path: 'link', namespace: 'rare-link' }));
      b.onLoad({ filter: /.*/, namespace: 'rare-link' }, () => ({
        contents: `let modules;\nexports.link = (m) => { modules ??= m; };\nexports.from = (key) => {\n  if (!modules) throw new Error('rare.cjs was loaded without main.cjs');\n  return modules[key]();\n};\n`,
        loader: 'js',
      }));
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === SKIP || args.namespace !== 'file' || args.kind === 'entry-point') return undefined;
        const r = await b.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: SKIP,
        });
        if (r.errors.length || r.external || r.namespace !== 'file' || !mainFiles.has(keyOf(r.path))) return undefined;
        needed.add(keyOf(r.path));
        // Named as a CommonJS file whatever the original is: the stand-in sets module.exports, which in a file
        // esbuild takes for ESM (an .mjs, such as ws's wrapper) would be the bundle's own module object.
        return { path: `${keyOf(r.path)}.cjs`, namespace: 'from-main', pluginData: keyOf(r.path) };
      });
      b.onLoad({ filter: /.*/, namespace: 'from-main' }, (args) => ({
        contents: `module.exports = require('coinop:rare-link').from(${JSON.stringify(args.pluginData)});`,
        loader: 'js',
      }));
    },
  };
}
/** An entry module given as text (resolveDir: the project). */
const virtualEntry = (name, contents, loader = 'js') => ({
  name: `${name}-entry`,
  setup(b) {
    b.onResolve({ filter: new RegExp(`^coinop-entry:${name}$`) }, () => ({ path: name, namespace: 'entry' }));
    b.onLoad({ filter: /.*/, namespace: 'entry' }, () => ({ contents, loader, resolveDir: resolve('.') }));
  },
});
const needed = new Set();
const exportsOf = new Map();
// First main.cjs (what it holds decides what rare.cjs takes from it), then rare.cjs (which finds what it needs of
// main.cjs), then main.cjs again with that registry.
const mainFiles = (built) =>
  new Set(
    Object.keys(built.metafile.inputs)
      .filter((p) => !p.includes(':'))
      .map((p) => keyOf(resolve(p))),
  );
let app = await appBundle('main', 'src/commands/main.ts', [splitLocal, splitRare(needed)]);
const held = mainFiles(app);
const rareEntry = `const { link } = require('coinop:rare-link');\nconst entries = {\n${[...rareEntries]
  .sort()
  .map((key) => `  ${JSON.stringify(key)}: () => require(${JSON.stringify(resolve(key))}),`)
  .join('\n')}\n};\nexports.enter = (modules, key) => {\n  link(modules);\n  return entries[key]();\n};\n`;
const rare = await appBundle('rare', 'coinop-entry:rare', [
  fromMain(held, needed),
  virtualEntry('rare', rareEntry),
  splitLocal,
]);
for (const key of Object.keys(rare.metafile.inputs)
  .filter((p) => !p.includes(':'))
  .map((p) => keyOf(resolve(p))))
  if (held.has(key)) throw new Error(`build: rare.cjs holds a copy of ${key}, which main.cjs holds`);
// The export names of each module rare.cjs takes from main.cjs (esbuild says them, building each as an entry).
if (needed.size) {
  const alone = await build({
    entryPoints: [...needed].map((key) => resolve(key)),
    // Bundled (packages left out), so that a barrel's export * is resolved into names.
    bundle: true,
    splitting: true,
    packages: 'external',
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'node',
    outdir: join(out, 'exports-of'),
    plugins: GENERATED_MODULES,
    logLevel: 'warning',
  });
  for (const output of Object.values(alone.metafile.outputs))
    if (output.entryPoint) exportsOf.set(keyOf(resolve(output.entryPoint)), output.exports);
}
app = await appBundle('main', 'src/commands/main.ts', [splitLocal, splitRare(needed)]);
if (mainFiles(app).size !== held.size) throw new Error('build: main.cjs changed between its two builds');
for (const file of SUBSTITUTED)
  if (!replaced.has(file))
    throw new Error(`build: main.cjs was bundled without the generated ${file}: its plugin filter matched nothing`);
const localBuilt = await appBundle('local', 'src/local/app-entry.ts', [
  {
    name: 'local-entry',
    setup(b) {
      b.onResolve({ filter: /^src\/local\/app-entry\.ts$/ }, () => ({ path: resolve('src/local/app-entry.ts') }));
      b.onLoad({ filter: /[\\/]src[\\/]local[\\/]app-entry\.ts$/ }, () => ({
        contents: LOCAL_ENTRY,
        loader: 'ts',
        resolveDir: resolve('src/local'),
      }));
    },
  },
]);

// vendor.cjs: the packages main.cjs and rare.cjs take from it, each evaluated when first asked for.
const vendorEntry = `const packages = {\n${[...vendorIds]
  .sort()
  .map((id) => `  ${JSON.stringify(id)}: () => require(${JSON.stringify(id)}),`)
  .join(
    '\n',
  )}\n};\nexports.load = (id) => {\n  const p = packages[id];\n  if (!p) throw new Error(\`vendor.cjs holds no \${id}\`);\n  return p();\n};\n`;
const vendor = await appBundle('vendor', 'coinop-entry:vendor', [virtualEntry('vendor', vendorEntry)], {
  vendor: false,
});
// What each bundle holds, module by module: test/cli/speed.test.ts checks what main.cjs may hold.
const inputsOf = (built) =>
  Object.keys(built.metafile.inputs)
    .filter((p) => !p.includes(':'))
    .map((p) => keyOf(resolve(p)))
    .sort();
writeFileSync(
  join(out, 'app/inputs.json'),
  `${JSON.stringify({ main: inputsOf(app), rare: inputsOf(rare), local: inputsOf(localBuilt), vendor: inputsOf(vendor) }, null, 1)}\n`,
);
for (const [file, built] of [
  ['main.cjs', app],
  ['rare.cjs', rare],
  ['local.cjs', localBuilt],
])
  for (const key of inputsOf(built))
    if (/node_modules\/(ws|conf|semver|@noble|@scure)\//.test(key))
      throw new Error(`build: ${file} holds ${key}, which vendor.cjs is for`);

if (process.env.COINOP_METAFILE) writeFileSync(process.env.COINOP_METAFILE, JSON.stringify(app.metafile));

// The launcher compiles the bundle as a vm.Script, which has no loader for import(): none may be left in it.
// bin/load.js reads the bundles as latin1: they must be ASCII (esbuild's default charset escapes everything else).
for (const file of ['main.cjs', 'local.cjs', 'rare.cjs', 'vendor.cjs']) {
  const text = readFileSync(join(out, 'app', file), 'utf8');
  if (/\bimport\(/.test(text))
    throw new Error(`build: dist/app/${file} has a dynamic import(); import node built-ins statically`);
  if (/[^\x00-\x7f]/.test(text))
    throw new Error(`build: dist/app/${file} is not ASCII (bin/load.js reads it as latin1)`);
}

const old = `dist.old-${process.pid}`;
try {
  renameSync('dist', old);
} catch {
  /* no dist yet */
}
renameSync(out, 'dist');
rmSync(old, { recursive: true, force: true });

// The top-level help is the same text on every run (80 columns when not on a terminal, colour never applies), so
// the launcher prints this copy instead of loading the bundle and building the whole command tree for it.
// test/cli/speed.test.ts checks the copy equals what commander renders.
const help = spawnSync(process.execPath, ['-e', "require('./dist/app/main.cjs').main(['node', 'coinop', '--help'])"], {
  encoding: 'utf8',
  env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '' },
});
if (help.status === 0 && help.stdout.startsWith('Usage: coinop')) writeFileSync('dist/app/help-80.txt', help.stdout);
else console.warn(`build: top-level help not cached (${help.stderr || help.status})`);

// The code cache, made last from the bundle in place (a coinop started meanwhile compiles from source).
const cache = spawnSync(process.execPath, ['scripts/code-cache.cjs'], {
  encoding: 'utf8',
  env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '' },
});
if (cache.status !== 0)
  console.warn(`build: no code cache (${(cache.stderr || cache.stdout || cache.status).toString().trim()})`);
