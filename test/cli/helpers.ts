// Test support for the CLI: a local service on an ephemeral port, coinop run as a child process against it
// (piped, or on a pseudo-terminal rendered by @xterm/headless), and the service's journal.
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalService, type LocalService } from '../../src/local/service.js';
import type { DeepPartial, LocalConfig } from '../../src/local/config.js';
import { fetchRead } from '../support/http-server.js';
import { until } from '../support/wait.js';
import { BIN } from '../support/paths.js';

export { BIN, ROOT } from '../support/paths.js';
// COINOP_TEST_BIN lets a developer run these tests against a private build while others rebuild dist/.

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Sandbox {
  svc: LocalService;
  dir: string;
  env: Record<string, string>;
  run(args: string[], opts?: { env?: Record<string, string | undefined>; input?: string }): Promise<Run>;
  /** The same, in this process: for follow-up checks once a command has been run for real as a child process. */
  runIn(
    args: string[],
    opts?: { env?: Record<string, string | undefined>; input?: string; terminal?: InProcessTerminal },
  ): Promise<Run>;
  /** Requests to the API and token endpoint since the last call (control requests left out). */
  sent(): Promise<{ method: string; url: string; status: number; reason?: string }[]>;
  control(method: string, path: string, body?: unknown): Promise<any>;
  close(): Promise<void>;
}

export function runCoinop(args: string[], env: Record<string, string | undefined>, input?: string): Promise<Run> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: env as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', rej);
    child.on('close', (code) => res({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(input ?? '');
  });
}

/** An in-memory stdout and stderr, and what was written to each. */
export function capturedStreams(): {
  out: PassThrough;
  err: PassThrough;
  readonly stdout: string;
  readonly stderr: string;
} {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (d) => (stdout += d));
  err.on('data', (d) => (stderr += d));
  return {
    out,
    err,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
  };
}

/**
 * Which of the captured streams pass for a terminal in process (what a table's width and the status lines depend
 * on): `stdout` a terminal of that many columns (and 1000 rows, so nothing waits for a pager's screenful), `stderr` a
 * terminal too. Give the run COINOP_PAGER=cat: a pager is a child process.
 */
export interface InProcessTerminal {
  stdout?: number;
  stderr?: boolean;
}

/** The same command line run inside this process (commander tree, context, client and all), for large matrices. */
export async function runInProcess(
  args: string[],
  env: Record<string, string | undefined>,
  input?: string,
  terminal?: InProcessTerminal,
): Promise<Run> {
  const { runCli } = await import('../../src/commands/main.js');
  const stdin = new PassThrough();
  stdin.end(input ?? '');
  const c = capturedStreams();
  if (terminal?.stdout) Object.assign(c.out, { isTTY: true, columns: terminal.stdout, rows: 1000 });
  if (terminal?.stderr) Object.assign(c.err, { isTTY: true, columns: terminal.stdout ?? 80 });
  const code = await runCli(['node', 'coinop', ...args], { stdin, stdout: c.out, stderr: c.err, env });
  return { code, stdout: c.stdout, stderr: c.stderr };
}

/** A clean environment: nothing of the developer's own coinop setup leaks in. */
export function baseEnv(dir: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: join(dir, 'home'),
    COINOP_CONFIG_DIR: join(dir, 'config'),
    COINOP_DATA_DIR: join(dir, 'data'),
    COINOP_RETRY_BASE_MS: '10',
    COINOP_POLL_MS: '100',
    NO_COLOR: '1',
  };
}

export async function sandbox(config: DeepPartial<LocalConfig> = {}): Promise<Sandbox> {
  const dir = mkdtempSync(join(tmpdir(), 'coinop-cli-'));
  const svc = await startLocalService({
    port: 0,
    memory: true,
    config: { journalSize: 100_000, rateLimits: { enabled: false }, ...config },
  });
  const env = { ...baseEnv(dir), COINOP_BASE_URL: svc.baseUrl, COINOP_AUTH_URL: svc.authUrl };
  let seen = 0;
  const control = async (method: string, path: string, body?: unknown) => {
    const r = await fetchRead(svc.baseUrl + path, {
      method,
      // Control writes take JSON only, bodiless ones (POST /_local/reset) too.
      headers: method !== 'GET' ? { 'content-type': 'application/json' } : {},
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    return r.json();
  };
  return {
    svc,
    dir,
    env,
    run: (args, opts = {}) => runCoinop(args, { ...env, ...opts.env }, opts.input),
    runIn: (args, opts = {}) => runInProcess(args, { ...env, ...opts.env }, opts.input, opts.terminal),
    async sent() {
      const { items } = (await control('GET', '/_local/journal?limit=100000')) as {
        items: { method: string; url: string; status: number; reason?: string; time: string }[];
      };
      const fresh = items.slice(seen);
      seen = items.length;
      return fresh.filter((e) => !e.url.startsWith('/_local'));
    },
    control,
    async close() {
      await svc.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export { BTC_ADDRESS, ETH_ADDRESS, FAILING_ETH_ADDRESS } from '../support/addresses.js';

/** The address `coinop local start` prints once it listens (fails if it exits first, or prints none in time). */
export async function printedAddress(child: ChildProcess, timeoutMs = 30_000): Promise<string> {
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  let exited = false;
  child.on('exit', () => (exited = true));
  return until(
    () => `local start's address; printed: ${out}`,
    () => {
      if (exited) throw new Error(`local start exited: ${out}`);
      const m = /http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      return m && m[1] !== '0' && m[0];
    },
    { timeoutMs },
  );
}
