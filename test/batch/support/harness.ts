// Test support for batch tests: a local service on an ephemeral port with a file database, coinop as a child
// process, and reads of what the service holds (transfers by ref_id, balances).
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { journalPath } from '../../../src/batch/journal.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalService, type LocalService, type LocalServiceOptions } from '../../../src/local/service.js';
import { DEMO } from '../../../src/embedded/demo.js';
import { deriveRefId, rowKey } from '../../../src/batch/ref-ids.js';
import { eip55 } from '../../../src/contract/addresses.js';
import { adminToken } from '../../support/tokens.js';
import { until } from '../../support/wait.js';
import { BIN } from '../../support/paths.js';

export { BIN, ROOT } from '../../support/paths.js';
/** COINOP_TEST_BIN runs the tests against a private build that other engineers' rebuilds of dist/ cannot disturb. */

export interface Env {
  dir: string;
  svc: LocalService;
  env: Record<string, string>;
}

/** A service without rate limits unless `config` has its own (the batches here run as fast as they may). */
export async function startEnv(config: LocalServiceOptions['config'] = {}): Promise<Env> {
  const dir = mkdtempSync(join(tmpdir(), 'coinop-batch-e2e-'));
  const svc = await startLocalService({
    host: '127.0.0.1',
    port: 0,
    dbFile: join(dir, 'service.db'),
    config: { rateLimits: { enabled: false }, ...config },
  });
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    COINOP_CONFIG_DIR: join(dir, 'config'),
    COINOP_DATA_DIR: join(dir, 'data'),
    COINOP_BASE_URL: svc.baseUrl,
    COINOP_RETRY_BASE_MS: '20',
    NO_COLOR: '1',
  };
  return { dir, svc, env };
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function run(
  environment: Env,
  args: string[],
  opts: {
    input?: string;
    killWhen?: (child: ChildProcess) => Promise<boolean>;
    signal?: NodeJS.Signals;
    env?: Record<string, string>;
    during?: () => Promise<boolean>;
  } = {},
): Promise<RunResult> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: environment.dir,
      env: { ...environment.env, ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolveRun({ code, signal, stdout, stderr }));
    if (opts.input !== undefined) child.stdin.end(opts.input);
    else child.stdin.end();
    const ended = () => child.exitCode !== null || child.signalCode !== null;
    // Polled while the child runs (its own run bounds the wait), until it returns true: an action taken once, mid-run.
    const whileRunning = (what: string, check: () => Promise<boolean>) =>
      void until(what, async () => ended() || (await check()), { everyMs: 5, timeoutMs: 600_000 }).catch(reject);
    if (opts.during) whileRunning('the action during the run', () => opts.during!());
    if (opts.killWhen)
      whileRunning('the moment to kill', async () => {
        if (!(await opts.killWhen!(child))) return false;
        child.kill(opts.signal ?? 'SIGKILL');
        return true;
      });
  });
}

export function token(svc: LocalService): Promise<string> {
  return adminToken(svc.authUrl, 'transfer:read_transfer');
}

/** Every crypto withdrawal the service holds, through the transfers list (all pages). */
export async function withdrawals(
  svc: LocalService,
): Promise<{ id: string; ref_id?: string; total: string; amount: string; status: string }[]> {
  const t = await token(svc);
  const out: { id: string; ref_id?: string; total: string; amount: string; status: string }[] = [];
  let cursor: string | undefined;
  for (;;) {
    const q = new URLSearchParams({ limit: '1000', type: 'CRYPTO_WITHDRAWAL' });
    if (cursor) q.set('page_cursor', cursor);
    const res = await fetch(`${svc.baseUrl}/v2/transfer/transfers?${q}`, { headers: { authorization: `Bearer ${t}` } });
    if (res.status !== 200) throw new Error(`transfers list answered ${res.status}: ${await res.text()}`);
    const page = (await res.json()) as { items: any[]; next_page_cursor?: string };
    out.push(...page.items);
    if (!page.next_page_cursor) return out;
    cursor = page.next_page_cursor;
  }
}

export async function balance(svc: LocalService, asset: string, profileId: string = DEMO.profileId): Promise<string> {
  const res = await fetch(`${svc.baseUrl}/_local/profiles`);
  const body = (await res.json()) as { items: { id: string; balances: Record<string, string> }[] };
  return body.items.find((p) => p.id === profileId)!.balances[asset] ?? '0';
}

export async function setFaults(svc: LocalService, faults: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${svc.baseUrl}/_local/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(faults),
  });
  if (res.status !== 200) throw new Error(`faults answered ${res.status}: ${await res.text()}`);
}

export async function journalEntries(svc: LocalService): Promise<{ method: string; url: string; status: number }[]> {
  const res = await fetch(`${svc.baseUrl}/_local/journal?limit=10000`);
  return ((await res.json()) as { items: { method: string; url: string; status: number }[] }).items;
}

function ethRow(index: number, extra: string) {
  return {
    // In its one spelling (EIP-55), as rows are staged and sent: the file and the transfers name it alike.
    destination_address: eip55((index + 1).toString(16).padStart(40, '0')),
    asset: 'ETH',
    crypto_network: 'ETHEREUM',
    amount: `0.00${(index % 9) + 1}`,
    n: `${extra}n${index}`,
  };
}

/** A CSV of `n` ETH withdrawals to distinct addresses, amounts 0.001 to 0.009. */
export function ethCsv(count: number, extra = ''): string {
  const lines = ['destination_address,asset,crypto_network,amount,meta.n'];
  for (let i = 0; i < count; i++) {
    const r = ethRow(i, extra);
    lines.push(`${r.destination_address},${r.asset},${r.crypto_network},${r.amount},${r.n}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The ref_ids coinop derives for the rows of ethCsv(n, extra) (the demo profile's, every row distinct). */
export function ethCsvRefIds(count: number, extra = ''): string[] {
  return Array.from({ length: count }, (_, index) => {
    const { n: meta, ...r } = ethRow(index, extra);
    return deriveRefId(rowKey({ ...r, metadata: { n: meta }, profile_id: DEMO.profileId }), 1);
  });
}

/** Writes a batch input file into the environment's folder; returns its path. */
export function inputFile(env: Env, name: string, text: string): string {
  const f = join(env.dir, name);
  writeFileSync(f, text);
  return f;
}

/** The withdrawal requests the service received in all (from its request journal). */
export async function withdrawalPosts(svc: LocalService): Promise<{ method: string; url: string; status: number }[]> {
  return (await journalEntries(svc)).filter((j) => j.method === 'POST' && j.url === '/v2/transfer/crypto-withdrawals');
}

/** Where a batch of this text keeps its journal, with the environment's data folder and no --journal. */
export function defaultJournal(env: Env, text: string): string {
  return journalPath(
    join(env.dir, 'data'),
    createHash('sha256').update(text).digest('hex'),
    undefined,
    'local',
    env.svc.baseUrl,
  );
}

/** Rows the journal of a running batch records as answered (succeeded or failed), read while it runs (-1 before it exists). */
export function answered(journal: string): number {
  try {
    const db = new Database(journal, { readonly: true, fileMustExist: true });
    try {
      return (
        db.prepare(`SELECT count(*) AS n FROM rows WHERE state IN ('succeeded', 'failed')`).get() as { n: number }
      ).n;
    } finally {
      db.close();
    }
  } catch {
    return -1;
  }
}
