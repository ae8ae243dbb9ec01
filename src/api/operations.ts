// The service's operations: method, path, scope, request schemas, response schema and cross-field rules.
// The client builds requests from this table and the local service registers its routes from it.
import type { TSchema } from '@sinclair/typebox';
import { ASSETS } from './catalogue.js';
import { SCOPES, type Scope } from './enums.js';
import * as S from './schemas.js';
import {
  addressIssues, amountOrTotalIssues, coerceQuery, priceQueryIssues, schemaIssues, withdrawalTargetIssues, type Issue,
} from './validate.js';

export interface Operation {
  id: string;
  method: 'GET' | 'POST';
  /** Path with {param} placeholders, starting with /v2. */
  path: string;
  scope: Scope;
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  response: TSchema;
  /** Rules across fields that JSON Schema does not say well. Run only when the schema check passed. */
  rules?: (input: { params: any; query: any; body: any }) => Issue[];
  /** A write that moves money or creates a resource; safe to retry only when the body carries a ref_id. */
  write?: boolean;
  /** Lists answer {items, next_page_cursor}. */
  paged?: boolean;
}

export const operations = {
  createCryptoWithdrawal: {
    id: 'createCryptoWithdrawal',
    method: 'POST',
    path: '/v2/transfer/crypto-withdrawals',
    scope: SCOPES.createCryptoWithdrawal,
    body: S.CreateCryptoWithdrawalRequest,
    response: S.Transfer,
    write: true,
    rules: ({ body }) => [
      ...amountOrTotalIssues(body),
      ...withdrawalTargetIssues(body),
      ...balanceAssetIssues(body),
    ],
  },
  createCryptoWithdrawalFee: {
    id: 'createCryptoWithdrawalFee',
    method: 'POST',
    path: '/v2/transfer/fees/crypto-withdrawal',
    scope: SCOPES.createWithdrawalFee,
    body: S.CreateCryptoWithdrawalFeeRequest,
    response: S.CryptoWithdrawalFee,
    rules: ({ body }) => [...amountOrTotalIssues(body), ...withdrawalTargetIssues(body)],
  },
  listDepositAddresses: {
    id: 'listDepositAddresses',
    method: 'GET',
    path: '/v2/transfer/deposit-addresses',
    scope: SCOPES.readDepositAddress,
    query: S.ListDepositAddressesQuery,
    response: S.ListDepositAddressesResponse,
    paged: true,
    rules: ({ query }) => createdAtIssues(query),
  },
  createDepositAddress: {
    id: 'createDepositAddress',
    method: 'POST',
    path: '/v2/transfer/deposit-addresses',
    scope: SCOPES.writeDepositAddress,
    body: S.CreateDepositAddressRequest,
    response: S.DepositAddress,
    write: true,
  },
  initiateSandboxFiatDeposit: {
    id: 'initiateSandboxFiatDeposit',
    method: 'POST',
    path: '/v2/sandbox/fiat-deposits',
    scope: SCOPES.sandboxFiatDeposit,
    body: S.InitiateSandboxFiatDepositRequest,
    response: S.EmptyObject,
    write: true,
    rules: ({ body }) => [
      ...(body.asset !== 'USD' ? [{ field: 'asset', rule: 'must be USD (the only asset sandbox deposits support)' }] : []),
      // A deposit of nothing is a mistake, not a transfer worth recording.
      ...(!/[1-9]/.test(body.amount) ? [{ field: 'amount', rule: 'must be greater than 0' }] : []),
    ],
  },
  listHistoricalPrices: {
    id: 'listHistoricalPrices',
    method: 'GET',
    path: '/v2/markets/{market}/historical-prices',
    scope: SCOPES.historicalPrices,
    params: S.MarketParams,
    query: S.ListHistoricalPricesQuery,
    response: S.ListHistoricalPricesResponse,
    rules: ({ query }) => priceQueryIssues(query),
  },
  listTransfers: {
    id: 'listTransfers',
    method: 'GET',
    path: '/v2/transfer/transfers',
    scope: SCOPES.readTransfer,
    query: S.ListTransfersQuery,
    response: S.ListTransfersResponse,
    paged: true,
    rules: ({ query }) => createdAtIssues(query),
  },
  getTransfer: {
    id: 'getTransfer',
    method: 'GET',
    path: '/v2/transfer/transfers/{id}',
    scope: SCOPES.readTransfer,
    params: S.IdParams,
    response: S.Transfer,
  },
} satisfies Record<string, Operation>;

export type OperationId = keyof typeof operations;

function balanceAssetIssues(body: { asset?: string; balance_asset?: string }): Issue[] {
  const b = body.balance_asset;
  if (b === undefined || b === body.asset) return [];
  const allowed = ASSETS[body.asset ?? '']?.balanceAssets ?? [];
  if (allowed.includes(b)) return [];
  return [{ field: 'balance_asset', rule: `must be ${[body.asset, ...allowed].join(' or ')}` }];
}

function createdAtIssues(q: Record<string, unknown>): Issue[] {
  const issues: Issue[] = [];
  for (const prefix of ['created_at', 'updated_at']) {
    if (q[`${prefix}.eq`] !== undefined && ['lt', 'lte', 'gt', 'gte'].some((k) => q[`${prefix}.${k}`] !== undefined)) {
      issues.push({ field: `${prefix}.eq`, rule: `must not be combined with other ${prefix} comparisons` });
    }
  }
  return issues;
}

/** Fills {param} placeholders of an operation's path, escaping each value. */
export function buildPath(op: Operation, params: Record<string, string> = {}): string {
  return op.path.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(params[k] ?? ''));
}

export interface RequestParts {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

/**
 * Every issue with a request to an operation: schema first (per part), then the cross-field rules.
 * The query is given as parsed from a query string (strings and arrays) and coerced here.
 */
export function requestIssues(op: Operation, parts: RequestParts): { issues: Issue[]; query?: Record<string, unknown> } {
  const issues: Issue[] = [];
  let query: Record<string, unknown> | undefined;
  if (op.params) issues.push(...schemaIssues(op.params, parts.params ?? {}));
  if (op.query) {
    const c = coerceQuery(op.query, parts.query ?? {});
    query = c.value;
    issues.push(...c.issues, ...schemaIssues(op.query, query));
  } else if (parts.query && Object.keys(parts.query).length) {
    for (const k of Object.keys(parts.query)) issues.push({ field: k, rule: 'is not a known query parameter' });
  }
  if (op.body) {
    if (parts.body === undefined || parts.body === null) issues.push({ field: '', rule: 'a JSON body is required' });
    else issues.push(...schemaIssues(op.body, parts.body));
  }
  if (!issues.length && op.rules) issues.push(...op.rules({ params: parts.params ?? {}, query: query ?? {}, body: parts.body ?? {} }));
  return { issues, query };
}

/** Address rule, kept apart because the service answers it with its own named problem. */
export { addressIssues };
