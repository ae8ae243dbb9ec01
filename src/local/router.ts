// The local service's HTTP layer on node:http, for its two dozen routes: matching a method and path (`:name` segments
// are parameters), the query string, JSON and form bodies under a size limit, and the reply. Everything around a route
// (the control API's loopback rule, rate limits, faults, the journal, errors as problems) is pipeline.ts's.
// It replaced fastify: the CLI's embedded default starts this service for a single command, and fastify's load and
// set-up were a third of that command's time.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { PROBLEM_CONTENT_TYPE, ProblemError, problems, type Problem } from '../contract/index.js';

/** A request as a route sees it. Parameters, query and body are objects without a prototype. */
export interface Request {
  readonly raw: IncomingMessage;
  readonly method: string;
  /** As sent, with the query string. */
  readonly url: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly socket: Socket;
  /** The matched route's pattern (/v2/transfer/transfers/:id), or the path when none matched. */
  routeUrl: string;
  params: Record<string, string>;
  query: Record<string, string | string[]>;
  body: unknown;
  /** Who made the request (set by the auth check) and why it was refused without a problem: for the journal. */
  principal?: string;
  rejection?: string;
}

/** The status and headers a route sets; the payload is what the route returns. */
export class Reply {
  statusCode = 200;
  readonly headers: Record<string, string> = {};
  code(status: number): this {
    this.statusCode = status;
    return this;
  }
  header(name: string, value: string): this {
    this.headers[name.toLowerCase()] = value;
    return this;
  }
  type(contentType: string): this {
    return this.header('content-type', contentType);
  }
}

export type Handler = (req: Request, reply: Reply) => unknown;

export interface RouteOptions {
  /**
   * The scope a bearer token needs for this route: the pipeline checks the token before it reads the body, so a
   * request without a valid token is a 401 (and one without the scope a 403) whatever its body. The empty string: any
   * valid token (an operation of the OpenAPI's `OAuth2: []`).
   */
  scope?: string;
  /** Largest body this route takes, in bytes, or read from the settings per request (the service's limit otherwise). */
  bodyLimit?: number | (() => number);
  /** The 413's detail for a body over this route's limit. */
  bodyTooLarge?: (limit: number) => string;
  /** The content type of this route's problems, when not application/problem+json (the hosted service's for it). */
  problemContentType?: string;
  /** Only problems of these statuses take problemContentType (the others application/problem+json); all if unset. */
  problemContentStatuses?: readonly number[];
}

/** A body limit and what the 413 says when a body goes past it. */
export interface BodyLimit {
  bytes: number;
  detail: string;
}

interface Route extends RouteOptions {
  method: string;
  pattern: string;
  handler: Handler;
  /** For patterns with parameters: each segment, a parameter's as ':name'. */
  segments?: string[];
}

export interface Match {
  route: Route;
  params: Record<string, string>;
}

export class Router {
  private readonly fixed = new Map<string, Route>();
  private readonly withParams: Route[] = [];

  constructor(private readonly maxParamLength = 2000) {}

  get(pattern: string, handler: Handler): void {
    this.add('GET', pattern, {}, handler);
  }
  post(pattern: string, handler: Handler): void {
    this.add('POST', pattern, {}, handler);
  }
  put(pattern: string, optsOrHandler: RouteOptions | Handler, handler?: Handler): void {
    if (typeof optsOrHandler === 'function') this.add('PUT', pattern, {}, optsOrHandler);
    else this.add('PUT', pattern, optsOrHandler, handler!);
  }

  add(method: string, pattern: string, opts: RouteOptions, handler: Handler): void {
    const route: Route = { method, pattern, handler, ...opts };
    if (!pattern.includes('/:')) {
      if (this.fixed.has(`${method} ${pattern}`)) throw new Error(`route ${method} ${pattern} is defined twice`);
      this.fixed.set(`${method} ${pattern}`, route);
    } else {
      this.withParams.push({ ...route, segments: pattern.split('/') });
    }
  }

  /** The methods some route answers at a path (HEAD wherever GET is), for a 405's Allow header; [] for none. */
  allowed(path: string): string[] {
    const parts = path.split('/');
    const methods = new Set<string>();
    for (const r of this.fixed.values()) if (r.pattern === path) methods.add(r.method);
    for (const r of this.withParams) if (matches(r.segments!, parts)) methods.add(r.method);
    if (methods.has('GET')) methods.add('HEAD');
    return ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'].filter((m) => methods.has(m));
  }

  /** The route for a method and path (HEAD finds GET's), or undefined. A bad parameter is a problem. */
  find(method: string, path: string): Match | undefined {
    const m = method === 'HEAD' ? 'GET' : method;
    const route = this.fixed.get(`${m} ${path}`);
    if (route) return { route, params: Object.create(null) };
    let parts: string[] | undefined;
    for (const r of this.withParams) {
      if (r.method !== m) continue;
      parts ??= path.split('/');
      const segs = r.segments!;
      if (!matches(segs, parts)) continue;
      const params: Record<string, string> = Object.create(null);
      for (let i = 0; i < segs.length; i++) {
        if (!segs[i].startsWith(':')) continue;
        if (parts[i].length > this.maxParamLength) {
          throw new ProblemError({
            type: 'about:blank',
            title: 'URI Too Long',
            status: 414,
            detail: `a path segment is longer than ${this.maxParamLength} characters`,
          });
        }
        try {
          params[segs[i].slice(1)] = decodeURIComponent(parts[i]);
        } catch (e) {
          throw problems.badRequest(`the URL is not valid: ${(e as Error).message}`);
        }
      }
      return { route: r, params };
    }
    return undefined;
  }
}

