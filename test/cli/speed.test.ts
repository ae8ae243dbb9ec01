// The speed work must not change behaviour: a command line builds only its group yet the same commands, the
// built validators (Ajv standalone, precompiled at build time) find exactly what compiled ones find, and the
// launcher answers --version alone. Needs the build (npm test builds first).
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { createRequire, SourceMap } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { makeProgram } from '../../src/commands/program.js';
import { groupNamed, programFor } from '../../src/commands/program-base.js';
import { createContext } from '../../src/cli/invocation.js';
import { makeIO } from '../../src/cli/io.js';
import * as src from '../../src/contract/index.js';
import { ROOT } from '../support/paths.js';
import { CORE_COMMAND_GROUPS } from '../../scripts/rare-commands.mjs';

const require = createRequire(import.meta.url);

function tree(argv?: string[]): Command {
  const io = makeIO({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough() }, { env: {} });
  return makeProgram(createContext(io, {}, '0.0.0'), argv);
}

const names = (cmd: Command): string[] =>
  cmd.commands.flatMap((c) => [c.name(), ...names(c).map((n) => `${c.name()} ${n}`)]);

describe('start-up work', () => {
  it('a command line that names a command builds that command exactly as the whole tree has it', () => {
    const full = tree();
    const everything = names(full);
    for (const top of full.commands) {
      const part = tree(['node', 'coinop', '--context', 'x', '-o', 'json', top.name(), '--help']);
      expect(names(part).filter((n) => n === top.name() || n.startsWith(`${top.name()} `))).toEqual(
        everything.filter((n) => n === top.name() || n.startsWith(`${top.name()} `)),
      );
      const built = part.commands.find((c) => c.name() === top.name())!;
      expect(built.helpInformation()).toBe(top.helpInformation());
    }
    // Help, an unknown word (suggestions need every name) and completion build everything.
    for (const argv of [['--help'], ['pricse'], ['completion', 'bash'], []])
      expect(names(tree(['node', 'coinop', ...argv]))).toEqual(everything);
  });

  it('what coinop runs (programFor: only the named group loaded) is the same tree, command for command', async () => {
    const io = makeIO({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough() }, { env: {} });
    const lazy = (argv: string[]) => programFor(createContext(io, {}, '0.0.0'), ['node', 'coinop', ...argv]);
    const full = tree();
    const everything = names(full);
    expect(names(await lazy(['--help']))).toEqual(everything);
    for (const top of full.commands) {
      const part = await lazy(['--context', 'x', top.name(), '--help']);
      const mine = (n: string) => n === top.name() || n.startsWith(`${top.name()} `);
      expect(names(part).filter(mine)).toEqual(everything.filter(mine));
      expect(part.commands.find((c) => c.name() === top.name())!.helpInformation()).toBe(top.helpInformation());
    }
    expect(groupNamed(['node', 'coinop', 'prices', 'BTCUSD'])).toBe('prices');
    expect(groupNamed(['node', 'coinop', 'ticker'])).toBe('markets');
    expect(groupNamed(['node', 'coinop', 'constructor'])).toBeUndefined();
  });

  it('a plain request evaluates only its own group: no other command, the MCP SDK, YAML, prompts, the local service or the gate', () => {
    // The bundle's modules, as it initialises them, in a child process running `coinop prices` against nothing: the
    // usage error comes after the command's modules are loaded, before anything is sent.
    const probe = `
      const Module = require('node:module');
      const seen = new Set();
      const orig = Module.prototype.require;
      Module.prototype.require = function (id) { seen.add(id); return orig.apply(this, arguments); };
      const { app } = require('./bin/load.js').loadApp({ useCache: false });
      app.runCli(['node', 'coinop', 'prices', 'NOTAMARKET', '--no-input'], {
        stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: { ...process.env, NO_COLOR: '1' },
      }).then(() => process.stdout.write('\\nREQUIRED ' + JSON.stringify([...seen]) + '\\n'));
    `;
    const out = execFileSync(process.execPath, ['-e', probe], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const required = JSON.parse(out.split('REQUIRED ')[1]) as string[];
    for (const pkg of [
      '@modelcontextprotocol/sdk',
      'yaml',
      '@inquirer/prompts',
      '@inquirer/core',
      'better-sqlite3',
      'ajv',
    ])
      expect(required.filter((r) => r === pkg || r.startsWith(`${pkg}/`))).toEqual([]);
    // Nor node:crypto (the launcher's cache checksum is plain JS).
    expect(required.filter((r) => r === 'node:crypto' || r === 'crypto')).toEqual([]);
    // They are required from node_modules by the bundle that uses them (main.cjs, or rare.cjs for the MCP server),
    // never bundled.
    const bundles = ['main.cjs', 'rare.cjs'].map((f) => readFileSync(join(ROOT, 'dist/app', f), 'utf8')).join('\n');
    for (const pkg of ['@modelcontextprotocol/sdk', 'yaml', '@inquirer/prompts'])
      expect(bundles).toContain(`require("${pkg}`);
  });

  it('main.cjs holds the everyday reads alone; another group runs from rare.cjs, both with their caches, evaluating only the modules of main.cjs it uses', () => {
    const inputs = JSON.parse(readFileSync(join(ROOT, 'dist/app/inputs.json'), 'utf8')) as Record<string, string[]>;
    const groupOf = (f: string) => /^src\/commands\/([\w-]+)\/index\.ts$/.exec(f)?.[1];
    const groups = (bundle: string) => inputs[bundle].map(groupOf).filter((g) => g !== undefined);
    expect(groups('main').sort()).toEqual([...CORE_COMMAND_GROUPS].sort());
    expect(groups('rare')).toEqual(expect.arrayContaining(['withdraw', 'fee', 'balances', 'auth', 'config', 'local']));
    // The work of addresses create (the gate, the policy) and verify is rare.cjs's too.
    expect(
      inputs.main.filter((f) => /^src\/(gate|policy)\//.test(f) || f.startsWith('src/commands/addresses/create/')),
    ).toEqual([]);
    // `coinop withdraw --help` through the launcher: the bundles it loaded, whether each took its cache, and what it
    // required from node_modules (entering rare.cjs once evaluated every module of main.cjs rare.cjs could use, the
    // prompts' package among them).
    const probe = `
      const Module = require('node:module');
      const seen = new Set();
      const orig = Module.prototype.require;
      Module.prototype.require = function (id) { seen.add(id); return orig.apply(this, arguments); };
      process.on('exit', () => {
        const { loaded } = require(${JSON.stringify(join(ROOT, 'bin/load.js'))});
        const bundles = Object.fromEntries(Object.entries(loaded).map(([k, b]) => [k, b.cacheRejected]));
        require('node:fs').writeSync(2, '\\nPROBE ' + JSON.stringify({ bundles, required: [...seen] }) + '\\n');
      });
    `;
    const dir = mkdtempSync(join(tmpdir(), 'coinop-rare-'));
    try {
      writeFileSync(join(dir, 'probe.cjs'), probe);
      const run = spawnSync(
        process.execPath,
        ['-r', join(dir, 'probe.cjs'), join(ROOT, 'bin/coinop.js'), 'withdraw', '--help'],
        {
          encoding: 'utf8',
          env: {
            PATH: process.env.PATH,
            HOME: dir,
            COINOP_CONFIG_DIR: join(dir, 'cfg'),
            COINOP_DATA_DIR: join(dir, 'data'),
          },
        },
      );
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain('Usage: coinop withdraw');
      const seen = JSON.parse(run.stderr.split('PROBE ')[1]) as {
        bundles: Record<string, boolean>;
        required: string[];
      };
      expect(seen.bundles).toEqual({ main: false, rare: false });
      expect(seen.required.filter((r) => r.startsWith('@inquirer/'))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a request on a running service loads main.cjs alone and evaluates neither the address codecs nor the rare commands', async () => {
    // A copy of main.cjs whose module helpers (esbuild's __esm and __commonJS) note each module's function as it is
    // evaluated, run in a child process for `coinop prices` against a local service: where each function is in the
    // bundle (its text's offset) names its module through the bundle's source map, and bin/load.js says which bundles
    // it loaded. (The bundle's identifiers are minified: the helpers are found by their shape.)
    const esm = /var (\w+)=\((\w+),(\w+)\)=>\(\)=>\(\2&&\(\3=\2\(\2=0\)\),\3\)/;
    const cjs = /var (\w+)=\((\w+),(\w+)\)=>\(\)=>\(\3\|\|\2\(\(\3=\{exports:\{\}\}\)\.exports,\3\),\3\.exports\)/;
    const original = readFileSync(join(ROOT, 'dist/app/main.cjs'), 'latin1');
    expect(original).toMatch(esm);
    expect(original).toMatch(cjs);
    const text = original
      .replace(esm, (_, helper: string, init: string, result: string) => {
        return `var ${helper}=(${init},${result})=>()=>(${init}&&globalThis.evaluated.push(${init}),${init}&&(${result}=${init}(${init}=0)),${result})`;
      })
      .replace(cjs, (_, helper: string, init: string, mod: string) => {
        return `var ${helper}=(${init},${mod})=>()=>(${mod}||globalThis.evaluated.push(${init}),${mod}||${init}((${mod}={exports:{}}).exports,${mod}),${mod}.exports)`;
      });
    /** The source file of the module whose function starts at this offset of main.cjs. */
    const map = new SourceMap(JSON.parse(readFileSync(join(ROOT, 'dist/app/main.cjs.map'), 'utf8')));
    const moduleAt = (offset: number): string => {
      const before = original.slice(0, offset).split('\n');
      const line = before.length - 1;
      // The first mapped position inside the function: its body's first statement.
      for (let col = before[line].length + 1; col < before[line].length + 400; col++) {
        const at = map.findEntry(line, col) as { originalSource?: string; generatedColumn?: number };
        if (at.originalSource && (at.generatedColumn ?? 0) > before[line].length)
          return relative(ROOT, resolve(ROOT, 'dist/app', at.originalSource))
            .split(sep)
            .join('/');
      }
      return '?';
    };
    mkdirSync(join(ROOT, '.tmp'), { recursive: true });
    const dir = mkdtempSync(join(ROOT, '.tmp', 'probe-'));
    const { startLocalService } = (await import(pathToFileURL(join(ROOT, 'dist/local/service.js')).href)) as {
      startLocalService: (o: object) => Promise<{ baseUrl: string; close(): Promise<void> }>;
    };
    const svc = await startLocalService({ port: 0, memory: true });
    try {
      // Beside the stores it reads (the schemas', and the validators' it would otherwise do without).
      mkdirSync(join(dir, 'app'));
      writeFileSync(join(dir, 'app', 'main.cjs'), text);
      for (const store of ['schemas.txt', 'validators.txt'])
        cpSync(join(ROOT, 'dist/app', store), join(dir, 'app', store));
      const probe = `
        globalThis.evaluated = [];
        const { loaded } = require(${JSON.stringify(join(ROOT, 'bin/load.js'))});
        loaded.main = { exports: require(${JSON.stringify(join(dir, 'app', 'main.cjs'))}) };
        const original = require('node:fs').readFileSync(${JSON.stringify(join(ROOT, 'dist/app/main.cjs'))}, 'latin1');
        loaded.main.exports.runCli(['node', 'coinop', 'prices', 'BTCUSD', '--increment', 'ONE_HOUR', '-o', 'json'], {
          stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env,
        }).then((code) => process.stdout.write('\\nSEEN ' + JSON.stringify({ code, offsets: globalThis.evaluated.map((f) => { const t = f.toString(); const at = original.indexOf(t); return at === original.lastIndexOf(t) ? at : -t.length; }), bundles: Object.keys(loaded) }) + '\\n'));
      `;
      // Asynchronous: the service answering runs in this process.
      const r = await new Promise<{ stdout: string; stderr: string }>((done, fail) =>
        execFile(
          process.execPath,
          ['-e', probe],
          {
            cwd: ROOT,
            encoding: 'utf8',
            env: {
              PATH: process.env.PATH,
              HOME: join(dir, 'home'),
              COINOP_CONFIG_DIR: join(dir, 'config'),
              COINOP_DATA_DIR: join(dir, 'data'),
              COINOP_BASE_URL: svc.baseUrl,
              NO_COLOR: '1',
            },
          },
          (error, stdout, stderr) => (error ? fail(error) : done({ stdout, stderr })),
        ),
      );
      expect(r.stderr).toBe('');
      const seen = JSON.parse(r.stdout.split('SEEN ')[1]) as { code: number; offsets: number[]; bundles: string[] };
      expect(seen.code).toBe(0);
      // A function whose text is not unique in the bundle cannot be placed: only empty ones (a module with nothing to
      // run, `()=>{}`-like) may be so.
      expect(seen.offsets.filter((o) => o < -40)).toEqual([]);
      const modules = seen.offsets.filter((o) => o >= 0).map(moduleAt);
      expect(r.stdout).toContain('"average_price"');
      // The request was checked against the contract (its validators were evaluated) ...
      expect(modules).toContain('src/contract/validate.ts');
      expect(modules).toContain('src/commands/prices/run.ts');
      // ... but no address was, so no codec or hash was evaluated (their stubs were: lazy-packages in the build).
      expect(modules.filter((m) => /\/(@noble|@scure|hash-wasm)\//.test(m))).toEqual([]);
      // Nor decimal.js: a read reckons no amount (src/contract/money.ts makes its Decimal on first use).
      expect(modules.filter((m) => /\/decimal\.js\//.test(m))).toEqual([]);
      expect(modules.filter((m) => /^src\/(mcp|gateway|batch|events|policy)\//.test(m))).toEqual([]);
      expect(seen.bundles).toEqual(['main']);
    } finally {
      await svc.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('main.cjs and local.cjs hold neither the validators nor the vendor packages; a plain request reads only the chunks of its own validators, never vendor.cjs, rare.cjs or the time zone (nor the embedded default)', async () => {
    // What each bundle holds (written by the build): the WebSocket client, the config writer (conf, semver) and the
    // address codecs are vendor.cjs's; the validators' code is dist/app/validators.txt's, read a chunk at a time.
    const inputs = JSON.parse(readFileSync(join(ROOT, 'dist/app/inputs.json'), 'utf8')) as Record<string, string[]>;
    const vendored = /node_modules\/(ws|conf|semver|@noble|@scure)\//;
    for (const bundle of ['main', 'rare', 'local'])
      expect(
        inputs[bundle].filter((f) => vendored.test(f)),
        bundle,
      ).toEqual([]);
    expect(inputs.vendor.filter((f) => vendored.test(f)).length).toBeGreaterThan(10);
    for (const bundle of ['main.cjs', 'local.cjs', 'rare.cjs'])
      expect(readFileSync(join(ROOT, 'dist/app', bundle), 'latin1'), bundle).not.toMatch(
        /function validate\d+\(data,\s*\{/,
      );
    expect(readFileSync(join(ROOT, 'dist/app/validators.txt'), 'latin1')).toMatch(/function validate\d+\(data,\s*\{/);
    // Nor the contract's schemas: their JSON is dist/app/schemas.txt's, each chunk led by the build's id line.
    const strict = /\\?"additionalProperties\\?":false/;
    for (const bundle of ['main.cjs', 'local.cjs', 'rare.cjs'])
      expect(readFileSync(join(ROOT, 'dist/app', bundle), 'latin1'), bundle).not.toMatch(strict);
    const store = readFileSync(join(ROOT, 'dist/app/schemas.txt'), 'utf8');
    const id = readFileSync(join(ROOT, 'dist/app/main.cjs'), 'latin1').split('\n')[0];
    expect(
      store
        .split(`${id}\n`)
        .filter(Boolean)
        .every((json) => typeof JSON.parse(json) === 'object'),
    ).toBe(true);
    expect(store).toMatch(strict);
    // `coinop prices` through the launcher, with a probe that counts what it opened, loaded and formatted.
    const dir = mkdtempSync(join(tmpdir(), 'coinop-request-path-'));
    const { startLocalService } = (await import(pathToFileURL(join(ROOT, 'dist/local/service.js')).href)) as {
      startLocalService: (o: object) => Promise<{ baseUrl: string; close(): Promise<void> }>;
    };
    const svc = await startLocalService({ port: 0, memory: true });
    try {
      const probe = join(dir, 'probe.cjs');
      writeFileSync(
        probe,
        `const fs = require('node:fs');
        let iso = 0;
        const toISOString = Date.prototype.toISOString;
        Date.prototype.toISOString = function () { iso++; return toISOString.call(this); };
        const opened = [];
        const openSync = fs.openSync;
        fs.openSync = function (path, ...rest) { opened.push(String(path)); return openSync.call(this, path, ...rest); };
        process.on('exit', () => fs.writeSync(2, '\\nPROBE ' + JSON.stringify({ iso, bundles: Object.keys(require(${JSON.stringify(join(ROOT, 'bin/load.js'))}).loaded), validators: opened.filter((p) => p.endsWith('validators.txt')).length }) + '\\n'));`,
      );
      const env = (data: string, baseUrl?: string) => ({
        PATH: process.env.PATH,
        HOME: join(dir, 'home'),
        COINOP_CONFIG_DIR: join(dir, 'config'),
        COINOP_DATA_DIR: join(dir, data),
        NO_COLOR: '1',
        ...(baseUrl ? { COINOP_BASE_URL: baseUrl } : {}),
      });
      const prices = (e: Record<string, string | undefined>) =>
        // Asynchronous: the service answering runs in this process.
        new Promise<{ stdout: string; probe: { iso: number; bundles: string[]; validators: number } }>((done, fail) =>
          execFile(
            process.execPath,
            ['-r', probe, join(ROOT, 'bin/coinop.js'), 'prices', 'BTCUSD', '--increment', 'ONE_HOUR', '-o', 'json'],
            { encoding: 'utf8', env: e },
            (error, stdout, stderr) =>
              error ? fail(error) : done({ stdout, probe: JSON.parse(stderr.split('PROBE ')[1] ?? 'null') }),
          ),
        );
      await prices(env('data', svc.baseUrl)); // caches a token
      const running = await prices(env('data', svc.baseUrl));
      expect(running.stdout).toContain('"average_price"');
      // The query's and the market parameter's validators, nothing else; no time zone (a process's first
      // toISOString looks it up); main.cjs alone.
      expect(running.probe).toEqual({ iso: 0, bundles: ['main'], validators: 2 });
      // The embedded default: the local service's bundle as well, still no vendor.cjs, and no time zone either (the
      // service writes its times through src/contract/iso-time.ts too).
      await prices(env('embedded')); // makes the database (its demo data takes the address codecs: vendor.cjs)
      const embedded = await prices(env('embedded'));
      expect(embedded.stdout).toContain('"average_price"');
      expect(embedded.probe.bundles).toEqual(['main', 'local']);
      expect(embedded.probe.iso).toBe(0);
    } finally {
      await svc.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the built validators report the same issues as validators compiled at run time', async () => {
    const precompiled = join(ROOT, 'dist/contract/precompiled.js');
    expect(existsSync(precompiled), 'run npm run build first').toBe(true);
    const built = (await import(pathToFileURL(join(ROOT, 'dist/contract/index.js')).href)) as typeof src;
    const { precompiledValidator } = (await import(pathToFileURL(precompiled).href)) as {
      precompiledValidator: (key: string) => unknown;
    };
    // Every schema a request is checked against is in the store.
    const ops: src.Operation[] = Object.values(built.operations);
    for (const op of ops) {
      for (const part of [op.params, op.query, op.body])
        if (part) expect(precompiledValidator(JSON.stringify(part)), op.id).toBeTypeOf('function');
    }
    // A schema the store does not hold has none (validate.ts compiles it).
    expect(precompiledValidator(JSON.stringify({ type: 'string', maxLength: 3 }))).toBeUndefined();
    const cases: [
      src.OperationId,
      { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown },
    ][] = [
      [
        'createCryptoWithdrawal',
        {
          body: {
            profile_id: '',
            asset: 'BTC',
            crypto_network: 'MOON',
            destination_address: 'x',
            amount: '-1',
            extra: 1,
            metadata: { ['k'.repeat(200)]: 'v' },
          },
        },
      ],
      ['createCryptoWithdrawal', { body: [] }],
      [
        'createCryptoWithdrawal',
        {
          body: {
            profile_id: 'p',
            asset: 'BTC',
            crypto_network: 'BITCOIN',
            destination_address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
            amount: '0.1',
          },
        },
      ],
      ['createCryptoWithdrawalFee', { body: { asset: 5, total: '1e5' } }],
      [
        'listDepositAddresses',
        { query: { limit: '5000', crypto_network: ['BITCOIN', 'NOPE'], 'created_at.lt': 'yesterday', unknown: 'x' } },
      ],
      ['listTransfers', { query: { limit: 'ten', status: 'DONE' } }],
      [
        'listHistoricalPrices',
        { params: { market: 'BTCXYZ' }, query: { increment: 'ONE_HOUR', 'range.begin': '2026-01-01' } },
      ],
      ['getTransfer', { params: { id: 'x'.repeat(3000) } }],
    ];
    for (const [id, parts] of cases) {
      expect(built.requestIssues(built.operations[id], parts), id).toEqual(
        src.requestIssues(src.operations[id], parts),
      );
    }
  });

  it('the launcher answers --version with the package version, and the bundle runs the CLI', () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const bin = join(ROOT, 'bin/coinop.js');
    expect(execFileSync(process.execPath, [bin, '--version'], { encoding: 'utf8' })).toBe(`${version}\n`);
    expect(execFileSync(process.execPath, [bin, '--help'], { encoding: 'utf8' })).toContain('Usage: coinop');
  });

  it('the launcher writes the version without making process.stdout (its stream loads node:net for a pipe)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'coinop-version-'));
    try {
      const probe = join(dir, 'probe.cjs');
      writeFileSync(
        probe,
        `process.on('exit', () => require('node:fs').writeSync(2, JSON.stringify(process.moduleLoadList.filter((m) => /^NativeModule (net|tty|internal\\/fs\\/sync_write_stream)$/.test(m)))));`,
      );
      const bin = join(ROOT, 'bin/coinop.js');
      const r = spawnSync(process.execPath, ['-r', probe, bin, '--version'], { encoding: 'utf8' });
      expect(r.stdout).toMatch(/^\d+\.\d+\.\d+/);
      expect(JSON.parse(r.stderr)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the launcher ends quietly when the reader has gone (coinop --version | true): no EPIPE trace, exit 0', () => {
    const bin = join(ROOT, 'bin/coinop.js');
    // `true` exits long before node has started, so the launcher's one write meets a closed pipe.
    const r = spawnSync('bash', ['-c', 'set -o pipefail; "$0" "$1" --version | true', process.execPath, bin], {
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('the launcher prints the saved top-level help, and it is exactly what commander renders now', () => {
    const bin = join(ROOT, 'bin/coinop.js');
    const saved = readFileSync(join(ROOT, 'dist/app/help-80.txt'), 'utf8');
    // Rendered by the bundle itself, bypassing the launcher, with stdout piped (80 columns) as in the build.
    const rendered = execFileSync(
      process.execPath,
      ['-e', `require(${JSON.stringify(join(ROOT, 'dist/app/main.cjs'))}).main(['node', 'coinop', '--help'])`],
      { encoding: 'utf8' },
    );
    expect(rendered).toMatch(/^Usage: coinop/);
    expect(saved).toBe(rendered);
    expect(execFileSync(process.execPath, [bin, '--help'], { encoding: 'utf8' })).toBe(rendered);
    expect(execFileSync(process.execPath, [bin, '-h'], { encoding: 'utf8' })).toBe(rendered);
    // A sub-command's help still comes from commander.
    expect(execFileSync(process.execPath, [bin, 'withdraw', '--help'], { encoding: 'utf8' })).toMatch(
      /^Usage: coinop withdraw/,
    );
  });

  it('the launcher compiles the bundle with the code cache the build made, and V8 takes it', () => {
    expect(existsSync(join(ROOT, 'dist/app/main.cjs.cache')), 'the build makes the code cache').toBe(true);
    const out = execFileSync(
      process.execPath,
      [
        '-e',
        `const r = require(${JSON.stringify(join(ROOT, 'bin/load.js'))}).loadApp(); console.log(JSON.stringify({ rejected: r.cacheRejected, main: typeof r.app.main }))`,
      ],
      { encoding: 'utf8' },
    );
    expect(JSON.parse(out)).toEqual({ rejected: false, main: 'function' });
  });

  it('the bundle is compiled from its text as read: no second copy of it on the young heap (it cost a scavenge at every start)', () => {
    // The bundle is its own module wrapper (scripts/build.mjs), so bin/load.js hands V8 the text node read (a string
    // outside the heap from node's 1 MB on, one large string below); wrapping it at run time (Module.wrap) made V8
    // copy all of it into one more young string.
    const out = execFileSync(
      process.execPath,
      [
        '-e',
        `const v8 = require('node:v8');
         // Large objects: young, or old once a scavenge has moved them.
         const large = () => v8.getHeapSpaceStatistics().filter((s) => /^(new_)?large_object_space$/.test(s.space_name)).reduce((n, s) => n + s.space_used_size, 0);
         const before = large();
         const r = require(${JSON.stringify(join(ROOT, 'bin/load.js'))}).loadBundle('main');
         console.log(JSON.stringify({ grew: large() - before, main: typeof r.exports.main }))`,
      ],
      { encoding: 'utf8' },
    );
    const { grew, main } = JSON.parse(out);
    expect(main).toBe('function');
    // At most the one string of the text (main.cjs is under 1 MB since its validators and vendor packages left it).
    expect(grew).toBeLessThan(readFileSync(join(ROOT, 'dist/app/main.cjs')).length * 1.5);
    // And a bundle is still a plain CommonJS file.
    expect(typeof require(join(ROOT, 'dist/app/main.cjs')).main).toBe('function');
  });

  it('checking the code cache loads no node:zlib (its binding sums the bytes; the module is a plain request spent)', () => {
    const run = (env: Record<string, string> = {}) =>
      JSON.parse(
        execFileSync(
          process.execPath,
          [
            '-e',
            `process.argv[2] = 'prices'; const r = require(${JSON.stringify(join(ROOT, 'bin/load.js'))}).loadApp(); console.log(JSON.stringify({ rejected: r.cacheRejected, zlib: process.moduleLoadList.includes('NativeModule zlib') }))`,
          ],
          { encoding: 'utf8', env: { ...process.env, ...env } },
        ),
      );
    expect(run()).toEqual({ rejected: false, zlib: false });
    // Asked to warn of deprecations, the launcher leaves process.binding() alone and takes node:zlib's.
    expect(run({ NODE_PENDING_DEPRECATION: '1' })).toEqual({ rejected: false, zlib: true });
  });

  it('an everyday command starts with a CLI cache of its own, smaller than the shared one, which V8 takes', () => {
    const load = require(join(ROOT, 'bin/load.js')) as {
      OWN_CACHE: Set<string>;
      cachesFor: (name: string, file: string, argv: string[]) => string[];
    };
    const main = join(ROOT, 'dist/app/main.cjs');
    const shared = readFileSync(`${main}.cache`).length;
    expect([...load.OWN_CACHE].sort()).toEqual(['addresses', 'prices', 'stream', 'transfers']);
    for (const command of load.OWN_CACHE) {
      expect(load.cachesFor('main', main, ['node', 'coinop', command])).toEqual([
        `${main}.${command}.cache`,
        `${main}.cache`,
      ]);
      expect(readFileSync(`${main}.${command}.cache`).length, command).toBeLessThan(shared * 0.9);
    }
    // Options first, another command, the service's bundle: the shared cache.
    expect(load.cachesFor('main', main, ['node', 'coinop', '-o', 'json', 'prices'])).toEqual([`${main}.cache`]);
    expect(load.cachesFor('main', main, ['node', 'coinop', 'withdraw'])).toEqual([`${main}.cache`]);
    expect(load.cachesFor('local', 'local.cjs', ['node', 'coinop', 'prices'])).toEqual(['local.cjs.cache']);
    // The launcher as a `coinop prices` starts: V8 takes the command's cache.
    const out = execFileSync(
      process.execPath,
      [
        '-e',
        `process.argv[2] = 'prices'; const r = require(${JSON.stringify(join(ROOT, 'bin/load.js'))}).loadApp(); console.log(JSON.stringify({ rejected: r.cacheRejected, main: typeof r.app.main }))`,
      ],
      { encoding: 'utf8' },
    );
    expect(JSON.parse(out)).toEqual({ rejected: false, main: 'function' });
  });

  it('the local service bundle evaluates no node:crypto when loaded (a request with an issued token needs none)', () => {
    const probe = `
      const Module = require('node:module');
      const seen = new Set();
      const orig = Module.prototype.require;
      Module.prototype.require = function (id) { seen.add(id); return orig.apply(this, arguments); };
      require('./bin/load.js').loadBundle('local', { useCache: false });
      process.stdout.write('REQUIRED ' + JSON.stringify([...seen]) + '\\n');
    `;
    const out = execFileSync(process.execPath, ['-e', probe], { cwd: ROOT, encoding: 'utf8' });
    const required = JSON.parse(out.split('REQUIRED ')[1]) as string[];
    expect(required).toContain('node:http');
    expect(required.filter((r) => r === 'node:crypto' || r === 'crypto')).toEqual([]);
  });

  /** loadApp() on a copy of the launcher, bundle and cache, each changed by `alter`: whether V8 was offered the cache. */
  function loadCopy(alter: { bundle?: (b: string) => string; cache?: (c: Buffer) => Buffer }): {
    rejected: boolean | null;
    main: string;
  } {
    const dir = mkdtempSync(join(tmpdir(), 'coinop-cache-'));
    try {
      mkdirSync(join(dir, 'bin'));
      mkdirSync(join(dir, 'dist/app'), { recursive: true });
      cpSync(join(ROOT, 'bin/load.js'), join(dir, 'bin/load.js'));
      writeFileSync(join(dir, 'bin/package.json'), '{ "type": "commonjs" }');
      const bundle = readFileSync(join(ROOT, 'dist/app/main.cjs'), 'utf8');
      writeFileSync(join(dir, 'dist/app/main.cjs'), alter.bundle ? alter.bundle(bundle) : bundle);
      const cache = readFileSync(join(ROOT, 'dist/app/main.cjs.cache'));
      writeFileSync(join(dir, 'dist/app/main.cjs.cache'), alter.cache ? alter.cache(Buffer.from(cache)) : cache);
      const code = `const r = require(${JSON.stringify(join(dir, 'bin/load.js'))}).loadApp(); console.log(JSON.stringify({ rejected: r.cacheRejected ?? null, main: typeof r.app.main }))`;
      // NODE_PATH: the copied bundle requires its native and external packages from the project's node_modules.
      return JSON.parse(
        execFileSync(process.execPath, ['-e', code], {
          encoding: 'utf8',
          env: { ...process.env, NODE_PATH: join(ROOT, 'node_modules') },
        }),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it('a code cache made from another build is never used: the bundle compiles from source and runs', () => {
    expect(loadCopy({})).toEqual({ rejected: false, main: 'function' });
    // The build id differs in one character: the same length, so V8's own check, which looks at the length only,
    // would take the cache.
    const otherBuild = (build: string) => {
      const nl = build.indexOf('\n');
      return build.slice(0, nl - 1) + (build[nl - 1] === '0' ? '1' : '0') + build.slice(nl);
    };
    expect(loadCopy({ bundle: otherBuild })).toEqual({ rejected: null, main: 'function' });
  });

  it('a damaged code cache is never handed to V8 (it would abort the process): the bundle compiles from source', () => {
    const flip = (at: number) => (chunk: Buffer) => {
      for (let i = at; i < at + 64 && i < chunk.length; i++) chunk[i] ^= 0xff;
      return chunk;
    };
    for (const at of [100, 400_000])
      expect(loadCopy({ cache: flip(at) })).toEqual({ rejected: null, main: 'function' });
  });

  it('the launcher says how to build when the bundle is missing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'coinop-unbuilt-'));
    try {
      mkdirSync(join(dir, 'bin'));
      for (const f of ['coinop.js', 'load.js', 'package.json']) cpSync(join(ROOT, 'bin', f), join(dir, 'bin', f));
      const r = spawnSync(process.execPath, [join(dir, 'bin/coinop.js'), 'prices'], { encoding: 'utf8' });
      expect(r.status).toBe(1);
      expect(r.stderr).toBe('coinop: not built yet: run npm install (or npm run build) in its folder\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
