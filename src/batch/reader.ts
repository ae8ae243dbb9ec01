// Streaming readers for batch files (CSV with a header, JSON Lines, a JSON array): one record at a time, bounded memory.
import { boundedMemo } from './memo.js';
import { createReadStream } from 'node:fs';
import { extname } from 'node:path';
import { StringDecoder } from 'node:string_decoder';

export type BatchFormat = 'csv' | 'jsonl' | 'json';

/** One record of a batch file, before validation. `row` counts data records from 1 (a CSV header is not a row). */
export interface RawRecord {
  row: number;
  /** Line of the file where the record starts (1-based), for messages that point into a spreadsheet or editor. */
  line: number;
  /** CSV: the cells in header order. */
  cells?: string[];
  /** JSON Lines and JSON array: the parsed value. */
  value?: unknown;
  /** The record could not be read (broken quoting, bad JSON); the rest of the file is still read when possible. */
  error?: string;
  /** The field the error is about (a key a JSON record gives twice). */
  field?: string;
}

/** A problem that stops reading: nothing after it can be trusted (an unterminated quote, a truncated JSON array). */
export class FileError extends Error {
  constructor(
    message: string,
    readonly row?: number,
    readonly line?: number,
  ) {
    super(message);
    this.name = 'FileError';
  }
}

/** Longest single field or JSON record; longer means a runaway quote or a file that is not a batch. */
export const MAX_RECORD_CHARS = 64 * 1024;
/** Deepest nesting of objects and arrays in a JSON record (a withdrawal needs 3; a beneficiary a few more). */
export const MAX_JSON_DEPTH = 32;

/** The bytes of a batch, read once: a file, a FIFO or standard input. */
export type Chunks = AsyncIterable<Buffer>;

// Small reads keep what a chunk's records hold alive between young-generation collections small: a million-row
// file validates under 150 MB (64 KiB and larger chunks let V8 grow the young heap and promote more).
const CHUNK = 16 * 1024;

export function formatFromName(path: string): BatchFormat | undefined {
  const ext = extname(path).toLowerCase();
  if (ext === '.csv') return 'csv';
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl';
  return undefined;
}

/** Guesses the format from the first characters: `[` a JSON array, `{` JSON Lines, anything else CSV. */
export function sniffFormat(head: string): BatchFormat {
  const t = head.replace(/^\uFEFF/, '').trimStart();
  if (t.startsWith('[')) return 'json';
  if (t.startsWith('{')) return 'jsonl';
  return 'csv';
}

/** Reads the first bytes of a file to decide its format, unless its name already says. */
export async function detectFormat(path: string): Promise<BatchFormat> {
  const byName = formatFromName(path);
  if (byName) return byName;
  return (await sniffChunks(fileChunks(path))).format;
}

export function fileChunks(path: string): Chunks {
  return createReadStream(path, { highWaterMark: CHUNK }) as AsyncIterable<Buffer>;
}

/**
 * Decides the format from the first characters without losing them (standard input and a FIFO can be read only
 * once): the format, and the same bytes from the start.
 */
