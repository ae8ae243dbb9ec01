// Requests and responses held to the hosted service's OpenAPI description (spec/upstream-v2.openapi.json) by an
// independent validator, openapi-backend (its router and its Ajv validators), not by the project's own contract
// (src/contract). The local service's tests check every answer with it; the CLI's tests can check what coinop sends.
//
// What counts as a violation:
// - a request: anything openapi-backend's validateRequest reports for the operation the method and path match
//   (path and query parameters, unknown query parameters, the JSON body);
// - a response of a documented status: its schema (openapi-backend's validateResponse) and its content type;
// - an error response of a status the operation does not document (400, 401, 404, 405, 429 ... are documented for
//   few operations): it must still be the hosted service's error, a Problem object (components/schemas/Problem)
//   whose `status` is the HTTP status, as application/problem+json (or application/json, which spec/UPSTREAM.md says
//   some endpoints send);
// - a success of an undocumented status, or on a method and path the description does not have.
// Paths outside /v2 (the token endpoint, the control API) are not described there and are not checked.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { OpenAPIBackend as Backend, Operation } from 'openapi-backend';
import { expect } from 'vitest';

const require = createRequire(import.meta.url);
const { OpenAPIBackend, ValidationContext } = require('openapi-backend') as typeof import('openapi-backend');
const addFormats = require('ajv-formats').default as (ajv: Ajv, formats: string[]) => void;

/** The project's copy of the description (spec/README.md says where it came from). */
export const OPENAPI_FILE = new URL('../../spec/upstream-v2.openapi.json', import.meta.url);
export const OPENAPI = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));
const API_ROOT = '/v2';

// A decimal string, as the description's `format: decimal` fields (notional_value, average_price) are sent.
const DECIMAL = /^[0-9]*\.?[0-9]+$/;

/**
 * OpenAPI 3.0 writes an exclusive bound as a boolean beside the bound (`maximum: 600, exclusiveMaximum: true`); the
 * JSON Schema Ajv reads writes it as the bound itself (`exclusiveMaximum: 600`).
 */
function exclusiveBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(exclusiveBounds);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = exclusiveBounds(v);
  for (const [flag, bound] of [
    ['exclusiveMaximum', 'maximum'],
    ['exclusiveMinimum', 'minimum'],
  ]) {
    if (typeof out[flag] !== 'boolean') continue;
    if (out[flag] && typeof out[bound] === 'number') {
      out[flag] = out[bound];
      delete out[bound];
    } else delete out[flag];
  }
  return out;
}

const api: Backend = new OpenAPIBackend({
  definition: exclusiveBounds(OPENAPI) as any,
  apiRoot: API_ROOT,
  quick: true,
  validate: true,
  coerceTypes: true,
  ajvOpts: { allErrors: true },
  customizeAjv: (ajv) => {
    // openapi-backend checks int32 and int64 itself; date-time, uri and decimal are checked too, not ignored.
    addFormats(ajv, ['date-time', 'uri']);
    ajv.addFormat('decimal', DECIMAL);
    return ajv;
  },
});
await api.init();

let problemValidator: ValidateFunction | undefined;
function problemSchema(): ValidateFunction {
  problemValidator ??= api.validator
    .getAjv(ValidationContext.Response)
    .compile((api.definition as any).components.schemas.Problem);
  return problemValidator;
}

/** The path and query of a URL path with a query string; a repeated key gives an array. */
function split(url: string): { path: string; query: Record<string, string | string[]> } {
  const u = new URL(url, 'http://x');
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of u.searchParams) {
    const had = query[k];
    query[k] = had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  return { path: u.pathname, query };
}

/** The described operation a method and path (with or without /v2, with or without a query) reach, if any. */
export function operationOf(method: string, url: string): Operation | undefined {
  const { path, query } = split(url);
  const full = path.startsWith(API_ROOT) ? path : API_ROOT + path;
  return api.router.matchOperation({ method: method.toLowerCase(), path: full, query, headers: {} }) as
    | Operation
    | undefined;
}

