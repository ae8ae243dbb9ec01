// The gateway's own API (/_gateway/...): the approvals inbox, the audit chain, the policy and who the operator is,
// as typed operations in the style of operations.ts. The client's gatewayCall is keyed by these ids and returns the
// operation's response type; the gateway (src/gateway/server.ts) matches a request to one of them and checks its
// query and body against the schemas before the handler runs.
import type { Static, TSchema } from '@sinclair/typebox';
import {
  type GatewayOperation,
  gatewayOperations,
  type HELD_STATUSES,
  type HeldRequestSchema,
} from './gateway-schemas.js';

export {
  type GatewayOperation,
  gatewayOperations,
  HELD_STATUSES,
  HeldRequestSchema,
  MAX_BATCH_ROWS,
} from './gateway-schemas.js';

export type GatewayOperationId = keyof typeof gatewayOperations;
type Op<K extends GatewayOperationId> = (typeof gatewayOperations)[K];
type Part<K extends GatewayOperationId, P extends 'params' | 'query' | 'body'> =
  Op<K> extends {
    [Q in P]: infer S extends TSchema;
  }
    ? { [Q in P]: Static<S> }
    : { [Q in P]?: undefined };

/** What a call of operation K sends: its params, query and body, each only where the operation declares one. */
export type GatewayInput<K extends GatewayOperationId> = Part<K, 'params'> & Part<K, 'query'> & Part<K, 'body'>;
/** What operation K answers. */
export type GatewayResponse<K extends GatewayOperationId> = Static<Op<K>['response']>;
export type HeldRequest = Static<typeof HeldRequestSchema>;
export type HeldStatus = (typeof HELD_STATUSES)[number];

/** The path of operation K with its params filled in. */
export function gatewayPath(op: GatewayOperation, params: Record<string, string> | undefined): string {
  return op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params?.[name] ?? ''));
}

/** A path segment decoded; one that is not valid percent-encoding is taken as it is (and then matches no id). */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The operation a request's method and path are, with its params; or the methods the path answers (405). */
export function gatewayOperationAt(
  method: string,
  path: string,
): { op: GatewayOperation; params: Record<string, string> } | { methods: string[] } | undefined {
  const methods: string[] = [];
  for (const op of Object.values(gatewayOperations) as GatewayOperation[]) {
    const names: string[] = [];
    const pattern = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    const match = new RegExp(`^${pattern}$`).exec(path);
    if (!match) continue;
    if (op.method === method || op.alsoMethods?.includes(method as 'PUT')) {
      const params: Record<string, string> = {};
      names.forEach((name, at) => {
        params[name] = decoded(match[at + 1]);
      });
      return { op, params };
    }
    methods.push(op.method, ...(op.alsoMethods ?? []));
  }
  return methods.length ? { methods } : undefined;
}
