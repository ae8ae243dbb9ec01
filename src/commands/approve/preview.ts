// What coinop approve shows before it asks to sign: every row of a batch (its row number, destination, asset, network
// and amount; the first PREVIEW_ROWS of a long one, the totals below covering all), or each field of a saved request.
import type { Stage } from '../../batch/stage.js';
import { type Column, fitTable, tableLines } from '../../render/table.js';

/** The rows of a long batch shown before the question; the totals and the row count cover every one. */
export const PREVIEW_ROWS = 50;

const COLUMNS: Column[] = [
  { key: 'row', header: 'ROW', kind: 'id', identity: true },
  { key: 'destination', header: 'DESTINATION', kind: 'id' },
  { key: 'asset', header: 'ASSET' },
  { key: 'network', header: 'NETWORK' },
  { key: 'amount', header: 'AMOUNT', kind: 'amount' },
  { key: 'profile', header: 'PROFILE_ID', kind: 'id', rank: 3 },
];

/** The table of a batch's staged rows, as they will be sent (within `width` characters: the profile goes first). */
export function batchPreview(stage: Stage, width: number, defaultProfileId: string | undefined): string[] {
  const cells: string[][] = [];
  let more = 0;
  for (const s of stage.valid()) {
    if (cells.length >= PREVIEW_ROWS) {
      more++;
      continue;
    }
    const amount = s.amount ?? (s.total ? `total ${s.total}` : '');
    const profile = s.profile_id && s.profile_id !== defaultProfileId ? s.profile_id : '';
    cells.push([String(s.row), s.destination_address ?? '', s.asset ?? '', s.crypto_network ?? '', amount, profile]);
  }
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
  if (more) lines.push(`  … and ${more} more row${more === 1 ? '' : 's'} (the totals above count every row)`);
  return lines;
}

/** A saved request's fields, one a line, as it will be sent (an object's fields inside it, as JSON). */
export function requestFields(request: object): [string, string][] {
  return Object.entries(request)
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : String(v)]);
}