export async function sniffChunks(chunks: Chunks): Promise<{ format: BatchFormat; chunks: Chunks }> {
  const it = chunks[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let bytes = 0;
  let ended = false;
  // Whitespace and a BOM say nothing yet: read on until a character that does, or 4 KiB.
  while (
    bytes < 4096 &&
    Buffer.concat(head)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim() === ''
  ) {
    const n = await it.next();
    if (n.done) {
      ended = true;
      break;
    }
    head.push(n.value);
    bytes += n.value.length;
  }
  const format = sniffFormat(Buffer.concat(head).toString('utf8'));
  async function* all(): AsyncGenerator<Buffer> {
    yield* head;
    if (ended) return;
    for (let n = await it.next(); !n.done; n = await it.next()) yield n.value;
  }
  return { format, chunks: all() };
}

export type ReadItem = RawRecord | { header: string[]; line: number };

/**
 * Reads a batch (a file's path, or its bytes), yielding the records of each chunk together (an array per chunk
 * keeps the per-record overhead of async iteration off a million-row file). With `onBytes`, every chunk of raw
 * bytes is passed on as well (to hash the file in the same pass as validation).
 */
export async function* readRecordChunks(
  source: string | Chunks,
  format: BatchFormat,
  onBytes?: (b: Buffer) => void,
): AsyncGenerator<ReadItem[]> {
  const decoder = new StringDecoder('utf8');
  const parser =
    format === 'csv' ? new CsvParser() : format === 'jsonl' ? new JsonLinesParser() : new JsonArrayParser();
  let first = true;
  for await (const buf of typeof source === 'string' ? fileChunks(source) : source) {
    onBytes?.(buf);
    let text = decoder.write(buf);
    if (first) {
      first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    yield* collect(parser.push(text));
  }
  const rest = decoder.end();
  if (rest) yield* collect(parser.push(rest));
  yield* collect(parser.end());
}

/** The records of one chunk as an array; records before a FileError are still handed over, then the error. */
function* collect(records: Iterable<ReadItem>): Generator<ReadItem[]> {
  const out: ReadItem[] = [];
  try {
    for (const r of records) out.push(r);
  } catch (e) {
    yield out;
    throw e;
  }
  yield out;
}

/** Reads a batch file record by record. */
export async function* readRecords(
  source: string | Chunks,
  format: BatchFormat,
  onBytes?: (b: Buffer) => void,
): AsyncGenerator<ReadItem> {
  for await (const chunk of readRecordChunks(source, format, onBytes)) yield* chunk;
}

interface Parser {
  push(text: string): Iterable<RawRecord | { header: string[]; line: number }>;
  end(): Iterable<RawRecord | { header: string[]; line: number }>;
}

/**
 * RFC 4180 CSV: fields separated by commas, records by CRLF or LF, fields optionally in double quotes with `""`
 * for a quote inside. The first record is the header. A quote in the middle of an unquoted field, or text after a
 * closing quote, breaks that record only; an unterminated quote at the end of the file breaks the file.
 */
export class CsvParser implements Parser {
  private field = '';
  private fields: string[] = [];
  /** 0 start of field, 1 unquoted field, 2 inside quotes, 3 just after a quote inside quotes (end or escaped quote). */
  private state = 0;
  private line = 1;
  private recordLine = 1;
  private quoteLine = 1;
  private recordError: string | undefined;
  private header: string[] | undefined;
  private row = 0;
  private pendingCR = false;

  *push(text: string): Generator<RawRecord | { header: string[]; line: number }> {
    let i = 0;
    const n = text.length;
    if (this.pendingCR) {
      this.pendingCR = false;
      if (n > 0 && text.charCodeAt(0) === 10) i = 1;
    }
    while (i < n) {
      const st = this.state;
      if (st === 2) {
        // Inside quotes: copy up to the next quote in one go.
        const q = text.indexOf('"', i);
        const upto = q < 0 ? n : q;
        const part = text.slice(i, upto);
        this.countLines(part);
        this.field += part;
        if (this.field.length > MAX_RECORD_CHARS) {
          throw new FileError(
            `a quoted field opened on line ${this.quoteLine} runs past ${MAX_RECORD_CHARS} characters (unterminated quote?)`,
            this.nextRow(),
            this.recordLine,
          );
        }
        if (q < 0) return;
        this.state = 3;
        i = q + 1;
        continue;
      }
      const c = text.charCodeAt(i);
      if (st === 3) {
        if (c === 34) {
          this.field += '"';
          this.state = 2;
          i++;
          continue;
        }
        this.state = 1;
        if (c !== 44 && c !== 10 && c !== 13) {
          this.recordError ??= `text after a closing quote in field ${this.fields.length + 1} (a quote inside a quoted field is written "")`;
        }
        continue; // reprocess c as in an unquoted field
      }
      if (c === 44) {
        this.fields.push(this.field);
        this.field = '';
        this.state = 0;
        i++;
        continue;
      }
      if (c === 10 || c === 13) {
        const rec = this.endRecord();
        if (rec) yield rec;
        this.line++;
        this.recordLine = this.line;
        if (c === 13) {
          if (i + 1 < n) {
            if (text.charCodeAt(i + 1) === 10) i++;
          } else this.pendingCR = true;
        }
        i++;
        continue;
      }
      if (c === 34) {
        if (st === 0 && this.field === '') {
          this.state = 2;
          this.quoteLine = this.line;
          i++;
          continue;
        }
        this.recordError ??= `a quote inside an unquoted field ${this.fields.length + 1} (quote the whole field and write "" for a quote)`;
      }
      // Unquoted run: copy up to the next special character.
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 44 || d === 10 || d === 13 || d === 34) break;
        j++;
      }
      this.field += text.slice(i, j);
      this.state = 1;
      if (this.field.length > MAX_RECORD_CHARS)
        throw new FileError(`a field runs past ${MAX_RECORD_CHARS} characters`, this.nextRow(), this.recordLine);
      i = j;
    }
  }

  *end(): Generator<RawRecord | { header: string[]; line: number }> {
    if (this.state === 2) {
      throw new FileError(
        `the quote opened on line ${this.quoteLine} is never closed`,
        this.nextRow(),
        this.recordLine,
      );
    }
    const rec = this.endRecord();
    if (rec) yield rec;
  }

  /** The row being read (undefined while reading the header, which is no row). */
  private nextRow(): number | undefined {
    return this.header ? this.row + 1 : undefined;
  }

  private countLines(text: string): void {
    let k = text.indexOf('\n');
    while (k >= 0) {
      this.line++;
      k = text.indexOf('\n', k + 1);
    }
  }

  private endRecord(): RawRecord | { header: string[]; line: number } | undefined {
    this.fields.push(this.field);
    const fields = this.fields;
    const error = this.recordError;
    const line = this.recordLine;
    this.fields = [];
    this.field = '';
    this.state = 0;
    this.recordError = undefined;
    // Blank lines (often a trailing newline) are not records.
    if (fields.length === 1 && fields[0] === '' && !error) return undefined;
    if (!this.header) {
      this.header = fields;
      if (error) throw new FileError(`header: ${error}`, undefined, line);
      return { header: fields, line };
    }
    this.row++;
    if (error) return { row: this.row, line, error };
    if (fields.length !== this.header.length) {
      return { row: this.row, line, error: `has ${fields.length} fields, the header has ${this.header.length}` };
    }
    return { row: this.row, line, cells: fields };
  }
}

