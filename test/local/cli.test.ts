// Local service: `coinop local start` (runLocalStart) prints its URLs and credentials, serves, and stops on SIGINT.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runLocalStart } from '../../src/local/cli.js';
import { DEMO } from '../../src/embedded/demo.js';
import { tempDir } from './helpers.js';

function collect(stream: PassThrough): () => string {
  let text = '';
  stream.on('data', (c) => (text += String(c)));
  return () => text;
}

describe('coinop local start (runLocalStart)', () => {
  it('prints the URLs and demo credentials, serves, and stops cleanly on SIGINT', async () => {
    const d = tempDir();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const out = collect(stdout);
    const err = collect(stderr);
    const running = runLocalStart({ port: 0, db: `${d.dir}/local.db`, seed: 3 }, { stdout, stderr });
    try {
      await expect.poll(out, { timeout: 30_000, interval: 20 }).toContain('memo_id');
      const base = /base_url\s+(\S+)/.exec(out())?.[1];
      expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(out()).toMatch(/auth_url\s+http:\/\/127\.0\.0\.1:\d+/);
      expect(out()).toMatch(/ws_url\s+ws:\/\/127\.0\.0\.1:\d+\/ws/);
      expect(out()).toContain(DEMO.adminClientId);
      expect(out()).toContain(DEMO.clientSecret);
      expect(out()).toContain(DEMO.profileId);
      expect(out()).toMatch(/rate limits\s+on: token 1\/s, withdrawals 20\/s, others 50\/s per address over 300 s/);
      const health = (await (await fetch(`${base}/_local/health`)).json()) as { seed: number; db: string };
      expect(health.seed).toBe(3);
      expect(health.db).toBe(`${d.dir}/local.db`);
      process.emit('SIGINT');
      await running;
      expect(err()).toMatch(/stopped/);
      await expect(fetch(`${base}/_local/health`)).rejects.toThrow();
    } finally {
      d.cleanup();
    }
  });

  it('coinop local start --no-rate-limits starts without them (the built CLI)', async () => {
    const d = tempDir();
    const child = spawn(
      process.execPath,
      [join(__dirname, '../../bin/coinop.js'), 'local', 'start', '--port', '0', '--memory', '--no-rate-limits'],
      { env: { ...process.env, COINOP_DATA_DIR: d.dir, COINOP_CONFIG_DIR: d.dir, NO_COLOR: '1' } },
    );
    try {
      let out = '';
      child.stdout.on('data', (c) => (out += String(c)));
      await expect.poll(() => out, { timeout: 30_000, interval: 20 }).toContain('rate limits');
      expect(out).toMatch(/rate limits\s+off \(--no-rate-limits\)/);
      const base = /base_url\s+(\S+)/.exec(out)?.[1];
      const faults = await (await fetch(`${base}/_local/faults`)).json();
      expect(faults.rateLimits.enabled).toBe(false);
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGINT');
      await exited;
      d.cleanup();
    }
  });
});
