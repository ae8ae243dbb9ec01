// Appending to the audit log: one JSON object a line, each chained to the entry before it by SHA-256. The file is
// opened O_APPEND and never rewritten; each line is one write(); the previous entry is read and the lines written
// under an exclusive lock (src/config/lock.ts), so processes appending at once keep one chain. A write a crash cut
// short leaves a torn tail: the next append starts on a new line, chains from the last whole entry, and records the
// torn bytes' length and SHA-256 (`torn`), so they are accounted for and cannot be changed later unnoticed.
//
// A single entry is written and fsynced before append() returns. A group (a batch's rows) holds the lock for a short
// window: each row's line is written as it comes, and the window ends with one fsync. durable() writes entries into
// the window and fsyncs at once (one fsync for all of them): a batch's attempt entries, a window of rows at a time,
// on disk before their requests leave.
import { closeSync, constants, existsSync, fstatSync, fsync, fsyncSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { LockTimeoutError, withLock } from '../config/lock.js';
import { privateDir, privateFile, type Warn } from '../config/private-files.js';
import {
  type AuditEntry,
  type AuditEvent,
  type AuditWho,
  entryLine,
  GENESIS_HASH,
  nextEntry,
  parseEntry,
  sha256Hex,
  type TornRecord,
} from './entry.js';

/** The log's file in the data directory: `<data dir>/audit/audit.log` (0600, in a 0700 folder). */
export function auditLogPath(dataDir: string): string {
  return join(dataDir, 'audit', 'audit.log');
}

/** The log cannot be written (a full disk, a lock held too long, an unreadable tail): the message names the file. */
export class AuditWriteError extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`the audit log ${path} cannot be written: ${reason}`);
    this.name = 'AuditWriteError';
  }
}

/** Where the next entry chains from: the last whole entry, and whatever a torn write left after it. */
interface Tail {
  seq: number;
  hash: string;
  torn?: TornRecord;
  /** The file ends without a newline (a torn write): the next line starts with one. */
  needsNewline: boolean;
}

const CHUNK = 64 * 1024;
/** More bytes than this after the last entry are not a torn write: the log is refused until someone looks. */
const MAX_TORN = 1024 * 1024;
const NEWLINE = 0x0a;

/** The bytes a torn write left, as recorded: without the one newline that ended them, if any. */
export function tornRecord(junk: Buffer): TornRecord {
  const bytes = junk.length && junk[junk.length - 1] === NEWLINE ? junk.subarray(0, junk.length - 1) : junk;
  return { bytes: bytes.length, sha256: sha256Hex(bytes) };
}

/** The last whole entry in `buf` (lines ending in a newline), by its offset; undefined when more is needed. */
function lastEntry(buf: Buffer, atStart: boolean): { seq: number; hash: string; after: number } | undefined {
  let end = buf.lastIndexOf(NEWLINE);
  while (end >= 0) {
    const nl = end > 0 ? buf.lastIndexOf(NEWLINE, end - 1) : -1;
    if (nl < 0 && !atStart) return undefined;
    const line = buf.subarray(nl + 1, end);
    const e = parseEntry(line);
    if (e) return { seq: e.seq, hash: sha256Hex(line), after: end + 1 };
    end = nl;
  }
  return undefined;
}

/** Reads back from the end of the file to its last whole entry. */
function readTail(path: string, fd: number, size: number): Tail {
  let start = size;
  let buf = Buffer.alloc(0);
  for (;;) {
    const from = Math.max(0, start - CHUNK);
    const chunk = Buffer.alloc(start - from);
    readSync(fd, chunk, 0, chunk.length, from);
    buf = Buffer.concat([chunk, buf]);
    start = from;
    const found = lastEntry(buf, start === 0);
    if (found || start === 0) {
      const junk = buf.subarray(found ? found.after : 0);
      if (junk.length > MAX_TORN)
        throw new AuditWriteError(
          path,
          `it ends in ${junk.length} bytes that are no entries (run coinop audit verify)`,
        );
      return {
        seq: found?.seq ?? 0,
        hash: found?.hash ?? GENESIS_HASH,
        torn: junk.length ? tornRecord(junk) : undefined,
        needsNewline: size > 0 && buf[buf.length - 1] !== NEWLINE,
      };
    }
    if (size - start > MAX_TORN + CHUNK)
      throw new AuditWriteError(path, `its last ${size - start} bytes hold no entry (run coinop audit verify)`);
  }
}

