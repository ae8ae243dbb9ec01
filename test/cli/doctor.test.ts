// coinop doctor against the local service: a sound setup passes (exit 0), a deliberately broken one (a 0644 secret
// file, a profile whose endpoints do not answer, bad credentials, a policy file that does not load) fails with one
// line per check and a fix for each problem (exit 1). The token is never printed.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../src/local/service.js';
import { baseEnv, runCoinop, runInProcess } from './helpers.js';

describe('coinop doctor', () => {
  let svc: LocalService;
  let silent: Server;
  let silentUrl: string;
  const sockets: Socket[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'coinop-doctor-'));
  // The machine's own completion places (say /etc/bash_completion.d/coinop) are not the test's: they point into it.
  const env: Record<string, string> = {
    ...baseEnv(dir),
    SHELL: '/bin/bash',
    XDG_DATA_DIRS: join(dir, 'system-share'),
    BASH_COMPLETION_COMPAT_DIR: join(dir, 'system-compat'),
  };
  const config = env.COINOP_CONFIG_DIR;

  const profile = (baseUrl: string, authUrl: string, wsUrl: string, clientId = 'local-admin') => ({
    environment: 'custom',
    baseUrl,
    authUrl,
    wsUrl,
    clientId,
    scopes: ['funding:read_profile'],
  });

  function write(profiles: Record<string, unknown>, secrets: Record<string, string>, secretMode = 0o600) {
    mkdirSync(config, { recursive: true, mode: 0o700 });
    writeFileSync(join(config, 'config.json'), JSON.stringify({ activeProfile: 'good', profiles }), { mode: 0o600 });
    writeFileSync(join(config, 'secrets.json'), JSON.stringify(secrets), { mode: 0o600 });
    chmodSync(join(config, 'secrets.json'), secretMode);
  }

  beforeAll(async () => {
    svc = await startLocalService({ port: 0, memory: true, config: { rateLimits: { enabled: false } } });
    // Accepts connections and never answers: an endpoint that does not answer in time.
    silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as { port: number }).port;
    silentUrl = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await svc.close();
    for (const s of sockets) s.destroy();
    await new Promise((r) => silent.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it('a sound setup: every check ok (completion only warned about), exit 0', async () => {
    write({ good: profile(svc.baseUrl, svc.authUrl, svc.wsUrl) }, { good: 'local-secret' });
    const r = await runCoinop(['doctor', '-o', 'table'], env);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ok {4}permissions \(config\): .*folders 0700, files 0600$/m);
    expect(r.stdout).toMatch(/^ok {4}endpoints \[context good\]: api, token and stream answer/m);
    expect(r.stdout).toMatch(/^ok {4}token \[context good\]: a token was issued/m);
    expect(r.stdout).toMatch(/^ok {4}clock \[context good\]: \d+ s (ahead of|behind) the service$/m);
    expect(r.stdout).toMatch(/^warn {2}completion: no completion script found/m);
    expect(r.stdout).toMatch(/^ {6}fix: coinop completion bash > /m);
    expect(r.stdout).not.toMatch(/^fail/m);
  });

  it('finds a completion script in the usual place', async () => {
    const place = join(env.HOME, '.local/share/bash-completion/completions');
    mkdirSync(place, { recursive: true });
    writeFileSync(join(place, 'coinop'), '# coinop completion\n');
    const r = await runCoinop(['doctor', '-o', 'json'], env);
    const completion = JSON.parse(r.stdout).find((c: { check: string }) => c.check === 'completion');
    expect(completion).toMatchObject({ status: 'ok', message: expect.stringContaining(join(place, 'coinop')) });
    rmSync(place, { recursive: true });
  });

  it('a broken setup: one failed line per problem with its fix, exit 1, no token printed', async () => {
    write(
      {
        good: profile(svc.baseUrl, svc.authUrl, svc.wsUrl),
        gone: profile(silentUrl, silentUrl, silentUrl.replace('http', 'ws')),
        wrong: profile(svc.baseUrl, svc.authUrl, svc.wsUrl, 'no-such-client'),
      },
      { good: 'local-secret', gone: 'x', wrong: 'y' },
      0o644,
    );
    mkdirSync(join(config, 'policies'), { recursive: true, mode: 0o700 });
    writeFileSync(join(config, 'policies', 'good.yaml'), 'version: 7\n', { mode: 0o600 });
    const r = await runCoinop(['doctor', '--json', '--timeout', '2'], env);
    expect(r.code).toBe(1);
    // The open secrets file is also warned about on stderr, before the error's JSON line.
    expect(r.stderr).toContain(`warning: ${join(config, 'secrets.json')} is open to other users`);
    expect(JSON.parse(r.stderr.trim().split('\n').at(-1)!).error).toMatchObject({
      exit_code: 1,
      message: expect.stringMatching(/checks failed$/),
    });
    const checks = JSON.parse(r.stdout) as {
      check: string;
      status: string;
      profile?: string;
      fix?: string;
      message: string;
    }[];
    const find = (check: string, profile?: string) => checks.find((c) => c.check === check && c.profile === profile);
    expect(find('permissions (config)')).toMatchObject({
      status: 'fail',
      message: expect.stringContaining(`${join(config, 'secrets.json')} (644)`),
      fix: `chmod 600 ${join(config, 'secrets.json')}`,
    });
    expect(find('endpoints', 'gone')).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('no answer in time'),
    });
    expect(find('endpoints', 'gone')?.fix).toContain('coinop context show gone');
    expect(find('token', 'wrong')).toMatchObject({ status: 'fail', fix: 'coinop login --context wrong' });
    expect(find('token', 'good')).toMatchObject({ status: 'ok' });
    expect(find('policy', 'good')).toMatchObject({
      status: 'fail',
      fix: `edit ${join(config, 'policies', 'good.yaml')}`,
    });
    // Nothing that looks like a bearer token on either stream.
    expect(r.stdout + r.stderr).not.toMatch(/access_token|Bearer|local-secret/);
  }, 60_000);

  it('a policy file that is a dangling symbolic link, or in a policies "folder" that is a file: a failed check', async () => {
    write({ good: profile(svc.baseUrl, svc.authUrl, svc.wsUrl) }, { good: 'local-secret' });
    const dir = join(config, 'policies');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { mode: 0o700 });
    symlinkSync(join(dir, 'gone.yaml'), join(dir, 'good.yaml'));
    const policyCheck = async () => {
      const r = await runInProcess(['doctor', '-o', 'json', '--timeout', '2'], env);
      expect(r.code).toBe(1);
      return JSON.parse(r.stdout).find((c: { check: string }) => c.check === 'policy');
    };
    expect(await policyCheck()).toMatchObject({
      status: 'fail',
      profile: 'good',
      message: `${join(dir, 'good.yaml')} is a symbolic link to ${join(dir, 'gone.yaml')}, which cannot be followed (ENOENT): every command that moves money is refused`,
    });
    rmSync(dir, { recursive: true });
    writeFileSync(dir, '', { mode: 0o600 });
    expect(await policyCheck()).toMatchObject({
      status: 'fail',
      message: expect.stringContaining('is a file, not a folder'),
    });
    rmSync(dir);
  });
});
