// Requests to a coinop gateway's own API (/_gateway/...): the approvals inbox, its audit chain and policy, with the
// operator's token, answered as JSON; a problem answer is thrown as its error.
import { problemError } from '../errors.js';
import { toProblem } from '../contract/index.js';
import {
  type GatewayInput,
  type GatewayOperation,
  type GatewayOperationId,
  type GatewayResponse,
  gatewayOperations,
  gatewayPath,
  type HeldRequest,
} from '../contract/gateway.js';
import type { ServiceClient } from './service-client.js';

export async function gatewayCall<K extends GatewayOperationId>(
  client: Pick<ServiceClient, 'raw'>,
  id: K,
  input: GatewayInput<K>,
): Promise<GatewayResponse<K>> {
  const op: GatewayOperation = gatewayOperations[id];
  const { params, query, body } = input as { params?: Record<string, string>; query?: object; body?: unknown };
  const res = await client.raw(op.method, gatewayPath(op, params), body, query as Record<string, unknown> | undefined);
  if (res.status === 404 && !String(res.headers['content-type'] ?? '').includes('json'))
    throw problemError(toProblem(404, undefined, 'this service is not a coinop gateway'));
  if (res.status < 200 || res.status >= 300) throw problemError(toProblem(res.status, res.json, res.statusText));
  return (res.json ?? {}) as GatewayResponse<K>;
}

/** A held request as the gateway shows it (src/contract/gateway.ts). */
export type { HeldRequest };

/** The operation a held change of the gateway's policy has in the inbox (not a service operation). */
export const POLICY_CHANGE_OPERATION = 'setGatewayPolicy';

/** Whether an answer to a money request is a gateway's hold of it (202 with the held request) rather than the service's. */
export const isHeld = (data: object): data is HeldRequest =>
  typeof (data as { pending_id?: unknown }).pending_id === 'string';
