// Reading the audit log back and checking its chain, line by line in bounded memory. Every entry must hold the
// SHA-256 of the entry one seq before it (`prev`), and come in seq order. What breaks that is named by line number:
// an edited line, lines removed, a line out of order, a repeated seq, a line that is no entry. A torn last line (a
// crash mid-write) is reported as such: the log is whole up to the last whole line, and the next entry records it.
import { closeSync, openSync, readSync } from 'node:fs';
import { type AuditEntry, GENESIS_HASH, parseEntry, sha256Hex } from './entry.js';
import { tornRecord } from './log.js';

export interface LogLine {
  /** 1-based line number. */
  no: number;
  bytes: Buffer;
  /** Ended by a newline (the last line of a torn write is not). */
  terminated: boolean;
}

/** The lines of a file, read a chunk at a time; nothing when the file does not exist. */
export function* logLines(path: string, chunkSize = 1 << 20): Generator<LogLine> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  try {
    let carry = Buffer.alloc(0);
    let no = 0;
    const chunk = Buffer.alloc(chunkSize);
    for (;;) {
      const n = readSync(fd, chunk, 0, chunkSize, null);
      if (n === 0) break;
      const buf = carry.length ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n);
      let start = 0;
      for (let nl = buf.indexOf(0x0a); nl >= 0; nl = buf.indexOf(0x0a, start)) {
        yield { no: ++no, bytes: Buffer.from(buf.subarray(start, nl)), terminated: true };
        start = nl + 1;
      }
      carry = Buffer.from(buf.subarray(start));
    }
    if (carry.length) yield { no: ++no, bytes: carry, terminated: false };
  } finally {
    closeSync(fd);
  }
}

export const PROBLEM_KINDS = ['edited', 'removed', 'reordered', 'repeated', 'not_entry', 'torn', 'head'] as const;
export type ProblemKind = (typeof PROBLEM_KINDS)[number];

export interface VerifyProblem {
  line: number;
  seq?: number;
  kind: ProblemKind;
  message: string;
}

export interface VerifyReport {
  ok: boolean;
  path: string;
  lines: number;
  entries: number;
  /** The last whole entry: where the next one chains from. Keep its hash elsewhere to check against later (--head). */
  head: { line: number; seq: number; sha256: string } | null;
  /** Bytes after the last whole entry that a write cut short (a crash): not a break; the next entry records them. */
  torn_tail: { line: number; bytes: number } | null;
  /** Torn writes in the past, each recorded by the entry after it. */
  recovered: { line: number; bytes: number; recorded_by: number }[];
  problems: VerifyProblem[];
}

/** A head noted earlier (`--head SEQ:SHA256`): the entry of that seq must still have that hash (a prefix of it). */
export interface ExpectedHead {
  seq: number;
  sha256: string;
}

/** Entries remembered by seq, to check the chain of lines out of order; the oldest are forgotten past this. */
const REMEMBERED = 200_000;
/** Bytes of non-entry lines kept to check against the `torn` record of the entry after them. */
const MAX_JUNK = 16 * 1024 * 1024;

/** Feeds the lines of a log in order; finish() says whether the chain holds and what breaks it. */
export class Verifier {
  private lines = 0;
  private entries = 0;
  private maxSeq = 0;
  /** Line of the last entry so far (0 before any). */
  private lastLine = 0;
  private head: VerifyReport['head'] = null;
  private readonly bySeq = new Map<number, { hash: string; line: number }>();
  /** Entries whose seq - 1 has not come yet: checked when it comes. */
  private readonly waiting = new Map<number, { line: number; prev: string }>();
  /** Seqs skipped so far (lines removed, or still to come out of order), with where the skip was seen. */
  private gaps: { from: number; to: number; afterLine: number; atLine: number }[] = [];
  private junk: { first: number; parts: Buffer[]; size: number; lines: number[] } | undefined;
  private headSeen = false;
  private readonly problems: VerifyProblem[] = [];
  private readonly recovered: VerifyReport['recovered'] = [];

  constructor(
    private readonly path: string,
    private readonly expectedHead?: ExpectedHead,
  ) {}

  /** One line; returns it as an entry, with its SHA-256, when it is one. */
  feed(logLine: LogLine): { entry: AuditEntry; sha256: string } | undefined {
    this.lines = logLine.no;
    const e = logLine.terminated ? parseEntry(logLine.bytes) : undefined;
    if (!e) {
      this.junk ??= { first: logLine.no, parts: [], size: 0, lines: [] };
      this.junk.lines.push(logLine.no);
      this.junk.size += logLine.bytes.length + 1;
      if (this.junk.size <= MAX_JUNK) this.junk.parts.push(logLine.bytes);
      return undefined;
    }
    this.entries++;
    const hash = sha256Hex(logLine.bytes);
    this.checkTorn(logLine.no, e);
    if (this.bySeq.has(e.seq)) {
      const first = this.bySeq.get(e.seq)!.line;
      this.problem(
        logLine.no,
        e.seq,
        'repeated',
        `line ${logLine.no} repeats seq ${e.seq} of line ${first}: a copied or inserted line`,
      );
    } else {
      this.checkOrder(logLine.no, e.seq);
      this.checkChain(logLine.no, e, hash);
      this.remember(e.seq, hash, logLine.no);
    }
    this.lastLine = logLine.no;
    this.head = { line: logLine.no, seq: e.seq, sha256: hash };
    if (this.expectedHead && e.seq === this.expectedHead.seq) this.checkHead(logLine.no, hash);
    return { entry: e, sha256: hash };
  }

