// The API client, built from the contract's operation table: every request is checked with requestIssues before
// it is sent (bad input never reaches the network), answers are read leniently, lists page lazily.
import { dec, isAmountString } from '../contract/money.js';
import {
  buildPath,
  operations,
  requestIssues,
  type BodyOf,
  type ItemOf,
  type Operation,
  type OperationId,
  type PagedOperationId,
  type ParamsOf,
  type QueryOf,
  type ResponseOf,
} from '../contract/operations.js';
import { toProblem } from '../contract/problems.js';
import type { Loose, Problem } from '../contract/schemas.js';
import { coerceQuery, formatIssue, type CatalogueIssue, type Issue } from '../contract/validate.js';
import { CoinopError, problemError } from '../errors.js';
import { type CataloguePolicy, sortUnlisted } from './catalogue-policy.js';
import type { TokenManager } from './tokens.js';
import { answerText, shownUrl, type HttpResponse, type Transport } from './transport.js';

/**
 * A request to operation K as its caller gives it, typed by the contract (OperationTypes): the client checks it
 * before anything is sent and names each bad field, so a part may still be as the operator typed it. A path parameter
 * is any string; a query field may be its query-string text (coerced as the service would); a body is Loose (every
 * field optional, every enumeration any string). Field names are the contract's.
 */
export interface CallParts<K extends OperationId> {
  params?: { [P in keyof ParamsOf<K>]: string };
  query?: { [P in keyof QueryOf<K>]?: QueryOf<K>[P] | string };
  body?: Loose<BodyOf<K>>;
}

/** A request to an operation chosen at run time (the gate's, the policy's), with its parts as the caller holds them. */
export interface AnyParts {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
}

export interface CallResult<T> {
  data: T;
  status: number;
  /** A 409 already-exists whose existing resource matches this request: the earlier submission is the result. */
  alreadySubmitted: boolean;
  /**
   * With alreadySubmitted: the 409 answered a retry of this call after an earlier attempt may have reached the
   * service (its answer was lost), so the existing resource is most likely this call's own, not an older one.
   */
  submittedByThisCall: boolean;
  /** The answer's Date header: the service's clock (to the second), when it sent one. */
  date?: string;
}

/** Where a list's next page starts, once its last page read has come (unset: no next page). */
export interface Paging {
  next?: string;
}

/** How the fields of a request are called on the command line, so an issue names the flag the operator typed. */
export type FlagNames = Record<string, string>;

/** A field of a request as the operator knows it: its flag, else the field. */
export function fieldName(field: string, flags: FlagNames = {}): string {
  const top = field.split('.')[0];
  // A list entry ("networks.0") is named by its flag alone: the flag may have been given once or many times.
  const rest = field.slice(top.length).replace(/^\.\d+$/, '');
  return flags[field] ?? (flags[top] ? flags[top] + rest : field);
}

export function issueMessage(issues: Issue[], flags: FlagNames = {}): string {
  return issues.map((i) => formatIssue({ ...i, field: fieldName(i.field, flags) })).join('; ');
}

/**
 * Names outside the catalogue given apart from a request (an option's value, checked before anything is asked or
 * sent): refused, or said in a note, as `catalogue` has it.
 */
export function checkUnlisted(catalogue: CataloguePolicy, unlisted: CatalogueIssue[], flags?: FlagNames): void {
  const refused = sortUnlisted(catalogue, unlisted, (f) => fieldName(f, flags));
  if (refused.length) throw new CoinopError('usage', issueMessage(refused, flags));
}

/**
 * Checks a request against the contract, and against the catalogue as `catalogue` has it (refused, or said in a note);
 * a usage error (exit 2) names each bad field. Returns the coerced query.
 */
export function checkRequest(
  op: Operation,
  parts: AnyParts,
  flags: FlagNames | undefined,
  catalogue: CataloguePolicy,
): Record<string, unknown> | undefined {
  const { issues, query, unlisted } = requestIssues(op, parts, 'apart');
  issues.push(...sortUnlisted(catalogue, unlisted, (f) => fieldName(f, flags)));
  if (issues.length) throw new CoinopError('usage', issueMessage(issues, flags));
  return query;
}

export function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    // Arrays are repeated keys (OpenAPI form style, explode: true), as the hosted service expects.
    if (Array.isArray(v)) for (const x of v) qs.append(k, String(x));
    else qs.append(k, String(v));
  }
  const s = qs.toString();
  return s ? `?${s}` : '';
}

export class ServiceClient {
  /**
   * The requests that may change something (every method but GET and HEAD) this client has started, as "POST /path",
   * each once (a batch's thousands of withdrawals are one): what an interrupted command without a note of its own says
   * it may have done.
   */
  readonly changes = new Set<string>();
  /** The method and URL of the last change recorded (its method and path are in `changes`). */
  private lastChange?: string;

