// Every request, query and resource of the service as JSON Schema with static types (TypeBox).
// Requests are strict (unknown fields are errors); resources are open, because the hosted service adds fields.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import {
  CONVERSION_TARGET_ASSETS, CRYPTO_NETWORKS, DEPOSIT_ADDRESS_ORDER_BY, LIST_ORDERS, MARKETS, PRICE_INCREMENTS,
  STREAM_CHANNELS, TRANSFER_DIRECTIONS, TRANSFER_ORDER_BY, TRANSFER_STATUSES, TRANSFER_TYPES,
} from './enums.js';

/** SERVICE.md's amount pattern: a non-negative decimal string without sign or exponent. */
export const AMOUNT_PATTERN = '^[0-9]*\\.?[0-9]+$';
/** Sandbox fiat deposits: at most two decimals. */
export const FIAT_AMOUNT_PATTERN = '^[0-9]*\\.?[0-9]{1,2}$';
export const METADATA_MAX_PAIRS = 6;
export const METADATA_MAX_LENGTH = 100;
export const LIST_FILTER_MAX = 100;
export const LIST_LIMIT_DEFAULT = 100;
export const LIST_LIMIT_MAX = 1000;
/** Longest identifier or free string the local service accepts; anything longer is bad input, not a 500. */
export const ID_MAX_LENGTH = 128;
export const TEXT_MAX_LENGTH = 1000;

const enumOf = <T extends readonly string[]>(values: T, description?: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

export const CryptoNetworkSchema = enumOf(CRYPTO_NETWORKS);
export const MarketSchema = enumOf(MARKETS);
export const PriceIncrementSchema = enumOf(PRICE_INCREMENTS);
export const ListOrderSchema = enumOf(LIST_ORDERS);
export const TransferStatusSchema = enumOf(TRANSFER_STATUSES);
export const TransferTypeSchema = enumOf(TRANSFER_TYPES);
export const TransferDirectionSchema = enumOf(TRANSFER_DIRECTIONS);
export const ConversionTargetAssetSchema = enumOf(CONVERSION_TARGET_ASSETS);

const Amount = Type.String({ pattern: AMOUNT_PATTERN, maxLength: 60, description: 'decimal string' });
const Id = Type.String({ minLength: 1, maxLength: ID_MAX_LENGTH });
const Text = Type.String({ maxLength: TEXT_MAX_LENGTH });
const DateTime = Type.String({ format: 'date-time' });
export const Metadata = Type.Record(Type.String({ maxLength: METADATA_MAX_LENGTH }), Type.String({ maxLength: METADATA_MAX_LENGTH }), {
  maxProperties: METADATA_MAX_PAIRS,
  // TypeBox turns the key schema into a catch-all pattern and drops its maxLength; this keeps the key rule.
  propertyNames: { maxLength: METADATA_MAX_LENGTH },
});
const Open = { additionalProperties: true } as const;
const Strict = { additionalProperties: false } as const;
const OpenObject = Type.Object({}, Open);

// ---- Resources (responses) -------------------------------------------------------------------------------

export const Transfer = Type.Object(
  {
    id: Type.String(),
    customer_id: Type.String(),
    profile_id: Type.String(),
    amount: Type.String(),
    total: Type.String(),
    fee: Type.String(),
    asset: Type.String(),
    // Open strings: the hosted service's own example sends a direction outside the enumeration.
    direction: Type.String(),
    type: Type.String(),
    status: Type.String(),
    created_at: Type.String(),
    updated_at: Type.String(),
    identity_id: Type.Optional(Type.String()),
    account_id: Type.Optional(Type.String()),
    ref_id: Type.Optional(Type.String()),
    balance_asset: Type.Optional(Type.String()),
    secondary_status: Type.Optional(OpenObject),
    status_details: Type.Optional(OpenObject),
    metadata: Type.Optional(Type.Record(Type.String(), Type.String())),
    destination_address: Type.Optional(Type.String()),
    crypto_network: Type.Optional(Type.String()),
    crypto_tx_hash: Type.Optional(Type.String()),
    crypto_tx_index: Type.Optional(Type.String()),
    auto_conversion: Type.Optional(OpenObject),
    group_id: Type.Optional(Type.String()),
    fiat_account_id: Type.Optional(Type.String()),
    notional_value: Type.Optional(Type.String()),
    memo: Type.Optional(Type.String()),
  },
  Open,
);
export type Transfer = Static<typeof Transfer>;

export const CryptoWithdrawalFee = Type.Object(
  {
    id: Type.String(),
    fee: Type.String(),
    asset: Type.String(),
    expires_at: Type.String(),
    destination_address: Type.String(),
    crypto_network: Type.String(),
    amount: Type.Optional(Type.String()),
    total: Type.Optional(Type.String()),
  },
  Open,
);
export type CryptoWithdrawalFee = Static<typeof CryptoWithdrawalFee>;

export const DepositAddress = Type.Object(
  {
    id: Type.String(),
    profile_id: Type.String(),
    customer_id: Type.String(),
    crypto_network: Type.String(),
    address: Type.String(),
    conversion_target_asset: Type.Optional(Type.String()),
    created_at: Type.Optional(Type.String()),
    identity_id: Type.Optional(Type.String()),
    ref_id: Type.Optional(Type.String()),
    account_id: Type.Optional(Type.String()),
    metadata: Type.Optional(Type.Record(Type.String(), Type.String())),
    compatible_crypto_networks: Type.Optional(Type.Array(Type.String())),
  },
  Open,
);
export type DepositAddress = Static<typeof DepositAddress>;

export const Page = <T extends TSchema>(item: T) =>
  Type.Object({ items: Type.Array(item), next_page_cursor: Type.Optional(Type.String()) }, Open);

export const ListDepositAddressesResponse = Page(DepositAddress);
export type ListDepositAddressesResponse = Static<typeof ListDepositAddressesResponse>;
export const ListTransfersResponse = Page(Transfer);
export type ListTransfersResponse = Static<typeof ListTransfersResponse>;

export const HistoricalPrice = Type.Object({ average_price: Type.String(), timestamp: Type.String() }, Open);
export type HistoricalPrice = Static<typeof HistoricalPrice>;
/** The schema names the list `items`, the published example `prices`: both are accepted. */
export const ListHistoricalPricesResponse = Type.Object(
  {
    market: Type.Optional(Type.String()),
    items: Type.Optional(Type.Array(HistoricalPrice)),
    prices: Type.Optional(Type.Array(HistoricalPrice)),
    total_count: Type.Optional(Type.Integer()),
  },
  Open,
);
export type ListHistoricalPricesResponse = Static<typeof ListHistoricalPricesResponse>;

export const EmptyObject = Type.Object({}, Open);

export const Problem = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.Optional(Type.String()),
    meta: Type.Optional(OpenObject),
  },
  Open,
);
export type Problem = Static<typeof Problem>;

