// Requests to a coinop gateway's own API (/_gateway/...): the approvals inbox, its audit chain and policy, with the
// operator's token, answered as JSON; a problem answer is thrown as its error.
import { problemError } from '../errors.js';
import { toProblem } from '../contract/index.js';
import type { ServiceClient } from './service-client.js';

export async function gatewayCall<T = Record<string, unknown>>(
  client: Pick<ServiceClient, 'raw'>,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await client.raw(method, path, body);
  if (res.status === 404 && !String(res.headers['content-type'] ?? '').includes('json'))
    throw problemError(toProblem(404, undefined, 'this service is not a coinop gateway'));
  if (res.status < 200 || res.status >= 300) throw problemError(toProblem(res.status, res.json, res.statusText));
  return (res.json ?? {}) as T;
}

/** A held request as the gateway shows it. */
// A type, not an interface: an object of string keys, so it goes where any answer does (Output, the HTTP body).
export type HeldRequest = {
  pending_id: string;
  status: 'pending' | 'sending' | 'sent' | 'failed' | 'rejected' | 'expired';
  operation: string;
  initiator: string;
  ref_id: string | null;
  request: Record<string, unknown>;
  what: Record<string, unknown>;
  content: string[];
  approvals: { operator: string; at: string }[];
  approvals_required: number;
  created_at: string;
  expires_at: string;
  result: Record<string, unknown> | null;
};

/** The operation a held change of the gateway's policy has in the inbox (not a service operation). */
export const POLICY_CHANGE_OPERATION = 'setGatewayPolicy';

/** Whether an answer to a money request is a gateway's hold of it (202 with the held request) rather than the service's. */
export const isHeld = (data: object): data is HeldRequest =>
  typeof (data as { pending_id?: unknown }).pending_id === 'string';
