// The API client, built from the contract's operation table: every request is checked with requestIssues before
// it is sent (bad input never reaches the network), answers are read leniently, lists page lazily.
import {
  buildPath, coerceQuery, dec, formatIssue, isAmountString, operations, requestIssues, toProblem,
  type Issue, type Operation, type OperationId, type Problem,
} from '../api/index.js';
import { CliError, problemError } from '../cli/errors.js';
import type { TokenManager } from './tokens.js';
import type { HttpResponse, Transport } from './transport.js';

export interface CallParts {
  params?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
}

export interface CallResult<T> {
  data: T;
  status: number;
  /** A 409 already-exists whose existing resource matches this request: the earlier submission is the result. */
  alreadySubmitted: boolean;
}

/** How the fields of a request are called on the command line, so an issue names the flag the operator typed. */
export type FlagNames = Record<string, string>;

export function issueMessage(issues: Issue[], flags: FlagNames = {}): string {
  return issues
    .map((i) => {
      const top = i.field.split('.')[0];
      // A list entry ("networks.0") is named by its flag alone: the flag may have been given once or many times.
      const rest = i.field.slice(top.length).replace(/^\.\d+$/, '');
      const flag = flags[i.field] ?? (flags[top] ? flags[top] + rest : undefined);
      return formatIssue({ ...i, field: flag ?? i.field });
    })
    .join('; ');
}

/** Checks a request against the contract; a usage error (exit 2) names each bad field. Returns the coerced query. */
export function checkRequest(op: Operation, parts: CallParts, flags?: FlagNames): Record<string, unknown> | undefined {
  const { issues, query } = requestIssues(op, parts);
  if (issues.length) throw new CliError('usage', issueMessage(issues, flags));
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

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly transport: Transport,
    private readonly tokens: TokenManager,
  ) {}

  /** Calls an operation of the contract. Validation happens first; nothing is sent when it fails. */
  async call<T = Record<string, unknown>>(id: OperationId, parts: CallParts = {}, flags?: FlagNames, checked = false): Promise<CallResult<T>> {
    const op: Operation = operations[id];
    // `checked`: the caller validated the same request already (later pages differ only by the service's cursor).
    const query = checked && op.query ? coerceQuery(op.query, parts.query ?? {}).value : checkRequest(op, parts, flags);
    const body = parts.body as Record<string, unknown> | undefined;
    const url = this.baseUrl + buildPath(op, parts.params) + queryString(query);
    // A write is resent only when it carries a ref_id: the service then answers a repeat with 409 already-exists.
    const retry = op.method === 'GET' || (!!op.write && typeof body?.ref_id === 'string');
    const res = await this.request(op.method, url, body, retry);
    if (res.status === 409 && op.write && body) {
      const existing = existingMatch(res, body);
      if (existing) return { data: existing as T, status: res.status, alreadySubmitted: true };
    }
    if (res.status < 200 || res.status >= 300) throw problemError(problemOf(res));
    return { data: (res.json ?? {}) as T, status: res.status, alreadySubmitted: false };
  }

  /** Every page of a list operation, fetched one at a time as the consumer asks (constant memory). */
  async *pages<T = Record<string, unknown>>(id: OperationId, parts: CallParts = {}, flags?: FlagNames, all = true): AsyncGenerator<T[]> {
    let cursor: string | undefined;
    const seen = new Set<string>();
    for (;;) {
      const query = { ...(parts.query ?? {}), ...(cursor ? { page_cursor: cursor } : {}) };
      // The first page is checked like any request; a cursor is the service's own, so later pages are not re-checked.
      const { data } = await this.call<{ items?: T[]; next_page_cursor?: string }>(id, { ...parts, query }, flags, !!cursor);
      yield data.items ?? [];
      cursor = data.next_page_cursor || undefined;
      // A cursor seen before would loop forever; a well-behaved service never sends one.
      if (!all || !cursor || seen.has(cursor)) return;
      seen.add(cursor);
    }
  }

  async *items<T = Record<string, unknown>>(id: OperationId, parts: CallParts = {}, flags?: FlagNames, all = true): AsyncGenerator<T> {
    for await (const page of this.pages<T>(id, parts, flags, all)) yield* page;
  }

  /** A raw authenticated request (coinop api): no contract check, the answer as it came. */
  async raw(method: string, path: string, body: unknown, query?: Record<string, unknown>): Promise<HttpResponse> {
    const url = (/^https?:\/\//.test(path) ? path : this.baseUrl + (path.startsWith('/') ? path : `/${path}`)) + queryString(query);
    const hasRef = !!body && typeof (body as { ref_id?: unknown }).ref_id === 'string';
    return this.request(method.toUpperCase(), url, body, method.toUpperCase() === 'GET' || hasRef);
  }

  private async request(method: string, url: string, body: unknown, retry: boolean): Promise<HttpResponse> {
    const send = async (token: string) =>
      this.transport.send({
        method,
        url,
        retry,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
    const first = await send((await this.tokens.token()).accessToken);
    // One refresh and one retry on 401: the cached token may have been revoked or the server restarted.
    if (first.status === 401 && this.tokens.canRefresh) return send((await this.tokens.refresh()).accessToken);
    return first;
  }
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
  for (const k of ['profile_id', 'asset', 'crypto_network', 'destination_address', 'amount', 'total', 'identity_id', 'account_id']) {
    const want = body[k];
    if (want === undefined || e[k] === undefined) continue;
    if (k === 'amount' || k === 'total') {
      if (!isAmountString(want) || !isAmountString(e[k]) || !dec(want).eq(dec(e[k] as string))) return undefined;
    } else if (want !== e[k]) return undefined;
  }
  return e;
}
