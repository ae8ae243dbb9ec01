// coinop events list, get and watch against a real local service: every output format, the filters and paging, and
// watch following new events as a child process (NDJSON piped), resuming from its checkpoint after a restart, from
// --since, and saying what is true on Ctrl-C.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkpointFile } from '../../src/events/position.js';
import { BIN, BTC_ADDRESS, type Sandbox, sandbox } from './helpers.js';
import { until as poll } from '../support/wait.js';

let sb: Sandbox;
beforeAll(async () => {
  // Transfers complete only when a test moves the service clock: what a watcher sees is what the test made.
  sb = await sandbox({ withdrawalSettleSeconds: 600 });
});
afterAll(() => sb.close());

const withdraw = (ref: string) =>
  sb.runIn([
    ...['withdraw', '--asset', 'BTC', '--network', 'BITCOIN', '--address', BTC_ADDRESS, '--amount', '0.001'],
    ...['--ref-id', ref, '--yes', '-o', 'json'],
  ]);

const until = <T>(what: string, read: () => T | Promise<T>) => poll(what, read, { timeoutMs: 60_000, everyMs: 100 });

const checkpoints = () => {
  const dir = join(sb.env.COINOP_DATA_DIR, 'events');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith('watch-')) : [];
};

/** coinop as a child process, its output gathered as it comes. */
function child(args: string[], env: Record<string, string> = {}) {
  const proc: ChildProcess = spawn(process.execPath, [BIN, ...args], { env: { ...sb.env, ...env } });
  // 'close', not 'exit': by then everything it wrote has been read.
  const o = { proc, stdout: '', stderr: '', exit: new Promise<number | null>((r) => proc.once('close', (c) => r(c))) };
  proc.stdout!.on('data', (d) => (o.stdout += d));
  proc.stderr!.on('data', (d) => (o.stderr += d));
  const guard = setTimeout(() => proc.kill('SIGKILL'), 120_000);
  void o.exit.then(() => clearTimeout(guard));
  return o;
}

const lines = (s: string) =>
  s
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

