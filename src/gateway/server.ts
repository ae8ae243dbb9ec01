// coinop gateway's HTTP server: the same v2 API, token endpoint and market-data stream as the service it holds the
// credentials of, for operators with tokens of their own. What stands before every request: no cross-site request
// (a browser's Origin or Sec-Fetch-Site), a body of at most 1 MiB, an operator's token (short-lived, signed by the
// store's key, the operator still enabled: read from the store for anything but a read, within OPERATOR_CACHE_MS for
// a read), the operator's rate limit, and their role's scopes. Money-moving requests go to the money desk (the gate,
// held for approvals); reads the contract knows are forwarded to the upstream with the gateway's own token, over
// connections kept open; anything else is refused. The upstream secret never leaves the gateway.
import {
  Agent as HttpAgent,
  createServer as createHttpServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  request as httpRequest,
  type Server,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent, createServer as createHttpsServer, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { AuditResult } from '../audit/entry.js';
import {
  coerceQuery,
  formatIssues,
  type Issue,
  type Operation,
  operations,
  type OperationId,
  schemaIssues,
} from '../contract/index.js';
import {
  type GatewayInput,
  type GatewayOperation,
  type GatewayOperationId,
  gatewayOperationAt,
} from '../contract/gateway.js';
import { apiRoot } from '../config/environments.js';
import { climbsAboveRoot, moneyOperationAt, operationAt, unjudgedMoneyAt } from '../gate/money.js';
import {
  APPROVAL_TTL_MS,
  type DeskAnswer,
  gatewayProblem,
  MoneyDesk,
  type MoneyDeskOptions,
  roleWords,
  type Upstream,
} from './money-desk.js';
import { ROLE_SCOPES, secretMatches, signToken, TOKEN_TTL_SECONDS, verifyToken } from './operators.js';
import { POLICY_CHANGE, PolicyChanges } from './held-policy-changes.js';
import { policyInForce, setPolicy } from './policy-route.js';
import { OperatorRateLimit, TOKEN_FAILURES_PER_MINUTE, TokenGuessLimit } from './operator-rate-limit.js';
import { RequestAudit } from './request-audit.js';
import type { GatewayStore, Operator } from './store.js';
import { attachStreamProxy } from './stream-proxy.js';

/** The upstream as the server forwards to it: the desk's view, and a bearer token of the gateway's own. */
export interface GatewayUpstream extends Upstream {
  /** The gateway's upstream access token (cached and refreshed by the caller's token manager). */
  bearer(fresh?: boolean): Promise<string>;
  wsUrl: string;
}

export interface GatewayOptions {
  store: GatewayStore;
  upstream: GatewayUpstream;
  host?: string;
  port?: number;
  tls?: { cert: Buffer; key: Buffer };
  now?: () => number;
  /** Requests per second each operator may make (a burst of twice as many). */
  ratePerSecond?: number;
  approvalTtlMs?: number;
  /** Failed token requests a minute per client id and per remote address (TOKEN_FAILURES_PER_MINUTE). */
  tokenFailuresPerMinute?: { client: number; address: number };
  /** The money desk's lease on the held requests it sends, and the tests' hooks (MoneyDeskOptions). */
  desk?: Pick<MoneyDeskOptions, 'batchLeaseMs' | 'afterBatchRowSent' | 'afterHeldSent'>;
}

export interface RunningGateway {
  url: string;
  wsUrl: string;
  server: Server;
  desk: MoneyDesk;
  close(): Promise<void>;
}

const MAX_BODY = 1 << 20;

/**
 * How long an instance answers for an operator as it last read them from the store (their role, whether they are
 * disabled): an operator disabled, or given another role, is refused by every instance within this time.
 */
export const OPERATOR_CACHE_MS = 1_000;

/** Starts the gateway's server; it answers until close(). */
export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  const now = options.now ?? Date.now;
  const desk = new MoneyDesk(options.store, options.upstream, {
    now,
    approvalTtlMs: options.approvalTtlMs,
    ...options.desk,
  });
  const limits = new OperatorRateLimit(options.ratePerSecond ?? 50, now);
  const key = await options.store.tokenKey();
  const gatewayId = await options.store.gatewayId();
  const changes = new PolicyChanges(options.store, { now, ttlMs: options.approvalTtlMs ?? APPROVAL_TTL_MS });
  // Reads go upstream over connections kept open (one handshake, not one per request).
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
  const guesses = new TokenGuessLimit(options.tokenFailuresPerMinute ?? TOKEN_FAILURES_PER_MINUTE, now);
  const ctx: Handling = {
    o: options,
    desk,
    changes,
    limits,
    guesses,
    key,
    now,
    gatewayId,
    agents,
    operators: new Map(),
    requests: new RequestAudit(options.store),
  };
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    handle(ctx, req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, gatewayProblem(500, 'internal', 'Internal Server Error', String(error)));
      else res.destroy();
    });
  };
  const server = options.tls
    ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, handler)
    : createHttpServer(handler);
  attachStreamProxy(server, {
    upstreamWsUrl: options.upstream.wsUrl,
    authenticate: (token) => operatorOf(ctx, token),
    bearer: () => options.upstream.bearer(),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = (options.host ?? '127.0.0.1').includes(':') ? `[${options.host}]` : (options.host ?? '127.0.0.1');
  const url = `${options.tls ? 'https' : 'http'}://${host}:${port}`;
  return {
    url,
    wsUrl: `${options.tls ? 'wss' : 'ws'}://${host}:${port}/ws`,
    server,
    desk,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        // The reads' entries still queued are appended before the gateway is stopped.
        server.close(() => void ctx.requests.flush().then(resolve, resolve));
        agents.http.destroy();
        agents.https.destroy();
      }),
  };
}

