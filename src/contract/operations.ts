// The service's operations: method, path, scope, request schemas, response schema and cross-field rules.
// The client builds requests from this table and the local service registers its routes from it.
import type { Static, TSchema } from '@sinclair/typebox';
import { ASSETS, STABLECOINS } from './catalogue.js';
import { FIAT_ACCOUNT_NETWORKS, SCOPES, type Scope } from './enums.js';
import * as S from './schemas.js';
import { dec, isAmountString } from './money.js';
import { transferFilterIssues } from './transfer-filters.js';
import {
  addressIssues,
  amountOrTotalIssues,
  assetIssues,
  type CatalogueIssue,
  coerceQuery,
  destinationAddressIssues,
  decimalsIssues,
  marketIssues,
  networkIssues,
  priceQueryIssues,
  schemaIssues,
  withdrawalTargetIssues,
  type Issue,
} from './validate.js';

export interface Operation {
  id: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path with {param} placeholders, starting with /v2. */
  path: string;
  /** The scope a token needs; none for a public endpoint (market data), answered with or without a token. */
  scope?: Scope;
  /** A token is needed, but no scope (the OpenAPI's `OAuth2: []`: the VASP directory). */
  tokenOnly?: boolean;
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  response: TSchema;
  /** Rules across fields that JSON Schema does not say well. Run only when the schema check passed. */
  // biome-ignore lint/suspicious/noExplicitAny: each operation's rules read the shapes its own schemas just checked
  rules?: (input: { params: any; query: any; body: any }) => Issue[];
  /**
   * The catalogue's rules (src/contract/catalogue.ts): the assets, networks and markets named, and what the catalogue says
   * of them. Run on any request (they read only what has the shape they need); see requestIssues for who enforces
   * them.
   */
  // biome-ignore lint/suspicious/noExplicitAny: as rules
  catalogue?: (input: { params: any; query: any; body: any }) => CatalogueIssue[];
  /** A write that moves money or creates a resource; safe to retry only when the body carries a ref_id. */
  write?: boolean;
  /** Lists answer {items, next_page_cursor}. */
  paged?: boolean;
  /** A paged list whose items come under another name than `items`. */
  itemsKey?: string;
  /** The same request twice leaves the state as once (a PUT): safe to resend without a ref_id. */
  idempotent?: boolean;
  /** The content type of its problems when the OpenAPI documents another than application/problem+json for it. */
  problemContentType?: 'application/json';
  /** Only the problems of these statuses are of problemContentType (the OpenAPI documents the others as problem+json). */
  problemContentStatuses?: readonly number[];
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
    rules: ({ body }) => amountOrTotalIssues(body),
    catalogue: ({ body }) => [...withdrawalTargetIssues(body), ...balanceAssetIssues(body)],
  },
  createCryptoWithdrawalFee: {
    id: 'createCryptoWithdrawalFee',
    method: 'POST',
    path: '/v2/transfer/fees/crypto-withdrawal',
    scope: SCOPES.createWithdrawalFee,
    body: S.CreateCryptoWithdrawalFeeRequest,
    response: S.CryptoWithdrawalFee,
    rules: ({ body }) => amountOrTotalIssues(body),
    catalogue: ({ body }) => withdrawalTargetIssues(body),
  },
  listDepositAddresses: {
    id: 'listDepositAddresses',
    method: 'GET',
    path: '/v2/transfer/deposit-addresses',
    scope: SCOPES.readDepositAddress,
    query: S.ListDepositAddressesQuery,
    response: S.ListDepositAddressesResponse,
    paged: true,
    catalogue: ({ query }) =>
      (query.networks ?? []).flatMap((n: string, i: number) => networkIssues(`networks.${i}`, n)),
  },
  createDepositAddress: {
    id: 'createDepositAddress',
    method: 'POST',
    path: '/v2/transfer/deposit-addresses',
    scope: SCOPES.writeDepositAddress,
    body: S.CreateDepositAddressRequest,
    response: S.DepositAddress,
    write: true,
    catalogue: ({ body }) => networkIssues('crypto_network', body.crypto_network),
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
      ...(body.asset !== 'USD'
        ? [{ field: 'asset', rule: 'must be USD (the only asset sandbox deposits support)' }]
        : []),
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
    catalogue: ({ params }) => marketIssues('market', params.market),
  },
  listTransfers: {
    id: 'listTransfers',
    method: 'GET',
    path: '/v2/transfer/transfers',
    scope: SCOPES.readTransfer,
    query: S.ListTransfersQuery,
    response: S.ListTransfersResponse,
    paged: true,
    rules: ({ query }) => [...transferFilterIssues(query), ...orderByIssues(query)],
  },
  getTransfer: {
    id: 'getTransfer',
    method: 'GET',
    path: '/v2/transfer/transfers/{id}',
    scope: SCOPES.readTransfer,
    params: S.IdParams,
    response: S.Transfer,
  },
  // ---- Service profiles, their balances and internal transfers between them ----
  listProfiles: {
    id: 'listProfiles',
    method: 'GET',
    path: '/v2/profiles',
    scope: SCOPES.readProfile,
    query: S.ListProfilesQuery,
    response: S.ListProfilesResponse,
    paged: true,
  },
  getProfile: {
    id: 'getProfile',
    method: 'GET',
    path: '/v2/profiles/{profile_id}',
    scope: SCOPES.readProfile,
    params: S.ProfileParams,
    query: S.GetProfileQuery,
    response: S.Profile,
  },
  createProfile: {
    id: 'createProfile',
    method: 'POST',
    path: '/v2/profiles',
    scope: SCOPES.writeProfile,
    body: S.CreateProfileRequest,
    response: S.Profile,
    // Not a `write`: it carries no ref_id, and a 409 (the nickname is taken) is another profile, not this request's.
    rules: ({ body }) => (body.nickname.trim() ? [] : [{ field: 'nickname', rule: 'must not be blank' }]),
  },
  listProfileBalances: {
    id: 'listProfileBalances',
    method: 'GET',
    path: '/v2/profiles/{profile_id}/balances',
    scope: SCOPES.readProfile,
    params: S.ProfileParams,
    query: S.ListProfileBalancesQuery,
    response: S.ListProfileBalancesResponse,
    catalogue: ({ query }) => (query.assets ?? []).flatMap((a: string) => assetIssues('assets', a)),
  },
  getProfileBalance: {
    id: 'getProfileBalance',
    method: 'GET',
    path: '/v2/profiles/{profile_id}/balances/{asset}',
    scope: SCOPES.readProfile,
    params: S.ProfileBalanceParams,
    response: S.ProfileBalance,
    catalogue: ({ params }) => assetIssues('asset', params.asset),
  },
  createInternalTransfer: {
    id: 'createInternalTransfer',
    method: 'POST',
    path: '/v2/transfer/internal',
    scope: SCOPES.writeInternalTransfer,
    body: S.CreateInternalTransferRequest,
    response: S.Transfer,
    write: true,
    rules: ({ body }) => internalTransferIssues(body),
    catalogue: ({ body }) => profileTransferCatalogueIssues(body),
  },
  // A transfer to a profile of another customer of the service: an internal transfer's request, another scope.
  createPaxosTransfer: {
    id: 'createPaxosTransfer',
    method: 'POST',
    path: '/v2/transfer/paxos',
    scope: SCOPES.writePaxosTransfer,
    body: S.CreatePaxosTransferRequest,
    response: S.Transfer,
    write: true,
    rules: ({ body }) => internalTransferIssues(body),
    catalogue: ({ body }) => profileTransferCatalogueIssues(body),
  },
  // ---- The address book, transfer limits and fiat deposit instructions ----
  listCryptoDestinationAddresses: {
    id: 'listCryptoDestinationAddresses',
    method: 'GET',
    path: '/v2/transfer/crypto-destination-addresses',
    scope: SCOPES.readCryptoDestinationAddress,
    query: S.ListCryptoDestinationAddressesQuery,
    response: S.ListCryptoDestinationAddressesResponse,
    paged: true,
    itemsKey: 'addresses',
    catalogue: ({ query }) =>
      (query.crypto_networks ?? []).flatMap((n: string, i: number) => networkIssues(`crypto_networks.${i}`, n)),
  },
  putCryptoDestinationAddress: {
    id: 'putCryptoDestinationAddress',
    method: 'PUT',
    path: '/v2/transfer/crypto-destination-address',
    scope: SCOPES.writeCryptoDestinationAddress,
    body: S.PutCryptoDestinationAddressRequest,
    response: S.PutCryptoDestinationAddressResponse,
    idempotent: true,
    rules: ({ body }) => destinationAddressIssues(body),
    catalogue: ({ body }) => networkIssues('crypto_network', body.crypto_network),
  },
  listTransferLimits: {
    id: 'listTransferLimits',
    method: 'GET',
    path: '/v2/transfer/limits/utilizations',
    scope: SCOPES.readTransferLimit,
    query: S.ListTransferLimitsQuery,
    response: S.ListTransferLimitsResponse,
  },
  createFiatDepositInstructions: {
    id: 'createFiatDepositInstructions',
    method: 'POST',
    path: '/v2/transfer/fiat-deposit-instructions',
    scope: SCOPES.writeFiatDepositInstructions,
    body: S.CreateFiatDepositInstructionsRequest,
    response: S.FiatDepositInstructions,
    write: true,
    problemContentType: 'application/json',
  },
  listFiatDepositInstructions: {
    id: 'listFiatDepositInstructions',
    method: 'GET',
    path: '/v2/transfer/fiat-deposit-instructions',
    scope: SCOPES.readFiatDepositInstructions,
    query: S.ListFiatDepositInstructionsQuery,
    response: S.ListFiatDepositInstructionsResponse,
    paged: true,
    problemContentType: 'application/json',
  },
  getFiatDepositInstructions: {
    id: 'getFiatDepositInstructions',
    method: 'GET',
    path: '/v2/transfer/fiat-deposit-instructions/{id}',
    scope: SCOPES.readFiatDepositInstructions,
    params: S.IdParams,
    response: S.FiatDepositInstructions,
    problemContentType: 'application/json',
  },
  // ---- Fiat accounts (where fiat withdrawals go) and fiat withdrawals to them ----
  listFiatAccounts: {
    id: 'listFiatAccounts',
    method: 'GET',
    path: '/v2/transfer/fiat-accounts',
    scope: SCOPES.readFiatAccount,
    query: S.ListFiatAccountsQuery,
    response: S.ListFiatAccountsResponse,
    paged: true,
    problemContentType: 'application/json',
  },
  getFiatAccount: {
    id: 'getFiatAccount',
    method: 'GET',
    path: '/v2/transfer/fiat-accounts/{id}',
    scope: SCOPES.readFiatAccount,
    params: S.IdParams,
    query: S.GetFiatAccountQuery,
    response: S.FiatAccount,
    problemContentType: 'application/json',
  },
  createFiatAccount: {
    id: 'createFiatAccount',
    method: 'POST',
    path: '/v2/transfer/fiat-accounts',
    scope: SCOPES.writeFiatAccount,
    body: S.CreateFiatAccountRequest,
    response: S.FiatAccount,
    write: true,
    rules: ({ body }) => [
      ...ownerIssues(body.fiat_account_owner, true),
      ...networkInstructionIssues(body.fiat_network_instructions),
    ],
    problemContentType: 'application/json',
  },
  updateFiatAccount: {
    id: 'updateFiatAccount',
    method: 'PUT',
    path: '/v2/transfer/fiat-accounts/{id}',
    scope: SCOPES.writeFiatAccount,
    params: S.IdParams,
    body: S.UpdateFiatAccountRequest,
    response: S.FiatAccount,
    idempotent: true,
    rules: ({ body }) => (body.fiat_account_owner ? ownerIssues(body.fiat_account_owner, false) : []),
    problemContentType: 'application/json',
  },
  deleteFiatAccount: {
    id: 'deleteFiatAccount',
    method: 'DELETE',
    path: '/v2/transfer/fiat-accounts/{id}',
    scope: SCOPES.writeFiatAccount,
    params: S.IdParams,
    response: S.EmptyObject,
    idempotent: true,
    problemContentType: 'application/json',
  },
  createFiatWithdrawal: {
    id: 'createFiatWithdrawal',
    method: 'POST',
    path: '/v2/transfer/fiat-withdrawals',
    scope: SCOPES.writeFiatWithdrawal,
    body: S.CreateFiatWithdrawalRequest,
    response: S.Transfer,
    write: true,
    problemContentType: 'application/json',
    problemContentStatuses: [400, 404],
    rules: ({ body }) => [
      ...amountOrTotalIssues(body),
      ...(body.asset !== 'USD'
        ? [{ field: 'asset', rule: 'must be USD (the only asset fiat withdrawals support)' }]
        : []),
    ],
  },
  // ---- Travel Rule: the VASP directory (any token), and crypto deposits held for their originator's details ----
  listVasps: {
    id: 'listVasps',
    method: 'GET',
    path: '/v2/travelrule/vasps',
    tokenOnly: true,
    query: S.ListVaspsQuery,
    response: S.ListVaspsResponse,
    paged: true,
  },
  getVasp: {
    id: 'getVasp',
    method: 'GET',
    path: '/v2/travelrule/vasps/{id}',
    tokenOnly: true,
    params: S.IdParams,
    response: S.GetVaspResponse,
  },
  updateCryptoDeposit: {
    id: 'updateCryptoDeposit',
    method: 'POST',
    path: '/v2/transfer/crypto-deposits/{id}/update',
    scope: SCOPES.updateCryptoDeposit,
    params: S.IdParams,
    body: S.UpdateCryptoDepositRequest,
    response: S.EmptyObject,
    // Releasing a held deposit twice is releasing it once (the second is a 409: it no longer needs info).
    idempotent: true,
    problemContentType: 'application/json',
    rules: ({ params, body }) => [...depositIdIssues(params.id), ...originatorIssues(body.originator_address_info)],
  },
  rejectCryptoDeposit: {
    id: 'rejectCryptoDeposit',
    method: 'POST',
    path: '/v2/transfer/crypto-deposits/{id}/reject',
    scope: SCOPES.rejectCryptoDeposit,
    params: S.IdParams,
    body: S.RejectCryptoDepositRequest,
    response: S.EmptyObject,
    idempotent: true,
    problemContentType: 'application/json',
    rules: ({ params }) => depositIdIssues(params.id),
  },
  // ---- Stablecoin conversions: USD to a stablecoin and back, one to one (the OpenAPI marks them deprecated) ----
  listStablecoinConversions: {
    id: 'listStablecoinConversions',
    method: 'GET',
    path: '/v2/conversion/stablecoins',
    scope: SCOPES.readConversionStablecoin,
    query: S.ListStablecoinConversionsQuery,
    response: S.ListStablecoinConversionsResponse,
    paged: true,
    problemContentType: 'application/json',
  },
  getStablecoinConversion: {
    id: 'getStablecoinConversion',
    method: 'GET',
    path: '/v2/conversion/stablecoins/{id}',
    scope: SCOPES.readConversionStablecoin,
    params: S.IdParams,
    response: S.StablecoinConversion,
    problemContentType: 'application/json',
  },
  createStablecoinConversion: {
    id: 'createStablecoinConversion',
    method: 'POST',
    path: '/v2/conversion/stablecoins',
    scope: SCOPES.writeConversionStablecoin,
    body: S.CreateStablecoinConversionRequest,
    response: S.StablecoinConversion,
    write: true,
    rules: ({ body }) =>
      isAmountString(body.amount) && dec(body.amount).lte(0)
        ? [{ field: 'amount', rule: 'must be greater than 0' }]
        : [],
    catalogue: ({ body }) => conversionPairIssues(body),
    problemContentType: 'application/json',
  },
  cancelStablecoinConversion: {
    id: 'cancelStablecoinConversion',
    method: 'DELETE',
    path: '/v2/conversion/stablecoins/{id}',
    scope: SCOPES.writeConversionStablecoin,
    params: S.IdParams,
    response: S.StablecoinConversion,
    idempotent: true,
    problemContentType: 'application/json',
  },
  // ---- Address verification: proving a destination address is the customer's own ----
  listVerifications: {
    id: 'listVerifications',
    method: 'GET',
    path: '/v2/addresses/verifications',
    scope: SCOPES.readVerification,
    query: S.ListVerificationsQuery,
    response: S.ListVerificationsResponse,
    paged: true,
    rules: ({ query }) => orderByIssues(query),
    catalogue: ({ query }) => (query.network !== undefined ? networkIssues('network', query.network) : []),
  },
  createVerification: {
    id: 'createVerification',
    method: 'POST',
    path: '/v2/addresses/verifications',
    scope: SCOPES.writeVerification,
    body: S.CreateVerificationRequest,
    response: S.AddressVerification,
    write: true,
    catalogue: ({ body }) => networkIssues('network', body.network),
  },
  submitVerificationSignature: {
    id: 'submitVerificationSignature',
    method: 'POST',
    path: '/v2/addresses/verifications/signature',
    scope: SCOPES.writeVerification,
    body: S.SubmitSignatureRequest,
    response: S.AddressVerification,
  },
  getVerification: {
    id: 'getVerification',
    method: 'GET',
    path: '/v2/addresses/verifications/{id}',
    scope: SCOPES.readVerification,
    params: S.IdParams,
    response: S.AddressVerification,
  },
  // ---- Statements (monthly USDG rewards statements) and the payments that settle them ----
  listStatements: {
    id: 'listStatements',
    method: 'GET',
    path: '/v2/statements',
    scope: SCOPES.readStatement,
    query: S.ListStatementsQuery,
    response: S.ListStatementsResponse,
    paged: true,
    itemsKey: 'statements',
  },
  listPayments: {
    id: 'listPayments',
    method: 'GET',
    path: '/v2/statements/payments',
    scope: SCOPES.readPayment,
    query: S.ListPaymentsQuery,
    response: S.ListPaymentsResponse,
    paged: true,
    itemsKey: 'payments',
    rules: ({ query }) => paymentQueryIssues(query),
  },
  // ---- The event feed: every state change of a transfer or deposit address, ordered by created_at ----
  listEvents: {
    id: 'listEvents',
    method: 'GET',
    path: '/v2/events',
    scope: SCOPES.readEvent,
    query: S.ListEventsQuery,
    response: S.ListEventsResponse,
    paged: true,
    itemsKey: 'events',
    problemContentType: 'application/json',
  },
  getEvent: {
    id: 'getEvent',
    method: 'GET',
    path: '/v2/events/{id}',
    scope: SCOPES.readEvent,
    params: S.IdParams,
    query: S.GetEventQuery,
    response: S.Event,
    problemContentType: 'application/json',
  },
  // ---- Market data snapshots: public in the OpenAPI (no scope), from the same simulated market as the stream ----
  listMarkets: {
    id: 'listMarkets',
    method: 'GET',
    path: '/v2/markets',
    response: S.ListMarketsResponse,
  },
  getTicker: {
    id: 'getTicker',
    method: 'GET',
    path: '/v2/markets/{market}/ticker',
    params: S.MarketSymbolParams,
    response: S.Ticker,
  },
  getOrderBook: {
    id: 'getOrderBook',
    method: 'GET',
    path: '/v2/markets/{market}/order-book',
    params: S.MarketSymbolParams,
    response: S.OrderBookResponse,
  },
  listRecentExecutions: {
    id: 'listRecentExecutions',
    method: 'GET',
    path: '/v2/markets/{market}/recent-executions',
    params: S.MarketSymbolParams,
    response: S.ListRecentExecutionsResponse,
  },
  listPrices: {
    id: 'listPrices',
    method: 'GET',
    path: '/v2/all-markets/prices',
    query: S.ListPricesQuery,
    response: S.ListPricesResponse,
  },
} satisfies Record<string, Operation>;

