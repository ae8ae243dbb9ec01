// Tables for people, one mechanism for every table coinop prints. Ids, ref_ids, addresses and hashes are never cut:
// on a narrow terminal the columns each table ranks lowest are left out first, and only free text wraps. --wide shows
// every column (none left out), --columns exactly the ones named, in that order.
import { usageError } from '../errors.js';
import { visibleLength } from './style.js';

export interface Column {
  /** Field of the object; dots reach into nested objects ("metadata.note"). */
  key: string;
  header?: string;
  kind?: 'amount' | 'time' | 'status' | 'text' | 'id';
  /**
   * Which columns a narrow terminal leaves out first: 1 (the default) is never left out, higher numbers go before
   * lower ones (the rightmost first among equals).
   */
  priority?: number;
  /** Left out of the default table: shown by --wide or --columns, and always in CSV. */
  wide?: boolean;
  /**
   * An object whose fields are columns too: --columns takes `<key>.<field>` for any field (metadata.invoice), a column
   * headed by that name. The object itself shows as "field: value" pairs (JSON in CSV).
   */
  open?: boolean;
}

/** How a table command was asked to show its columns (--columns, --wide). */
export interface TableView {
  /** --columns: these columns, by name, in this order. */
  names?: string[];
  /** --wide: every column, none left out for width. */
  wide?: boolean;
}

/** A column's name for --columns: its header in lower case with _ for spaces ("ref id" is ref_id). */
export const columnName = (c: Column) =>
  (c.header ?? c.key)
    .trim()
    .toLowerCase()
    .replace(/[\s.]+/g, '_');

/** The column a --columns name means: its name, or its field ("crypto_network" for network), in any case. */
function findColumn(columns: readonly Column[], name: string): Column | undefined {
  const n = name.trim().toLowerCase();
  return (
    columns.find((c) => columnName(c) === n) ??
    columns.find((c) => c.key.toLowerCase() === n) ??
    fieldColumn(columns, name.trim())
  );
}

/** `<key>.<field>` of an open column: the field as a column of its own, its name as typed (fields keep their case). */
function fieldColumn(columns: readonly Column[], name: string): Column | undefined {
  const open = columns.find((c) => c.open && name.toLowerCase().startsWith(`${c.key.toLowerCase()}.`));
  if (!open || name.length <= open.key.length + 1) return undefined;
  const key = `${open.key}.${name.slice(open.key.length + 1)}`;
  return { key, header: key, kind: 'text' };
}

/** Checks --columns against a table's columns: an unknown name is a usage error that lists the valid ones. */
export function checkColumnNames(names: readonly string[] | undefined, columns: readonly Column[]): void {
  if (!names) return;
  if (!names.length) throw usageError(`--columns: name at least one column (${columns.map(columnName).join(', ')})`);
  const seen = new Set<string>();
  const valid = () =>
    columns.map((c) => (c.open ? `${columnName(c)}, ${columnName(c)}.<field>` : columnName(c))).join(', ');
  for (const n of names) {
    const c = findColumn(columns, n);
    if (!c) throw usageError(`--columns: "${n}" is not a column of this table (${valid()})`);
    if (seen.has(c.key)) throw usageError(`--columns: ${c.header === c.key ? c.key : columnName(c)} is named twice`);
    seen.add(c.key);
  }
}

/**
 * The columns to print: the named ones; else for CSV or --wide every column; else the table's default ones (all but
 * the wide-only). Names were checked already (checkColumnNames); an unknown one here is left out.
 */
export function viewColumns(columns: readonly Column[], view: TableView, csv: boolean): Column[] {
  if (view.names) return view.names.map((n) => findColumn(columns, n)).filter((c): c is Column => !!c);
  return csv || view.wide ? [...columns] : columns.filter((c) => !c.wide);
}

/** Which columns a table shows and how wide each is (its text's width: cells are padded, never cut). */
export interface TableLayout {
  /** Indexes of the columns shown, in order. */
  shown: number[];
  /** Width of each column (by index into the columns; hidden ones too). */
  widths: number[];
  /** Columns left out for the terminal's width. */
  dropped: Column[];
}