interface Handling {
  o: GatewayOptions;
  desk: MoneyDesk;
  /** Policy changes held for approvals (the same inbox as held money). */
  changes: PolicyChanges;
  limits: OperatorRateLimit;
  /** The token endpoint's limit on failed attempts per client id and remote address. */
  guesses: TokenGuessLimit;
  key: Buffer;
  now: () => number;
  /** The store's id: the identity every instance on it answers with. */
  gatewayId: string;
  agents: { http: HttpAgent; https: HttpsAgent };
  /** Operators as last read from the store, and when (OPERATOR_CACHE_MS); undefined: no such operator. */
  operators: Map<string, { op: Operator | undefined; at: number }>;
  /** Every request's entry in the chain (request-audit.ts). */
  requests: RequestAudit;
}

function send(res: ServerResponse, answer: DeskAnswer, headers: Record<string, string> = {}): void {
  const problem = answer.status >= 400 && typeof answer.body.title === 'string';
  const body = JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    'content-type': problem ? 'application/problem+json' : 'application/json',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    ...answer.headers,
    ...headers,
  });
  res.end(body);
}

/** A browser's request from another site (or a page on this one): refused, so no web page can drive the gateway. */
function crossSite(req: IncomingMessage): boolean {
  const site = req.headers['sec-fetch-site'];
  return req.headers.origin !== undefined || (typeof site === 'string' && site !== 'none');
}

/** The body, at most MAX_BODY bytes; undefined when it is larger (the request is answered 413). */
async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY) return undefined;
  // No body declared, none sent in chunks: nothing to wait for.
  if (!declared && req.headers['transfer-encoding'] === undefined) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The path of a request as its entry names it (no query: nothing an operator sent beyond where it went). */
const pathOf = (req: IncomingMessage): string => new URL(req.url ?? '/', 'http://gateway.invalid').pathname;

/**
 * A refusal at the door (or a token issued): its entry in the chain (the operator, or 'unauthenticated' with the client id and remote
 * address known), appended before it is answered.
 */
async function refuse(
  ctx: Handling,
  req: IncomingMessage,
  res: ServerResponse,
  answer: DeskAnswer,
  who: { op?: Operator; clientId?: string; operation?: string } = {},
): Promise<void> {
  await ctx.requests.record({
    who: who.op ? ctx.desk.who(who.op) : ctx.desk.whoOf('unauthenticated', who.clientId),
    method: (req.method ?? 'GET').toUpperCase(),
    operation: who.operation,
    path: pathOf(req),
    status: answer.status,
    result: answer.status < 400 ? 'answered' : 'refused',
    ...(who.op ? {} : { address: req.socket.remoteAddress }),
  });
  send(res, answer);
}