/** JSON Lines: one JSON object per line; blank lines are skipped. */
export class JsonLinesParser implements Parser {
  private buf = '';
  private line = 0;
  private row = 0;

  *push(text: string): Generator<RawRecord> {
    this.buf += text;
    let start = 0;
    let nl = this.buf.indexOf('\n', start);
    while (nl >= 0) {
      const rec = this.record(this.buf.slice(start, nl));
      if (rec) yield rec;
      start = nl + 1;
      nl = this.buf.indexOf('\n', start);
    }
    this.buf = this.buf.slice(start);
    if (this.buf.length > MAX_RECORD_CHARS)
      throw new FileError(`a line runs past ${MAX_RECORD_CHARS} characters`, this.row + 1, this.line + 1);
  }

  *end(): Generator<RawRecord> {
    const rec = this.record(this.buf);
    this.buf = '';
    if (rec) yield rec;
  }

  private record(text: string): RawRecord | undefined {
    this.line++;
    const t = text.trim();
    if (!t) return undefined;
    this.row++;
    const shape = jsonShape(t);
    if (shape.depth > MAX_JSON_DEPTH) return { row: this.row, line: this.line, error: tooDeep() };
    return parsedRecord(this.row, this.line, t, shape.keys);
  }
}

/**
 * A JSON record parsed; one that gives a key twice is refused, as a CSV header that names a column twice is: JSON.parse
 * keeps the last of two keys without a word (`"amount":"0.01","amount":"7"` pays 7). `keys`: how many keys the text
 * writes (jsonShape); fewer in the value parsed means one was given twice, and only then is the text searched for it.
 */
function parsedRecord(row: number, line: number, text: string, keys: number): RawRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { row, line, error: `is not valid JSON (${(e as Error).message})` };
  }
  const repeated = keys !== keyCount(value) ? repeatedKey(text) : repeatedField(value);
  if (!repeated) return { row, line, value };
  const spelled = repeated.key === repeated.first ? '' : ` ("${repeated.first}" and "${repeated.key}")`;
  return {
    row,
    line,
    field: repeated.path,
    error: `is given twice in the row${spelled}: JSON keeps one of them silently, so give each field once`,
  };
}

/** A key given twice in one object: as written the first time and the second, and its path (metadata.invoice). */
export interface RepeatedKey {
  first: string;
  key: string;
  path: string;
}

/** A top-level key as a field is read: in any case (columnName in rows.ts), a metadata key keeping its own case. */
function fieldKey(key: string): string {
  const lower = key.toLowerCase();
  return lower.startsWith('meta.') ? `meta.${key.slice(5)}` : lower;
}

/** How many keys a parsed value holds, at every level. */
function keyCount(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  let n = 0;
  if (Array.isArray(value)) for (const x of value) n += keyCount(x);
  else
    for (const k in value as Record<string, unknown>) {
      n++;
      n += keyCount((value as Record<string, unknown>)[k]);
    }
  return n;
}

