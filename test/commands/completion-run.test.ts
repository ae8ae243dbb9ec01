// coinop completion, __complete and __man runs with fakes of their ports (test/commands/ports.ts), in process: the
// scripts and the man page written are the ones committed (completions/, man/coinop.1), generated from the command
// tree; __complete lists the saved contexts of a configuration directory of the test's own.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/cli/invocation.js';
import { makeIO } from '../../src/cli/io.js';
import type { ContextStore } from '../../src/cli/ports.js';
import { complete, completion, man } from '../../src/commands/completion/run.js';
import { makeProgram } from '../../src/commands/program.js';
import { ConfigStore } from '../../src/config/store.js';
import { completionWords, completionWordsFile, keepCompletionWords } from '../../src/config/completion-words.js';
import { fakeDisplay } from './ports.js';

const root = join(__dirname, '../..');
const committed = (file: string) => readFileSync(join(root, file), 'utf8');
const version = (JSON.parse(committed('package.json')) as { version: string }).version;

/** The command tree as coinop builds it (every group), over an invocation that writes nowhere. */
function program() {
  const io = makeIO({ stdin: new PassThrough(), stdout: new PassThrough(), stderr: new PassThrough() }, { env: {} });
  return makeProgram(createContext(io, {}, version));
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'coinop-completion-run-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const contexts = (): ContextStore => ({
  store: () => new ConfigStore(dir),
  configDir: () => dir,
  flag: () => undefined,
  settings: () => ({ overrides: {} }),
  env: {},
});

const service = { dataDir: () => join(dir, 'data') };

describe('completion run', () => {
  it.each([
    ['bash', 'completions/coinop.bash'],
    ['zsh', 'completions/_coinop'],
    ['fish', 'completions/coinop.fish'],
  ] as const)('%s: the committed script, on stdout only', async (shell, file) => {
    const display = fakeDisplay();
    await completion({ display }, shell, program());
    expect(display.stdout).toBe(committed(file));
    expect(display.stderr).toBe('');
  });

  it('__man: the committed man page, naming the version given', async () => {
    const display = fakeDisplay();
    await man({ display, version }, program());
    expect(display.stdout).toBe(committed('man/coinop.1'));
    const other = fakeDisplay();
    await man({ display: other, version: '9.9.9' }, program());
    expect(other.stdout.split('\n')[0]).toBe('.TH COINOP 1 "" "coinop 9.9.9" "User Commands"');
  });

  it('__complete contexts: the built-in local context, then each saved one; anything else asked: nothing', async () => {
    const before = fakeDisplay();
    await complete({ display: before, contexts: contexts(), service }, 'contexts');
    expect(before.stdout).toBe('local\n');
    await new ConfigStore(dir).saveContext(
      'sb',
      {
        clientId: 'client-sb',
        scopes: ['read'],
        environment: 'sandbox',
        baseUrl: 'https://api.sandbox.example',
        authUrl: 'https://auth.sandbox.example',
        wsUrl: 'wss://ws.sandbox.example',
      },
      'secret-sb',
      false,
    );
    const after = fakeDisplay();
    await complete({ display: after, contexts: contexts(), service }, 'contexts');
    expect(after.stdout.split('\n').filter(Boolean).sort()).toEqual(['local', 'sb']);
    // `profiles`: what scripts installed before the rename ask, answered the same.
    const old = fakeDisplay();
    await complete({ display: old, contexts: contexts(), service }, 'profiles');
    expect(old.stdout).toBe(after.stdout);
    const other = fakeDisplay();
    await complete({ display: other, contexts: contexts(), service }, 'markets');
    expect(other.stdout).toBe('');
  });

  it("__complete destinations: the nicknames kept for the context in use, without a request; another's: not", async () => {
    const none = fakeDisplay();
    await complete({ display: none, contexts: contexts(), service }, 'destinations');
    expect(none.stdout).toBe('');
    keepCompletionWords(service.dataDir(), 'local', 'destinations', ['treasury', 'payroll eu', 'cold']);
    keepCompletionWords(service.dataDir(), 'local', 'destinations', ['hot']);
    keepCompletionWords(service.dataDir(), 'sb', 'destinations', ['sb-only']);
    const local = fakeDisplay();
    await complete({ display: local, contexts: contexts(), service }, 'destinations');
    // A nickname with a space is left out: a shell would split it.
    expect(local.stdout).toBe('cold\nhot\ntreasury\n');
    const sb = fakeDisplay();
    await complete({ display: sb, contexts: { ...contexts(), flag: () => 'sb' }, service }, 'destinations');
    expect(sb.stdout).toBe('sb-only\n');
    // Replaced when a command read the whole list; a damaged file is an empty cache.
    keepCompletionWords(service.dataDir(), 'local', 'destinations', ['treasury'], true);
    expect(completionWords(service.dataDir(), 'local', 'destinations')).toEqual(['treasury']);
    writeFileSync(completionWordsFile(service.dataDir()), '{not json');
    expect(completionWords(service.dataDir(), 'local', 'destinations')).toEqual([]);
  });
});
