// Builds dist/ from src/ for Node 20. Type checking is `npm run typecheck`.
//   dist/**     one ESM file per TypeScript module (what the bench and proof scripts import, such as
//               dist/local/service.js).
//   dist/app/   the CLI as the launcher runs it: one ESM bundle with code splitting, so start-up reads a few files
//               and each command's code is its own chunk, loaded only when that command runs.
// Both carry the contract's request validators precompiled (Ajv standalone code, see src/api/precompiled.ts).
import { build } from 'esbuild';
import { readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

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

// Every operation's params, query and body schema, compiled once here with the options validate.ts uses.
async function precompiledValidators() {
  const { Ajv } = require('ajv');
  const standaloneCode = require('ajv/dist/standalone').default;
  const addFormats = require('ajv-formats').default;
  const { operations } = await import(pathToFileURL(resolve(out, 'api/operations.js')).href);
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: true, validateSchema: false, code: { source: true, esm: true } });
  addFormats(ajv, ['date-time']);
  const ids = new Map();
  for (const op of Object.values(operations)) {
    for (const part of ['params', 'query', 'body']) {
      const key = op[part] && JSON.stringify(op[part]);
      if (!key || ids.has(key)) continue;
      ids.set(key, `v${ids.size}`);
      ajv.addSchema(op[part], `v${ids.size - 1}`);
    }
  }
  const code = standaloneCode(ajv, Object.fromEntries([...ids.values()].map((id) => [id, id])));
  const table = [...ids].map(([key, id]) => `  ${JSON.stringify(key)}: ${id},`).join('\n');
  return `${code}\nexport const PRECOMPILED = {\n${table}\n};\n`;
}
const validators = await precompiledValidators();
// The standalone code require()s two small Ajv runtime helpers.
writeFileSync(
  join(out, 'api/precompiled.js'),
  `import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n${validators.replace('"use strict";', '')}`,
);

await build({
  entryPoints: { main: 'src/cli/main.ts' },
  outdir: join(out, 'app'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  define,
  // Native: loaded from node_modules at run time.
  external: ['better-sqlite3'],
  // Bundled CommonJS packages call require() for node's own modules; ESM has none, so give them one.
  banner: { js: "import { createRequire as __coinopRequire } from 'node:module'; const require = __coinopRequire(import.meta.url);" },
  chunkNames: 'chunks/[name]-[hash]',
  // Less to parse at every start; names are kept (error classes are told apart by name).
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [
    {
      // Packages that load a module at start for a feature coinop does not use: loaded on first use instead.
      // commander: child_process for executable subcommands (coinop has none); fastify: semver to check plugins'
      // fastify versions (the local service registers none that declare one).
      name: 'lazy-requires',
      setup(b) {
        const lazy = [
          [/[\\/]commander[\\/]lib[\\/]command\.js$/, "const childProcess = require('node:child_process');", "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };"],
          [/[\\/]fastify[\\/]lib[\\/]plugin-utils\.js$/, "const semver = require('semver')", "const semver = { gt: (...a) => require('semver').gt(...a), coerce: (...a) => require('semver').coerce(...a), satisfies: (...a) => require('semver').satisfies(...a) }"],
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
      name: 'precompiled-validators',
      setup(b) {
        b.onLoad({ filter: /[\\/]src[\\/]api[\\/]precompiled\.ts$/ }, () => ({ contents: validators, loader: 'js', resolveDir: resolve('src/api') }));
      },
    },
  ],
  logLevel: 'warning',
});

const old = `dist.old-${process.pid}`;
try {
  renameSync('dist', old);
} catch {
  /* no dist yet */
}
renameSync(out, 'dist');
rmSync(old, { recursive: true, force: true });