export type OperationId = keyof typeof operations;

/** The TypeBox schema of part K of an operation, or undefined for an operation without that part. */
type PartSchema<O, K extends 'params' | 'query' | 'body'> = O extends { [P in K]: infer S extends TSchema }
  ? S
  : undefined;
/** The static type of a part: its schema's, or undefined for an operation without it. */
type PartType<O, K extends 'params' | 'query' | 'body'> =
  PartSchema<O, K> extends TSchema ? Static<PartSchema<O, K>> : undefined;

/** An operation's request parts and response as TypeScript types, derived from its TypeBox schemas (Static<>). */
export interface TypesOf<O extends Operation> {
  params: PartType<O, 'params'>;
  query: PartType<O, 'query'>;
  body: PartType<O, 'body'>;
  response: Static<O['response']>;
}

/**
 * Each operation's request parts and response as TypeScript types, declared once from its schemas: what the client
 * sends and reads, and what the local service's handlers are given and return.
 */
export type OperationTypes = { [K in OperationId]: TypesOf<(typeof operations)[K]> };
export type ParamsOf<K extends OperationId> = OperationTypes[K]['params'];
export type QueryOf<K extends OperationId> = OperationTypes[K]['query'];
export type BodyOf<K extends OperationId> = OperationTypes[K]['body'];
export type ResponseOf<K extends OperationId> = OperationTypes[K]['response'];

