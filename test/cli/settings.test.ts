// Settings: every COINOP_* variable read once into one typed object, a bad value refused naming the variable, and a
// run with a bad value stops with exit 2 and one line before anything is sent.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSettings } from '../../src/config/settings.js';
import { usageMessage } from '../commands/support.js';
import { runInProcess } from './helpers.js';

describe('settings', () => {
  it('has the defaults when nothing is set (an empty value counts as unset)', () => {
    const s = readSettings({ HOME: '/home/op', COINOP_POLL_MS: '', COINOP_PROFILE: '' });
    expect(s).toEqual({
      context: undefined,
      configDir: '/home/op/.config/coinop',
      dataDir: s.dataDir,
      dataDirGiven: false,
      overrides: {},
      token: undefined,
      clientSecret: undefined,
      noInput: false,
      pollMs: 1000,
      timeoutMs: 30_000,
      localWaitMs: 10_000,
      retryBaseMs: 250,
      streamStaleMs: 5000,
      streamFps: 20,
      pager: { command: 'less -FRX', chosen: false },
      output: undefined,
      batchRate: '18',
    });
  });

  it('reads every variable', () => {
    expect(
      readSettings({
        COINOP_PROFILE: 'sb',
        COINOP_CONFIG_DIR: '/c',
        COINOP_DATA_DIR: '/d',
        COINOP_BASE_URL: 'https://api.example.com',
        COINOP_AUTH_URL: 'https://auth.example.com',
        COINOP_WS_URL: 'wss://ws.example.com',
        COINOP_TOKEN: 'tok',
        COINOP_CLIENT_SECRET: 'sec',
        COINOP_NO_INPUT: 'true',
        COINOP_LOCAL_WAIT_MS: '1000',
        COINOP_TIMEOUT_MS: '5000',
        COINOP_RETRY_BASE_MS: '10',
        COINOP_POLL_MS: '100',
        COINOP_STREAM_FPS: '30',
        COINOP_STREAM_STALE_MS: '300',
        COINOP_PAGER: 'more -d',
        PAGER: 'most',
        COINOP_OUTPUT: 'NDJSON',
        COINOP_BATCH_RATE: '7.5',
      }),
    ).toEqual({
      context: 'sb',
      configDir: '/c',
      dataDir: '/d',
      dataDirGiven: true,
      overrides: {
        COINOP_BASE_URL: 'https://api.example.com',
        COINOP_AUTH_URL: 'https://auth.example.com',
        COINOP_WS_URL: 'wss://ws.example.com',
      },
      token: 'tok',
      clientSecret: 'sec',
      noInput: true,
      localWaitMs: 1000,
      timeoutMs: 5000,
      retryBaseMs: 10,
      pollMs: 100,
      streamFps: 30,
      streamStaleMs: 300,
      pager: { command: 'more -d', chosen: true },
      output: 'ndjson',
      batchRate: '7.5',
    });
  });

  it('the pager: COINOP_PAGER, else PAGER, else less -FRX; set but empty is no pager (cat)', () => {
    expect(readSettings({ PAGER: 'most' }).pager).toEqual({ command: 'most', chosen: true });
    expect(readSettings({ PAGER: '' }).pager).toEqual({ command: 'cat', chosen: true });
    expect(readSettings({ COINOP_PAGER: ' ', PAGER: 'most' }).pager).toEqual({ command: 'cat', chosen: true });
    expect(readSettings({}).pager).toEqual({ command: 'less -FRX', chosen: false });
  });

  it('takes the XDG directories when coinop has none of its own', () => {
    const s = readSettings({ XDG_CONFIG_HOME: '/x/config', XDG_DATA_HOME: '/x/data' });
    expect([s.configDir, s.dataDir, s.dataDirGiven]).toEqual(['/x/config/coinop', '/x/data/coinop', false]);
  });

  it.each([
    ['COINOP_POLL_MS', 'soon', 'milliseconds from 1 to 2147483647'],
    ['COINOP_POLL_MS', '0', 'milliseconds from 1 to 2147483647'],
    ['COINOP_RETRY_BASE_MS', '-5', 'milliseconds from 1 to 2147483647'],
    ['COINOP_TIMEOUT_MS', '1.5', 'milliseconds from 1 to 2147483647'],
    ['COINOP_LOCAL_WAIT_MS', '2147483648', 'milliseconds from 1 to 2147483647'],
    ['COINOP_STREAM_STALE_MS', '5s', 'milliseconds from 1 to 2147483647'],
    ['COINOP_STREAM_FPS', '0', 'frames per second from 1 to 1000'],
  ])('%s=%s is refused, naming the variable', (name, value, rule) => {
    expect(usageMessage(() => readSettings({ [name]: value }))).toBe(
      `${name}: must be a whole number of ${rule} (got "${value}")`,
    );
  });

  it('COINOP_NO_INPUT is 1 or true, 0 or false', () => {
    expect(readSettings({ COINOP_NO_INPUT: '1' }).noInput).toBe(true);
    expect(readSettings({ COINOP_NO_INPUT: '0' }).noInput).toBe(false);
    expect(readSettings({ COINOP_NO_INPUT: 'false' }).noInput).toBe(false);
    expect(usageMessage(() => readSettings({ COINOP_NO_INPUT: 'yes' }))).toBe(
      'COINOP_NO_INPUT: must be 1 or true (0 or false: off) (got "yes")',
    );
  });

  describe('a run with a bad setting', () => {
    const dir = mkdtempSync(join(tmpdir(), 'coinop-settings-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const env = {
      HOME: join(dir, 'home'),
      COINOP_CONFIG_DIR: join(dir, 'config'),
      COINOP_DATA_DIR: join(dir, 'data'),
      // Nothing listens here: were anything sent, the command would fail on the network instead.
      COINOP_BASE_URL: 'http://127.0.0.1:9',
      COINOP_TOKEN: 't',
      NO_COLOR: '1',
    };

    it('stops with exit 2 and one line naming the variable', async () => {
      const r = await runInProcess(['transfers', 'list'], { ...env, COINOP_TIMEOUT_MS: 'soon' });
      expect(r).toEqual({
        code: 2,
        stdout: '',
        stderr: 'error: COINOP_TIMEOUT_MS: must be a whole number of milliseconds from 1 to 2147483647 (got "soon")\n',
      });
    });

    it('says it as JSON with --json', async () => {
      const r = await runInProcess(['--json', 'prices', 'BTCUSD'], { ...env, COINOP_STREAM_FPS: 'many' });
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stderr).error).toMatchObject({ category: 'usage', exit_code: 2 });
      expect(JSON.parse(r.stderr).error.message).toMatch(/^COINOP_STREAM_FPS: /);
    });

    it('leaves help alone', async () => {
      const r = await runInProcess(['prices', '--help'], { ...env, COINOP_POLL_MS: 'soon' });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('Usage: coinop prices');
    });
  });
});
