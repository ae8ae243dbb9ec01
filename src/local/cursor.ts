// Opaque page cursors: a keyset position (sort timestamp, insertion sequence) bound to the list's filters and
// order, base64url-encoded. Keyset paging never skips or repeats an item while new items are being created.
import { createHash } from './lazy-crypto.js';
import { problems } from '../contract/index.js';

/** A short digest of everything that shapes a list except the page size and the cursor itself. */
export function listFingerprint(kind: string, query: Record<string, unknown>): string {
  const keys = Object.keys(query)
    .filter((k) => k !== 'limit' && k !== 'page_cursor')
    .sort();
  const canon = keys.map((k) => [k, query[k]]);
  return createHash('sha256')
    .update(JSON.stringify([kind, canon]))
    .digest('base64url')
    .slice(0, 16);
}

export function encodeCursor(position: [number, number], fingerprint: string): string {
  return Buffer.from(JSON.stringify({ v: 1, p: position, f: fingerprint })).toString('base64url');
}

function bad(rule: string): never {
  throw problems.badRequest(`page_cursor: ${rule}`, { issues: [{ field: 'page_cursor', rule }] });
}

/** The position in a cursor; a 400 naming page_cursor when it does not decode or belongs to another query. */
export function decodeCursor(cursor: string, fingerprint: string): [number, number] {
  let parsed: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('not base64url');
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    bad('is not a page cursor this list issued');
  }
  const c = parsed as { v?: unknown; p?: unknown; f?: unknown };
  if (
    !c ||
    typeof c !== 'object' ||
    c.v !== 1 ||
    !Array.isArray(c.p) ||
    c.p.length !== 2 ||
    !c.p.every((n) => Number.isSafeInteger(n)) ||
    typeof c.f !== 'string'
  ) {
    bad('is not a page cursor this list issued');
  }
  if (c.f !== fingerprint) bad('belongs to a list with other filters or order (repeat the query that gave it)');
  return c.p as [number, number];
}