/** The list operations (they answer pages). */
export type PagedOperationId = {
  [K in OperationId]: (typeof operations)[K] extends { paged: true } ? K : never;
}[OperationId];
/** An item of a list operation's pages: of its response's one list (`items`, or the one its itemsKey names). */
export type ItemOf<K extends PagedOperationId> = {
  [P in keyof ResponseOf<K>]-?: NonNullable<ResponseOf<K>[P]> extends (infer T)[] ? T : never;
}[keyof ResponseOf<K>];

/** A balance asset the catalogue lets the asset debit instead (USD for USDP and PYUSD). */
function balanceAssetIssues(body: { asset?: unknown; balance_asset?: unknown }): CatalogueIssue[] {
  const b = body.balance_asset;
  if (typeof b !== 'string' || b === body.asset) return [];
  const allowed = (typeof body.asset === 'string' ? ASSETS[body.asset]?.balanceAssets : undefined) ?? [];
  if (allowed.includes(b)) return [];
  return [
    {
      field: 'balance_asset',
      value: b,
      rule: `must be ${[body.asset, ...allowed].join(' or ')}`,
      note: `coinop's catalogue has no ${String(body.asset)} withdrawal from a ${b} balance`,
    },
  ];
}

/** An amount above zero, between two different profiles (the asset and its decimals are the catalogue's). */
function internalTransferIssues(body: S.CreateInternalTransferRequest): Issue[] {
  const issues: Issue[] = [];
  if (isAmountString(body.amount) && dec(body.amount).lte(0))
    issues.push({ field: 'amount', rule: 'must be greater than 0' });
  if (body.to_profile_id === body.from_profile_id)
    issues.push({ field: 'to_profile_id', rule: 'must not be the profile it is sent from' });
  return issues;
}

