// Local service: `coinop local start` (runLocalStart) prints its URLs and credentials, serves, and stops on SIGINT.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runLocalStart } from '../../src/local/cli.js';
import { DEMO } from '../../src/local/demo.js';
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
      for (let i = 0; i < 200 && !out().includes('memo_id'); i++) await new Promise((r) => setTimeout(r, 20));
      const base = /base_url\s+(\S+)/.exec(out())?.[1];
      expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(out()).toMatch(/auth_url\s+http:\/\/127\.0\.0\.1:\d+/);
      expect(out()).toMatch(/ws_url\s+ws:\/\/127\.0\.0\.1:\d+\/ws/);
      expect(out()).toContain(DEMO.adminClientId);
      expect(out()).toContain(DEMO.clientSecret);
      expect(out()).toContain(DEMO.profileId);
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
});