const GAP = 2;
/** Free text is not wrapped narrower than this. */
const MIN_TEXT = 12;

const lineWidth = (shown: number[], widths: number[]) =>
  shown.reduce((sum, i) => sum + widths[i], 0) + GAP * Math.max(0, shown.length - 1);

/**
 * The layout of a table within `max` characters (undefined: no limit, as when piped). Lower-priority columns are
 * left out first (unless `keepAll`), then free text ('text' columns) is wrapped; what still does not fit overflows
 * the line rather than lose a character.
 */
export function fitTable(columns: readonly Column[], natural: number[], max?: number, keepAll = false): TableLayout {
  const widths = [...natural];
  const shown = columns.map((_, i) => i);
  const dropped: Column[] = [];
  if (max === undefined) return { shown, widths, dropped };
  while (!keepAll && lineWidth(shown, widths) > max) {
    let pick = -1;
    for (const i of shown) {
      const p = columns[i].priority ?? 1;
      if (p > 1 && (pick < 0 || p >= (columns[pick].priority ?? 1))) pick = i;
    }
    if (pick < 0) break;
    shown.splice(shown.indexOf(pick), 1);
    dropped.push(columns[pick]);
  }
  while (lineWidth(shown, widths) > max) {
    let widest = -1;
    for (const i of shown)
      if (columns[i].kind === 'text' && widths[i] > MIN_TEXT && (widest < 0 || widths[i] > widths[widest])) widest = i;
    if (widest < 0) break;
    widths[widest]--;
  }
  return { shown, widths, dropped: dropped.reverse() };
}

/** Splits free text into lines of at most `width` characters, at spaces where it can (a longer word is broken). */
export function wrapText(text: string, width: number): string[] {
  if (visibleLength(text) <= width) return [text];
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    let w = word;
    if (line && visibleLength(line) + 1 + visibleLength(w) <= width) {
      line += ` ${w}`;
      continue;
    }
    if (line) lines.push(line);
    while (visibleLength(w) > width) {
      const chars = [...w];
      lines.push(chars.slice(0, width).join(''));
      w = chars.slice(width).join('');
    }
    line = w;
  }
  if (line) lines.push(line);
  return lines;
}

const pad = (s: string, width: number) => s + ' '.repeat(Math.max(0, width - visibleLength(s)));

/**
 * The lines of a table: a header line (when given) and each row, columns two spaces apart; a wrapped text cell makes
 * its row several lines. Trailing spaces are trimmed.
 */
export function tableLines(
  columns: readonly Column[],
  heads: string[] | null,
  rows: string[][],
  layout: TableLayout,
): string[] {
  const out: string[] = [];
  const line = (cells: string[]) => {
    const parts = layout.shown.map((i) =>
      columns[i].kind === 'text' ? wrapText(cells[i], layout.widths[i]) : [cells[i]],
    );
    const height = Math.max(...parts.map((p) => p.length));
    for (let r = 0; r < height; r++) {
      const text = layout.shown.map((i, j) => pad(parts[j][r] ?? '', layout.widths[i])).join(' '.repeat(GAP));
      out.push(text.trimEnd());
    }
  };
  if (heads) line(heads);
  for (const r of rows) line(r);
  return out;
}

/** A value that is an object, for people: "name: message" for each entry, nested objects in parentheses. */
export function readable(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(readable).join(', ');
  if (typeof value !== 'object') return String(value);
  return Object.entries(value as Record<string, unknown>)
    .map(([k, x]) => {
      if (x && typeof x === 'object' && !Array.isArray(x)) {
        const o = x as Record<string, unknown>;
        // A reason with a message ({"invalid_destination_address": {"message": ...}}) reads as the message.
        if (typeof o.message === 'string') {
          const rest = Object.fromEntries(Object.entries(o).filter(([kk]) => kk !== 'message'));
          return `${k}: ${o.message}${Object.keys(rest).length ? ` (${readable(rest)})` : ''}`;
        }
        return `${k} (${readable(o)})`;
      }
      return `${k}: ${readable(x)}`;
    })
    .join('; ');
}