  finish(): VerifyReport {
    let torn: VerifyReport['torn_tail'] = null;
    if (this.junk) torn = { line: this.junk.first, bytes: Math.max(0, this.junk.size - 1) };
    for (const g of this.gaps) {
      const n = g.to - g.from + 1;
      const which = n === 1 ? `seq ${g.from} is` : `seqs ${g.from} to ${g.to} are`;
      const where = g.afterLine ? `between line ${g.afterLine} and line ${g.atLine}` : `before line ${g.atLine}`;
      this.problem(g.atLine, g.from, 'removed', `${which} missing ${where}: ${n} line${n === 1 ? '' : 's'} removed`);
    }
    if (this.expectedHead && !this.headSeen) {
      this.problem(
        this.lines,
        this.expectedHead.seq,
        'head',
        `the log holds no entry seq ${this.expectedHead.seq} (it ends at seq ${this.maxSeq}): lines were removed from its end`,
      );
    }
    this.problems.sort((a, b) => a.line - b.line);
    return {
      ok: this.problems.length === 0,
      path: this.path,
      lines: this.lines,
      entries: this.entries,
      head: this.head,
      torn_tail: torn,
      recovered: this.recovered,
      problems: this.problems,
    };
  }

  private problem(line: number, seq: number | undefined, kind: ProblemKind, message: string): void {
    this.problems.push({ line, ...(seq === undefined ? {} : { seq }), kind, message });
  }

  /** Non-entry lines before an entry must be the torn write it records; an entry recording one needs it there. */
  private checkTorn(line: number, entry: AuditEntry): void {
    const junk = this.junk;
    this.junk = undefined;
    if (!junk) {
      if (entry.torn)
        this.problem(line, entry.seq, 'torn', `line ${line} records a torn write just before it, and there is none`);
      return;
    }
    const region = junk.size <= MAX_JUNK ? tornRecord(Buffer.concat(junk.parts.flatMap((p) => [p, NL]))) : undefined;
    if (entry.torn && region && entry.torn.bytes === region.bytes && entry.torn.sha256 === region.sha256) {
      this.recovered.push({ line: junk.first, bytes: region.bytes, recorded_by: line });
      return;
    }
    for (const n of junk.lines)
      this.problem(n, undefined, 'not_entry', `line ${n} is not a log entry: it was damaged, or written by hand`);
  }

  private checkOrder(line: number, seq: number): void {
    if (seq === this.maxSeq + 1) return;
    if (seq > this.maxSeq + 1) {
      this.gaps.push({ from: this.maxSeq + 1, to: seq - 1, afterLine: this.lastLine, atLine: line });
      return;
    }
    // Below the highest seq so far and not seen before: it fills a gap, so it was moved.
    const g = this.gaps.find((x) => seq >= x.from && seq <= x.to);
    const where = g ? `it belongs before line ${g.atLine}` : 'it belongs earlier';
    this.problem(line, seq, 'reordered', `line ${line} (seq ${seq}) is out of order: ${where}`);
    if (!g) return;
    this.gaps = this.gaps.flatMap((x) =>
      x !== g
        ? [x]
        : [...(seq > x.from ? [{ ...x, to: seq - 1 }] : []), ...(seq < x.to ? [{ ...x, from: seq + 1 }] : [])],
    );
  }

  /** `prev` must be the hash of the entry one seq before (GENESIS for the first); checked when that entry is known. */
  private checkChain(line: number, entry: AuditEntry, hash: string): void {
    const before = entry.seq === 1 ? { hash: GENESIS_HASH, line: 0 } : this.bySeq.get(entry.seq - 1);
    if (before) this.linkProblem(before.line, entry.seq - 1, line, before.hash === entry.prev);
    else if (entry.seq > this.maxSeq) this.waiting.set(entry.seq - 1, { line, prev: entry.prev });
    const after = this.waiting.get(entry.seq);
    if (after) {
      this.waiting.delete(entry.seq);
      this.linkProblem(line, entry.seq, after.line, after.prev === hash);
    }
  }

  private linkProblem(line: number, seq: number, nextLine: number, ok: boolean): void {
    if (ok) return;
    if (line === 0) {
      this.problem(
        nextLine,
        seq + 1,
        'edited',
        `line ${nextLine} (seq 1) was changed: its prev is not the genesis hash`,
      );
      return;
    }
    this.problem(
      line,
      seq,
      'edited',
      `line ${line} (seq ${seq}) was changed after it was written: its SHA-256 is not the prev that line ${nextLine} holds`,
    );
  }

  private remember(seq: number, hash: string, line: number): void {
    this.bySeq.set(seq, { hash, line });
    if (this.bySeq.size > REMEMBERED) this.bySeq.delete(this.bySeq.keys().next().value as number);
    if (seq > this.maxSeq) this.maxSeq = seq;
  }

  private checkHead(line: number, hash: string): void {
    this.headSeen = true;
    if (hash.startsWith(this.expectedHead!.sha256)) return;
    this.problem(
      line,
      this.expectedHead!.seq,
      'head',
      `line ${line} (seq ${this.expectedHead!.seq}) is not the entry noted as the head (sha256 ${this.expectedHead!.sha256}): the log was rewritten`,
    );
  }
}

const NL = Buffer.from('\n');

/** Reads and checks a whole log. */
export function verifyLog(path: string, head?: ExpectedHead): VerifyReport {
  const v = new Verifier(path, head);
  for (const l of logLines(path)) v.feed(l);
  return v.finish();
}

/** The log's entries, in order, each with its line's hash, checked by `verifier` as they are read. */
export function* verifiedEntries(path: string, verifier: Verifier): Generator<{ entry: AuditEntry; sha256: string }> {
  for (const l of logLines(path)) {
    const e = verifier.feed(l);
    if (e) yield e;
  }
}
