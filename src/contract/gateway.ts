// The gateway's own API (/_gateway/...): the approvals inbox, the audit chain, the policy and who the operator is,
// as typed operations in the style of operations.ts. The client's gatewayCall is keyed by these ids and returns the
// operation's response type; the gateway (src/gateway/server.ts) matches a request to one of them and checks its
// query and body against the schemas before the handler runs.
import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** The states of a request the gateway holds. */
export const HELD_STATUSES = ['pending', 'sending', 'sent', 'failed', 'rejected', 'expired'] as const;

/** The most rows one held batch carries. */
export const MAX_BATCH_ROWS = 5000;

const Open = Type.Record(Type.String(), Type.Unknown());

const HeldRow = Type.Object({
  row: Type.Integer(),
  ref_id: Type.String(),
  status: Type.String(),
  transfer_id: Type.Union([Type.String(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
});

const HeldTotal = Type.Object({
  asset: Type.String(),
  network: Type.String(),
  rows: Type.Integer(),
  sum: Type.String(),
});

/** A held request as the gateway shows it; a held batch also carries its rows and totals. */
export const HeldRequestSchema = Type.Object({
  pending_id: Type.String(),
  status: Type.Union(HELD_STATUSES.map((s) => Type.Literal(s))),
  operation: Type.String(),
  initiator: Type.String(),
  ref_id: Type.Union([Type.String(), Type.Null()]),
  request: Open,
  what: Open,
  content: Type.Array(Type.String()),
  approvals: Type.Array(Type.Object({ operator: Type.String(), at: Type.String() })),
  approvals_required: Type.Integer(),
  created_at: Type.String(),
  expires_at: Type.String(),
  result: Type.Union([Open, Type.Null()]),
  rows: Type.Optional(Type.Array(HeldRow)),
  totals: Type.Optional(Type.Array(HeldTotal)),
});

const AuditHead = Type.Object({ seq: Type.Integer(), sha256: Type.String() });

export interface GatewayOperation {
  id: string;
  method: 'GET' | 'POST';
  /** Other methods the gateway answers on this path as this operation (older clients). */
  alsoMethods?: readonly 'PUT'[];
  /** Path with {param} placeholders, starting with /_gateway. */
  path: string;
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  response: TSchema;
}

const IdParams = Type.Object({ id: Type.String({ minLength: 1 }) });

export const gatewayOperations = {
  whoami: {
    id: 'whoami',
    method: 'GET',
    path: '/_gateway/whoami',
    response: Type.Object({ operator: Type.String(), role: Type.String(), scopes: Type.Array(Type.String()) }),
  },
  listApprovals: {
    id: 'listApprovals',
    method: 'GET',
    path: '/_gateway/approvals',
    query: Type.Object(
      { status: Type.Optional(Type.Union(HELD_STATUSES.map((s) => Type.Literal(s)))) },
      { additionalProperties: false },
    ),
    response: Type.Object({ items: Type.Array(HeldRequestSchema) }),
  },
  showApproval: {
    id: 'showApproval',
    method: 'GET',
    path: '/_gateway/approvals/{id}',
    params: IdParams,
    response: HeldRequestSchema,
  },
  approve: {
    id: 'approve',
    method: 'POST',
    path: '/_gateway/approvals/{id}/approve',
    params: IdParams,
    body: Type.Object({ approval: Type.String() }),
    response: HeldRequestSchema,
  },
  reject: {
    id: 'reject',
    method: 'POST',
    path: '/_gateway/approvals/{id}/reject',
    params: IdParams,
    body: Type.Object({ reason: Type.Optional(Type.String()) }),
    response: HeldRequestSchema,
  },
  submitBatch: {
    id: 'submitBatch',
    method: 'POST',
    path: '/_gateway/batches',
    body: Type.Object({
      profile_id: Type.Optional(Type.String()),
      rows: Type.Array(Open, { minItems: 1, maxItems: MAX_BATCH_ROWS }),
    }),
    response: Type.Union([HeldRequestSchema, Type.Object({ held: Type.Literal(false) })]),
  },
  auditLines: {
    id: 'auditLines',
    method: 'GET',
    path: '/_gateway/audit',
    query: Type.Object(
      { after: Type.Optional(Type.Integer({ minimum: 0 })), limit: Type.Optional(Type.Integer({ minimum: 1 })) },
      { additionalProperties: false },
    ),
    response: Type.Object({ lines: Type.Array(Type.String()), head: AuditHead }),
  },
  auditHead: { id: 'auditHead', method: 'GET', path: '/_gateway/audit/head', response: AuditHead },
  getPolicy: {
    id: 'getPolicy',
    method: 'GET',
    path: '/_gateway/policy',
    response: Type.Object({ version: Type.Integer(), body: Type.Unknown() }),
  },
  setPolicy: {
    id: 'setPolicy',
    method: 'POST',
    alsoMethods: ['PUT'],
    path: '/_gateway/policy',
    body: Type.Object({ policy: Type.String(), file: Type.Optional(Type.String()) }),
    response: Type.Union([Type.Object({ version: Type.Integer(), sha256: Type.String() }), HeldRequestSchema]),
  },
  policyHistory: {
    id: 'policyHistory',
    method: 'GET',
    path: '/_gateway/policy/history',
    response: Type.Object({ items: Type.Array(Open) }),
  },
} as const satisfies Record<string, GatewayOperation>;

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