describe('events list and get', () => {
  it('lists the feed in every format, oldest first, with its filters, and gets one event', async () => {
    const w = JSON.parse((await withdraw('ev-cli-1')).stdout);
    const json = await sb.runIn(['events', 'list', '-o', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const all = JSON.parse(json.stdout);
    expect(all.slice(0, 3).map((e: any) => e.type)).toEqual(Array(3).fill('deposit_address.created'));
    const mine = all.find((e: any) => e.object.id === w.id);
    expect(mine).toMatchObject({ type: 'transfer.crypto_withdrawal.pending', object_type: 'transfer_status_change' });

    const nd = await sb.runIn(['events', 'list', '-o', 'ndjson', '--type', 'transfer.crypto_withdrawal.pending']);
    expect(lines(nd.stdout).every((e) => e.type === 'transfer.crypto_withdrawal.pending')).toBe(true);
    expect(lines(nd.stdout).map((e) => e.id)).toContain(mine.id);

    const csv = await sb.runIn(['events', 'list', '-o', 'csv', '--created-from', mine.created_at]);
    const rows = csv.stdout.trim().split('\r\n');
    expect(rows[0]).toBe('created_at,type,object.id,object.status,object.amount,object.asset,id');
    expect(rows).toContain(
      `${mine.created_at},transfer.crypto_withdrawal.pending,${w.id},PENDING,0.001,BTC,${mine.id}`,
    );

    const table = await sb.runIn(['events', 'list', '-o', 'table', '--order', 'DESC', '--limit', '1']);
    expect(table.stdout).toMatch(/^CREATED\s+TYPE\s+OBJECT\s+STATUS\s+AMOUNT\s+ASSET\s+EVENT/);
    expect(table.stdout.trim().split('\n')).toHaveLength(2);

    // --all with small pages gives the same events as one page.
    const paged = await sb.runIn(['events', 'list', '--limit', '2', '--all', '-o', 'json']);
    expect(JSON.parse(paged.stdout).map((e: any) => e.id)).toEqual(all.map((e: any) => e.id));

    const one = await sb.runIn(['events', 'get', mine.id, '-o', 'json']);
    expect(JSON.parse(one.stdout)).toEqual({ ...mine, undelivered_webhooks: 0 });
    const oneTable = await sb.runIn(['events', 'get', mine.id, '-o', 'table']);
    expect(oneTable.stdout).toMatch(/type\s+transfer\.crypto_withdrawal\.pending/);
    expect(oneTable.stdout).toMatch(/object\.status\s+PENDING/);
  }, 120_000);

  it('refuses bad input before sending anything, and names an unknown event', async () => {
    await sb.sent();
    const bad = await sb.runIn(['events', 'list', '--limit', '500']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--limit: must be from 1 to 100/);
    expect(await sb.sent()).toEqual([]);
    const missing = await sb.runIn(['events', 'get', 'no-such-event']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/event not found with id no-such-event/);
  });
});

describe('events watch', () => {
  it('follows new events only, as NDJSON when piped, and ends after --count', async () => {
    expect(checkpoints()).toEqual([]);
    const watch = child(['events', 'watch', '--count', '2']);
    // It has started once its checkpoint exists (the newest event is where it starts).
    await until('the checkpoint', () => checkpoints().length === 1);
    const a = JSON.parse((await withdraw('ev-watch-a')).stdout);
    const b = JSON.parse((await withdraw('ev-watch-b')).stdout);
    expect(await watch.exit).toBe(0);
    const got = lines(watch.stdout);
    expect(got.map((e) => [e.type, e.object.id])).toEqual([
      ['transfer.crypto_withdrawal.pending', a.id],
      ['transfer.crypto_withdrawal.pending', b.id],
    ]);
    // The checkpoint file is private.
    const file = join(sb.env.COINOP_DATA_DIR, 'events', checkpoints()[0]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(sb.env.COINOP_DATA_DIR, 'events')).mode & 0o777).toBe(0o700);
  }, 120_000);

  it('resumes after its checkpoint: what happened while it was not running comes first, nothing twice', async () => {
    // While nobody watches, an address is made and the withdrawals complete (the clock moves past their 600 s).
    const addr = JSON.parse((await sb.runIn(['addresses', 'create', '--network', 'SOLANA', '-o', 'json'])).stdout);
    await sb.control('POST', '/_local/clock/advance', { seconds: 601 });
    const watch = child(['events', 'watch', '--count', '4']);
    expect(await watch.exit).toBe(0);
    const got = lines(watch.stdout);
    // The address first (made before the clock moved), then the three withdrawals of the tests so far, completed.
    expect(got.map((e) => e.type)).toEqual([
      'deposit_address.created',
      'transfer.crypto_withdrawal.completed',
      'transfer.crypto_withdrawal.completed',
      'transfer.crypto_withdrawal.completed',
    ]);
    expect(got[0].object.id).toBe(addr.id);
    const refs = got.slice(1).map((e) => e.object.ref_id);
    expect(refs).toEqual(expect.arrayContaining(['ev-watch-a', 'ev-watch-b', 'ev-cli-1']));
    const times = got.map((e) => e.created_at);
    expect([...times].sort()).toEqual(times);
  }, 120_000);

  it('--since reads from a time instead, in order, in CSV too', async () => {
    const r = await sb.runIn(['events', 'watch', '--since', '1h', '--count', '3', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout.trim().split('\r\n');
    expect(rows[0]).toBe('created_at,type,object.id,object.status,object.amount,object.asset,id');
    expect(rows.slice(1).map((l) => l.split(',')[1])).toEqual(Array(3).fill('deposit_address.created'));
  }, 120_000);

  it('says on Ctrl-C where it stopped and that nothing was changed', async () => {
    const watch = child(['events', 'watch']);
    await until('the start', () => /^watching /m.test(watch.stderr));
    watch.proc.kill('SIGINT');
    expect(await watch.exit).toBe(3);
    expect(watch.stderr).toMatch(/interrupted: stopped watching after \d+ events?; nothing was changed/);
    expect(watch.stderr).toMatch(/resumes after the event of \S+ \(the checkpoint, .*watch-.*\.json\)/);
  }, 120_000);

  it('keeps a checkpoint per set of types', async () => {
    const before = checkpoints();
    const r = await sb.runIn(['events', 'watch', '--type', 'deposit_address.created', '--since', '1h', '--count', '2']);
    expect(lines(r.stdout).map((e) => e.type)).toEqual(['deposit_address.created', 'deposit_address.created']);
    expect(checkpoints().length).toBe(before.length + 1);
  }, 120_000);

  it('names a damaged checkpoint and the way out', async () => {
    const { instance_id } = await sb.control('GET', '/_local/health');
    const file = checkpointFile(sb.env.COINOP_DATA_DIR, {
      reader: 'watch',
      context: 'local',
      serviceId: `local:${instance_id}`,
      types: [],
    });
    expect(existsSync(file)).toBe(true);
    writeFileSync(file, '{"position": 7');
    const r = await sb.runIn(['events', 'watch', '--count', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`the event checkpoint ${file} is damaged`);
    expect(r.stderr).toMatch(/--since/);
    // --since starts anew and writes the file again.
    const again = await sb.runIn(['events', 'watch', '--since', '1h', '--count', '1']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).position.created_at).toBeTruthy();
  });
});

describe('events listen --print-secret', () => {
  it('makes the profile a secret once, keeps it private and prints the same one after', async () => {
    const a = await sb.runIn(['events', 'listen', '--print-secret']);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout.trim()).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    const b = await sb.runIn(['events', 'listen', '--print-secret']);
    expect(b.stdout).toBe(a.stdout);
    const dir = join(sb.env.COINOP_CONFIG_DIR, 'forward-secrets');
    const [f] = readdirSync(dir);
    expect(statSync(join(dir, f)).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });
});

describe('on a terminal', () => {
  it('watch shows a live list with a status line; listen shows each delivery', async () => {
    const { Term } = await import('./terminal.js');
    // A type of its own: a checkpoint of its own, so it starts at new events whatever the tests before left.
    const watch = new Term(
      ['events', 'watch', '--count', '1', '--type', 'transfer.crypto_withdrawal.pending'],
      { ...sb.env, NO_COLOR: undefined },
      160,
    );
    await watch.waitFor(/watching · 0 events · polled/, 60_000);
    const w = JSON.parse((await withdraw('ev-tty-1')).stdout);
    expect(await watch.exit(60_000)).toBe(0);
    const line = watch
      .screen()
      .split('\n')
      .find((l) => l.includes(w.id));
    expect(line).toMatch(/^\d\d:\d\d:\d\d\.\d{3}\s+transfer\.crypto_withdrawal\.pending\s+\S+\s+PENDING\s+0\.001 BTC$/);
    // The status line was cleared before the event's line was written.
    expect(watch.screen()).not.toMatch(/polled.*transfer\.crypto_withdrawal/);

    const server = createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
    await new Promise<void>((r) => server.listen({ host: '127.0.0.1', port: 0 }, () => r()));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`;
      const listen = new Term(
        ['events', 'listen', '--forward-to', url, '--since', '1h', '--count', '2'],
        { ...sb.env, NO_COLOR: undefined },
        200,
      );
      expect(await listen.exit(60_000)).toBe(0);
      const screen = listen.screen();
      expect(screen).toMatch(/Signing secret whsec_\S+/);
      expect(screen).toMatch(/\d\d:\d\d:\d\d\.\d{3}\s+→ 204\s+deposit_address\.created\s+\S+\s+attempt 1\s+\d+ ms/);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  }, 120_000);
});