export const TokenResponse = Type.Object(
  { access_token: Type.String(), expires_in: Type.Integer(), token_type: Type.String(), scope: Type.Optional(Type.String()) },
  Open,
);
export type TokenResponse = Static<typeof TokenResponse>;

// ---- Requests ----------------------------------------------------------------------------------------------

export const CreateCryptoWithdrawalRequest = Type.Object(
  {
    profile_id: Id,
    destination_address: Type.String({ minLength: 1, maxLength: 200 }),
    asset: Type.String({ minLength: 1, maxLength: 20 }),
    crypto_network: CryptoNetworkSchema,
    ref_id: Type.Optional(Id),
    identity_id: Type.Optional(Id),
    account_id: Type.Optional(Id),
    balance_asset: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
    metadata: Type.Optional(Metadata),
    fee_id: Type.Optional(Id),
    amount: Type.Optional(Amount),
    total: Type.Optional(Amount),
    beneficiary: Type.Optional(OpenObject),
    memo: Type.Optional(Text),
  },
  Strict,
);
export type CreateCryptoWithdrawalRequest = Static<typeof CreateCryptoWithdrawalRequest>;

export const CreateCryptoWithdrawalFeeRequest = Type.Object(
  {
    asset: Type.String({ minLength: 1, maxLength: 20 }),
    destination_address: Type.String({ minLength: 1, maxLength: 200 }),
    crypto_network: CryptoNetworkSchema,
    amount: Type.Optional(Amount),
    total: Type.Optional(Amount),
  },
  Strict,
);
export type CreateCryptoWithdrawalFeeRequest = Static<typeof CreateCryptoWithdrawalFeeRequest>;

export const CreateDepositAddressRequest = Type.Object(
  {
    profile_id: Id,
    crypto_network: CryptoNetworkSchema,
    identity_id: Type.Optional(Id),
    ref_id: Type.Optional(Id),
    metadata: Type.Optional(Metadata),
    account_id: Type.Optional(Id),
    conversion_target_asset: Type.Optional(ConversionTargetAssetSchema),
  },
  Strict,
);
export type CreateDepositAddressRequest = Static<typeof CreateDepositAddressRequest>;

const PostalAddress = Type.Object(
  {
    country: Type.Optional(Text),
    address1: Type.Optional(Text),
    address2: Type.Optional(Text),
    city: Type.Optional(Text),
    province: Type.Optional(Text),
    zip_code: Type.Optional(Text),
  },
  Strict,
);

export const WireInstructions = Type.Object(
  {
    account_number: Type.Optional(Text),
    fiat_account_owner_address: Type.Optional(PostalAddress),
    routing_details: Type.Optional(
      Type.Object(
        {
          routing_number_type: Type.Optional(Text),
          routing_number: Type.Optional(Text),
          bank_name: Type.Optional(Text),
          bank_address: Type.Optional(PostalAddress),
        },
        Strict,
      ),
    ),
  },
  Strict,
);

export const InitiateSandboxFiatDepositRequest = Type.Object(
  {
    amount: Type.String({ pattern: FIAT_AMOUNT_PATTERN, maxLength: 30 }),
    asset: Type.String({ minLength: 1, maxLength: 20 }),
    memo_id: Type.String({ minLength: 1, maxLength: ID_MAX_LENGTH }),
    fiat_network_instructions: Type.Object({ wire: WireInstructions }, Strict),
    fiat_account_owner: Type.Optional(
      Type.Object({ institution_details: Type.Optional(Type.Object({ name: Type.Optional(Text) }, Strict)) }, Strict),
    ),
  },
  Strict,
);
export type InitiateSandboxFiatDepositRequest = Static<typeof InitiateSandboxFiatDepositRequest>;

