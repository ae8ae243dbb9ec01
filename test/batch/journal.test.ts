// The journal: states survive a reopen, one process per journal, damage and foreign files are refused with a way
// out, --resume requeues interrupted rows; and the token bucket paces and holds after a 429.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal, JournalError, JOURNAL_VERSION, RowsDigest } from '../../src/batch/journal.js';
import type { BatchService } from '../../src/batch/service-port.js';
import { FatalBatchError, plannedRows, sendRows } from '../../src/batch/runner.js';
import { WriteError } from '../../src/batch/write-error.js';
import { stopError } from '../../src/commands/withdraw/batch/run.js';
import { exitCodeOf } from '../../src/cli/errors.js';
import { TokenBucket, backoffMs, retryAfterMs, type Clock } from '../../src/batch/pacing.js';

const dir = mkdtempSync(join(tmpdir(), 'coinop-journal-'));
const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    row: i + 1,
    ref_id: `r${i + 1}`,
    asset: 'BTC',
    crypto_network: 'BITCOIN',
    destination_address: 'a',
    amount: '1',
  }));

/** The request body of row i of rows(n), as staged. */
const body = (i: number) =>
  JSON.stringify({
    profile_id: 'p',
    destination_address: 'a',
    asset: 'BTC',
    crypto_network: 'BITCOIN',
    amount: '1',
    ref_id: `r${i}`,
  });

/** One row at a time, with no rate limit. */
const oneAtATime = () => ({ concurrency: 1, limiter: new TokenBucket(Infinity) });

/** A service that creates every withdrawal it is sent, telling `onSend` the number of each row (ref_id rN). */
function creatingService(onSend: (row: number) => void): BatchService {
  return {
    createWithdrawal: async (request) => {
      onSend(Number(String(request.ref_id).slice(1)));
      return { kind: 'created', transfer: { id: `t-${request.ref_id}`, status: 'PENDING' } as never };
    },
    quoteFee: async () => ({ kind: 'fatal', error: new Error('unused') }),
    transfers: async () => [],
    transfersByRef: async () => [],
  };
}

