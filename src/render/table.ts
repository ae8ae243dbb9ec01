// Tables for people, one mechanism for every table coinop prints, and one rule for a terminal too narrow for one:
//   1. the columns a table ranks lowest (rank 3 and up) are left out first, never a column that says what a row is
//      (`identity`: its id, type or kind);
//   2. then ids that may be shortened (`short`: UUIDs) show their first 8 characters, and what step 1 left out comes
//      back where it now fits;
//   3. then free text wraps (never splitting an id, an address or a hash in it), and only when that cannot make the
//      line fit is the rest left out by rank (2, then 1), identity columns still never;
//   4. what still does not fit runs past the edge: an id is never split or cut.
// One note on stderr says what was left out or shortened and how to see it all. --wide shows every column (ids
// whole), --columns exactly the ones named, in that order: both as asked, nothing left out or shortened. Piped, a
// table is never fitted.
import { usageError } from '../errors.js';
import { visibleLength } from './style.js';

export interface Column {
  /** Field of the object; dots reach into nested objects ("metadata.note"). */
  key: string;
  header?: string;
  /** 'time': relative on a terminal ("3 min ago"); 'clock': the time of day, UTC, to the second ("14:46:30"). */
  kind?: 'amount' | 'time' | 'clock' | 'status' | 'text' | 'id';
  /**
   * Which columns a narrow terminal leaves out first: higher numbers go before lower ones (the rightmost first among
   * equals); 1, the default, goes last. Ids are shortened before a column ranked 1 or 2 is left out.
   */
  rank?: number;
  /** The column that says what a row is (its id, its type or kind): never left out, whatever the width. */
  identity?: boolean;
  /** Its values are UUIDs a narrow terminal may show by their first 8 characters (never split across lines). */
  short?: boolean;
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
  /** The command takes --columns and --wide (the note on what a narrow terminal left out names them then). */
  flags?: boolean;
}

/** The number of characters a shortened id keeps. */
export const SHORT_ID = 8;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A UUID by its first characters; any other value as it is. */
export const shortId = (value: string) => (UUID.test(value) ? value.slice(0, SHORT_ID) : value);

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
  /** By index: the column's ids show by their first characters (shortId). */
  short: boolean[];
}

const GAP = 2;
/** Free text is not wrapped narrower than this. */
const MIN_TEXT = 12;
/** Columns ranked this or more important are left out only once ids are shortened. */
const KEPT_RANK = 2;

const lineWidth = (shown: number[], widths: number[]) =>
  shown.reduce((sum, i) => sum + widths[i], 0) + GAP * Math.max(0, shown.length - 1);
const rankOf = (c: Column) => c.rank ?? 1;

/** The shown column to leave out next, ranked `from` or lower (a higher number): the lowest ranked, rightmost. */
function nextToLeave(columns: readonly Column[], shown: number[], from: number): number {
  let pick = -1;
  for (const i of shown) {
    const c = columns[i];
    if (!c.identity && rankOf(c) >= from && (pick < 0 || rankOf(c) >= rankOf(columns[pick]))) pick = i;
  }
  return pick;
}

/** What fitting a table takes besides its columns' natural widths. */
export interface FitOptions {
  /** --wide, --columns: nothing left out or shortened, only free text wrapped. */
  keepAll?: boolean;
  /** By index: the column's width were its ids shortened (undefined: it cannot be). */
  shortWidths?: (number | undefined)[];
  /** By index: the narrowest a free text column wraps to (its longest id-like word: never split). */
  floors?: number[];
}

/** The layout of a table within `max` characters (undefined: no limit, as when piped), by the rule atop this file. */
export function fitTable(
  columns: readonly Column[],
  natural: number[],
  max?: number,
  { keepAll = false, shortWidths = [], floors = [] }: FitOptions = {},
): TableLayout {
  const widths = [...natural];
  const shown = columns.map((_, i) => i);
  const dropped: Column[] = [];
  const short = columns.map(() => false);
  if (max === undefined) return { shown, widths, dropped, short };
  const least = (i: number) => (columns[i].kind === 'text' ? Math.min(widths[i], textFloor(floors, i)) : widths[i]);
  const fits = () => lineWidth(shown, widths) <= max;
  // With its free text wrapped as narrow as it goes.
  const fitsWrapped = () =>
    lineWidth(
      shown,
      columns.map((_, i) => least(i)),
    ) <= max;
  const leave = (from: number, enough: () => boolean) => {
    for (
      let pick = nextToLeave(columns, shown, from);
      !enough() && pick >= 0;
      pick = nextToLeave(columns, shown, from)
    ) {
      shown.splice(shown.indexOf(pick), 1);
      dropped.push(columns[pick]);
    }
  };
  if (!keepAll) {
    leave(KEPT_RANK + 1, fits);
    if (!fits()) shorten(columns, shown, widths, short, shortWidths);
    comeBack(columns, shown, widths, dropped, max);
    leave(1, fitsWrapped);
  }
  wrapFreeText(columns, shown, widths, max, floors);
  return { shown, widths, dropped: dropped.reverse(), short };
}

function shorten(
  columns: readonly Column[],
  shown: number[],
  widths: number[],
  short: boolean[],
  shortWidths: (number | undefined)[],
): void {
  for (const i of shown) {
    const w = shortWidths[i];
    if (columns[i].short && w !== undefined && w < widths[i]) {
      widths[i] = w;
      short[i] = true;
    }
  }
}

/** Columns left out that fit again (once ids are shortened), the most important first, each in its place. */
function comeBack(columns: readonly Column[], shown: number[], widths: number[], dropped: Column[], max: number): void {
  for (let d = dropped.length - 1; d >= 0; d--) {
    const i = columns.indexOf(dropped[d]);
    const next = [...shown, i].sort((a, b) => a - b);
    if (lineWidth(next, widths) > max) continue;
    shown.splice(0, shown.length, ...next);
    dropped.splice(d, 1);
  }
}

/** The narrowest a free text column wraps to. */
const textFloor = (floors: number[], i: number) => Math.max(MIN_TEXT, floors[i] ?? 0);

/** Narrows free text ('text' columns), the widest first, down to MIN_TEXT or its floor, until the line fits. */
function wrapFreeText(columns: readonly Column[], shown: number[], widths: number[], max: number, floors: number[]) {
  const least = (i: number) => textFloor(floors, i);
  while (lineWidth(shown, widths) > max) {
    let widest = -1;
    for (const i of shown)
      if (columns[i].kind === 'text' && widths[i] > least(i) && (widest < 0 || widths[i] > widths[widest])) widest = i;
    if (widest < 0) break;
    widths[widest]--;
  }
}

/** A word of free text that is an id, an address or a hash (long, with a digit): wrapping never splits it. */
export const unbreakable = (word: string) => word.length >= 16 && /\d/.test(word) && /^[\w:.-]+$/.test(word);

/** The longest unbreakable word of a text (0 when none). */
export const longestUnbreakable = (text: string) =>
  Math.max(
    0,
    ...text
      .split(/\s+/)
      .filter(unbreakable)
      .map((w) => visibleLength(w)),
  );

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
    while (visibleLength(w) > width && !unbreakable(w)) {
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
      columns[i].kind === 'text'
        ? wrapText(cells[i], layout.widths[i])
        : [layout.short[i] ? shortId(cells[i]) : cells[i]],
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