/** fieldKey of the keys met lately (bounded). */
const knownFieldKey = boundedMemo(fieldKey);

/** Two top-level keys that name one field in different case ("amount" and "Amount"). */
function repeatedField(value: unknown): RepeatedKey | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  // A parsed object's keys differ; when each is already its field's spelling, no two can name one field.
  let spelledOtherwise = false;
  for (const key in value) {
    if (knownFieldKey(key) !== key) {
      spelledOtherwise = true;
      break;
    }
  }
  if (!spelledOtherwise) return undefined;
  const seen = new Map<string, string>();
  for (const key of Object.keys(value)) {
    const first = seen.get(fieldKey(key));
    if (first !== undefined) return { first, key, path: key };
    seen.set(fieldKey(key), key);
  }
  return undefined;
}

/** Where a JSON text's string starting at `start` (its quote) ends (its closing quote), and whether it has escapes. */
function stringEnd(text: string, start: number): { end: number; escaped: boolean } {
  let escaped = false;
  let i = start + 1;
  for (; i < text.length; i++) {
    const d = text.charCodeAt(i);
    if (d === 92) {
      i++;
      escaped = true;
    } else if (d === 34) break;
  }
  return { end: i, escaped };
}

/** Whether the string ending at `end` is a key (the next character past spaces is a colon). */
function isKey(text: string, end: number): boolean {
  let j = end + 1;
  while (j < text.length && isSpace(text.charCodeAt(j))) j++;
  return text.charCodeAt(j) === 58;
}

/**
 * How deeply objects and arrays nest in a JSON text and how many keys it writes (strings skipped), counted before it
 * is parsed, in one pass without allocating.
 */
export function jsonShape(text: string): { depth: number; keys: number } {
  let depth = 0;
  let max = 0;
  let keys = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i = stringEnd(text, i).end;
      if (isKey(text, i)) keys++;
    } else if (c === 123 || c === 91) max = Math.max(max, ++depth);
    else if (c === 125 || c === 93) depth--;
  }
  return { depth: max, keys };
}

/**
 * The first key an object of a JSON text gives twice (the top level's in any case, as its fields are read; deeper
 * ones exactly), with its path; for a text whose value holds fewer keys than it writes.
 */
export function repeatedKey(text: string): RepeatedKey | undefined {
  // Per open object its keys (normalised -> as written) and its last key; null for an array.
  const open: ({ keys: Map<string, string>; last: string } | null)[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const start = i;
      const { end, escaped } = stringEnd(text, i);
      i = end;
      const obj = open[open.length - 1];
      if (!obj || !isKey(text, end)) continue;
      let key = text.slice(start + 1, end);
      if (escaped) key = JSON.parse(text.slice(start, end + 1)) as string;
      const norm = open.length === 1 ? fieldKey(key) : key;
      const first = obj.keys.get(norm);
      obj.last = key;
      if (first === undefined) obj.keys.set(norm, key);
      else return { first, key, path: [...open.slice(0, -1).flatMap((o) => (o ? [o.last] : [])), key].join('.') };
    } else if (c === 123 || c === 91) open.push(c === 123 ? { keys: new Map(), last: '' } : null);
    else if (c === 125 || c === 93) open.pop();
  }
  return undefined;
}

function tooDeep(): string {
  return `nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep (a withdrawal needs a few)`;
}

/**
 * A JSON array of objects, streamed: the scanner tracks strings and nesting to cut the text at each top-level
 * element and parses elements one by one, so the whole array never sits in memory. It counts each element's keys as
 * it goes (a colon outside strings is a key's, in any text JSON.parse takes), so the element is not scanned twice.
 */
export class JsonArrayParser implements Parser {
  private started = false;
  private done = false;
  private depth = 0;
  private inString = false;
  /** Inside a string, the last character read was a backslash (a chunk ended between it and what it escapes). */
  private escape = false;
  private elem = '';
  private line = 1;
  private elemLine = 1;
  private row = 0;
  /** Deepest nesting seen in the current element. */
  private maxDepth = 0;
  /** Colons outside strings in the current element: the keys it writes. */
  private keys = 0;
  /** Where the current element's text starts in the chunk being read (-1: not in this chunk yet). */
  private segStart = -1;
  /** The next line feed at or after the scanner's position in the chunk being read (-1: none). */
  private nextLf = -1;

