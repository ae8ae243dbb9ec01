// Output in four formats (table, json, ndjson, csv): one object or a list streamed item by item.
// Amounts are printed exactly as the service sent them; tables are for people, the rest for machines.
import { createRequire } from 'node:module';
import { csvRow } from './csv.js';
import { keyValueLines } from './key-value.js';
import { palette, statusColour, visibleLength, type Palette } from './style.js';
import { relativeTime } from './time.js';
import type { Writer } from './writer.js';

export const FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

export interface Column {
  /** Field of the object; dots reach into nested objects ("metadata.note"). */
  key: string;
  header?: string;
  kind?: 'amount' | 'time' | 'status' | 'text' | 'id';
}

const require = createRequire(import.meta.url);
type TableCtor = new (opts: Record<string, unknown>) => { push(...rows: unknown[]): void; toString(): string };

export function getPath(o: unknown, key: string): unknown {
  let v: unknown = o;
  for (const part of key.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  // A key with a dot in it ("range.begin") is tried whole as well.
  if (v === undefined && o && typeof o === 'object') v = (o as Record<string, unknown>)[key];
  return v;
}

export class Output {
  readonly p: Palette;
  constructor(
    readonly io: Writer,
    readonly format: Format,
    private readonly now: () => number = Date.now,
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

  cell(v: unknown, kind: Column['kind']): string {
    if (v === undefined || v === null || v === '') return this.p.dim('-');
    if (typeof v === 'object') return JSON.stringify(v);
    const s = String(v);
    if (kind === 'time' && this.io.stdoutTTY) return relativeTime(s, this.now());
    if (kind === 'status') return statusColour(this.p, s);
    return s;
  }

  /** One resource: a two-column table of fields, or the object as JSON/NDJSON/CSV. */
  one(obj: Record<string, unknown>, columns: Column[] = []): void {
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
        for (const [k, v] of Object.entries(obj)) {
          if (listed.has(k)) continue;
          if (v && typeof v === 'object' && !Array.isArray(v)) {
            for (const [k2, v2] of Object.entries(v as Record<string, unknown>))
              rows.push([`${k}.${k2}`, this.cell(v2, kindOf(k2))]);
          } else rows.push([k, this.cell(v, kindOf(k))]);
        }
        for (const line of keyValueLines(rows, this.p)) this.io.out(`${line}\n`);
      }
    }
  }

  /**
   * A list, written as items arrive: a JSON array, one JSON object per line, CSV rows, or tables of at most a page
   * each. Returns the number of items.
   */
  async list(
    items: AsyncIterable<Record<string, unknown>> | Iterable<Record<string, unknown>>,
    columns: Column[],
    opts: { empty?: string } = {},
  ): Promise<number> {
    let n = 0;
    if (!columns.length && (this.format === 'csv' || this.format === 'table')) return this.listUnknown(items);
    if (this.format === 'table') {
      let batch: Record<string, unknown>[] = [];
      let widths: number[] | undefined;
      for await (const item of items as AsyncIterable<Record<string, unknown>>) {
        batch.push(item);
        n++;
        if (batch.length >= 200) {
          widths = this.table(batch, columns, widths);
          batch = [];
        }
      }
      if (batch.length) this.table(batch, columns, widths);
      if (!n) this.note(this.p.dim(opts.empty ?? 'nothing found'));
      return n;
    }
    // Opened at the first item (or the end), so a list whose first page fails leaves stdout empty, not a lone '['.
    let opened = false;
    const open = () => {
      if (opened) return;
      opened = true;
      if (this.format === 'csv') this.io.out(csvRow(columns.map((c) => c.key)));
      if (this.format === 'json') this.io.out('[');
    };
    for await (const item of items as AsyncIterable<Record<string, unknown>>) {
      open();
      if (this.format === 'json') this.io.out((n ? ',\n  ' : '\n  ') + JSON.stringify(item));
      else if (this.format === 'ndjson') this.io.out(`${JSON.stringify(item)}\n`);
      else this.io.out(csvRow(columns.map((c) => getPath(item, c.key))));
      n++;
    }
    open();
    if (this.format === 'json') this.io.out(n ? '\n]\n' : ']\n');
    return n;
  }

  /** A list whose fields are not known ahead (coinop api): columns from the first item. */
  private async listUnknown(
    items: AsyncIterable<Record<string, unknown>> | Iterable<Record<string, unknown>>,
  ): Promise<number> {
    let cols: Column[] | undefined;
    let n = 0;
    const rest: Record<string, unknown>[] = [];
    for await (const item of items as AsyncIterable<Record<string, unknown>>) {
      cols ??= Object.keys(item).map((key) => ({ key, kind: kindOf(key) }));
      if (this.format === 'csv') {
        if (!n) this.io.out(csvRow(cols.map((c) => c.key)));
        this.io.out(csvRow(cols.map((c) => getPath(item, c.key))));
      } else rest.push(item);
      n++;
    }
    if (cols && rest.length) this.table(rest, cols);
    return n;
  }

  /** A table of rows; the returned column widths keep later batches of the same list aligned. */
  table(rows: Record<string, unknown>[], columns: Column[], fixedWidths?: number[]): number[] {
    const Table = require('cli-table3') as TableCtor;
    const cells = rows.map((r) => columns.map((c) => this.cell(getPath(r, c.key), c.kind)));
    const heads = columns.map((c) => (c.header ?? c.key).toUpperCase());
    let widths =
      fixedWidths ??
      columns.map((_, i) => Math.max(visibleLength(heads[i]), ...cells.map((row) => visibleLength(row[i]))) + 2);
    // Piped tables keep every character; only a terminal's width is worth truncating for.
    if (this.io.stdoutTTY) widths = fitWidths(widths, columns, this.io.width);
    const t = new Table({
      head: heads.map((h) => this.p.bold(h)),
      colWidths: widths,
      wordWrap: false,
      truncate: '…',
      style: { head: [], border: [], compact: true, 'padding-left': 1, 'padding-right': 1 },
      chars: {
        top: '',
        'top-mid': '',
        'top-left': '',
        'top-right': '',
        bottom: '',
        'bottom-mid': '',
        'bottom-left': '',
        'bottom-right': '',
        left: '',
        'left-mid': '',
        mid: '',
        'mid-mid': '',
        right: '',
        'right-mid': '',
        middle: '',
      },
    });
    for (const row of cells) t.push(row);
    this.io.out(
      `${t
        .toString()
        .split('\n')
        .map((l) => l.replace(/^ /, '').trimEnd())
        .join('\n')}\n`,
    );
    return widths;
  }
}

/**
 * Shrinks columns until the table fits the terminal: free text first (down to 8), then ids (down to 13, enough to
 * tell them apart); amounts, statuses and times never shrink, and nothing shrinks when the table is piped.
 */
function fitWidths(widths: number[], columns: Column[], max: number): number[] {
  const w = [...widths];
  const total = () => w.reduce((a, b) => a + b, 0);
  const shrink = (kinds: (Column['kind'] | undefined)[], min: number) => {
    for (let guard = 0; total() > max && guard < 2000; guard++) {
      let best = -1;
      for (let i = 0; i < w.length; i++) {
        if (!kinds.includes(columns[i].kind) || w[i] <= min) continue;
        if (best < 0 || w[i] > w[best]) best = i;
      }
      if (best < 0) return;
      w[best]--;
    }
  };
  shrink([undefined, 'text'], 8);
  shrink(['id'], 13);
  return w;
}

function kindOf(key: string): Column['kind'] {
  if (/_at$|^timestamp$/.test(key)) return 'time';
  if (key === 'status') return 'status';
  return 'text';
}