describe('batch journal', () => {
  it('binds its rows to what was planned: an edited row, a removed one, or a stale digest is found and named', () => {
    const path = join(dir, 'bound.journal');
    const j = Journal.open(path, 'hash-b');
    const planned = rows(4).map((r) => ({ ...r, body: JSON.stringify({ ...r, ref_id: r.ref_id }) }));
    const digest = new RowsDigest();
    for (const r of planned) digest.add(r);
    j.setMeta({ file_hash: 'hash-b', version: JOURNAL_VERSION, rows_sha256: digest.finish() });
    j.plan(planned);
    expect(j.checkRows()).toMatchObject({ ok: true, rows: 4 });
    const db = (j as unknown as { db: import('better-sqlite3').Database }).db;
    db.prepare(`UPDATE rows SET req_amount = '10' WHERE row = 3`).run();
    expect(j.checkRows()).toEqual({
      ok: false,
      row: 3,
      why: expect.stringContaining('not the row that was confirmed'),
    });
    db.prepare(`UPDATE rows SET req_amount = '1' WHERE row = 3`).run();
    expect(j.checkRows().ok).toBe(true);
    db.prepare(`DELETE FROM rows WHERE row = 4`).run();
    expect(j.checkRows()).toEqual({ ok: false, row: 0, why: expect.stringContaining('a row was added, removed') });
    j.close();
  });

  it('a journal of version 2 (no hashes of its rows) is refused with the way out', () => {
    const path = join(dir, 'v2.journal');
    const j = Journal.open(path, 'hash-c');
    j.setMeta({ file_hash: 'hash-c', version: '2' });
    j.close();
    expect(() => Journal.open(path, 'hash-c')).toThrow(/written by an older coinop \(journal version 2/);
  });

  it('keeps every state across a reopen and requeues interrupted rows on resume', async () => {
    const path = join(dir, 'a.journal');
    const j = Journal.open(path, 'hash-a');
    j.setMeta({ file_hash: 'hash-a', version: JOURNAL_VERSION });
    j.plan(rows(5));
    await Promise.all([j.markSent(1), j.markSent(2), j.markSent(3), j.markSent(4)]);
    await j.markSucceeded(1, {
      transfer_id: 't1',
      status: 'PENDING',
      outcome: 'created',
      amount: '1',
      fee: '0.1',
      total: '1.1',
    });
    await j.markFailed(2, { title: 'Insufficient Funds', status: 403 });
    await j.markUnknown(3, { title: 'No answer', status: 0 });
    j.close();
    const k = Journal.open(path, 'hash-a');
    expect(k.counts()).toMatchObject({ succeeded: 1, failed: 1, unknown: 1, sent: 1, planned: 1 });
    k.requeue(false);
    expect(k.counts()).toMatchObject({ succeeded: 1, failed: 1, planned: 3 });
    k.requeue(true);
    expect(k.counts()).toMatchObject({ succeeded: 1, planned: 4 });
    expect(k.get(1)).toMatchObject({ state: 'succeeded', transfer_id: 't1', attempts: 1 });
    expect(k.pendingTransfers()).toEqual([{ row: 1, transfer_id: 't1' }]);
    await k.markStatus(1, 'COMPLETED');
    expect(k.pendingTransfers()).toEqual([]);
    k.close();
  });

  it('refuses a second live process, and takes over the lock of a dead one', async () => {
    const path = join(dir, 'b.journal');
    writeFileSync(`${path}.lock`, String(process.pid === 1 ? 2 : 1)); // pid 1 is alive and not us
    expect(() => Journal.open(path, 'h')).toThrowError(/another coinop \(pid 1\) is running this batch/);
    const child = spawn(process.execPath, ['-e', '']);
    await new Promise((r) => child.on('close', r));
    writeFileSync(`${path}.lock`, String(child.pid));
    Journal.open(path, 'h').close();
  });

  it('holds a lock that is empty because its owner has only just created it; takes over an old empty one', () => {
    const path = join(dir, 'e.journal');
    // A concurrent opener has created the lock and not yet written its pid.
    writeFileSync(`${path}.lock`, '');
    expect(() => Journal.open(path, 'h')).toThrowError(/another coinop is opening this batch/);
    expect(readFileSync(`${path}.lock`, 'utf8')).toBe('');
    expect(existsSync(path)).toBe(false);
    // Left empty long ago by a coinop that died between creating and writing it: taken over.
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${path}.lock`, old, old);
    Journal.open(path, 'h').close();
  });

  it('a journal that cannot be written (a full disk) stops the batch, named, with what was sent', async () => {
    const full = () => Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    const sent: string[] = [];
    const service: BatchService = {
      createWithdrawal: async (body) => {
        sent.push(body.ref_id as string);
        return { kind: 'created', transfer: { id: `t-${body.ref_id}`, status: 'PENDING' } as never };
      },
      quoteFee: async () => ({ kind: 'fatal', error: new Error('unused') }),
      transfers: async () => [],
      transfersByRef: async () => [],
    };
    for (const failFrom of [1, 2]) {
      const path = join(dir, `full-${failFrom}.journal`);
      const j = Journal.open(path, 'h');
      j.setMeta({ file_hash: 'h' });
      j.plan(rows(40).map((r) => ({ ...r, body: body(r.row) })));
      // From the failFrom-th write on, every commit fails as on a full disk.
      const db = (j as unknown as { db: { transaction: (fn: () => void) => () => void } }).db;
      const real = db.transaction.bind(db);
      let writes = 0;
      db.transaction = (fn) => () => {
        if (++writes >= failFrom) throw full();
        return real(fn)();
      };
      sent.length = 0;
      const err = await sendRows(plannedRows(j), 40, {
        journal: j,
        service,
        ...oneAtATime(),
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FatalBatchError);
      const cause = (err as FatalBatchError).cause;
      expect(cause).toBeInstanceOf(WriteError);
      expect(cause.message).toBe(`cannot write the batch journal ${path} (the disk is full (SQLITE_FULL))`);
      // The first window (16 rows) left only if its "sent" mark was written; nothing after the failure.
      expect(sent).toHaveLength(failFrom === 1 ? 0 : 16);
      const stop = stopError(cause, j);
      if (failFrom === 1) {
        expect([exitCodeOf(stop), stop.message]).toEqual([
          2,
          `cannot write the batch journal ${path} (the disk is full (SQLITE_FULL)): the batch stopped; nothing was sent`,
        ]);
      } else {
        expect(exitCodeOf(stop)).toBe(6);
        expect(stop.message).toBe(
          `cannot write the batch journal ${path} (the disk is full (SQLITE_FULL)): the batch stopped; rows sent so far are in the journal, and nothing more was sent`,
        );
        expect(stop.hint).toMatch(/free space on that disk.*--resume/);
      }
      db.transaction = real;
      j.close();
    }
  });

  it('beforeRow stops the batch at the row it refuses; beforeWindow holds each window until it resolves, and a rejection sends nothing of it', async () => {
    const sent: number[] = [];
    const service = creatingService((row) => sent.push(row));
    const open = (name: string) => {
      const j = Journal.open(join(dir, name), 'h');
      j.setMeta({ file_hash: 'h' });
      j.plan(rows(40).map((r) => ({ ...r, body: body(r.row) })));
      return j;
    };
    // The hours close as row 7's turn comes: rows 1-6 go, 7 and after stay planned.
    const j = open('gate-row.journal');
    const windows: number[][] = [];
    const closed = new Error('refused by policy: rule hours');
    const err = await sendRows(plannedRows(j), 40, {
      journal: j,
      service,
      ...oneAtATime(),
      beforeWindow: async (window) => {
        // Every row of the window is still planned (nothing recorded as sent, nothing sent) while this runs.
        expect(window.every((r) => j.get(r.row)?.state === 'planned' && !sent.includes(r.row))).toBe(true);
        windows.push(window.map((r) => r.row));
      },
      beforeRow: (r) => (r.row === 7 ? closed : undefined),
    }).catch((e: unknown) => e);
    expect((err as FatalBatchError).cause).toBe(closed);
    expect(sent).toEqual([1, 2, 3, 4, 5, 6]);
    expect(windows[0]).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(j.counts()).toMatchObject({ succeeded: 6, planned: 34, sent: 0 });
    j.close();
    // A window whose audit entries cannot be written: none of it leaves, and the batch stops.
    sent.length = 0;
    const k = open('gate-window.journal');
    let n = 0;
    const unwritable = new Error('the audit log cannot be written');
    const err2 = await sendRows(plannedRows(k), 40, {
      journal: k,
      service,
      ...oneAtATime(),
      beforeWindow: async () => {
        if (++n === 2) throw unwritable;
      },
    }).catch((e: unknown) => e);
    expect((err2 as FatalBatchError).cause).toBe(unwritable);
    expect(sent).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(k.counts()).toMatchObject({ succeeded: 16, planned: 24, sent: 0 });
    k.close();
  });

  it('each row leaves only once its window is on disk in the audit log, the record of sent ref_ids and the journal; the next window is written while this one is sent', async () => {
    const j = Journal.open(join(dir, 'durable-first.journal'), 'h');
    j.setMeta({ file_hash: 'h' });
    j.plan(rows(200).map((r) => ({ ...r, body: body(r.row) })));
    // What is on disk, as each writer's promise resolves: the journal's once its WAL fsync is done.
    const audited = new Set<number>();
    const recorded = new Set<number>();
    const journalled = new Set<number>();
    const wal = (j as unknown as { wal: { sync: () => Promise<void> } }).wal;
    const realSync = wal.sync.bind(wal);
    let fsyncs = 0;
    wal.sync = async () => {
      await realSync();
      fsyncs++;
    };
    const markSent = j.markSentDurable.bind(j);
    j.markSentDurable = async (rs) => {
      await markSent(rs);
      for (const r of rs) journalled.add(r);
    };
    // The disk is slow: each window's audit entries and record take a few turns of the event loop.
    const slow = () => new Promise<void>((r) => setImmediate(() => setImmediate(r)));
    const windowsStarted: number[] = [];
    let answered = 0;
    const firstWindowAnsweredWhenSecondBegan: number[] = [];
    const violations: string[] = [];
    const service: BatchService = {
      createWithdrawal: async (body) => {
        const row = Number(String(body.ref_id).slice(1));
        if (!audited.has(row)) violations.push(`row ${row} left before its audit entry was on disk`);
        if (!recorded.has(row)) violations.push(`row ${row} left before the record of sent ref_ids had it`);
        if (!journalled.has(row) || j.stateOf(row)?.state !== 'sent')
          violations.push(`row ${row} left before the journal had it as sent, on disk`);
        await slow();
        answered++;
        return { kind: 'created', transfer: { id: `t-${body.ref_id}`, status: 'PENDING' } as never };
      },
      quoteFee: async () => ({ kind: 'fatal', error: new Error('unused') }),
      transfers: async () => [],
      transfersByRef: async () => [],
    };
    const p = await sendRows(plannedRows(j), 200, {
      journal: j,
      service,
      concurrency: 2,
      limiter: new TokenBucket(Infinity),
      beforeWindow: async (window) => {
        windowsStarted.push(window[0].row);
        if (windowsStarted.length === 2) firstWindowAnsweredWhenSecondBegan.push(answered);
        await slow();
        for (const r of window) audited.add(r.row);
      },
      onSend: async (window) => {
        await slow();
        for (const r of window) recorded.add(r.row);
      },
    });
    expect(violations).toEqual([]);
    expect(p).toMatchObject({ succeeded: 200, failed: 0 });
    // Windows of 32 rows (16 per row in flight), each journalled with one fsync (and the answers' group commits).
    expect(windowsStarted).toEqual([1, 33, 65, 97, 129, 161, 193]);
    expect(fsyncs).toBeGreaterThanOrEqual(7);
    // The second window's writes began before the first window's rows were all answered.
    expect(firstWindowAnsweredWhenSecondBegan[0]).toBeLessThan(32);
    expect(j.counts()).toMatchObject({ succeeded: 200, sent: 0, planned: 0 });
    j.close();
  });

  it('markSentDurable resolves only once the WAL is fsynced (the commit alone is not enough); a failed fsync rejects', async () => {
    const j = Journal.open(join(dir, 'wal-fsync.journal'), 'h');
    j.setMeta({ file_hash: 'h' });
    j.plan(rows(4));
    const wal = (j as unknown as { wal: { sync: () => Promise<void> } }).wal;
    let release!: () => void;
    let fail!: (e: Error) => void;
    wal.sync = () =>
      new Promise<void>((resolve, reject) => {
        release = resolve;
        fail = reject;
      });
    let done = false;
    const p = j.markSentDurable([1, 2]).then(() => {
      done = true;
    });
    // Committed (visible) at once, not yet durable: the promise waits for the fsync.
    expect(j.stateOf(1)?.state).toBe('sent');
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    expect(done).toBe(false);
    release();
    await p;
    expect(done).toBe(true);
    const q = j.markSentDurable([3]);
    fail(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
    await expect(q).rejects.toBeInstanceOf(WriteError);
    (j as unknown as { wal: { sync: () => Promise<void> } }).wal.sync = () => Promise.resolve();
    j.close();
  });

  it('a window written ahead is not sent once beforeLaunch refuses (the audit log failed since); its rows go back to planned', async () => {
    const j = Journal.open(join(dir, 'launch-refused.journal'), 'h');
    j.setMeta({ file_hash: 'h' });
    j.plan(rows(40).map((r) => ({ ...r, body: body(r.row) })));
    const sent: number[] = [];
    const broken = new Error('the audit log cannot be written');
    let logBroken = false;
    const service = creatingService((row) => sent.push(row));
    const windows: number[] = [];
    const err = await sendRows(plannedRows(j), 40, {
      journal: j,
      service,
      ...oneAtATime(),
      beforeWindow: async (window) => {
        windows.push(window[0].row);
        // The log breaks once the last window is written ahead (recorded as sent in the journal, not yet launched).
        if (window[0].row === 33) logBroken = true;
      },
      beforeLaunch: async () => {
        if (logBroken) throw broken;
      },
    }).catch((e: unknown) => e);
    expect((err as FatalBatchError).cause).toBe(broken);
    expect(windows).toEqual([1, 17, 33]);
    // The windows launched before the log broke are sent whole; the one written ahead and refused is not.
    expect(sent).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
    expect(j.counts()).toMatchObject({ succeeded: 32, planned: 8, sent: 0 });
    j.close();
  });

  it('a window the record of sent ref_ids cannot take sends nothing of it; the window before it is sent whole, the rest stays planned', async () => {
    const j = Journal.open(join(dir, 'record-fails.journal'), 'h');
    j.setMeta({ file_hash: 'h' });
    j.plan(rows(40).map((r) => ({ ...r, body: body(r.row) })));
    const sent: number[] = [];
    const service = creatingService((row) => sent.push(row));
    const full = new Error('cannot write the record of sent ref_ids (the disk is full)');
    let n = 0;
    const err = await sendRows(plannedRows(j), 40, {
      journal: j,
      service,
      ...oneAtATime(),
      onSend: async () => {
        if (++n === 2) throw full;
      },
    }).catch((e: unknown) => e);
    expect((err as FatalBatchError).cause).toBe(full);
    expect(sent).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(j.counts()).toMatchObject({ succeeded: 16, planned: 24, sent: 0 });
    j.close();
  });

  it('sends only rows the journal still has as planned (their states read a window at a time); a row under another ref_id stops the batch before it', async () => {
    const j = Journal.open(join(dir, 'states.journal'), 'h');
    j.setMeta({ file_hash: 'h' });
    j.plan(rows(40).map((r) => ({ ...r, body: body(r.row) })));
    const given = (n: number) => ({ row: n, line: 0, derived: false, body: JSON.parse(body(n)) });
    // Rows 3 and 20 are done already (an earlier run): given again, they are skipped without a request.
    await j.markSucceeded(3, { transfer_id: 't3', status: 'PENDING', outcome: 'created' });
    await j.markSucceeded(20, { transfer_id: 't20', status: 'PENDING', outcome: 'created' });
    j.flush();
    expect(j.statesOf([3, 4, 20, 99])).toEqual(
      new Map([
        [3, { state: 'succeeded', ref_id: 'r3' }],
        [4, { state: 'planned', ref_id: 'r4' }],
        [20, { state: 'succeeded', ref_id: 'r20' }],
      ]),
    );
    const sent: number[] = [];
    async function* all() {
      for (let n = 1; n <= 40; n++) yield given(n);
    }
    await sendRows(all(), 38, { journal: j, service: creatingService((row) => sent.push(row)), ...oneAtATime() });
    expect(sent).toEqual(Array.from({ length: 40 }, (_, i) => i + 1).filter((n) => n !== 3 && n !== 20));
    // A row whose ref_id is not the journal's is never sent, nor any row of its window.
    const k = Journal.open(join(dir, 'states-other-ref.journal'), 'h');
    k.setMeta({ file_hash: 'h' });
    k.plan(rows(4).map((r) => ({ ...r, body: body(r.row) })));
    const sentK: number[] = [];
    async function* edited() {
      yield given(1);
      yield { ...given(2), body: { ...given(2).body, ref_id: 'other' } };
    }
    const err = await sendRows(edited(), 2, {
      journal: k,
      service: creatingService((row) => sentK.push(row)),
      ...oneAtATime(),
    }).catch((e: unknown) => e);
    expect(String(err)).toMatch(/row 2: the journal has ref_id r2, the row to send other/);
    expect(sentK).toEqual([]);
    expect(k.counts()).toMatchObject({ planned: 4 });
    j.close();
    k.close();
  });

  it('names a damaged journal and a journal of another file', () => {
    const bad = join(dir, 'c.journal');
    writeFileSync(bad, 'not a database at all '.repeat(400));
    expect(() => Journal.open(bad, 'h')).toThrowError(JournalError);
    expect(() => Journal.open(bad, 'h')).toThrowError(/is damaged .*mv .*already submitted/s);
    const other = join(dir, 'd.journal');
    const j = Journal.open(other, 'h1');
    j.setMeta({ file_hash: 'h1' });
    j.close();
    expect(() => Journal.open(other, 'h2')).toThrowError(/belongs to another file/);
  });
});

describe('token bucket', () => {
  function fakeClock() {
    let t = 0;
    const clock: Clock & { t(): number } = { now: () => t, sleep: async (ms) => void (t += ms), t: () => t };
    return clock;
  }

  it('lets `rate` requests a second through on average', async () => {
    const c = fakeClock();
    const b = new TokenBucket(20, 5, c);
    for (let i = 0; i < 201; i++) await b.take();
    // 1 token at the start, then 20 per second: 200 more take 10 s.
    expect(c.t()).toBeGreaterThanOrEqual(9_999);
    expect(c.t()).toBeLessThanOrEqual(10_100);
  });

  it('holds everyone after a 429', async () => {
    const c = fakeClock();
    const b = new TokenBucket(Infinity, 1, c);
    await b.take();
    b.hold(3000);
    await b.take();
    expect(c.t()).toBe(3000);
  });

  it('reads Retry-After and backs off with a cap', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(retryAfterMs('soon')).toBeUndefined();
    for (let a = 1; a < 20; a++) expect(backoffMs(a, 200, 5000)).toBeLessThanOrEqual(5000);
  });
});