async function handle(ctx: Handling, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (crossSite(req))
    return refuse(ctx, req, res, gatewayProblem(403, 'cross-site', 'Forbidden', 'cross-site requests are refused'));
  const body = await readBody(req);
  if (!body)
    return refuse(
      ctx,
      req,
      res,
      gatewayProblem(413, 'too-large', 'Payload Too Large', `a body is at most ${MAX_BODY} bytes`),
    );
  const url = new URL(req.url ?? '/', 'http://gateway.invalid');
  const method = (req.method ?? 'GET').toUpperCase();
  if (url.pathname === '/oauth2/token' && method === 'POST') {
    // Its entry names the client id asked for, never the secret.
    const { answer, clientId, op } = await issueToken(ctx, req, body);
    return refuse(ctx, req, res, answer, { clientId, op });
  }
  if (url.pathname === '/_gateway/health') return send(res, { status: 200, body: health(ctx) });
  // A request that could move money or change the gateway's state reads its operator from the store; a read may be
  // answered for the operator as this instance read them in the last OPERATOR_CACHE_MS.
  const op = await operatorOf(ctx, bearerOf(req), method !== 'GET' && method !== 'HEAD');
  if (!op)
    return refuse(ctx, req, res, gatewayProblem(401, 'unauthorized', 'Unauthorized', 'an operator token is required'));
  const wait = ctx.limits.take(op.name);
  if (wait > 0) {
    const over = gatewayProblem(429, 'rate-limit', 'Too Many Requests', `${op.name} is over their rate limit`);
    return refuse(ctx, req, res, { ...over, headers: { 'retry-after': String(Math.ceil(wait / 1000)) } }, { op });
  }
  if (url.pathname.startsWith('/_gateway/')) return ownRoute(ctx, op, { res, method, url, body });
  return apiRoute(ctx, op, { req, res, method, url, body });
}

/**
 * The gateway's own API (approvals, audit, policy, batches): answered, and in the chain like every request: a read's
 * entry in the background, a write's before it is answered (its decisions have entries of their own besides).
 */
async function ownRoute(
  ctx: Handling,
  op: Operator,
  call: { res: ServerResponse; method: string; url: URL; body: Buffer },
): Promise<void> {
  const answer = await gatewayRoute(ctx, op, call.method, call.url, call.body);
  const note = {
    who: ctx.desk.who(op),
    method: call.method,
    path: call.url.pathname,
    status: answer.status,
    result: answer.status < 400 ? ('answered' as const) : ('refused' as const),
  };
  if (call.method === 'GET' || call.method === 'HEAD') ctx.requests.later(note);
  else await ctx.requests.record(note);
  send(call.res, answer);
}

function health(ctx: Handling): Record<string, unknown> {
  return {
    gateway: 'coinop',
    instance_id: ctx.gatewayId,
    upstream: { environment: ctx.o.upstream.context.environment, context: ctx.o.upstream.context.name },
    store: ctx.o.store.sql.dialect,
  };
}

function bearerOf(req: IncomingMessage): string | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return m?.[1];
}

/** The enabled operator a token names, or undefined; `fresh`: as the store has them now, not as last read. */
async function operatorOf(ctx: Handling, token: string | undefined, fresh = false): Promise<Operator | undefined> {
  if (!token) return undefined;
  const t = ctx.now();
  const claims = verifyToken(ctx.key, token, t);
  if (!claims) return undefined;
  const known = ctx.operators.get(claims.sub);
  let op = known?.op;
  if (fresh || !known || t - known.at >= OPERATOR_CACHE_MS || t < known.at) {
    op = await ctx.o.store.operator(claims.sub);
    ctx.operators.set(claims.sub, { op, at: t });
  }
  return op && !op.disabled && op.role === claims.role ? op : undefined;
}

