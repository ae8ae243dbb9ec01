// `coinop gateway start` as an operator runs it: a child process of its own, serving https with --tls-cert and
// --tls-key (a certificate made here with openssl), in front of the local service. Operators on a config directory of
// their own log in to it over https, trusting its certificate through node's NODE_EXTRA_CA_CERTS, read the market-data stream (wss)
// and send a withdrawal through it; without the certificate trusted coinop stops with one line naming the cause; SIGTERM stops
// the gateway cleanly (exit 0). The upstream's secret appears in nothing the gateway prints.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/embedded/demo.js';
import { BIN, baseEnv, runCoinop, sandbox, type Sandbox } from '../cli/helpers.js';
import { transferFlags } from '../support/command-lines.js';
import { until } from '../support/wait.js';

let sb: Sandbox;
let dir: string;
let gateway: ChildProcess;
let printed = '';
let url = '';
const cert = () => join(dir, 'gateway.pem');

/** A self-signed certificate for 127.0.0.1, and its key. */
function makeCertificate(): void {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'gateway.key'),
      '-out',
      cert(),
    ],
    { stdio: 'ignore' },
  );
}

/** Credentials printed once by `gateway init` or `gateway operators add` (-o json). */
function credentials(run: { code: number; stdout: string; stderr: string }): {
  client_id: string;
  client_secret: string;
} {
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

beforeAll(async () => {
  sb = await sandbox();
  dir = mkdtempSync(join(tmpdir(), 'coinop-gw-tls-'));
  makeCertificate();
  credentials(await sb.run(['gateway', 'init', '-o', 'json']));
  gateway = spawn(
    process.execPath,
    [
      BIN,
      'gateway',
      'start',
      '--upstream',
      'local',
      '--port',
      '0',
      '--tls-cert',
      cert(),
      '--tls-key',
      join(dir, 'gateway.key'),
    ],
    { env: sb.env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  gateway.stdout!.on('data', (d) => (printed += d));
  gateway.stderr!.on('data', (d) => (printed += d));
  url = await until(
    () => `the gateway's https address; printed: ${printed}`,
    () => {
      if (gateway.exitCode !== null) throw new Error(`gateway start exited ${gateway.exitCode}: ${printed}`);
      return /https:\/\/127\.0\.0\.1:[1-9]\d*/.exec(printed)?.[0];
    },
    { timeoutMs: 30_000 },
  );
});

afterAll(async () => {
  if (gateway && gateway.exitCode === null) gateway.kill('SIGKILL');
  await sb?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('coinop gateway start --tls-cert --tls-key, a process of its own', () => {
  let operatorEnv: Record<string, string>;

  it('an operator logs in over https, trusting the certificate, and reads and sends through it', async () => {
    const ana = credentials(await sb.run(['gateway', 'operators', 'add', 'ana', '--role', 'initiator', '-o', 'json']));
    operatorEnv = { ...baseEnv(join(dir, 'ana')), NODE_EXTRA_CA_CERTS: cert() };
    const wsUrl = `${url.replace('https://', 'wss://')}/ws`;
    const login = await runCoinop(
      ['login', '--env', 'custom', '--name', 'gw', '--base-url', url, '--auth-url', url, '--ws-url', wsUrl].concat([
        '--client-id',
        ana.client_id,
        '--client-secret-stdin',
        '--profile-id',
        DEMO.profileId,
      ]),
      operatorEnv,
      `${ana.client_secret}\n`,
    );
    expect(login.code, login.stderr).toBe(0);

    const prices = await runCoinop(['prices', 'BTCUSD', '--increment', 'ONE_HOUR', '-o', 'json'], operatorEnv);
    expect(prices.code, prices.stderr).toBe(0);
    expect(JSON.parse(prices.stdout).length).toBeGreaterThan(0);

    // The market-data stream through the gateway, over wss: the gateway's stream proxy as its bundle runs it.
    const stream = await runCoinop(['stream', 'book', 'BTCUSD', '--count', '2', '-o', 'ndjson'], operatorEnv);
    expect(stream.code, stream.stderr).toBe(0);
    expect(stream.stdout.trim().split('\n')).toHaveLength(2);

    const sent = await runCoinop(
      ['withdraw', ...transferFlags('BTC', '0.001'), '--ref-id', 'tls-1', '--yes', '-o', 'json'],
      operatorEnv,
    );
    expect(sent.code, sent.stderr).toBe(0);
    expect(JSON.parse(sent.stdout)).toMatchObject({ ref_id: 'tls-1', amount: '0.001' });
    const upstream = (await sb.sent()).filter((e) => e.method === 'POST' && e.url.includes('crypto-withdrawals'));
    expect(upstream.map((e) => e.status)).toEqual([200]);
  });

  it('without the certificate trusted, one line names the cause, and nothing is sent', async () => {
    const { NODE_EXTRA_CA_CERTS: _trusted, ...untrusting } = operatorEnv;
    const r = await runCoinop(['balances', '-o', 'json'], untrusting);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    const { error } = JSON.parse(r.stderr) as { error: { category: string; message: string; hint: string } };
    expect(error.category).toBe('network');
    expect(error.message).toMatch(/TLS certificate is not trusted/);
    expect(error.hint).toMatch(/nothing was sent.*NODE_EXTRA_CA_CERTS/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('stops on SIGTERM with exit 0, and never printed the upstream secret', async () => {
    const exited = new Promise<number | null>((resolve) => gateway.once('exit', (code) => resolve(code)));
    gateway.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(printed).toContain('coinop gateway stopped');
    expect(printed).not.toContain(DEMO.clientSecret);
  });
});