/** The file open for appending, under the lock, with where its chain stands. */
interface Window {
  fd: number;
  tail: Tail;
  written: number;
}

export interface AuditLogOptions {
  now?: () => number;
  warn?: Warn;
  /** How long to wait for another process's lock. */
  lockTimeoutMs?: number;
}

export class AuditLog {
  readonly lockPath: string;
  private readonly now: () => number;
  constructor(
    readonly path: string,
    private readonly options: AuditLogOptions = {},
  ) {
    this.lockPath = `${path}.lock`;
    this.now = options.now ?? Date.now;
  }

  /** Appends entries (one write each) and fsyncs them before returning them as written. */
  async append(events: { who: AuditWho; event: AuditEvent }[]): Promise<AuditEntry[]> {
    return this.locked(async () => {
      const w = this.open();
      try {
        const out = events.map((e) => this.write(w, e.who, e.event));
        await this.sync(w);
        return out;
      } finally {
        closeSync(w.fd);
      }
    });
  }

  /** Runs `fn` with the log's lock held (a lock held past the timeout is an AuditWriteError). */
  async locked<T>(fn: () => T | Promise<T>): Promise<T> {
    try {
      privateDir(dirname(this.path), this.options.warn);
      return await withLock(this.lockPath, fn, this.options.lockTimeoutMs ?? 30_000);
    } catch (e) {
      if (e instanceof AuditWriteError) throw e;
      if (e instanceof LockTimeoutError)
        throw new AuditWriteError(this.path, `another coinop process holds its lock (${this.lockPath})`);
      throw new AuditWriteError(this.path, (e as Error).message);
    }
  }

  /** Opens the file for appending (under the lock) and reads where its chain stands. */
  open(): Window {
    const created = !existsSync(this.path);
    privateFile(this.path, this.options.warn);
    const fd = openSync(this.path, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT, 0o600);
    try {
      if (created) syncDir(dirname(this.path));
      return { fd, tail: readTail(this.path, fd, fstatSync(fd).size), written: 0 };
    } catch (e) {
      closeSync(fd);
      throw e;
    }
  }

  /** Writes one entry as one line with one write(); a short write leaves a torn tail and is an error. */
  write(window: Window, who: AuditWho, event: AuditEvent): AuditEntry {
    return this.writeMany(window, who, [event])[0];
  }

  /**
   * Writes entries, each chained to the one before, as whole lines with one write() for all of them (a window of a
   * batch's attempts); a short write leaves a torn tail and is an error.
   */
  writeMany(window: Window, who: AuditWho, events: AuditEvent[]): AuditEntry[] {
    let tail = window.tail;
    let text = tail.needsNewline ? '\n' : '';
    const out: AuditEntry[] = [];
    for (const event of events) {
      const entry = nextEntry(tail, who, event, this.now(), tail.torn);
      const line = entryLine(entry);
      text += `${line}\n`;
      tail = { seq: entry.seq, hash: sha256Hex(line), needsNewline: false };
      out.push(entry);
    }
    if (!out.length) return out;
    const data = Buffer.from(text, 'utf8');
    const n = writeSync(window.fd, data);
    if (n !== data.length) throw new AuditWriteError(this.path, `only ${n} of ${data.length} bytes were written`);
    window.tail = tail;
    window.written += out.length;
    return out;
  }