  constructor(
    readonly baseUrl: string,
    private readonly transport: Transport,
    private readonly tokens: TokenManager,
    /** How the catalogue's rules count for this service: refused (the local service) or noted. */
    readonly catalogue: CataloguePolicy,
  ) {}

  /**
   * Calls an operation of the contract: its request and answer typed by the contract. Validation happens first;
   * nothing is sent when it fails. `checked`: the caller validated the same request already (later pages differ
   * only by the service's cursor; a batch row's body was validated when its file was read, and is sent unchanged).
   */
  call<K extends OperationId>(
    id: K,
    parts: CallParts<K> = {},
    flags?: FlagNames,
    checked = false,
  ): Promise<CallResult<ResponseOf<K>>> {
    return this.send(id, parts as AnyParts, flags, checked) as Promise<CallResult<ResponseOf<K>>>;
  }

  /**
   * Calls an operation chosen at run time (the gate's writes, the policy's list reads): checked as call() checks it, its
   * answer an object of whichever operation it was.
   */
  callAny(id: OperationId, parts: AnyParts = {}, flags?: FlagNames): Promise<CallResult<Record<string, unknown>>> {
    return this.send(id, parts, flags, false) as Promise<CallResult<Record<string, unknown>>>;
  }

  private async send(
    id: OperationId,
    parts: AnyParts,
    flags: FlagNames | undefined,
    checked: boolean,
  ): Promise<CallResult<unknown>> {
    const op: Operation = operations[id];
    // Checked already: only the query is coerced (a later page's cursor), nothing validated again (a batch's rows,
    // each validated once when the file was read and sent as the journal confirmed it).
    const query = checked
      ? op.query && coerceQuery(op.query, parts.query ?? {}).value
      : checkRequest(op, parts, flags, this.catalogue);
    const body = parts.body as { ref_id?: unknown } | undefined;
    const url = this.baseUrl + buildPath(op, parts.params) + queryString(query);
    // A write is resent only when it carries a ref_id (the service then answers a repeat with 409 already-exists) or
    // when doing it twice is doing it once (a PUT).
    const retry = op.method === 'GET' || !!op.idempotent || (!!op.write && typeof body?.ref_id === 'string');
    // A public operation (market data) goes without a token: it works without credentials, and asks for none.
    const res = await this.request(op.method, url, body, retry, body !== undefined, !!op.scope || !!op.tokenOnly);
    const date = typeof res.headers.date === 'string' ? res.headers.date : undefined;
    if (res.status === 409 && op.write && body) {
      const existing = existingMatch(res, body);
      if (existing)
        return {
          data: existing,
          status: res.status,
          alreadySubmitted: true,
          submittedByThisCall: res.earlierAttemptMayHaveReached,
          date,
        };
    }
    if (res.status < 200 || res.status >= 300) {
      if (noSuchEndpoint(res)) throw notTheApi(op, url, res);
      const retryAfter = res.headers['retry-after'];
      throw problemError(problemOf(res), typeof retryAfter === 'string' ? retryAfter : undefined);
    }
    return {
      data: res.json ?? {},
      status: res.status,
      alreadySubmitted: false,
      submittedByThisCall: false,
      date,
    };
  }

  /**
   * Every page of a list operation (or the first only, without `all`), fetched one at a time as the consumer asks
   * (constant memory). `paging.next` is the last page's next_page_cursor: where a next page would start.
   */
  async *pages<K extends PagedOperationId>(
    id: K,
    parts: CallParts<K> = {},
    flags?: FlagNames,
    all = true,
    paging: Paging = {},
  ): AsyncGenerator<ItemOf<K>[]> {
    let cursor: string | undefined;
    const seen = new Set<string>();
    const key = (operations[id] as Operation).itemsKey ?? 'items';
    for (;;) {
      const query = { ...(parts.query ?? {}), ...(cursor ? { page_cursor: cursor } : {}) };
      // The first page is checked like any request; a cursor is the service's own, so later pages are not re-checked.
      const { data } = await this.send(id, { ...(parts as AnyParts), query }, flags, !!cursor);
      const page = data as { [key: string]: unknown; next_page_cursor?: string };
      const items = page[key];
      paging.next = page.next_page_cursor || undefined;
      yield Array.isArray(items) ? (items as ItemOf<K>[]) : [];
      cursor = paging.next;
      // A cursor seen before would loop forever; a well-behaved service never sends one.
      if (!all || !cursor || seen.has(cursor)) return;
      seen.add(cursor);
    }
  }

