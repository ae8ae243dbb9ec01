// A stream given --count ends by itself: when the service's stream stalls or keeps dropping, coinop gives up after a
// bounded wait with exit 5 and one line saying how many of the N arrived (real child processes, real faults).
import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalService } from '../../src/local/service.js';
import type { StreamFaultConfig } from '../../src/local/config.js';
import { startService } from './helpers.js';
import { BIN } from '../support/paths.js';

let svc: LocalService | undefined;
let dir: string | undefined;

afterEach(async () => {
  await svc?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  svc = dir = undefined;
});

async function withFaults(faults: Partial<StreamFaultConfig>): Promise<LocalService> {
  svc = await startService({ messagesPerSecond: 100, heartbeatIntervalMs: 100, faults });
  dir = mkdtempSync(join(tmpdir(), 'coinop-stream-bounded-'));
  return svc;
}

/** coinop as a child; killed (and the test failing on its exit code) should it still run after 60 s. */
function coinop(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: dir!,
        COINOP_CONFIG_DIR: join(dir!, 'config'),
        COINOP_DATA_DIR: join(dir!, 'data'),
        COINOP_BASE_URL: svc!.baseUrl,
        COINOP_STREAM_STALE_MS: '300',
        COINOP_RETRY_BASE_MS: '20',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const guard = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr });
    });
  });
}

const lastLine = (s: string) => s.trim().split('\n').at(-1) ?? '';

describe('a stream with --count ends by itself', () => {
  it('heartbeats stalled: exit 5 with "0 of 3 messages arrived" once nothing has come for the bounded wait', async () => {
    await withFaults({ stallHeartbeats: true });
    const r = await coinop(['stream', 'heartbeat', '--count', '3']);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stdout).toBe('');
    expect(lastLine(r.stderr)).toMatch(
      /^error: the stream ended early: 0 of 3 messages arrived; nothing arrived for 1\.8 s /,
    );
  }, 90_000);

  it('connections dropped again and again: the count goes on across reconnects, then exit 5 saying how many arrived', async () => {
    await withFaults({ dropConnectionsEveryMs: 400 });
    const r = await coinop(['stream', 'trades', 'BTCUSD', '--count', '100000']);
    expect(r.code, r.stderr).toBe(5);
    const got = r.stdout.split('\n').filter(Boolean);
    const m =
      /^error: the stream ended early: (\d+) of 100000 messages arrived; the connection dropped 10 times in a row/.exec(
        lastLine(r.stderr),
      );
    expect(m, r.stderr).not.toBeNull();
    expect(Number(m![1])).toBe(got.length);
    expect(got.length).toBeGreaterThan(0);
    for (const l of got)
      expect(JSON.parse(l)).toMatchObject({ channel: 'execution_data', payload: { market: 'BTCUSD' } });
    // It reconnected after each drop before giving up.
    expect(r.stderr.match(/reconnecting/g)?.length ?? 0).toBeGreaterThanOrEqual(9);
    // Each drop is said once, with its own cause, not every earlier one nested inside it.
    expect(r.stderr).not.toMatch(/connection closed \(1006: connection closed/);
  }, 90_000);
});