  /** Makes what the window wrote durable: fsync, off the main thread (a batch goes on answering rows meanwhile). */
  async sync(window: Window): Promise<void> {
    if (!window.written) return;
    await new Promise<void>((resolve, reject) => fsync(window.fd, (e) => (e ? reject(e) : resolve())));
  }
}

/** A new file's name made durable with its folder. */
function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    /* not every file system lets a folder be fsynced */
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * How long entries add() takes wait to be written together, and how many are written at once whatever the time.
 * Never longer than the window that makes them durable (windowMs), nor than a batch's journal waits to commit the
 * answers they record (100 ms).
 */
const ADDED_MS = 10;
const ADDED_MAX = 256;

/**
 * Many entries (a batch's rows), each written as it comes: the first opens a window that holds the lock, and while it
 * is open each entry is written at once; the window ends with one fsync after `windowMs`, or once nothing came for
 * `idleMs`, or on close(). Between windows the lock is free for `gapMs`, so other processes get their turn; entries
 * that come meanwhile wait for the next window.
 */
export class AuditGroup {
  private queue: { who: AuditWho; event: AuditEvent }[] = [];
  /** Entries add() took while a window was open, written together within ADDED_MS (or once ADDED_MAX are held). */
  private added: { who: AuditWho; event: AuditEvent }[] = [];
  private addedTimer?: NodeJS.Timeout;
  private running?: Promise<void>;
  /** The window open now: entries are written into it as they come. */
  private open?: Window;
  private lastWrite = 0;
  private wake?: () => void;
  private closing = false;
  private failed?: Error;
  /** Callers of durable() whose entries the open window holds, waiting for its next fsync. */
  private syncWaiters: { resolve: () => void; reject: (e: Error) => void }[] = [];
  /** Callers of durable() whose entries are queued for the next window. */
  private queuedWaiters: { resolve: () => void; reject: (e: Error) => void }[] = [];
  /** The fsync durable() asked for, under way in the open window. */
  private syncing?: Promise<void>;
  constructor(
    private readonly log: AuditLog,
    private readonly onError: (e: Error) => void,
    private readonly timing: { windowMs: number; idleMs: number; gapMs: number; addedMs?: number } = {
      windowMs: 200,
      idleMs: 50,
      gapMs: 30,
    },
  ) {}

  /**
   * An entry written as it comes: into the open window with the others that came within ADDED_MS (one write() for
   * them, not one a turn of the event loop: a batch's answers come one or two a turn, and each write() to the log
   * could wait on its fsync), else queued for the next window. Like every entry of the window, it is durable with
   * the window's fsync (or the next durable()'s, which writes it first, in order).
   */
  add(who: AuditWho, event: AuditEvent): void {
    if (this.failed) return;
    if (this.open) {
      this.added.push({ who, event });
      if (this.added.length >= ADDED_MAX) this.writeAdded();
      else this.addedTimer ??= setTimeout(() => this.writeAdded(), this.timing.addedMs ?? ADDED_MS);
      return;
    }
    this.queue.push({ who, event });
    this.running ??= this.run();
  }

  /** Writes the entries add() holds for this turn: into the open window, else (it closed) queued for the next. */
  private writeAdded(): void {
    if (this.addedTimer) clearTimeout(this.addedTimer);
    this.addedTimer = undefined;
    const added = this.added.splice(0);
    if (!added.length || this.failed) return;
    if (this.open) this.writeRuns(this.open, added);
    else {
      this.queue.push(...added);
      this.running ??= this.run();
    }
  }