/** POST /oauth2/token: client credentials of an operator (form or JSON; or HTTP Basic) for a short-lived token. */
async function issueToken(
  ctx: Handling,
  req: IncomingMessage,
  body: Buffer,
): Promise<{ answer: DeskAnswer; clientId?: string; op?: Operator }> {
  const text = body.toString('utf8');
  const form: Record<string, string> = (req.headers['content-type'] ?? '').includes('json')
    ? Object.fromEntries(
        Object.entries(safeJson(text)).flatMap(([key, value]) => (typeof value === 'string' ? [[key, value]] : [])),
      )
    : Object.fromEntries(new URLSearchParams(text));
  const basic = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (basic) {
    const [id, secret] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
    form.client_id ??= decodeURIComponent(id ?? '');
    form.client_secret ??= decodeURIComponent(secret ?? '');
  }
  const oauthError = (status: number, error: string, description: string): DeskAnswer => ({
    status,
    body: { error, error_description: description },
  });
  const clientId = String(form.client_id ?? '').slice(0, 200);
  if (form.grant_type !== 'client_credentials')
    return { answer: oauthError(400, 'unsupported_grant_type', 'only client_credentials is supported'), clientId };
  const address = req.socket.remoteAddress ?? '-';
  // Guessing is limited before a secret is hashed: per client id and per address, failed attempts only.
  const wait = ctx.guesses.wait(clientId, address);
  if (wait > 0)
    return {
      answer: {
        ...gatewayProblem(429, 'rate-limit', 'Too Many Requests', 'too many failed token requests; wait and try again'),
        headers: { 'retry-after': String(Math.ceil(wait / 1000)) },
      },
      clientId,
    };
  const found = clientId ? await ctx.o.store.credentials(clientId) : undefined;
  if (!found || found.operator.disabled || !(await secretMatches(form.client_secret ?? '', found.secretHash))) {
    ctx.guesses.failed(clientId, address);
    return {
      answer: oauthError(401, 'invalid_client', 'unknown client, wrong secret, or a disabled operator'),
      clientId,
    };
  }
  const { operator } = found;
  const token = signToken(ctx.key, {
    sub: operator.name,
    role: operator.role,
    exp: Math.floor(ctx.now() / 1000) + TOKEN_TTL_SECONDS,
  });
  return {
    answer: {
      status: 200,
      body: {
        access_token: token,
        token_type: 'Bearer',
        expires_in: TOKEN_TTL_SECONDS,
        scope: ROLE_SCOPES[operator.role].join(' '),
      },
    },
    clientId,
    op: operator,
  };
}

/** A body's JSON object; anything else (not JSON, not an object) is an empty one, for the checks after to name. */
const safeJson = (text: string): Record<string, unknown> => {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v)) : {};
  } catch {
    return {};
  }
};

/** What a handler of gateway operation K is handed: the operator and the request's checked params, query and body. */
type GatewayHandler<K extends GatewayOperationId> = (
  ctx: Handling,
  op: Operator,
  input: GatewayInput<K>,
) => Promise<DeskAnswer>;

/** The gateway's own routes (src/contract/gateway.ts): the approvals inbox, the audit chain, the policy, who the operator is. */
const GATEWAY_HANDLERS: { [K in GatewayOperationId]: GatewayHandler<K> } = {
  whoami: async (_ctx, op) => ({
    status: 200,
    body: { operator: op.name, role: op.role, scopes: ROLE_SCOPES[op.role] },
  }),
  listApprovals: async (ctx, _op, { query }) => {
    const list = await ctx.o.store.pendingList(query.status);
    const items = await Promise.all(
      list.map(
        async (p) => (await (p.operation === POLICY_CHANGE ? ctx.changes.answer(p) : ctx.desk.heldAnswer(p))).body,
      ),
    );
    return { status: 200, body: { items } };
  },
  showApproval: async (ctx, _op, { params }) => {
    const held = await ctx.o.store.pending(params.id);
    if (!held) return gatewayProblem(404, 'pending', 'Not Found', 'no request is held by that id');
    return held.operation === POLICY_CHANGE ? ctx.changes.answer(held) : ctx.desk.show(held);
  },
  approve: async (ctx, op, { params, body }) => {
    const change = await ctx.o.store.pending(params.id);
    if (change?.operation === POLICY_CHANGE) return ctx.changes.approve(op, ctx.desk.who(op), change, body.approval);
    return ctx.desk.approve(op, params.id, body.approval);
  },
  reject: async (ctx, op, { params, body }) => {
    const reason = (body.reason ?? '').slice(0, 500);
    const change = await ctx.o.store.pending(params.id);
    if (change?.operation === POLICY_CHANGE) return ctx.changes.reject(op, ctx.desk.who(op), change, reason);
    return ctx.desk.reject(op, params.id, reason);
  },
  // A withdraw batch's rows for the policy: held for approvals as one when it asks for them (batch-desk.ts).
  submitBatch: async (ctx, op, { body }) => ctx.desk.batches.submit(op, body),
  auditLines: async (ctx, _op, { query }) => {
    const lines = await ctx.o.store.auditLines(query.after ?? 0, Math.min(query.limit ?? 10_000, 10_000));
    return { status: 200, body: { lines: lines.map((l) => l.line), head: await ctx.o.store.auditHead() } };
  },
  auditHead: async (ctx) => ({ status: 200, body: await ctx.o.store.auditHead() }),
  getPolicy: async (ctx) => policyInForce(ctx.o.store),
  setPolicy: async (ctx, op, { body }) =>
    setPolicy({ store: ctx.o.store, changes: ctx.changes, who: ctx.desk.who(op) }, op, body),
  policyHistory: async (ctx) => ({ status: 200, body: { items: await ctx.o.store.policyHistory() } }),
};

