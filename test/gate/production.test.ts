// coinop api in a production context: a money-moving request piped without --yes is refused before anything is sent,
// and a testnet address is refused in production whatever confirms it. The production context is a real one (login
// --env production against the local service behind a loopback https front, whose certificate the child trusts), so
// these run as child processes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO } from '../../src/embedded/demo.js';
import { runCoinop, sandbox, type Sandbox } from '../cli/helpers.js';
import { TLS_ENV, tlsFront, type TlsFront } from '../support/tls.js';
import { auditEntries } from './support.js';
import { apiWithdrawal, productionLogin } from '../support/command-lines.js';

let sb: Sandbox;
let front: TlsFront;
let env: Record<string, string | undefined>;
let dir: string;
beforeAll(async () => {
  sb = await sandbox();
  front = await tlsFront(sb.svc.baseUrl);
  dir = mkdtempSync(join(tmpdir(), 'coinop-gate-prod-'));
  env = {
    ...sb.env,
    ...TLS_ENV,
    COINOP_CONFIG_DIR: join(dir, 'config'),
    COINOP_DATA_DIR: join(dir, 'data'),
    COINOP_BASE_URL: undefined,
    COINOP_AUTH_URL: undefined,
    COINOP_CLIENT_SECRET: DEMO.clientSecret,
  };
  const login = await runCoinop(productionLogin(front.url, '--profile-id', DEMO.profileId, '--activate'), env);
  expect(login.code, login.stderr).toBe(0);
});
afterAll(async () => {
  await front?.close();
  await sb?.close();
  rmSync(dir, { recursive: true, force: true });
});

const withdrawal = (address: string, ref: string) => apiWithdrawal('0.001', ref, address);

const posted = async () =>
  (await sb.sent()).filter((e) => e.method === 'POST' && e.url.startsWith('/v2/transfer/crypto-withdrawals'));

const audit = () => auditEntries(join(dir, 'data'));

it('piped without --yes: refused before anything is sent, and recorded', async () => {
  await sb.sent();
  const r = await runCoinop(withdrawal('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', 'prod-api-1'), env);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toContain('refusing to move money in production without a terminal to confirm on');
  expect(await posted()).toEqual([]);
  expect(audit().at(-1)).toMatchObject({
    kind: 'withdrawal',
    ref_id: 'prod-api-1',
    who: { environment: 'production' },
    outcome: { result: 'refused' },
  });
});

it('a testnet address in production: refused even with --yes', async () => {
  await sb.sent();
  const r = await runCoinop([...withdrawal('tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', 'prod-api-2'), '--yes'], env);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(/testnet address in production/);
  expect(await posted()).toEqual([]);
});

it('with --yes a valid one goes through the gate and is sent once', async () => {
  await sb.sent();
  const r = await runCoinop([...withdrawal('1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', 'prod-api-3'), '--yes'], env);
  expect(r.code, r.stderr).toBe(0);
  expect(await posted()).toHaveLength(1);
  expect(
    audit()
      .slice(-2)
      .map((e) => e.outcome.result),
  ).toEqual(['attempt', 'sent']);
});