/** A transfer between profiles against the catalogue: its asset, and its amount within the asset's decimals. */
function profileTransferCatalogueIssues(body: S.CreateInternalTransferRequest): CatalogueIssue[] {
  return [
    ...assetIssues('asset', body.asset),
    ...(isAmountString(body.amount) && dec(body.amount).gt(0) ? decimalsIssues('amount', body.asset, body.amount) : []),
  ];
}

/**
 * A conversion is between USD and a stablecoin of the catalogue (STABLECOINS), either way, one to one; the amount in
 * USD's cents at most (what the USD side can hold).
 */
function conversionPairIssues(body: { source_asset?: unknown; target_asset?: unknown; amount?: unknown }) {
  const { source_asset: from, target_asset: to } = body;
  if (typeof from !== 'string' || typeof to !== 'string') return [];
  const pairs = STABLECOINS.map((c) => `USD to ${c} or ${c} to USD`).join(', ');
  const issues: CatalogueIssue[] = [];
  const stable = (a: string) => STABLECOINS.includes(a);
  if (!((from === 'USD' && stable(to)) || (stable(from) && to === 'USD')))
    issues.push({
      field: from === 'USD' || stable(from) ? 'target_asset' : 'source_asset',
      value: from === 'USD' || stable(from) ? to : from,
      rule: `a conversion is ${pairs}`,
      note: `coinop's catalogue converts USD to ${STABLECOINS.join(' and ')} and back`,
    });
  issues.push(...decimalsIssues('amount', 'USD', body.amount));
  return issues;
}

