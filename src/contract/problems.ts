// RFC 7807 problem objects as the hosted service sends them (spec/UPSTREAM.md "HTTP errors"), for both sides.
import type { Problem } from './schemas.js';

export const PROBLEM_TYPE_BASE = 'https://developer.paxos.com/docs/v2/problems/';
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** An error that carries a problem object; the local service answers with it, the client raises it. */
export class ProblemError extends Error {
  readonly problem: Problem;
  constructor(problem: Problem) {
    super(problem.detail ? `${problem.title}: ${problem.detail}` : problem.title);
    this.name = 'ProblemError';
    this.problem = problem;
  }
  get status(): number {
    return this.problem.status;
  }
}

const generic =
  (status: number, title: string) =>
  (detail?: string, meta?: Record<string, unknown>): ProblemError =>
    new ProblemError({
      type: 'about:blank',
      title,
      status,
      ...(detail !== undefined ? { detail } : {}),
      ...(meta ? { meta } : {}),
    });

const named =
  (status: number, name: string, title: string) =>
  (detail: string, meta?: Record<string, unknown>): ProblemError =>
    new ProblemError({ type: PROBLEM_TYPE_BASE + name, title, status, detail, ...(meta ? { meta } : {}) });

export const problems = {
  badRequest: generic(400, 'Bad Request'),
  unauthorized: generic(401, 'Unauthorized'),
  forbidden: generic(403, 'Forbidden'),
  notFound: generic(404, 'Not Found'),
  conflict: generic(409, 'Conflict'),
  methodNotAllowed: generic(405, 'Method Not Allowed'),
  unsupportedMediaType: generic(415, 'Unsupported Media Type'),
  payloadTooLarge: generic(413, 'Payload Too Large'),
  tooManyRequests: generic(429, 'Too Many Requests'),
  internal: generic(500, 'Internal Server Error'),
  serviceUnavailable: generic(503, 'Service Unavailable'),
  alreadyExists: named(409, 'already-exists', 'Already Exists'),
  insufficientFunds: named(403, 'insufficient-funds', 'Insufficient Funds'),
  expired: named(403, 'expired', 'Expired'),
  belowMinimum: named(400, 'below-min-withdraw-limit', 'Withdrawal Amount Too Small'),
  aboveMaximum: named(400, 'exceed-max-withdraw-limit', 'Withdrawal Amount Too Large'),
  exceedPrecision: named(400, 'exceed-precision', 'Exceeds Maximum Precision Allowed'),
  unsupportedAddress: named(400, 'unsupported-address', 'Unsupported Address'),
};

/** The problem name at the end of a problem type URL ("insufficient-funds"), or undefined for about:blank. */
export function problemName(problem: Pick<Problem, 'type'>): string | undefined {
  if (!problem.type || problem.type === 'about:blank') return undefined;
  const tail = problem.type.split('/').pop();
  return tail || undefined;
}

/** Reads anything an HTTP error might carry into a problem: problem+json, plain JSON, OAuth errors or text. */
export function toProblem(status: number, body: unknown, statusText = ''): Problem {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const b = body as Record<string, unknown>;
    if (typeof b.title === 'string' || typeof b.detail === 'string' || typeof b.type === 'string') {
      return {
        ...b,
        type: typeof b.type === 'string' ? b.type : 'about:blank',
        title: typeof b.title === 'string' ? b.title : statusText || `HTTP ${status}`,
        status: typeof b.status === 'number' ? b.status : status,
      } as Problem;
    }
    if (typeof b.error === 'string') {
      // OAuth 2.0 token endpoint errors: {"error":"invalid_client","error_description":"..."}
      return {
        type: 'about:blank',
        title: statusText || `HTTP ${status}`,
        status,
        detail: typeof b.error_description === 'string' ? `${b.error}: ${b.error_description}` : b.error,
        meta: { error: b.error },
      };
    }
  }
  const text = typeof body === 'string' ? body.trim().slice(0, 300) : undefined;
  return { type: 'about:blank', title: statusText || `HTTP ${status}`, status, ...(text ? { detail: text } : {}) };
}