const errorText = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}${paramText(e)}`);

function paramText(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') return ` (${String(p.additionalProperty)})`;
  return '';
}

/** A query parameter's description that says it goes with the time filters alone (ListTransfers' ids, type...). */
const LONE = /can be combined with `?created_at\.\*`? or `?updated_at\.\*`? filtering options only/i;
/** Query parameters that page and order a list: not filters. */
const PAGING = new Set(['limit', 'order', 'order_by', 'page_cursor']);

/**
 * What the description says in prose only: a parameter that "can be combined with created_at.* or updated_at.*
 * filtering options only" given with another filter (paging and order aside).
 */
function loneFilterViolations(op: Operation, query: Record<string, unknown>): string[] {
  const lone = new Set(
    ((op.parameters ?? []) as { in?: string; name?: string; description?: string }[])
      .filter((p) => p.in === 'query' && p.name && LONE.test(p.description ?? ''))
      .map((p) => p.name as string),
  );
  const filters = Object.keys(query).filter((k) => !PAGING.has(k) && !/^(created|updated)_at\./.test(k));
  const alone = filters.find((k) => lone.has(k));
  if (!alone || filters.length < 2) return [];
  const others = filters.filter((k) => k !== alone).join(', ');
  return [`${op.operationId} request: ${alone} goes with created_at.* or updated_at.* only, and came with ${others}`];
}

/** Everything wrong with a request to the hosted service, by its description; [] when it is valid. */
export function requestViolations(method: string, url: string, body?: unknown): string[] {
  const { path, query } = split(url);
  if (!path.startsWith(`${API_ROOT}/`)) return [];
  const op = operationOf(method, url);
  if (!op) return [`${method} ${path} is not an operation of the description`];
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  const r = api.validator.validateRequest({ method: method.toLowerCase(), path, query, headers, body }, op);
  return [...errorText(r.errors).map((e) => `${op.operationId} request: ${e}`), ...loneFilterViolations(op, query)];
}

/** The media type of a Content-Type header value, without parameters. */
const mediaOf = (contentType: string | null | undefined) => (contentType ?? '').split(';')[0].trim().toLowerCase();

/**
 * Everything wrong with a response to a request, by the description; [] when it is valid. `contentType` is the
 * response's Content-Type header (left unchecked when undefined).
 */
export function responseViolations(
  method: string,
  url: string,
  status: number,
  body: unknown,
  contentType?: string | null,
): string[] {
  const { path } = split(url);
  if (!path.startsWith(`${API_ROOT}/`)) return [];
  const op = operationOf(method, url);
  const where = `${method} ${path} ${status}`;
  const documented = (op?.responses as Record<string, { content?: Record<string, unknown> }> | undefined)?.[
    String(status)
  ];
  if (documented) {
    const out = errorText(api.validator.validateResponse(body, op!, status).errors).map((e) => `${where}: ${e}`);
    const types = Object.keys(documented.content ?? {});
    if (contentType !== undefined && types.length && !types.includes(mediaOf(contentType)))
      out.push(`${where}: content type ${contentType} is not the documented ${types.join(' or ')}`);
    return out;
  }
  if (status < 400) return [op ? `${where}: status ${status} is not documented` : `${where}: no such operation`];
  return problemViolations(where, status, body, contentType);
}

function problemViolations(where: string, status: number, body: unknown, contentType?: string | null): string[] {
  const validate = problemSchema();
  const out = validate(body) ? [] : errorText(validate.errors).map((e) => `${where}: Problem ${e}`);
  if (!body || typeof body !== 'object' || (body as { status?: unknown }).status !== status)
    out.push(`${where}: the problem's status is not the HTTP status`);
  const media = mediaOf(contentType);
  if (contentType !== undefined && media !== 'application/problem+json' && media !== 'application/json')
    out.push(`${where}: content type ${contentType} is not application/problem+json`);
  return out;
}

/** Fails the test when a response breaks the description (see responseViolations). */
export function expectValidResponse(
  method: string,
  url: string,
  status: number,
  body: unknown,
  contentType?: string | null,
): void {
  expect(responseViolations(method, url, status, body, contentType), JSON.stringify(body)?.slice(0, 600)).toEqual([]);
}

/** Fails the test when a request breaks the description (see requestViolations). */
export function expectValidRequest(method: string, url: string, body?: unknown): void {
  expect(requestViolations(method, url, body), JSON.stringify(body)?.slice(0, 600)).toEqual([]);
}

/** The answer the description publishes for an operation (openapi-backend's mock: its example, or one made from its schema). */
export function publishedAnswer(operationId: string): { status: number; body: unknown } {
  const { status, mock } = api.mockResponseForOperation(operationId);
  return { status, body: mock };
}

/**
 * What a stub of the hosted service answers GET /_local/health with when the tests reach it as the local context:
 * the local context sends its client secret only to a server that names its instance there, as a coinop local service
 * does (another program on the port gets nothing: test/cli/foreign-local.test.ts).
 */
export const STUB_HEALTH = { status: 'ok', instance_id: 'openapi-stub' } as const;