/** A fiat account's owner: a person or an institution (on create exactly one; an update changes one, never both). */
function ownerIssues(owner: S.CreateFiatAccountRequest['fiat_account_owner'], create: boolean): Issue[] {
  const given = ['person_details', 'institution_details'].filter((k) => owner[k as keyof typeof owner] !== undefined);
  if (given.length > 1)
    return [{ field: 'fiat_account_owner', rule: 'give person_details or institution_details, not both' }];
  if (create && !given.length)
    return [{ field: 'fiat_account_owner', rule: 'give person_details or institution_details' }];
  return [];
}

/** A fiat account's instructions name exactly one network (wire, cbit, dbs_act, cubix, scb or rtp). */
function networkInstructionIssues(instructions: S.FiatAccountNetworkInstructions): Issue[] {
  const given = Object.keys(instructions);
  if (given.length === 1) return [];
  return [
    {
      field: 'fiat_network_instructions',
      rule: `give exactly one of ${FIAT_ACCOUNT_NETWORKS.join(', ')}${given.length ? `, not ${given.join(' and ')}` : ''}`,
    },
  ];
}

/** Whether a value is a UUID (any version), as the service's ids are. */
export const isUuid = (v: unknown): boolean =>
  typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);

/** A crypto deposit's id is a UUID (the OpenAPI's 400: "id must be uuid, given ..."). */
function depositIdIssues(id: unknown): Issue[] {
  return isUuid(id) ? [] : [{ field: 'id', rule: 'must be a UUID' }];
}