const IdList = Type.Array(Id, { maxItems: LIST_FILTER_MAX });
const Limit = Type.Integer({ minimum: 1, maximum: LIST_LIMIT_MAX });

const createdAtFilters = {
  'created_at.lt': Type.Optional(DateTime),
  'created_at.lte': Type.Optional(DateTime),
  'created_at.eq': Type.Optional(DateTime),
  'created_at.gte': Type.Optional(DateTime),
  'created_at.gt': Type.Optional(DateTime),
};
const updatedAtFilters = {
  'updated_at.lt': Type.Optional(DateTime),
  'updated_at.lte': Type.Optional(DateTime),
  'updated_at.eq': Type.Optional(DateTime),
  'updated_at.gte': Type.Optional(DateTime),
  'updated_at.gt': Type.Optional(DateTime),
};

export const ListDepositAddressesQuery = Type.Object(
  {
    profile_ids: Type.Optional(IdList),
    identity_ids: Type.Optional(IdList),
    account_ids: Type.Optional(IdList),
    ids: Type.Optional(IdList),
    ref_ids: Type.Optional(IdList),
    networks: Type.Optional(Type.Array(CryptoNetworkSchema, { maxItems: LIST_FILTER_MAX })),
    ...createdAtFilters,
    limit: Type.Optional(Limit),
    order: Type.Optional(ListOrderSchema),
    order_by: Type.Optional(enumOf(DEPOSIT_ADDRESS_ORDER_BY)),
    page_cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  },
  Strict,
);
export type ListDepositAddressesQuery = Static<typeof ListDepositAddressesQuery>;

export const ListTransfersQuery = Type.Object(
  {
    ids: Type.Optional(IdList),
    ref_ids: Type.Optional(IdList),
    profile_ids: Type.Optional(IdList),
    identity_ids: Type.Optional(IdList),
    type: Type.Optional(Type.Array(TransferTypeSchema, { maxItems: LIST_FILTER_MAX })),
    statuses: Type.Optional(Type.Array(TransferStatusSchema, { maxItems: LIST_FILTER_MAX })),
    crypto_tx_hashes: Type.Optional(IdList),
    group_ids: Type.Optional(IdList),
    ...createdAtFilters,
    ...updatedAtFilters,
    limit: Type.Optional(Limit),
    order: Type.Optional(ListOrderSchema),
    order_by: Type.Optional(enumOf(TRANSFER_ORDER_BY)),
    page_cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  },
  Strict,
);
export type ListTransfersQuery = Static<typeof ListTransfersQuery>;

export const ListHistoricalPricesQuery = Type.Object(
  {
    max_data_points: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
    'range.begin': Type.Optional(DateTime),
    'range.end': Type.Optional(DateTime),
    'pagination.limit': Type.Optional(Limit),
    'pagination.offset': Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000 })),
    increment: Type.Optional(PriceIncrementSchema),
  },
  Strict,
);
export type ListHistoricalPricesQuery = Static<typeof ListHistoricalPricesQuery>;

export const MarketParams = Type.Object({ market: MarketSchema }, Strict);
export const IdParams = Type.Object({ id: Id }, Strict);

export const TokenRequest = Type.Object(
  {
    grant_type: Type.String(),
    client_id: Type.Optional(Type.String({ maxLength: ID_MAX_LENGTH })),
    client_secret: Type.Optional(Type.String({ maxLength: 500 })),
    scope: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  Open,
);

// ---- Stream messages (SERVICE.md 4.6 and 6) -------------------------------------------------------------------

export const StreamChannelRequest = Type.Object({
  type: Type.String(),
  params: Type.Optional(Type.Object({ market: Type.Optional(Type.String()) }, Open)),
});
export const StreamRequest = Type.Object(
  {
    type: Type.String(),
    channels: Type.Optional(Type.Array(StreamChannelRequest)),
  },
  Open,
);
export type StreamRequest = Static<typeof StreamRequest>;

export interface BookLevel {
  price: string;
  amount: string;
}
export interface MarketDataPayload {
  market: string;
  type: 'SNAPSHOT' | 'UPDATE';
  time: string;
  bids: BookLevel[];
  asks: BookLevel[];
}
export interface TopOfBookPayload {
  market: string;
  type: 'TOP_OF_BOOK';
  timestamp: string;
  bids: BookLevel[];
  asks: BookLevel[];
}
export interface ExecutionPayload {
  market: string;
  price: string;
  amount: string;
  executed_at: string;
}
export interface HeartbeatPayload {
  timestamp: string;
}
export type StreamChannelType = (typeof STREAM_CHANNELS)[number];
export interface ChannelSpec {
  type: string;
  params?: { market?: string };
}
export interface ChannelAck extends ChannelSpec {
  success: boolean;
  error?: string;
}
