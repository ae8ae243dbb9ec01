// Output in four formats (table, json, ndjson, csv): one object or a list streamed item by item.
// Amounts are printed exactly as the service sent them; tables are for people, the rest for machines.
import { csvRow } from './csv.js';
import { flatEntries, keyValueLines } from './key-value.js';
import { palette, statusColour, visibleLength, type Palette } from './style.js';
import {
  type Column,
  columnName,
  fitTable,
  longestUnbreakable,
  readable,
  SHORT_ID,
  shortId,
  type TableLayout,
  tableLines,
  type TableView,
  viewColumns,
} from './table.js';
import { clockOf, relativeTime } from './time.js';
import type { Writer } from './writer.js';

export const FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

export type { Column, TableView } from './table.js';

export function getPath(object: unknown, key: string): unknown {
  let v: unknown = object;
  for (const part of key.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  // A key with a dot in it ("range.begin") is tried whole as well.
  if (v === undefined && object && typeof object === 'object') v = (object as Record<string, unknown>)[key];
  return v;
}

export class Output {
  readonly p: Palette;
  constructor(
    readonly io: Writer,
    readonly format: Format,
    private readonly now: () => number = Date.now,
    /** --columns and --wide, for tables and CSV. */
    readonly view: TableView = {},
  ) {
    this.p = palette(io.colour);
  }

  get forPeople(): boolean {
    return this.format === 'table';
  }

  /** A status line for people on stderr (never mixed with data). */
  note(text: string): void {
    this.io.err(`${text}\n`);
  }

  cell(value: unknown, kind: Column['kind']): string {
    if (value === undefined || value === null || value === '') return this.p.dim('-');
    // Objects (status_details, secondary_status) read as "name: message", not as JSON.
    if (typeof value === 'object') return readable(value) || this.p.dim('-');
    const s = String(value);
    if (kind === 'time' && this.io.stdoutTTY) return relativeTime(s, this.now());
    if (kind === 'clock' && this.io.stdoutTTY) return clockOf(s);
    if (kind === 'status') return statusColour(this.p, s);
    if (kind === 'amount') return groupedAmount(s);
    return s;
  }

  /** One resource (any object: a response as the contract types it): a two-column table of fields, or JSON/NDJSON/CSV. */
  one(obj: object, columns: Column[] = []): void {
    switch (this.format) {
      case 'json':
        this.io.out(`${JSON.stringify(obj, null, 2)}\n`);
        return;
      case 'ndjson':
        this.io.out(`${JSON.stringify(obj)}\n`);
        return;
      case 'csv': {
        const cols: Column[] = columns.length ? columns : Object.keys(obj).map((key) => ({ key }));
        this.io.out(csvRow(cols.map((c) => c.key)) + csvRow(cols.map((c) => getPath(obj, c.key))));
        return;
      }
      case 'table': {
        const listed = new Set(columns.map((c) => c.key.split('.')[0]));
        const rows: [string, string][] = columns.map((c) => [
          c.header ?? c.key,
          this.cell(getPath(obj, c.key), c.kind),
        ]);
        // Nested objects field by field, at any depth (status_details.invalid_destination_address.message).
        for (const [k, v] of flatEntries(Object.fromEntries(Object.entries(obj).filter(([k]) => !listed.has(k)))))
          rows.push([k, this.cell(v, kindOf(k.slice(k.lastIndexOf('.') + 1)))]);
        for (const line of keyValueLines(rows, this.p)) this.io.out(`${line}\n`);
      }
    }
  }

  /**
   * A list, written as items arrive: a JSON array, one JSON object per line, CSV rows, or tables of at most a page
   * each. Returns the number of items.
   */
  async list(
    items: AsyncIterable<object> | Iterable<object>,
    columns: Column[],
    opts: { empty?: string } = {},
  ): Promise<number> {
    let n = 0;
    if (!columns.length && (this.format === 'csv' || this.format === 'table')) return this.listUnknown(items);
    if (this.format === 'table') {
      const table = new TableWriter(this, viewColumns(columns, this.view, false));
      let batch: object[] = [];
      // On a terminal the first screenful goes out as soon as it is in (the pager, or the person, has something to
      // show); later rows in batches that keep the columns aligned.
      let size = this.io.stdoutTTY ? Math.max(10, this.io.rows ?? 24) : 200;
      for await (const item of items as AsyncIterable<object>) {
        // The reader went away (the pager quit): no more pages are fetched.
        if (this.io.closed) break;
        batch.push(item);
        n++;
        if (batch.length >= size) {
          size = 200;
          table.write(batch);
          batch = [];
          await this.io.ready?.();
        }
      }
      if (batch.length) table.write(batch);
      table.end();
      if (!n) this.note(this.p.dim(opts.empty ?? 'nothing found'));
      return n;
    }
    if (this.format === 'csv') columns = viewColumns(columns, this.view, true);
    // The items that arrive together (a page) go out in one write, not one each (a write is a system call and a
    // stream's bookkeeping: 100 prices were 102 writes). What is held goes out when the list waits for more (the
    // next turn of the event loop: the next page's request), at 64 KiB, and at the end or on an error.
    const held = new HeldText((text) => this.io.out(text));
    // Opened at the first item (or the end), so a list whose first page fails leaves stdout empty, not a lone '['.
    let opened = false;
    const open = () => {
      if (opened) return;
      opened = true;
      if (this.format === 'csv') held.add(csvRow(columns.map((c) => c.key)));
      if (this.format === 'json') held.add('[');
    };
    try {
      for await (const item of items as AsyncIterable<object>) {
        open();
        if (this.format === 'json') held.add((n ? ',\n  ' : '\n  ') + JSON.stringify(item));
        else if (this.format === 'ndjson') held.add(`${JSON.stringify(item)}\n`);
        else held.add(csvRow(columns.map((c) => getPath(item, c.key))));
        n++;
      }
      open();
      if (this.format === 'json') held.add(n ? '\n]\n' : ']\n');
    } finally {
      held.flush();
    }
    return n;
  }

  /** A list whose fields are not known ahead (coinop api): columns from the first item. */
  private async listUnknown(items: AsyncIterable<object> | Iterable<object>): Promise<number> {
    let cols: Column[] | undefined;
    let n = 0;
    const rest: object[] = [];
    for await (const item of items as AsyncIterable<object>) {
      // The first field says what a row is (an id, a name): never left out.
      cols ??= Object.keys(item).map((key, i) => ({ key, kind: kindOf(key), identity: i === 0 }));
      if (this.format === 'csv') {
        if (!n) this.io.out(csvRow(cols.map((c) => c.key)));
        this.io.out(csvRow(cols.map((c) => getPath(item, c.key))));
      } else rest.push(item);
      n++;
    }
    if (cols && rest.length) this.table(rest, cols);
    return n;
  }

  /** A table of rows, written at once (the view's columns, fitted to the terminal). */
  table(rows: object[], columns: Column[]): void {
    const t = new TableWriter(this, viewColumns(columns, this.view, false));
    t.write(rows);
    t.end();
  }
}

/**
 * One table written in batches as a list arrives: the first batch fixes which columns show and their widths; a
 * later cell wider than its column widens that column (misaligned, never cut). Says which columns were left out.
 */
class TableWriter {
  private layout?: TableLayout;
  private readonly heads: string[];
  constructor(
    private readonly out: Output,
    private readonly columns: Column[],
  ) {
    this.heads = columns.map((c) => (c.header ?? c.key).toUpperCase());
  }

  write(rows: object[]): void {
    const { out, columns } = this;
    const cells = rows.map((r) => columns.map((c) => out.cell(getPath(r, c.key), c.kind)));
    const widest = (i: number, cell: (s: string) => string = (s) => s) =>
      Math.max(this.layout ? 0 : visibleLength(this.heads[i]), ...cells.map((row) => visibleLength(cell(row[i]))));
    let heads: string[] | null = null;
    if (!this.layout) {
      // Piped tables keep every column whole: only a terminal's width is worth leaving columns out for.
      const max = out.io.stdoutTTY ? out.io.width : undefined;
      this.layout = fitTable(
        columns,
        columns.map((_, i) => widest(i)),
        max,
        {
          keepAll: !!out.view.wide || !!out.view.names,
          shortWidths: columns.map((c, i) => (c.short ? widest(i, shortId) : undefined)),
          floors: columns.map((c, i) =>
            c.kind === 'text' ? Math.max(0, ...cells.map((r) => longestUnbreakable(r[i]))) : 0,
          ),
        },
      );
      heads = this.heads.map((h) => out.p.bold(h));
    } else {
      const { widths, short } = this.layout;
      for (const i of this.layout.shown)
        if (columns[i].kind !== 'text') widths[i] = Math.max(widths[i], widest(i, short[i] ? shortId : undefined));
    }
    out.io.out(`${tableLines(columns, heads, cells, this.layout).join('\n')}\n`);
  }

  /** After the last batch: one note on what the terminal's width left out or shortened, and how to see it all. */
  end(): void {
    const note = this.layout ? narrowNote(this.layout, this.out.io.width, !!this.out.view.flags) : '';
    if (note) this.out.note(this.out.p.dim(note));
  }
}

/**
 * What a narrow terminal did to a table and how to see it all, within the width (the hint on a line of its own when
 * both do not fit one), '' when it did nothing: "left out to fit 80 columns: ref_id; ids shown by their first 8
 * characters" and "(see all: --wide, --columns, -o json or a wider terminal)".
 */
export function narrowNote(layout: TableLayout, width: number, flags: boolean): string {
  const parts: string[] = [];
  if (layout.dropped.length)
    parts.push(`left out to fit ${width} columns: ${layout.dropped.map(columnName).join(', ')}`);
  if (layout.short.some(Boolean)) parts.push(`ids shown by their first ${SHORT_ID} characters`);
  if (!parts.length) return '';
  const what = parts.join('; ');
  const how = `(see all: ${flags ? '--wide, --columns, ' : ''}-o json or a wider terminal)`;
  return what.length + 1 + how.length <= width ? `${what} ${how}` : `${what}\n${how}`;
}

/**
 * A table written a row at a time as things happen (events watch, events listen), without a header: its layout is
 * fixed ahead from each column's expected width by the one rule (fitTable: ranks, identity, short ids), and what a
 * narrow terminal did is said once, before the first row (`note`).
 */
export class LiveRows {
  private readonly layout: TableLayout;
  readonly note: string;
  constructor(
    private readonly columns: Column[],
    widths: number[],
    io: Pick<Writer, 'stdoutTTY' | 'width'>,
    flags = false,
  ) {
    const shortWidths = columns.map((c) => (c.short ? SHORT_ID : undefined));
    this.layout = fitTable(columns, widths, io.stdoutTTY ? io.width : undefined, { shortWidths });
    this.note = narrowNote(this.layout, io.width, flags);
  }

  line(cells: string[]): string {
    return tableLines(this.columns, null, [cells], this.layout)[0];
  }
}

/**
 * An amount for people, in a table: its whole part in groups of three (50,000,000.25); digits are never changed or
 * rounded, and anything but a plain decimal is as it is. JSON, NDJSON and CSV keep the service's string.
 */
export function groupedAmount(amount: string): string {
  const m = /^(-?)(\d+)(\.\d+)?$/.exec(amount);
  return m ? `${m[1]}${m[2].replace(/\B(?=(\d{3})+$)/g, ',')}${m[3] ?? ''}` : amount;
}

/** How a field of unknown columns shows: times, statuses, ids (never cut) and free text (wrapped when narrow). */
function kindOf(key: string): Column['kind'] {
  if (/_at$|^timestamp$/.test(key)) return 'time';
  if (key === 'status') return 'status';
  if (/(^|_)(description|message|detail|details|problem|note|title|reason)$/.test(key)) return 'text';
  return 'id';
}

/**
 * Text held for one write: it goes out when 64 KiB are held, at the next turn of the event loop (when whoever adds
 * waits for I/O), or when flushed; in the order added.
 */
class HeldText {
  private text = '';
  private turn: ReturnType<typeof setImmediate> | undefined;
  constructor(private readonly write: (text: string) => void) {}

  add(text: string): void {
    this.text += text;
    if (this.text.length >= 65536) this.flush();
    else this.turn ??= setImmediate(() => this.flush());
  }

  flush(): void {
    if (this.turn) clearImmediate(this.turn);
    this.turn = undefined;
    if (!this.text) return;
    const text = this.text;
    this.text = '';
    this.write(text);
  }
}