/** The originator of a deposit: a person (both names) or an institution (its name), exactly one. */
function originatorIssues(info: S.UpdateCryptoDepositRequest['originator_address_info']): Issue[] {
  const given = (['individual_info', 'institution_info'] as const).filter((k) => info[k] !== undefined);
  return given.length === 1
    ? []
    : [{ field: 'originator_address_info', rule: 'give exactly one of individual_info and institution_info' }];
}

/**
 * The OpenAPI: "When specifying both order_by and a timestamp filter, order_by must equal the timestamp filter type"
 * (updated_at.* goes with UPDATED_AT, created_at.* with CREATED_AT).
 */
function orderByIssues(query: Record<string, unknown>): Issue[] {
  if (query.order_by === undefined) return [];
  const has = (prefix: string) => ['lt', 'lte', 'eq', 'gte', 'gt'].some((k) => query[`${prefix}.${k}`] !== undefined);
  const kinds = (['created_at', 'updated_at'] as const).filter(has);
  if (!kinds.length) return [];
  if (kinds.length === 2)
    return [{ field: 'order_by', rule: 'cannot be given with both created_at and updated_at filters' }];
  const needed = kinds[0] === 'created_at' ? 'CREATED_AT' : 'UPDATED_AT';
  return query.order_by === needed ? [] : [{ field: 'order_by', rule: `must be ${needed} with ${kinds[0]} filters` }];
}