/** A request to the gateway's own API: matched to its operation, its query and body checked, then handled. */
async function gatewayRoute(ctx: Handling, op: Operator, method: string, url: URL, body: Buffer): Promise<DeskAnswer> {
  const path = url.pathname.replace(/\/+$/, '');
  const found = gatewayOperationAt(method, path);
  if (!found) return gatewayProblem(404, 'not-found', 'Not Found', `the gateway has no ${method} ${path}`);
  if ('methods' in found)
    return gatewayProblem(405, 'method', 'Method Not Allowed', `${path} answers ${found.methods.join(' or ')}`);
  const input = checkedGatewayInput(found.op, found.params, url, body);
  if ('issues' in input) return gatewayProblem(400, 'invalid', 'Bad Request', formatIssues(input.issues));
  const handle = GATEWAY_HANDLERS[found.op.id as GatewayOperationId] as GatewayHandler<GatewayOperationId>;
  return handle(ctx, op, input.value as GatewayInput<GatewayOperationId>);
}

/** A request's params, query and body checked against its gateway operation's schemas, once, before its handler. */
function checkedGatewayInput(
  gop: GatewayOperation,
  params: Record<string, string>,
  url: URL,
  body: Buffer,
): { value: { params: unknown; query: unknown; body: unknown } } | { issues: Issue[] } {
  const issues: Issue[] = [];
  let query: Record<string, unknown> = {};
  if (gop.query) {
    const coerced = coerceQuery(gop.query, Object.fromEntries(url.searchParams));
    query = coerced.value;
    issues.push(...coerced.issues, ...schemaIssues(gop.query, query));
  }
  let json: unknown;
  if (gop.body) {
    json = parsedBody(body);
    issues.push(...schemaIssues(gop.body, json));
  }
  if (gop.params) issues.push(...schemaIssues(gop.params, params));
  return issues.length ? { issues } : { value: { params, query, body: json } };
}

/** A request's body as JSON: an empty body is an empty object; anything not JSON is named by the schema check. */
function parsedBody(body: Buffer): unknown {
  const text = body.toString('utf8');
  if (!text.trim()) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** One request being answered: the request and its reply, its method, URL and body (read whole). */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  url: URL;
  body: Buffer;
}

/** A v2 request: money to the desk; a known operation within the role forwarded; anything else refused. */
async function apiRoute(ctx: Handling, op: Operator, exchange: Exchange): Promise<void> {
  const { req, res, method, url, body } = exchange;
  const raw = req.url ?? '/';
  const refused = (answer: DeskAnswer, operation?: string) => refuse(ctx, req, res, answer, { op, operation });
  if (climbsAboveRoot(raw))
    return refused(gatewayProblem(400, 'path', 'Bad Request', 'the path climbs above its root'));
  const money = moneyOperationAt(method, raw);
  if (money) {
    // Above the role: refused at the door (the desk's entries are for what its gate judges).
    const above = roleRefusal(op, money, 'cannot');
    if (above) return refused(above, money);
    const parsed = safeJson(body.toString('utf8'));
    return send(res, await ctx.desk.request(op, money, parsed));
  }
  const unjudged = unjudgedMoneyAt(method, raw);
  if (unjudged)
    return refused(
      gatewayProblem(
        403,
        'unjudged',
        'Forbidden',
        `the gateway does not send ${unjudged}: its gate cannot judge it yet`,
      ),
    );
  const id = operationAt(method, url.pathname) as OperationId | undefined;
  if (!id)
    return refused(gatewayProblem(404, 'not-found', 'Not Found', `the gateway forwards no ${method} ${url.pathname}`));
  const above = roleRefusal(op, id, 'lacks scope');
  if (above) return refused(above, id);
  await forward(ctx, op, id, exchange);
}

