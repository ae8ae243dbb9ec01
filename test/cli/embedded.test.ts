// The embedded default (no login, nothing listening: the local service starts inside coinop over the default
// database, so consecutive commands share state), two coinop processes writing the store at once, and local start.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, baseEnv, printedAddress, runCoinop, sandbox, type Sandbox } from './helpers.js';
import { Term } from './terminal.js';
import { transferFlags } from '../support/command-lines.js';

let dir: string;
let sb: Sandbox;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coinop-embedded-'));
  sb = await sandbox();
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await sb?.close();
});

describe('the embedded default', () => {
  it('with no login and nothing at 127.0.0.1:7357, commands run on an in-process local service over the default database', async () => {
    const env = baseEnv(dir);
    const w = await runCoinop(['withdraw', ...transferFlags('BTC', '0.5'), '--ref-id', 'embedded-1'], env);
    expect(w.code, w.stderr).toBe(0);
    const id = JSON.parse(w.stdout).id;
    expect(existsSync(join(env.COINOP_DATA_DIR, 'local.db'))).toBe(true);
    // A second process sees the first one's withdrawal: the state lives in the database file.
    const g = await runCoinop(['transfers', 'get', '--ref-id', 'embedded-1'], env);
    expect(g.code, g.stderr).toBe(0);
    expect(JSON.parse(g.stdout).id).toBe(id);
    const p = await runCoinop(['prices', 'BTCUSD', '--limit', '2'], env);
    expect(JSON.parse(p.stdout)).toHaveLength(2);
    // On a terminal one dim line says which environment answered.
    const t = new Term(['transfers', 'list', '--limit', '1'], env);
    expect(await t.exit()).toBe(0);
    expect(t.screen().split('\n')[0]).toMatch(/^local · local service in this process .* context local$/);
  });
});

describe('the profile store', () => {
  it('six coinop logins at once lose no profile and no secret', async () => {
    const runs = await Promise.all(
      Array.from({ length: 6 }, (_, i) => sb.run(['login', '--env', 'local', '--name', `p${i}`])),
    );
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const list = await sb.run(['context', 'list']);
    const names = JSON.parse(list.stdout).map((p: { name: string }) => p.name);
    for (let i = 0; i < 6; i++) expect(names).toContain(`p${i}`);
    const secrets = JSON.parse(readFileSync(join(sb.env.COINOP_CONFIG_DIR, 'secrets.json'), 'utf8'));
    expect(Object.keys(secrets).sort()).toEqual(Array.from({ length: 6 }, (_, i) => `p${i}`));
  });
});

describe('coinop local start', () => {
  it('prints its address, serves the API, and stops cleanly on SIGINT', async () => {
    const env = baseEnv(join(dir, 'ls'));
    const child = spawn(process.execPath, [BIN, 'local', 'start', '--port', '0', '--memory'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const url = await printedAddress(child);
    const p = await runCoinop(['prices', 'BTCUSD', '--limit', '1'], { ...env, COINOP_BASE_URL: url });
    expect(p.code, p.stderr).toBe(0);
    const code = await new Promise<number | null>((res) => {
      child.on('exit', (c) => res(c));
      child.kill('SIGINT');
    });
    expect(code).toBe(0);
  });
});