  /**
   * Writes the entries and resolves once they are on disk (one fsync, with whatever else the window holds); rejects
   * when they cannot be (the log cannot be written, now or earlier in the group).
   */
  durable(who: AuditWho, events: AuditEvent[]): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    // Nothing to write: whether the group can still be written (a failure of any entry so far rejects).
    if (!events.length) return Promise.resolve();
    let waiter!: { resolve: () => void; reject: (e: Error) => void };
    const done = new Promise<void>((resolve, reject) => (waiter = { resolve, reject }));
    // Entries add() holds go first (the log keeps the order they came in).
    this.writeAdded();
    // Into the open window with one write for all of them; else queued for the next window.
    if (this.open) this.writeAll(this.open, who, events);
    else if (events.length) {
      // All queued before the window opens (it may open at once), to go with one write.
      for (const event of events) this.queue.push({ who, event });
      this.running ??= this.run();
    }
    if (this.failed) waiter.reject(this.failed);
    else if (this.open) {
      this.syncWaiters.push(waiter);
      this.syncNow(this.open);
    } else this.queuedWaiters.push(waiter); // the window that opens for them writes them and syncs at once
    return done;
  }

  private rejectWaiters(error: Error): void {
    for (const w of [...this.syncWaiters.splice(0), ...this.queuedWaiters.splice(0)]) w.reject(error);
  }

  /** fsyncs the open window now for those waiting on durable(). */
  private syncNow(window: Window): void {
    const waiters = this.syncWaiters.splice(0);
    if (!waiters.length) return;
    const before = this.syncing ?? Promise.resolve();
    this.syncing = before
      .then(() => this.log.sync(window))
      .then(
        () => {
          for (const x of waiters) x.resolve();
        },
        (error: Error) => {
          this.failed ??= error;
          for (const x of waiters) x.reject(error);
          this.wake?.();
        },
      );
  }

  /** Writes what is queued and ends the window. */
  async close(): Promise<void> {
    this.writeAdded();
    this.closing = true;
    this.wake?.();
    await this.running;
    if (this.queue.length && !this.failed) await (this.running = this.run());
  }

  /** Entries in order, one write() per run of entries by the same actor. */
  private writeRuns(window: Window, entries: { who: AuditWho; event: AuditEvent }[]): void {
    for (let i = 0; i < entries.length && !this.failed; ) {
      let j = i + 1;
      while (j < entries.length && entries[j].who === entries[i].who) j++;
      this.writeAll(
        window,
        entries[i].who,
        entries.slice(i, j).map((q) => q.event),
      );
      i = j;
    }
  }

  private writeAll(window: Window, who: AuditWho, events: AuditEvent[]): void {
    try {
      this.log.writeMany(window, who, events);
      this.lastWrite = Date.now();
    } catch (e) {
      this.failed ??= e as Error;
      this.wake?.();
    }
  }

  private async run(): Promise<void> {
    try {
      for (let first = true; this.queue.length && !this.failed; first = false) {
        if (!first && !this.closing) await sleep(this.timing.gapMs);
        await this.log.locked(() => this.window());
      }
      if (this.failed) throw this.failed;
    } catch (e) {
      this.failed = e as Error;
      this.queue = [];
      this.rejectWaiters(e as Error);
      this.onError(e as Error);
    } finally {
      this.running = undefined;
    }
  }

  private async window(): Promise<void> {
    const w = this.log.open();
    try {
      const started = Date.now();
      this.lastWrite = started;
      // The queued entries, one write() per run of entries by the same actor.
      this.writeRuns(w, this.queue.splice(0));
      this.syncWaiters.push(...this.queuedWaiters.splice(0));
      this.open = w;
      if (this.failed) this.rejectWaiters(this.failed);
      else this.syncNow(w);
      for (;;) {
        const now = Date.now();
        const left = Math.min(this.lastWrite + this.timing.idleMs, started + this.timing.windowMs) - now;
        if (this.closing || this.failed || left <= 0) break;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = undefined;
      }
      // What add() holds goes into this window, durable with its fsync.
      this.writeAdded();
      this.open = undefined;
      await this.syncing;
      this.syncing = undefined;
      if (this.failed) this.rejectWaiters(this.failed);
      await this.log.sync(w);
      // Entries durable() wrote into this window are on disk with it.
      for (const x of this.syncWaiters.splice(0)) x.resolve();
    } finally {
      this.open = undefined;
      this.wake = undefined;
      closeSync(w.fd);
    }
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
