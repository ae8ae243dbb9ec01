// Helpers shared by the local service's routes: the service object, request validation with the contract,
// and keyset-paged lists.
import {
  formatIssues,
  problems,
  requestIssues,
  type Issue,
  type ListOrder,
  type Operation,
  type TypesOf,
} from '../contract/index.js';
import type { Auth } from './auth.js';
import type { Core } from './core.js';
import { decodeCursor, encodeCursor, listFingerprint } from './cursor.js';
import type { Faults } from './faults.js';
import type { RequestLog } from './request-log.js';
import type { RequestLimits } from './request-limits.js';
import type { Reply, Request, Router } from './router.js';
import type { SimulatedExchange } from './stream/exchange.js';
import type { ListQuery, TimeComparison } from './store.js';

export interface Service extends Core {
  auth: Auth;
  requestLog: RequestLog;
  faults: Faults;
  requestLimits: RequestLimits;
  /** The simulated markets the stream serves, read by the market data snapshots. */
  exchange: SimulatedExchange;
}

/**
 * A request to an operation as its handler sees it, checked against the contract: the coerced query, the body and
 * the path parameters typed by the operation's schemas ({} for a part it has none of), and who made it.
 */
export interface Accepted<O extends Operation> {
  query: Part<TypesOf<O>['query']>;
  body: TypesOf<O>['body'];
  params: Part<TypesOf<O>['params']>;
  clientId: string;
}
type Part<T> = T extends undefined ? Record<string, never> : T;

/** A handler of an operation: it answers the operation's response, or that response's JSON text (made by itself). */
export type OperationHandler<O extends Operation> = (
  input: Accepted<O>,
  req: Request,
  reply: Reply,
) => Promise<TypesOf<O>['response'] | string>;

/**
 * Serves an operation of the contract at its method and path, with its scope: the pipeline checks the token before
 * the body is read (a public operation, without a scope, takes any or none); then the request is checked against the
 * operation (a problem otherwise: `onIssues` may throw a more particular one) before the handler gets it, typed.
 */
export function serve<O extends Operation>(
  app: Router,
  svc: Service,
  op: O,
  handler: OperationHandler<O>,
  onIssues?: (body: unknown, issues: Issue[]) => void,
): void {
  const opts = {
    scope: scopeOf(op),
    problemContentType: op.problemContentType,
    problemContentStatuses: op.problemContentStatuses,
  };
  app.add(op.method, op.path.replace(/\{(\w+)\}/g, ':$1'), opts, (req, reply) =>
    handler(accept(svc, op, req, onIssues), req, reply),
  );
}

/** The scope a route's token needs: the operation's, any ('') for a token-only one, none for a public one. */
const scopeOf = (op: Operation): string | undefined => op.scope ?? (op.tokenOnly ? '' : undefined);

/** Checks a request to an operation (its token was checked by the pipeline); a problem is thrown otherwise. */
function accept<O extends Operation>(
  svc: Service,
  op: O,
  req: Request,
  onIssues?: (body: unknown, issues: Issue[]) => void,
): Accepted<O> {
  // A public endpoint answers with or without a token; a valid one still names the caller in the journal.
  const scope = scopeOf(op);
  req.principal ??=
    scope !== undefined
      ? svc.auth.authorize(req.headers.authorization, scope).clientId
      : svc.auth.identify(req.headers.authorization)?.clientId;
  const { issues, query } = requestIssues(op, {
    params: req.params,
    query: req.query,
    body: op.body ? req.body : undefined,
  });
  if (issues.length) {
    onIssues?.(req.body, issues);
    throw problems.badRequest(formatIssues(issues), { issues });
  }
  // The parts have just passed their schemas: they are what the operation's types say.
  return {
    query: (query ?? {}) as Accepted<O>['query'],
    body: req.body as Accepted<O>['body'],
    params: req.params as Accepted<O>['params'],
    clientId: req.principal ?? '',
  };
}

export function timeComparison(query: Record<string, unknown>, prefix: string): TimeComparison | undefined {
  let out: TimeComparison | undefined;
  for (const op of ['lt', 'lte', 'eq', 'gte', 'gt'] as const) {
    const v = query[`${prefix}.${op}`];
    if (typeof v === 'string') (out ??= {})[op] = Date.parse(v);
  }
  return out;
}

/**
 * One page of a list: limit+1 rows fetched after the cursor, the extra one only says another page exists. Without
 * limit and order in the query, a list has 100 items, newest first, unless its endpoint says otherwise (`defaults`).
 */
export function listPage<R extends { seq: number }, T>(
  kind: string,
  query: Record<string, unknown>,
  { defaultOrder = 'DESC', ...spec }: Omit<ListQuery, 'order' | 'after' | 'limit'> & { defaultOrder?: ListOrder },
  fetch: (q: ListQuery) => R[],
  toItem: (r: R) => T,
  defaults: { limit: number } = { limit: 100 },
): { items: T[]; next_page_cursor?: string } {
  const limit = (query.limit as number | undefined) ?? defaults.limit;
  const order = (query.order as ListOrder | undefined) ?? defaultOrder;
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