/** Whether a path's segments fit a pattern's (a parameter takes any non-empty segment). */
function matches(segs: string[], parts: string[]): boolean {
  if (segs.length !== parts.length) return false;
  for (let i = 0; i < segs.length; i++) {
    if (segs[i].startsWith(':') ? parts[i].length === 0 : segs[i] !== parts[i]) return false;
  }
  return true;
}

/** The query string as an object: a repeated key gives an array, `+` is a space. */
export function parseQuery(search: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  if (!search) return out;
  for (const [k, v] of new URLSearchParams(search)) {
    const had = out[k];
    if (had === undefined) out[k] = v;
    else if (Array.isArray(had)) had.push(v);
    else out[k] = [had, v];
  }
  return out;
}

/** True when the request says it has a body (a length above zero, or chunked). */
export function hasBody(req: IncomingMessage): boolean {
  return (
    req.headers['transfer-encoding'] !== undefined ||
    (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0')
  );
}

/**
 * Reads the body up to the limit; past it, reading stops and the answer is a 413. The rest is never read: the
 * service closes a connection whose body it did not read to the end (pipeline.ts).
 */
function readRaw(req: IncomingMessage, { bytes: limit, detail }: BodyLimit): Promise<Buffer> {
  const tooLarge = () => problems.payloadTooLarge(detail);
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.pause();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Whether a parsed JSON value has a `__proto__` key or a `constructor.prototype`: refused, as fastify did. */
function hasPrototypeKey(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length) {
    const v = stack.pop();
    if (!v || typeof v !== 'object') continue;
    if (!Array.isArray(v)) {
      if (Object.hasOwn(v, '__proto__')) return true;
      const c = (v as Record<string, unknown>).constructor;
      if (Object.hasOwn(v, 'constructor') && c && typeof c === 'object' && Object.hasOwn(c, 'prototype')) return true;
    }
    for (const k in v) stack.push((v as Record<string, unknown>)[k]);
  }
  return false;
}

/**
 * The body, parsed by its content type: JSON anywhere, form-encoded where `form` allows it. No body is undefined (with
 * `emptyIsNone`, also an empty one with a content type); a body without a content type, or of any other type, is a 415.
 */
export async function readBody(
  req: IncomingMessage,
  limit: BodyLimit,
  opts: { form: boolean; emptyIsNone?: boolean },
): Promise<unknown> {
  const { form } = opts;
  const contentType = req.headers['content-type'];
  if ((contentType === undefined || opts.emptyIsNone) && !hasBody(req)) return undefined;
  const media = (contentType ?? '').split(';')[0].trim().toLowerCase();
  const isJson = media === 'application/json';
  const isForm = media === 'application/x-www-form-urlencoded';
  if (!isJson && !isForm) {
    throw problems.unsupportedMediaType(
      `content type ${contentType || '(none)'} is not supported; send application/json`,
    );
  }
  if (isForm && !form) {
    throw problems.unsupportedMediaType(
      'content type application/x-www-form-urlencoded is not supported here; send application/json',
    );
  }
  let text = (await readRaw(req, limit)).toString('utf8');
  if (isForm) return Object.fromEntries(new URLSearchParams(text));
  if (opts.emptyIsNone && text === '') return undefined;
  // A byte order mark is no part of the JSON text (RFC 8259 lets a parser ignore it).
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') throw problems.badRequest('the body is empty; send a JSON object');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw problems.badRequest(`the body is not valid JSON: ${(e as Error).message}`);
  }
  if (hasPrototypeKey(value))
    throw problems.badRequest('the body is not valid JSON: it has a __proto__ or constructor.prototype key');
  return value;
}

/** Writes the reply: a string payload as it is, anything else as JSON; HEAD gets the headers only. */
export function send(res: ServerResponse, method: string, reply: Reply, payload: unknown): void {
  const body = typeof payload === 'string' ? payload : payload === undefined ? '' : JSON.stringify(payload);
  const headers = reply.headers;
  headers['content-type'] ??= 'application/json; charset=utf-8';
  headers['content-length'] = String(Buffer.byteLength(body));
  res.writeHead(reply.statusCode, headers);
  res.end(method === 'HEAD' ? undefined : body);
}

/** Writes a problem, keeping headers the reply already has (retry-after, www-authenticate). */
export function sendProblem(
  res: ServerResponse,
  method: string,
  reply: Reply,
  problem: Problem,
  contentType = PROBLEM_CONTENT_TYPE,
): void {
  reply.code(problem.status).type(contentType);
  send(res, method, reply, problem);
}
