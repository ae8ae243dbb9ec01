// HTTP helpers shared by the local service's routes: the service object, request validation with the contract,
// and keyset-paged lists.
import { formatIssues, problems, requestIssues, type Issue, type Operation } from '../api/index.js';
import type { Auth } from './auth.js';
import type { Core } from './core.js';
import { decodeCursor, encodeCursor, listFingerprint } from './cursor.js';
import type { Faults } from './faults.js';
import type { Journal } from './journal.js';
import type { RateLimiter } from './rate-limit.js';
import type { Request } from './router.js';
import type { ListQuery, TimeComparison } from './store.js';

export interface Service extends Core {
  auth: Auth;
  journal: Journal;
  faults: Faults;
  limiter: RateLimiter;
}

/** Checks the token for the operation's scope and validates the request; a problem is thrown otherwise. */
export function accept<Q = Record<string, unknown>, B = unknown, P = Record<string, string>>(
  svc: Service, op: Operation, req: Request, onIssues?: (body: unknown, issues: Issue[]) => void,
): { query: Q; body: B; params: P; clientId: string } {
  const who = svc.auth.authorize(req.headers.authorization, op.scope);
  req.principal = who.clientId;
  const { issues, query } = requestIssues(op, {
    params: req.params,
    query: req.query,
    body: op.body ? req.body : undefined,
  });
  if (issues.length) {
    onIssues?.(req.body, issues);
    throw problems.badRequest(formatIssues(issues), { issues });
  }
  return { query: (query ?? {}) as Q, body: req.body as B, params: req.params as P, clientId: who.clientId };
}

export function timeComparison(q: Record<string, unknown>, prefix: string): TimeComparison | undefined {
  let out: TimeComparison | undefined;
  for (const op of ['lt', 'lte', 'eq', 'gte', 'gt'] as const) {
    const v = q[`${prefix}.${op}`];
    if (typeof v === 'string') (out ??= {})[op] = Date.parse(v);
  }
  return out;
}

/** One page of a list: limit+1 rows fetched after the cursor, the extra one only says another page exists. */
export function listPage<R extends { seq: number }, T>(
  kind: string,
  query: Record<string, unknown>,
  spec: Omit<ListQuery, 'order' | 'after' | 'limit'>,
  fetch: (q: ListQuery) => R[],
  toItem: (r: R) => T,
): { items: T[]; next_page_cursor?: string } {
  const limit = (query.limit as number | undefined) ?? 100;
  const order = (query.order as 'ASC' | 'DESC' | undefined) ?? 'DESC';
  const fp = listFingerprint(kind, query);
  const after = typeof query.page_cursor === 'string' ? decodeCursor(query.page_cursor, fp) : undefined;
  const rows = fetch({ ...spec, order, after, limit: limit + 1 });
  const page = rows.slice(0, limit);
  const out: { items: T[]; next_page_cursor?: string } = { items: page.map(toItem) };
  if (rows.length > limit) {
    const last = page[page.length - 1] as R & Record<string, number>;
    out.next_page_cursor = encodeCursor([last[spec.sortColumn], last.seq], fp);
  }
  return out;
}