/** An operation above the operator's role: its 403, or undefined when the role has its scope. */
function roleRefusal(op: Operator, id: OperationId, words: 'cannot' | 'lacks scope'): DeskAnswer | undefined {
  const scope = (operations[id] as Operation).scope;
  if (!scope || ROLE_SCOPES[op.role].includes(scope)) return undefined;
  const says = words === 'cannot' ? `the role cannot ${scope}` : `the role lacks scope ${scope}`;
  return gatewayProblem(403, 'role', 'Forbidden', `${op.name} is ${roleWords(op.role)}: ${says}`);
}

/** Headers of the upstream's answer passed back: what a client reads (the type, rate limiting, paging). */
const PASSED = [
  'content-type',
  'retry-after',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'date',
];

/**
 * A read or a write the contract knows, forwarded with the gateway's token; its entry in the chain: a write's appended
 * before it is answered, a read's in the background (request-audit.ts).
 */
async function forward(ctx: Handling, op: Operator, id: OperationId, exchange: Exchange): Promise<void> {
  const { req, res, method, url, body } = exchange;
  const read = method === 'GET' || method === 'HEAD';
  const note = (status: number) => ({
    who: ctx.desk.who(op),
    method,
    operation: id,
    path: url.pathname,
    status,
    result: (status >= 500 ? 'failed' : read ? 'answered' : status < 300 ? 'sent' : 'refused') as AuditResult,
  });
  const target = new URL(`${apiRoot(ctx.o.upstream.baseUrl)}${url.pathname}${url.search}`);
  const attempt = async (fresh: boolean) =>
    upstreamAnswer(
      ctx,
      target,
      method,
      {
        authorization: `Bearer ${await ctx.o.upstream.bearer(fresh)}`,
        accept: req.headers.accept ?? 'application/json',
        ...(body.length ? { 'content-type': req.headers['content-type'] ?? 'application/json' } : {}),
        ...(body.length && method !== 'GET' ? { 'content-length': body.length } : {}),
      },
      body.length && method !== 'GET' ? body : undefined,
    );
  let answer: { status: number; headers: IncomingMessage['headers']; bytes: Buffer };
  try {
    answer = await attempt(false).catch((error: unknown) => {
      // A kept-open connection the upstream had just closed: a read is asked again on a new one (nothing else is).
      if ((error as { reused?: boolean }).reused && (method === 'GET' || method === 'HEAD')) return attempt(false);
      throw error;
    });
    if (answer.status === 401) answer = await attempt(true);
  } catch (e) {
    if (read) ctx.requests.later(note(502));
    else await ctx.requests.record(note(502));
    return send(
      res,
      gatewayProblem(502, 'upstream', 'Bad Gateway', `the upstream did not answer (${(e as Error).message})`),
    );
  }
  if (!read) await ctx.requests.record(note(answer.status));
  const headers: Record<string, string> = { 'content-length': String(answer.bytes.length) };
  for (const h of PASSED) {
    const v = answer.headers[h];
    if (typeof v === 'string') headers[h] = v;
  }
  res.writeHead(answer.status, headers);
  res.end(answer.bytes);
  if (read) ctx.requests.later(note(answer.status));
}

/** One request to the upstream over the gateway's kept-open connections; its status, headers and whole body. */
function upstreamAnswer(
  ctx: Handling,
  target: URL,
  method: string,
  headers: OutgoingHttpHeaders,
  body: Buffer | undefined,
): Promise<{ status: number; headers: IncomingMessage['headers']; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const tls = target.protocol === 'https:';
    const request = tls ? httpsRequest : httpRequest;
    const out = request(target, { method, headers, agent: tls ? ctx.agents.https : ctx.agents.http }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('error', reject);
      answer.on('end', () =>
        resolve({ status: answer.statusCode ?? 502, headers: answer.headers, bytes: Buffer.concat(chunks) }),
      );
    });
    out.on('error', (error) => reject(Object.assign(error, { reused: out.reusedSocket })));
    out.end(body);
  });
}
