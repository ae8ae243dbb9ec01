// The gateway's own API as TypeBox schemas (src/contract/gateway.ts uses them). The build carries this module as the
// plain JSON it is (scripts/build.mjs, plain-schemas), so no start of the CLI loads TypeBox to build them again: keep
// to data here (constants and schemas), no functions.
import { Type, type TSchema } from '@sinclair/typebox';

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