  *push(text: string): Generator<RawRecord> {
    // An element cut by the previous chunk goes on here.
    this.segStart = this.elem !== '' ? 0 : -1;
    this.nextLf = text.indexOf('\n');
    let i = 0;
    const n = text.length;
    while (i < n) {
      if (this.inString) {
        i = this.skipString(text, i);
        continue;
      }
      const c = text.charCodeAt(i);
      if (c === 10) this.lineFeed(text, i);
      if (!this.started || this.done) this.outside(c);
      else if (this.depth === 0 && (c === 44 || c === 93)) {
        const rec = this.cut(text, i, c === 93);
        if (rec) yield rec;
      } else this.scan(c, i);
      i++;
    }
    if (this.segStart >= 0) this.elem += text.slice(this.segStart);
    if (this.elem.length > MAX_RECORD_CHARS)
      throw new FileError(`an element runs past ${MAX_RECORD_CHARS} characters`, this.row + 1, this.elemLine);
  }

  end(): Iterable<RawRecord> {
    if (!this.started) throw new FileError('the file is empty; a JSON batch file must be an array of objects');
    if (!this.done)
      throw new FileError('the JSON array is never closed (truncated file?)', this.row + 1, this.elemLine);
    return [];
  }

  /** Counts the line feed at `i` and finds the next one. */
  private lineFeed(text: string, at: number): void {
    this.line++;
    this.nextLf = text.indexOf('\n', at + 1);
  }

  /** Reads on inside a string from `i`: to just past its closing quote, or to the chunk's end. */
  private skipString(text: string, from: number): number {
    let k = from;
    if (this.escape) {
      this.escape = false;
      k++;
    }
    let q = text.indexOf('"', k);
    // A quote after an odd run of backslashes is escaped.
    while (q >= 0 && backslashesBefore(text, q, k) % 2 === 1) q = text.indexOf('"', q + 1);
    const upto = q < 0 ? text.length : q;
    // A raw line feed inside a string (JSON.parse refuses it) still counts for the lines of later messages.
    while (this.nextLf >= 0 && this.nextLf < upto) this.lineFeed(text, this.nextLf);
    if (q >= 0) {
      this.inString = false;
      return q + 1;
    }
    // The chunk ends inside the string, maybe just after a backslash that escapes the next chunk's first character.
    this.escape = backslashesBefore(text, text.length, k) % 2 === 1;
    return text.length;
  }

  /** Before the array's `[` and after its `]`: only white space. */
  private outside(code: number): void {
    if (isSpace(code)) return;
    if (this.done) throw new FileError('text after the end of the JSON array', undefined, this.line);
    if (code !== 91) throw new FileError('a JSON batch file must be an array of objects', undefined, this.line);
    this.started = true;
  }

  /** A top-level comma or the closing bracket at `i`: the element read so far is complete. */
  private cut(text: string, at: number, closing: boolean): RawRecord | undefined {
    if (this.segStart >= 0) this.elem += text.slice(this.segStart, at);
    this.segStart = -1;
    const rec = this.finishElement(closing);
    if (closing) this.done = true;
    return rec;
  }

  /** A character of an element (or white space between elements) outside strings. */
  private scan(code: number, at: number): void {
    if (this.segStart < 0) {
      if (this.depth === 0 && this.elem === '' && isSpace(code)) return;
      this.segStart = at;
      if (this.elem === '') this.elemLine = this.line;
    }
    if (code === 34) this.inString = true;
    else if (code === 58) this.keys++;
    else if (code === 123 || code === 91) {
      if (++this.depth > this.maxDepth) this.maxDepth = this.depth;
    } else if (code === 125 || code === 93) this.depth--;
  }

  private finishElement(closing: boolean): RawRecord | undefined {
    const t = this.elem.trim();
    const deep = this.maxDepth > MAX_JSON_DEPTH;
    const keys = this.keys;
    this.elem = '';
    this.maxDepth = 0;
    this.keys = 0;
    if (!t) {
      // `[]` is an empty batch; `[1,,2]` or a trailing comma is an error worth naming.
      if (closing && this.row === 0) return undefined;
      this.row++;
      return { row: this.row, line: this.line, error: 'is empty (two commas in a row or a trailing comma)' };
    }
    this.row++;
    if (deep) return { row: this.row, line: this.elemLine, error: tooDeep() };
    return parsedRecord(this.row, this.elemLine, t, keys);
  }
}

/** How many backslashes stand right before position `end` of a text, not looking before `from`. */
function backslashesBefore(text: string, end: number, from: number): number {
  let j = end;
  while (j > from && text.charCodeAt(j - 1) === 92) j--;
  return end - j;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9;
}