/**
 * The OpenAPI of ListPayments: "No other parameters are allowed if ref_ids (or payment_ids) are provided" (the page's
 * limit, order and cursor aside).
 */
function paymentQueryIssues(query: S.ListPaymentsQuery): Issue[] {
  const by = (['ref_ids', 'payment_ids'] as const).find((k) => query[k] !== undefined);
  if (!by) return [];
  const others = (['ref_ids', 'payment_ids', 'customer_id', 'product', 'payment_status'] as const).filter(
    (k) => k !== by && query[k] !== undefined,
  );
  return others.length ? [{ field: others[0], rule: `cannot be given with ${by}` }] : [];
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
 * How the catalogue's rules count: `enforce` (the local service, whose catalogue it is, and the CLI talking to it)
 * makes them issues like any other; `apart` returns them on their own, for the CLI to note when it talks to another
 * service, or to leave for later when it does not know yet which service it talks to.
 */
export type CatalogueMode = 'enforce' | 'apart';

/**
 * Every issue with a request to an operation: schema first (per part), then the cross-field rules and the catalogue's.
 * The query is given as parsed from a query string (strings and arrays) and coerced here.
 */
export function requestIssues(
  op: Operation,
  parts: RequestParts,
  catalogue: CatalogueMode = 'enforce',
): { issues: Issue[]; query?: Record<string, unknown>; unlisted: CatalogueIssue[] } {
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
  const input = { params: parts.params ?? {}, query: query ?? {}, body: parts.body ?? {} };
  // A request that broke its schema is told of the names the catalogue does not list too, but for a field the schema
  // named already. The rules the catalogue derives from a name (an asset's networks and decimals) wait for a
  // well-formed request at the service, which answers as the hosted one does; the CLI ('apart') tells them at once
  // (a batch row's every problem), as they read only the fields well formed for them.
  const named = new Set(issues.map((i) => i.field));
  const unlisted = (op.catalogue?.(input) ?? []).filter(
    (u) => !named.has(u.field) && (catalogue === 'apart' || !issues.length || u.unknownName),
  );
  if (!issues.length) issues.push(...(op.rules?.(input) ?? []));
  if (catalogue === 'apart') return { issues, query, unlisted };
  // The catalogue's issues as the rules': field and rule only.
  issues.push(...unlisted.map(({ field, rule }) => ({ field, rule })));
  return { issues, query, unlisted: [] };
}

/** Address rule, kept apart because the service answers it with its own named problem. */
export { addressIssues };
