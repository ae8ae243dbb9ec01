// A server in the foreground (coinop local start, coinop gateway start) run in process stops when runCli's `stop`
// aborts, as at Ctrl-C: it closes what it holds and exits 0 (the pages' examples leave a gateway running so).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/commands/main.js';
import { until } from '../support/wait.js';

describe("runCli's stop", () => {
  it('stops coinop local start as Ctrl-C does: exit 0, the port closed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coinop-stop-'));
    const [stdin, stdout, stderr] = [new PassThrough(), new PassThrough(), new PassThrough()];
    let out = '';
    stdout.on('data', (chunk) => (out += String(chunk)));
    stderr.resume();
    stdin.end();
    const stop = new AbortController();
    const env = { PATH: process.env.PATH, HOME: dir, COINOP_CONFIG_DIR: join(dir, 'config'), COINOP_DATA_DIR: dir };
    try {
      const running = runCli(['node', 'coinop', 'local', 'start', '--port', '0', '--memory'], {
        stdin,
        stdout,
        stderr,
        env,
        stop: stop.signal,
      });
      await until('the local service to print its address', () => /base_url\s+\S+/.test(out), { timeoutMs: 30_000 });
      const base = /base_url\s+(\S+)/.exec(out)![1];
      expect((await fetch(`${base}/_local/health`)).status).toBe(200);
      stop.abort();
      expect(await running).toBe(0);
      await expect(fetch(`${base}/_local/health`)).rejects.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
