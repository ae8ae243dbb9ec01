// What coinop approve shows before it asks to sign: every row of a batch (its row number, destination with its nickname
// in the address book, asset, network, amount, and a service profile other than the default by its nickname; the
// first PREVIEW_ROWS of a long one, the totals below covering all), or each field of a saved request.
import type { Stage, StagedRow } from '../../batch/stage.js';
import { type Column, fitTable, tableLines } from '../../render/table.js';

/** The rows of a long batch shown before the question; the totals and the row count cover every one. */
export const PREVIEW_ROWS = 50;

const COLUMNS: Column[] = [
  { key: 'row', header: 'ROW', kind: 'id', identity: true },
  { key: 'destination', header: 'DESTINATION', kind: 'id' },
  { key: 'asset', header: 'ASSET' },
  { key: 'network', header: 'NETWORK' },
  { key: 'amount', header: 'AMOUNT', kind: 'amount' },
  { key: 'profile', header: 'PROFILE', kind: 'id', rank: 3 },
];

/** The rows a preview shows (the first PREVIEW_ROWS), and how many more the batch has. */
export interface PreviewRows {
  rows: StagedRow[];
  more: number;
}

/** The first PREVIEW_ROWS valid rows of the staged batch, and the count of the rest. */
export function previewRows(stage: Stage): PreviewRows {
  const rows: StagedRow[] = [];
  let more = 0;
  for (const row of stage.valid()) {
    if (rows.length < PREVIEW_ROWS) rows.push(row);
    else more++;
  }
  return { rows, more };
}

/** How the preview names what a row pays: its service profile, and its destination's nickname in the address book. */
export interface PreviewNames {
  /** The profile of rows that give none: not shown for them. */
  defaultProfileId: string | undefined;
  /** A profile id as shown: "payroll (e950ba30)" when its nickname is known. */
  profile: (id: string) => string;
  /** The address book's nickname of a row's destination, if it has one. */
  nickname: (row: StagedRow) => string | undefined;
}

/** A row's cells: row, destination (with its nickname in the book), asset, network, amount, profile. */
function cellsOf(row: StagedRow, names: PreviewNames): string[] {
  const amount = row.amount ?? (row.total ? `total ${row.total}` : '');
  const profile = row.profile_id && row.profile_id !== names.defaultProfileId ? names.profile(row.profile_id) : '';
  const nickname = names.nickname(row);
  const destination = `${row.destination_address ?? ''}${nickname ? ` (${nickname})` : ''}`;
  return [String(row.row), destination, row.asset ?? '', row.crypto_network ?? '', amount, profile];
}

/** The table of a batch's staged rows, as they will be sent (within `width` characters: the profile goes first). */
export function batchPreview(shown: PreviewRows, width: number, names: PreviewNames): string[] {
  const cells = shown.rows.map((s) => cellsOf(s, names));
  const columns = cells.some((c) => c[5]) ? COLUMNS : COLUMNS.slice(0, 5);
  const heads = columns.map((c) => c.header ?? c.key);
  const natural = columns.map((_, i) => Math.max(heads[i].length, ...cells.map((c) => c[i].length)));
  const layout = fitTable(columns, natural, width - 2);
  const lines = tableLines(
    columns,
    heads,
    cells.map((c) => c.slice(0, columns.length)),
    layout,
  ).map((l) => `  ${l}`);
  const more = shown.more;
  if (more) lines.push(`  … and ${more} more row${more === 1 ? '' : 's'} (the totals above count every row)`);
  return lines;
}

/** A saved request's fields, one a line, as it will be sent (an object's fields inside it, as JSON). */
export function requestFields(request: object): [string, string][] {
  return Object.entries(request)
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)]);
}
