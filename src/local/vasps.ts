// The VASP directory of the local service (GET /v2/travelrule/vasps and /{id}: any valid token, no scope, as the
// OpenAPI's `OAuth2: []`): a fixed list, the OpenAPI's two examples among them, and one VASP whose travel rule check
// always fails (travel-rule.ts).
import {
  type GetVaspResponse,
  type ListVaspsQuery,
  type ListVaspsResponse,
  problems,
  type Vasp,
} from '../contract/index.js';
import { decodeCursor, encodeCursor, listFingerprint } from './cursor.js';

/** The VASP whose travel rule check always fails on the local service (a withdrawal to it is TRAVEL_RULE_REJECTED). */
export const FAILING_VASP: Vasp = { id: '0f5e2d7c-4b1a-4c9e-8d3f-6a2b1c0e9f47', name: 'Failing Checks VASP (local)' };

/**
 * The directory: the OpenAPI's two examples, a few more, and the one that always fails; written in name order (as
 * `localeCompare(…, 'en')` sorts them; test/local/travel-rule.test.ts checks), not sorted at load: a collator made
 * with a locale costs milliseconds of every start of the service.
 */
export const VASPS: readonly Vasp[] = [
  { id: 'a1c3e5f7-2b4d-4f6a-8c0e-1d3f5a7b9c2e', name: 'Binance' },
  { id: 'f6b8d0e2-7a9c-4e1f-9b5d-6c8e0f2a4b7d', name: 'Bitso' },
  { id: 'b2d4f6a8-3c5e-4a7b-9d1f-2e4a6b8c0d3f', name: 'Bitstamp' },
  { id: 'c3e5a7b9-4d6f-4b8c-8e2a-3f5b7c9d1e4a', name: 'Coinbase' },
  { id: '07c9e1f3-8b0d-4f2a-8c6e-7d9f1a3b5c8e', name: 'Crypto.com' },
  FAILING_VASP,
  { id: '18d0f2a4-9c1e-4a3b-9d7f-8e0a2b4c6d9f', name: 'Fidelity Digital Assets' },
  { id: 'd4f6b8c0-5e7a-4c9d-9f3b-4a6c8d0e2f5b', name: 'Gemini' },
  { id: 'e5a7c9d1-6f8b-4d0e-8a4c-5b7d9e1f3a6c', name: 'Kraken' },
  { id: '8e4b1c2d-9a3f-4e6b-b1d7-2c5a8f0e3b94', name: 'OKX' },
  { id: '3d9a7c61-5e2b-48f0-9c4a-1b6e7d2f8a05', name: 'Robinhood (US)' },
];

/** GET /v2/travelrule/vasps: by name (ascending unless `order` DESC), filtered by ids and a name prefix, paged. */
export function vaspsPage(query: ListVaspsQuery): ListVaspsResponse {
  const limit = query.limit ?? 100;
  const prefix = query.search?.toLowerCase();
  const ordered = query.order === 'DESC' ? [...VASPS].reverse() : VASPS;
  const matching = ordered.filter(
    (v) => (!query.ids || query.ids.includes(v.id)) && (!prefix || v.name.toLowerCase().startsWith(prefix)),
  );
  // The directory is fixed: a position in it is the keyset (the name's rank).
  const fp = listFingerprint('vasps', query as Record<string, unknown>);
  const rank = (v: Vasp) => VASPS.indexOf(v);
  const after = query.page_cursor !== undefined ? decodeCursor(query.page_cursor, fp)[0] : undefined;
  const rest =
    after === undefined
      ? matching
      : matching.filter((v) => (query.order === 'DESC' ? rank(v) < after : rank(v) > after));
  const items = rest.slice(0, limit);
  return {
    items: items.map((v) => ({ ...v })),
    ...(rest.length > limit ? { next_page_cursor: encodeCursor([rank(items[items.length - 1]), 0], fp) } : {}),
  };
}

/** GET /v2/travelrule/vasps/{id}. */
export function vaspById(id: string): GetVaspResponse {
  const vasp = VASPS.find((v) => v.id === id);
  if (!vasp) throw problems.notFound(`no vasp found for id: ${id}`);
  return { vasp: { ...vasp } };
}

/** A VASP a destination's travel rule details name must be the directory's (a custom one is given by name). */
export function checkVaspKnown(vaspId: string | undefined): void {
  if (vaspId === undefined || VASPS.some((v) => v.id === vaspId)) return;
  throw problems.badRequest(`travelrule_metadata.vasp.id: ${vaspId} is not a VASP of the directory`, {
    issues: [{ field: 'travelrule_metadata.vasp.id', rule: 'must be the id of a VASP of the directory (ListVasps)' }],
  });
}