  async *items<K extends PagedOperationId>(
    id: K,
    parts: CallParts<K> = {},
    flags?: FlagNames,
    all = true,
    paging?: Paging,
  ): AsyncGenerator<ItemOf<K>> {
    for await (const page of this.pages(id, parts, flags, all, paging)) yield* page;
  }

  /** A raw authenticated request (coinop api): no contract check, the answer as it came. */
  async raw(method: string, path: string, body: unknown, query?: Record<string, unknown>): Promise<HttpResponse> {
    const url =
      (/^https?:\/\//.test(path) ? path : this.baseUrl + (path.startsWith('/') ? path : `/${path}`)) +
      queryString(query);
    const hasRef = !!body && typeof (body as { ref_id?: unknown }).ref_id === 'string';
    const m = method.toUpperCase();
    // The local service's control API takes writes as JSON only, bodiless ones (POST /_local/reset) too.
    const json = body !== undefined || (m !== 'GET' && m !== 'HEAD' && /^\/_local(\/|$)/.test(new URL(url).pathname));
    return this.request(m, url, body, m === 'GET' || hasRef, json);
  }

  /**
   * A request to the local service's control API (/_local/...): JSON, without a token (it takes none), resent only when
   * it is a read. A problem answer is thrown as its error.
   */
  async control<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.request(method, this.baseUrl + path, body, method === 'GET', method !== 'GET', false);
    if (res.status < 200 || res.status >= 300) throw problemError(problemOf(res));
    return (res.json ?? {}) as T;
  }

  private async request(
    method: string,
    url: string,
    body: unknown,
    retry: boolean,
    json = body !== undefined,
    authenticated = true,
  ): Promise<HttpResponse> {
    if (method !== 'GET' && method !== 'HEAD' && `${method} ${url}` !== this.lastChange) {
      // A batch's thousands of requests go to one URL: its path is worked out once.
      this.lastChange = `${method} ${url}`;
      this.changes.add(`${method} ${new URL(url).pathname}`);
    }
    // Serialised once, whatever the attempts (a 401's retry sends the same text).
    const text = body !== undefined ? JSON.stringify(body) : undefined;
    const send = (token: string | undefined) => {
      const headers: Record<string, string> = {};
      if (token !== undefined) headers.authorization = `Bearer ${token}`;
      if (json) headers['content-type'] = 'application/json';
      return this.transport.send({ method, url, retry, headers, body: text });
    };
    if (!authenticated) return send(undefined);
    const first = await send((await this.tokens.token()).accessToken);
    // One refresh and one retry on 401: the cached token may have been revoked or the server restarted.
    if (first.status === 401 && this.tokens.canRefresh) return send((await this.tokens.refresh()).accessToken);
    return first;
  }
}

/**
 * The answer says the address has no such endpoint, rather than that the service refused the request: a 404 or 405
 * that is not JSON (a web server's page). The service's own 404s (an unknown transfer, fee or profile) are problems.
 */
function noSuchEndpoint(res: HttpResponse): boolean {
  return (res.status === 404 || res.status === 405) && res.json === undefined;
}

function notTheApi(op: Operation, url: string, res: HttpResponse): CoinopError {
  return new CoinopError(
    'network',
    `${op.method} ${shownUrl(url)} answered ${answerText(res)}: no ${op.path} endpoint at this API address`,
    {
      hint: "check the API address (COINOP_BASE_URL, or the context's: coinop auth status); the hosted one is https://api.paxos.com/v2",
    },
  );
}

export function problemOf(res: HttpResponse): Problem {
  return toProblem(res.status, res.json ?? res.text, res.statusText);
}

/** The existing resource of a 409 when it is the same request (same ref_id and the same money fields). */
function existingMatch(res: HttpResponse, body: Record<string, unknown>): Record<string, unknown> | undefined {
  const p = problemOf(res);
  const existing = (p.meta as { existing?: unknown } | undefined)?.existing;
  if (!existing || typeof existing !== 'object') return undefined;
  const e = existing as Record<string, unknown>;
  if (e.ref_id !== undefined && e.ref_id !== body.ref_id) return undefined;
  for (const k of [
    'profile_id',
    'asset',
    'crypto_network',
    'destination_address',
    'amount',
    'total',
    'identity_id',
    'account_id',
    'source_asset',
    'target_asset',
  ]) {
    // An internal transfer's existing side is the sender's: its profile_id is the request's from_profile_id.
    const want = k === 'profile_id' ? (body.profile_id ?? body.from_profile_id) : body[k];
    if (want === undefined || e[k] === undefined) continue;
    if (k === 'amount' || k === 'total') {
      if (!isAmountString(want) || !isAmountString(e[k]) || !dec(want).eq(dec(e[k] as string))) return undefined;
    } else if (want !== e[k]) return undefined;
  }
  return e;
}
