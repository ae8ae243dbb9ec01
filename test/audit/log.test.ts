// The audit log on real files: the hash chain as written, every way verify must find it broken (an edited amount, a
// removed line, two lines swapped, a line written by hand, a copied line, a rewritten end), a torn tail, the next
// append after one, and several processes appending at once.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type AuditEvent, GENESIS, parseEntry, sha256Hex } from '../../src/audit/entry.js';
import { AuditGroup, AuditLog } from '../../src/audit/log.js';
import { verifyLog } from '../../src/audit/verify.js';
import { until } from '../support/wait.js';
import { ROOT } from '../support/paths.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function freshLog(): { path: string; log: AuditLog } {
  const dir = mkdtempSync(join(tmpdir(), 'coinop-audit-'));
  dirs.push(dir);
  const path = join(dir, 'data', 'audit', 'audit.log');
  return { path, log: new AuditLog(path) };
}

const WHO = { os_user: 'tester', client_id: 'client-1', profile: 'local', environment: 'local' };
const event = (i: number): AuditEvent => ({
  kind: 'withdrawal',
  ref_id: `ref-${i}`,
  what: { asset: 'BTC', network: 'BITCOIN', amount: `0.0${i}`, destination: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2' },
  outcome: { result: 'sent', transfer_id: `t-${i}`, status: 'PENDING' },
});

async function logOf(count: number) {
  const l = freshLog();
  for (let i = 1; i <= count; i++) await l.log.append([{ who: WHO, event: event(i) }]);
  return l;
}

const lines = (path: string) => readFileSync(path, 'utf8').split('\n');

/** The number of entries of each write() the log makes from now on. */
function writeSizes(log: AuditLog): number[] {
  const written: number[] = [];
  const many = log.writeMany.bind(log);
  log.writeMany = (writer, who, events) => {
    written.push(events.length);
    return many(writer, who, events);
  };
  return written;
}
const writeLines = (path: string, ls: string[]) => writeFileSync(path, ls.join('\n'));

describe('the audit log as written', () => {
  it('is one JSON object a line, each holding the SHA-256 of the line before (of GENESIS first) and the next seq', async () => {
    const { path } = await logOf(4);
    const text = readFileSync(path, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const ls = text.slice(0, -1).split('\n');
    expect(ls).toHaveLength(4);
    let prev = sha256Hex(GENESIS);
    ls.forEach((line, index) => {
      const e = JSON.parse(line);
      expect(e).toMatchObject({ v: 1, seq: index + 1, prev, kind: 'withdrawal', ref_id: `ref-${index + 1}`, who: WHO });
      expect(e.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      prev = sha256Hex(line);
    });
    expect(verifyLog(path)).toMatchObject({ ok: true, lines: 4, entries: 4, head: { seq: 4, sha256: prev } });
  });

  it('is 0600 in a 0700 folder', async () => {
    const { path } = await logOf(1);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
  });

  it('a group writes every entry in order, chained, and the next single entry chains on', async () => {
    const { path, log } = freshLog();
    const errors: Error[] = [];
    const g = new AuditGroup(log, (e) => errors.push(e));
    for (let i = 1; i <= 300; i++) {
      g.add(WHO, event(i));
      // Every 50, until the group has written them (its window open: the next adds go into it as they come).
      if (i % 50 === 0) await until(`${i} entries written`, () => lines(path).filter(Boolean).length === i);
    }
    await g.close();
    await log.append([{ who: WHO, event: event(301) }]);
    expect(errors).toEqual([]);
    const ls = lines(path).filter(Boolean);
    expect(ls.map((l) => JSON.parse(l).ref_id)).toEqual(Array.from({ length: 301 }, (_, i) => `ref-${i + 1}`));
    expect(verifyLog(path)).toMatchObject({ ok: true, entries: 301 });
  });

  it('durable(): a window of entries on disk (one fsync for them all) before it resolves; one that cannot be written rejects', async () => {
    const { path, log } = freshLog();
    let syncs = 0;
    const sync = log.sync.bind(log);
    log.sync = async (writer) => {
      syncs++;
      return sync(writer);
    };
    const errors: Error[] = [];
    // A window that stays open until close(): what is counted does not hang on this machine's speed.
    const g = new AuditGroup(log, (e) => errors.push(e), { windowMs: 600_000, idleMs: 600_000, gapMs: 0 });
    // The first window: queued, then written and synced as the group's window opens.
    await g.durable(WHO, [1, 2, 3, 4, 5].map(event));
    expect(syncs).toBe(1);
    await g.durable(WHO, []);
    expect(syncs).toBe(1);
    expect(lines(path).filter(Boolean)).toHaveLength(5);
    // Answers written into the open window, then the next window of attempts: synced at once, with them.
    g.add(WHO, event(6));
    await g.durable(WHO, [7, 8, 9].map(event));
    expect(syncs).toBe(2);
    expect(
      lines(path)
        .filter(Boolean)
        .map((l) => JSON.parse(l).ref_id),
    ).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => `ref-${i}`));
    await g.close();
    expect(syncs).toBe(3); // and the window's own, as it closes
    expect(errors).toEqual([]);
    expect(verifyLog(path).ok).toBe(true);

    // A log that cannot be opened: durable() rejects, and so does every later call (nothing more is written).
    const broken = new AuditLog(path);
    broken.open = () => {
      throw new Error('EISDIR: illegal operation on a directory');
    };
    const bad = new AuditGroup(broken, (e) => errors.push(e));
    await expect(bad.durable(WHO, [event(10)])).rejects.toThrow(/EISDIR/);
    // With nothing to write, durable() says whether the group can still be written.
    await expect(bad.durable(WHO, [])).rejects.toThrow(/EISDIR/);
    await expect(bad.durable(WHO, [event(11)])).rejects.toThrow(/EISDIR/);
    await bad.close();
    expect(lines(path).filter(Boolean)).toHaveLength(9);
  });

  it('an empty or missing log verifies, with nothing in it', () => {
    const { path } = freshLog();
    expect(verifyLog(path)).toMatchObject({ ok: true, lines: 0, entries: 0, head: null, problems: [] });
  });
});

describe('verify finds what was done to the log', () => {
  it('a hand-edited amount: names the line', async () => {
    const { path } = await logOf(5);
    const ls = lines(path);
    ls[2] = ls[2].replace('"amount":"0.03"', '"amount":"3.00"');
    writeLines(path, ls);
    const r = verifyLog(path);
    expect(r.ok).toBe(false);
    expect(r.problems).toEqual([
      {
        line: 3,
        seq: 3,
        kind: 'edited',
        message: 'line 3 (seq 3) was changed after it was written: its SHA-256 is not the prev that line 4 holds',
      },
    ]);
  });

  it('a removed line: says which seq is missing and where', async () => {
    const { path } = await logOf(5);
    const ls = lines(path);
    ls.splice(1, 1);
    writeLines(path, ls);
    const r = verifyLog(path);
    expect(r.problems).toEqual([
      { line: 2, seq: 2, kind: 'removed', message: 'seq 2 is missing between line 1 and line 2: 1 line removed' },
    ]);
  });

  it('the first line removed', async () => {
    const { path } = await logOf(3);
    writeLines(path, lines(path).slice(1));
    expect(verifyLog(path).problems).toEqual([
      { line: 1, seq: 1, kind: 'removed', message: 'seq 1 is missing before line 1: 1 line removed' },
    ]);
  });

  it('two lines swapped: names the line out of order', async () => {
    const { path } = await logOf(5);
    const ls = lines(path);
    [ls[1], ls[2]] = [ls[2], ls[1]];
    writeLines(path, ls);
    const r = verifyLog(path);
    expect(r.problems).toEqual([
      { line: 3, seq: 2, kind: 'reordered', message: 'line 3 (seq 2) is out of order: it belongs before line 2' },
    ]);
  });

  it('a line written by hand, and a copied line', async () => {
    const { path } = await logOf(4);
    const ls = lines(path);
    ls.splice(2, 0, '{"note":"added later"}', ls[1]);
    writeLines(path, ls);
    const r = verifyLog(path);
    expect(r.problems.map((p) => [p.line, p.kind])).toEqual([
      [3, 'not_entry'],
      [4, 'repeated'],
    ]);
    expect(r.problems[1].message).toBe('line 4 repeats seq 2 of line 2: a copied or inserted line');
  });

  it('a forged entry with a fitting seq and prev: the line after it no longer fits', async () => {
    const { path } = await logOf(4);
    const ls = lines(path);
    const forged = { ...JSON.parse(ls[2]), what: { asset: 'BTC', amount: '9' } };
    ls[2] = JSON.stringify(forged);
    writeLines(path, ls);
    expect(verifyLog(path).problems.map((p) => [p.line, p.kind])).toEqual([[3, 'edited']]);
  });

  it('a rewritten and re-chained log, or lines cut from its end: only a head noted earlier shows it', async () => {
    const { path, log } = await logOf(4);
    const head = verifyLog(path).head!;
    expect(verifyLog(path, { seq: head.seq, sha256: head.sha256.slice(0, 12) }).ok).toBe(true);
    // Cut the last line: the chain still holds, the head does not.
    writeLines(path, lines(path).slice(0, 3).concat(''));
    expect(verifyLog(path).ok).toBe(true);
    expect(verifyLog(path, head).problems).toEqual([
      {
        line: 3,
        seq: 4,
        kind: 'head',
        message: 'the log holds no entry seq 4 (it ends at seq 3): lines were removed from its end',
      },
    ]);
    // A new entry 4 in its place: not the head noted.
    await log.append([{ who: WHO, event: event(9) }]);
    expect(verifyLog(path, head).problems.map((p) => [p.line, p.kind])).toEqual([[4, 'head']]);
  });
});

describe('a torn write (a crash mid-line)', () => {
  it('is reported as the torn tail; the log verifies up to the last whole line', async () => {
    const { path } = await logOf(3);
    const size = statSync(path).size;
    truncateSync(path, size - 30);
    const r = verifyLog(path);
    expect(r.ok).toBe(true);
    expect(r.entries).toBe(2);
    expect(r.head?.seq).toBe(2);
    expect(r.torn_tail?.line).toBe(3);
    expect(r.torn_tail!.bytes).toBeGreaterThan(100);
  });

  it('the next append starts on a new line, chains from the last whole entry and records the torn bytes', async () => {
    const { path, log } = await logOf(3);
    const whole = lines(path).slice(0, 2);
    truncateSync(path, statSync(path).size - 30);
    const torn = readFileSync(path, 'utf8').split('\n')[2];
    await log.append([{ who: WHO, event: event(7) }]);
    const ls = lines(path);
    expect(ls[2]).toBe(torn);
    const next = JSON.parse(ls[3]);
    expect(next).toMatchObject({
      seq: 3,
      prev: sha256Hex(whole[1]),
      ref_id: 'ref-7',
      torn: { bytes: Buffer.byteLength(torn), sha256: sha256Hex(torn) },
    });
    const r = verifyLog(path);
    expect(r).toMatchObject({ ok: true, entries: 3, torn_tail: null, recovered: [{ line: 3, recorded_by: 4 }] });
    // The torn bytes are accounted for: changing them now is found.
    ls[2] = ls[2].replace('BTC', 'ETH');
    writeLines(path, ls);
    expect(verifyLog(path).problems.map((p) => [p.line, p.kind])).toEqual([[3, 'not_entry']]);
  });

  it('several entries after a torn tail in one write(): the first records the torn bytes, each chains on the one before', async () => {
    const { path, log } = await logOf(3);
    truncateSync(path, statSync(path).size - 30);
    const torn = readFileSync(path, 'utf8').split('\n')[2];
    await log.append([7, 8, 9].map((i) => ({ who: WHO, event: event(i) })));
    const ls = lines(path).filter(Boolean);
    expect(ls[2]).toBe(torn);
    const written = ls.slice(3).map((l) => JSON.parse(l));
    expect(written.map((e) => [e.seq, e.ref_id, e.torn?.bytes])).toEqual([
      [3, 'ref-7', Buffer.byteLength(torn)],
      [4, 'ref-8', undefined],
      [5, 'ref-9', undefined],
    ]);
    expect(written[1].prev).toBe(sha256Hex(ls[3]));
    expect(written[2].prev).toBe(sha256Hex(ls[4]));
    expect(verifyLog(path)).toMatchObject({ ok: true, entries: 5, recovered: [{ line: 3, recorded_by: 4 }] });
  });

  it("durable(): a window's entries go to the file with one write(), fsynced once", async () => {
    const { path, log } = freshLog();
    let writes = 0;
    const many = log.writeMany.bind(log);
    log.writeMany = (writer, who, events) => {
      writes++;
      return many(writer, who, events);
    };
    const g = new AuditGroup(log, () => {}, { windowMs: 600_000, idleMs: 600_000, gapMs: 0 });
    await g.durable(
      WHO,
      Array.from({ length: 64 }, (_, i) => event(i + 1)),
    );
    await g.durable(
      WHO,
      Array.from({ length: 64 }, (_, i) => event(i + 65)),
    );
    await g.close();
    expect(writes).toBe(2);
    expect(lines(path).filter(Boolean)).toHaveLength(128);
    expect(verifyLog(path)).toMatchObject({ ok: true, entries: 128 });
  });

  it('add(): the answers of one turn of the event loop go with one write(), in order, before the next durable()', async () => {
    const { path, log } = freshLog();
    const written = writeSizes(log);
    const g = new AuditGroup(log, () => {}, { windowMs: 600_000, idleMs: 600_000, gapMs: 0 });
    // A window open (the attempts of the first rows), then the answers of ten rows in one turn.
    await g.durable(WHO, [1, 2].map(event));
    for (let i = 3; i <= 12; i++) g.add(WHO, event(i));
    await until('the answers written', () => lines(path).filter(Boolean).length === 12);
    // Two answers, then the next window's attempts: the answers are written first.
    g.add(WHO, event(13));
    g.add(WHO, event(14));
    await g.durable(WHO, [15, 16].map(event));
    await g.close();
    expect(written).toEqual([2, 10, 2, 2]);
    expect(
      lines(path)
        .filter(Boolean)
        .map((l) => JSON.parse(l).ref_id),
    ).toEqual(Array.from({ length: 16 }, (_, i) => `ref-${i + 1}`));
    expect(verifyLog(path)).toMatchObject({ ok: true, entries: 16 });
  });

  it('add(): answers that come in turns of their own within addedMs go with one write(), before the next durable(); ADDED_MAX of them at once', async () => {
    const { path, log } = freshLog();
    const written = writeSizes(log);
    const g = new AuditGroup(log, () => {}, { windowMs: 600_000, idleMs: 600_000, gapMs: 0, addedMs: 600_000 });
    await g.durable(WHO, [1, 2].map(event));
    // Six answers, each in a turn of the event loop of its own: held, not one write() a turn.
    for (let i = 3; i <= 8; i++) {
      g.add(WHO, event(i));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(written).toEqual([2]);
    // The next window's attempts: the answers are written first, with one write(), and are durable with them.
    await g.durable(WHO, [9, 10].map(event));
    expect(written).toEqual([2, 6, 2]);
    expect(lines(path).filter(Boolean)).toHaveLength(10);
    // As many answers as ADDED_MAX: written as the last of them comes, without waiting for the time.
    for (let i = 11; i < 11 + 256; i++) g.add(WHO, event(i));
    expect(written).toEqual([2, 6, 2, 256]);
    // What close() finds held is written before the window ends.
    g.add(WHO, event(267));
    await g.close();
    expect(written).toEqual([2, 6, 2, 256, 1]);
    expect(
      lines(path)
        .filter(Boolean)
        .map((l) => JSON.parse(l).ref_id),
    ).toEqual(Array.from({ length: 267 }, (_, i) => `ref-${i + 1}`));
    expect(verifyLog(path)).toMatchObject({ ok: true, entries: 267 });
  });

  it('a crash that left only the newline of a torn line: recorded the same way', async () => {
    const { path, log } = await logOf(2);
    appendFileSync(path, '{"v":1,"seq":3,"ti\n');
    await log.append([{ who: WHO, event: event(3) }]);
    expect(parseEntry(Buffer.from(lines(path)[3]))?.torn?.bytes).toBe(18);
    expect(verifyLog(path)).toMatchObject({ ok: true, entries: 3, recovered: [{ line: 3, bytes: 18 }] });
  });

  it('an entry that records a torn write where there is none is found', async () => {
    const { path } = await logOf(2);
    const ls = lines(path);
    ls.splice(1, 1);
    writeLines(path, ls);
    appendFileSync(path, 'garbage');
    const withTorn = await new AuditLog(path).append([{ who: WHO, event: event(5) }]);
    expect(withTorn[0].torn?.bytes).toBe(7);
    const after = lines(path).filter((l) => l !== 'garbage');
    writeLines(path, after);
    expect(verifyLog(path).problems.map((p) => p.kind)).toContain('torn');
  });
});

describe('several processes appending at once', () => {
  it('keep one chain: every entry of each is there once, and the log verifies', async () => {
    const { path } = freshLog();
    const run = (tag: string, n: number) =>
      new Promise<void>((resolve, reject) => {
        const c = spawn(
          process.execPath,
          [
            `${ROOT}/node_modules/vite-node/vite-node.mjs`,
            `${ROOT}/test/audit/fixtures/append-child.ts`,
            path,
            tag,
            String(n),
          ],
          { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let err = '';
        c.stderr.on('data', (d) => (err += d));
        c.on('error', reject);
        c.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${tag} exited ${code}: ${err}`))));
      });
    await Promise.all([run('a', 150), run('b', 150), run('c', 150)]);
    const r = verifyLog(path);
    expect(r.problems).toEqual([]);
    expect(r).toMatchObject({ ok: true, entries: 450, torn_tail: null });
    const refs = lines(path)
      .filter(Boolean)
      .map((l) => JSON.parse(l).ref_id)
      .sort();
    const want = ['a', 'b', 'c'].flatMap((t) => Array.from({ length: 150 }, (_, i) => `${t}-${i}`)).sort();
    expect(refs).toEqual(want);
  }, 180_000);
});
