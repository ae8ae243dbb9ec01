// Every request, query and resource of the service as JSON Schema with static types (TypeBox).
// Requests are strict (unknown fields are errors); resources are open, because the hosted service adds fields.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import {
  CONVERSION_TARGET_ASSETS,
  CRYPTO_DESTINATION_ADDRESS_ORDER_BY,
  CUSTODIAN_TYPES,
  type CryptoNetwork,
  DEPOSIT_ADDRESS_ORDER_BY,
  EVENT_LIST_LIMIT_MAX,
  EVENT_TYPE_PATTERN,
  FIAT_NETWORKS,
  FIAT_ACCOUNT_STATUSES,
  FIAT_ROUTING_NUMBER_TYPES,
  LIST_ORDERS,
  type Market,
  PRICE_INCREMENTS,
  PROFILE_ORDER_BY,
  type STREAM_CHANNELS,
  TRANSFER_DIRECTIONS,
  TRANSFER_LIMIT_TYPES,
  TRANSFER_ORDER_BY,
  TRANSFER_SECONDARY_STATUSES,
  TRANSFER_STATUSES,
  TRANSFER_TYPE_FILTERS,
  VASP_ORDER_BY,
} from './enums.js';

/** The shape of an asset, network or market name: capital letters, digits and underscores (BTC, BITCOIN_CASH). */
export const NAME_PATTERN = '^[A-Z0-9_]+$';
/** spec/SERVICE.md's amount pattern: a non-negative decimal string without sign or exponent. */
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

export const PriceIncrementSchema = enumOf(PRICE_INCREMENTS);
export const ListOrderSchema = enumOf(LIST_ORDERS);
export const TransferStatusSchema = enumOf(TRANSFER_STATUSES);
export const TransferDirectionSchema = enumOf(TRANSFER_DIRECTIONS);
export const ConversionTargetAssetSchema = enumOf(CONVERSION_TARGET_ASSETS);

const Amount = Type.String({ pattern: AMOUNT_PATTERN, maxLength: 60, description: 'decimal string' });
/**
 * Names of the service's reference data by their shape only (NAME_PATTERN): whether this service lists one is the
 * catalogue's to say (each operation's `catalogue` rules), enforced by the local service, whose catalogue it is, and
 * only noted by the CLI against another service, which decides for itself.
 */
const AssetName = Type.String({ minLength: 1, maxLength: 20, pattern: NAME_PATTERN });
// Their static types are the catalogue's: what the local service's handlers get once its catalogue check passed.
const NetworkName = Type.Unsafe<CryptoNetwork>({ type: 'string', minLength: 1, maxLength: 40, pattern: NAME_PATTERN });
const MarketName = Type.Unsafe<Market>({ type: 'string', minLength: 1, maxLength: 40, pattern: NAME_PATTERN });
const Id = Type.String({ minLength: 1, maxLength: ID_MAX_LENGTH });
const Text = Type.String({ maxLength: TEXT_MAX_LENGTH });
const DateTime = Type.String({ format: 'date-time' });
export const Metadata = Type.Record(
  Type.String({ maxLength: METADATA_MAX_LENGTH }),
  Type.String({ maxLength: METADATA_MAX_LENGTH }),
  {
    maxProperties: METADATA_MAX_PAIRS,
    // TypeBox turns the key schema into a catch-all pattern and drops its maxLength; this keeps the key rule.
    propertyNames: { maxLength: METADATA_MAX_LENGTH },
  },
);
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
  {
    access_token: Type.String(),
    expires_in: Type.Integer(),
    token_type: Type.String(),
    scope: Type.Optional(Type.String()),
  },
  Open,
);
export type TokenResponse = Static<typeof TokenResponse>;

// ---- Requests ----------------------------------------------------------------------------------------------

/**
 * A withdrawal's beneficiary (the OpenAPI's CryptoWithdrawalBeneficiary, "legacy"): a person with both names or an
 * institution with a name. Other keys pass as the OpenAPI lets them.
 */
export const CryptoWithdrawalBeneficiary = Type.Object(
  {
    person_details: Type.Optional(
      Type.Object(
        {
          first_name: Type.String({ maxLength: TEXT_MAX_LENGTH }),
          last_name: Type.String({ maxLength: TEXT_MAX_LENGTH }),
        },
        Open,
      ),
    ),
    institution_details: Type.Optional(Type.Object({ name: Type.String({ maxLength: TEXT_MAX_LENGTH }) }, Open)),
  },
  Open,
);

export const CreateCryptoWithdrawalRequest = Type.Object(
  {
    profile_id: Id,
    destination_address: Type.String({ minLength: 1, maxLength: 200 }),
    asset: AssetName,
    crypto_network: NetworkName,
    ref_id: Type.Optional(Id),
    identity_id: Type.Optional(Id),
    account_id: Type.Optional(Id),
    balance_asset: Type.Optional(AssetName),
    metadata: Type.Optional(Metadata),
    fee_id: Type.Optional(Id),
    amount: Type.Optional(Amount),
    total: Type.Optional(Amount),
    beneficiary: Type.Optional(CryptoWithdrawalBeneficiary),
    memo: Type.Optional(Text),
  },
  Strict,
);
export type CreateCryptoWithdrawalRequest = Static<typeof CreateCryptoWithdrawalRequest>;

export const CreateCryptoWithdrawalFeeRequest = Type.Object(
  {
    asset: AssetName,
    destination_address: Type.String({ minLength: 1, maxLength: 200 }),
    crypto_network: NetworkName,
    amount: Type.Optional(Amount),
    total: Type.Optional(Amount),
  },
  Strict,
);
export type CreateCryptoWithdrawalFeeRequest = Static<typeof CreateCryptoWithdrawalFeeRequest>;

export const CreateDepositAddressRequest = Type.Object(
  {
    profile_id: Id,
    crypto_network: NetworkName,
    identity_id: Type.Optional(Id),
    ref_id: Type.Optional(Id),
    metadata: Type.Optional(Metadata),
    account_id: Type.Optional(Id),
    conversion_target_asset: Type.Optional(ConversionTargetAssetSchema),
  },
  Strict,
);
export type CreateDepositAddressRequest = Static<typeof CreateDepositAddressRequest>;

// The sandbox deposit's instructions as the hosted service's OpenAPI has them (MailingAddress,
// FiatNetworkInstructionsWire, FiatAccountOwner): wire only, as spec/SERVICE.md has it (the OpenAPI's other kinds,
// cbit, dbs_act, cubix, scb and rtp, are unknown fields here).

/** The characters a mailing address may hold, at most 35 of them per part. */
export const MAILING_ADDRESS_PATTERN = "^[0-9A-Za-z /?:().,&'+-]+$";
export const MAILING_ADDRESS_MAX_LENGTH = 35;
const AddressPart = Type.String({
  minLength: 1,
  maxLength: MAILING_ADDRESS_MAX_LENGTH,
  pattern: MAILING_ADDRESS_PATTERN,
});
/**
 * An optional part may also be empty: the OpenAPI's own example request sends `"address2": ""`, which its pattern
 * refuses; an empty part is taken as no part (src/local/README.md lists the difference).
 */
const OptionalAddressPart = Type.Optional(
  Type.String({ maxLength: MAILING_ADDRESS_MAX_LENGTH, pattern: MAILING_ADDRESS_PATTERN.replace('+$', '*$') }),
);
const RequiredText = Type.String({ minLength: 1, maxLength: TEXT_MAX_LENGTH });

export const MailingAddress = Type.Object(
  {
    country: AddressPart,
    address1: OptionalAddressPart,
    address2: OptionalAddressPart,
    city: OptionalAddressPart,
    province: OptionalAddressPart,
    zip_code: OptionalAddressPart,
  },
  Strict,
);

export const WIRE_ROUTING_NUMBER_TYPES = ['ABA', 'SWIFT'] as const;

export const WireRoutingDetails = Type.Object(
  {
    routing_number_type: enumOf(WIRE_ROUTING_NUMBER_TYPES),
    routing_number: RequiredText,
    bank_name: RequiredText,
    bank_address: MailingAddress,
  },
  Strict,
);

export const WireInstructions = Type.Object(
  {
    account_number: RequiredText,
    fiat_account_owner_address: MailingAddress,
    routing_details: WireRoutingDetails,
    intermediary_routing_details: Type.Optional(WireRoutingDetails),
  },
  Strict,
);
export type WireInstructions = Static<typeof WireInstructions>;

export const FiatAccountOwner = Type.Object(
  {
    person_details: Type.Optional(Type.Object({ first_name: RequiredText, last_name: RequiredText }, Strict)),
    institution_details: Type.Optional(Type.Object({ name: RequiredText }, Strict)),
  },
  Strict,
);

export const InitiateSandboxFiatDepositRequest = Type.Object(
  {
    amount: Type.String({ pattern: FIAT_AMOUNT_PATTERN, maxLength: 30 }),
    asset: Type.String({ minLength: 1, maxLength: 20 }),
    memo_id: Type.String({ minLength: 1, maxLength: ID_MAX_LENGTH }),
    fiat_network_instructions: Type.Object({ wire: WireInstructions }, Strict),
    fiat_account_owner: Type.Optional(FiatAccountOwner),
  },
  Strict,
);
/** A part of a body still being put together: every field optional, every enumeration any string. */
export type Loose<T> = T extends string ? string : T extends object ? { [K in keyof T]?: Loose<T[K]> } : T;
/**
 * The static type leaves the wire instructions' parts open: a body is built up part by part (the CLI's from flags and
 * a file) and checked whole against the schema before it is sent.
 */
export type InitiateSandboxFiatDepositRequest = Omit<
  Static<typeof InitiateSandboxFiatDepositRequest>,
  'fiat_network_instructions'
> & { fiat_network_instructions: { wire: Loose<WireInstructions> } };

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
    networks: Type.Optional(Type.Array(NetworkName, { maxItems: LIST_FILTER_MAX })),
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
    account_ids: Type.Optional(IdList),
    type: Type.Optional(Type.Array(enumOf(TRANSFER_TYPE_FILTERS), { maxItems: LIST_FILTER_MAX })),
    statuses: Type.Optional(Type.Array(TransferStatusSchema, { maxItems: LIST_FILTER_MAX })),
    secondary_statuses: Type.Optional(Type.Array(enumOf(TRANSFER_SECONDARY_STATUSES), { maxItems: LIST_FILTER_MAX })),
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

export const MarketParams = Type.Object({ market: MarketName }, Strict);
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

// ---- Service profiles, balances and internal transfers ------------------------------------------------------

export const Profile = Type.Object(
  {
    id: Type.String(),
    nickname: Type.String(),
    // An open string, as the transfer's: NORMAL or DEFAULT today.
    type: Type.String(),
    description: Type.Optional(Type.String()),
    account_id: Type.Optional(Type.String()),
  },
  Open,
);
export type Profile = Static<typeof Profile>;
export const ListProfilesResponse = Page(Profile);
export type ListProfilesResponse = Static<typeof ListProfilesResponse>;

/** available: what new debits may take; trading: what pending orders hold. Exact decimal strings. */
export const ProfileBalance = Type.Object(
  { asset: Type.String(), available: Type.String(), trading: Type.String() },
  Open,
);
export type ProfileBalance = Static<typeof ProfileBalance>;
export const ListProfileBalancesResponse = Type.Object({ items: Type.Array(ProfileBalance) }, Open);
export type ListProfileBalancesResponse = Static<typeof ListProfileBalancesResponse>;

export const NICKNAME_MAX_LENGTH = ID_MAX_LENGTH;

export const ListProfilesQuery = Type.Object(
  {
    ...createdAtFilters,
    limit: Type.Optional(Limit),
    order: Type.Optional(ListOrderSchema),
    order_by: Type.Optional(enumOf(PROFILE_ORDER_BY)),
    page_cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    nickname: Type.Optional(Type.String({ minLength: 1, maxLength: NICKNAME_MAX_LENGTH })),
    ids: Type.Optional(IdList),
  },
  Strict,
);
export type ListProfilesQuery = Static<typeof ListProfilesQuery>;

export const ProfileParams = Type.Object({ profile_id: Id }, Strict);
export const GetProfileQuery = Type.Object({ include_deactivated: Type.Optional(Type.Boolean()) }, Strict);
export const ListProfileBalancesQuery = Type.Object(
  { assets: Type.Optional(Type.Array(AssetName, { maxItems: LIST_FILTER_MAX })) },
  Strict,
);
export type ListProfileBalancesQuery = Static<typeof ListProfileBalancesQuery>;
export const ProfileBalanceParams = Type.Object({ profile_id: Id, asset: AssetName }, Strict);

export const CreateProfileRequest = Type.Object(
  {
    nickname: Type.String({ minLength: 1, maxLength: NICKNAME_MAX_LENGTH }),
    description: Type.Optional(Text),
  },
  Strict,
);
export type CreateProfileRequest = Static<typeof CreateProfileRequest>;

export const CreateInternalTransferRequest = Type.Object(
  {
    from_profile_id: Id,
    to_profile_id: Id,
    asset: AssetName,
    amount: Amount,
    ref_id: Type.Optional(Id),
    metadata: Type.Optional(Metadata),
    recipient_metadata: Type.Optional(Metadata),
    from_identity_id: Type.Optional(Id),
    from_account_id: Type.Optional(Id),
    to_identity_id: Type.Optional(Id),
    to_account_id: Type.Optional(Id),
  },
  Strict,
);
export type CreateInternalTransferRequest = Static<typeof CreateInternalTransferRequest>;

// ---- The address book, transfer limits and fiat deposit instructions ------------------------------------------

/** Longest nickname of a destination address the local service keeps. */
export const DESTINATION_NICKNAME_MAX_LENGTH = 100;

export const CryptoDestinationAddress = Type.Object(
  {
    id: Type.String(),
    crypto_network: Type.String(),
    address: Type.String(),
    identity_id: Type.Optional(Type.String()),
    nickname: Type.Optional(Type.String()),
    status: Type.Optional(Type.String()),
    created_at: Type.Optional(Type.String()),
    bookmarked: Type.Optional(Type.Boolean()),
    policy_execution_id: Type.Optional(Type.String()),
    travelrule_metadata: Type.Optional(OpenObject),
  },
  Open,
);
export type CryptoDestinationAddress = Static<typeof CryptoDestinationAddress>;
/** This list names its items `addresses`, not `items` (the operation says so with itemsKey). */
export const ListCryptoDestinationAddressesResponse = Type.Object(
  { addresses: Type.Optional(Type.Array(CryptoDestinationAddress)), next_page_cursor: Type.Optional(Type.String()) },
  Open,
);
export const PutCryptoDestinationAddressResponse = Type.Object({ address: CryptoDestinationAddress }, Open);
export type PutCryptoDestinationAddressResponse = Static<typeof PutCryptoDestinationAddressResponse>;

export const TransferLimit = Type.Object(
  {
    id: Type.Optional(Type.String()),
    rule_id: Type.Optional(Type.String()),
    transfer_types: Type.Optional(Type.Array(Type.String())),
    /** Seconds the limit is measured over; "0" for a limit on each single transfer. */
    period_seconds: Type.Optional(Type.String()),
    limit: Type.Optional(Type.String()),
    remaining: Type.Optional(Type.String()),
    limit_asset: Type.Optional(Type.String()),
  },
  Open,
);
export type TransferLimit = Static<typeof TransferLimit>;
export const ListTransferLimitsResponse = Page(TransferLimit);

export const FiatDepositInstructions = Type.Object(
  {
    id: Type.String(),
    profile_id: Type.String(),
    status: Type.String(),
    memo_id: Type.String(),
    fiat_network_instructions: OpenObject,
    identity_id: Type.Optional(Type.String()),
    account_id: Type.Optional(Type.String()),
    customer_id: Type.Optional(Type.String()),
    ref_id: Type.Optional(Type.String()),
    fiat_account_owner: Type.Optional(OpenObject),
    metadata: Type.Optional(Type.Record(Type.String(), Type.String())),
    created_at: Type.Optional(Type.String()),
  },
  Open,
);
export type FiatDepositInstructions = Static<typeof FiatDepositInstructions>;
export const ListFiatDepositInstructionsResponse = Page(FiatDepositInstructions);

const Nickname = Type.String({ minLength: 1, maxLength: DESTINATION_NICKNAME_MAX_LENGTH });
const Address = Type.String({ minLength: 1, maxLength: 200 });
/** A line of a postal address as the OpenAPI allows it (GeographicAddress). */
const AddressLine = Type.String({ maxLength: 35, pattern: "^[0-9A-Za-z /?:().,&'+-]+$" });
const GeographicAddress = Type.Object(
  {
    country: Type.String({ pattern: '^[A-Z]{3}$' }),
    address1: Type.Optional(AddressLine),
    address2: Type.Optional(AddressLine),
    city: Type.Optional(AddressLine),
    province: Type.Optional(AddressLine),
    zip_code: Type.Optional(AddressLine),
  },
  Strict,
);
export const TravelRuleMetadata = Type.Object(
  {
    beneficiary: Type.Optional(
      Type.Object(
        {
          person_details: Type.Optional(
            Type.Object(
              { first_name: Text, last_name: Text, physical_address: Type.Optional(GeographicAddress) },
              Strict,
            ),
          ),
          institution_details: Type.Optional(
            Type.Object({ name: Text, physical_address: Type.Optional(GeographicAddress) }, Strict),
          ),
          self: Type.Optional(Type.Boolean()),
        },
        Strict,
      ),
    ),
    vasp: Type.Optional(
      Type.Object(
        { id: Type.Optional(Id), custom_vasp_name: Type.Optional(Text), custom_vasp_website: Type.Optional(Text) },
        Strict,
      ),
    ),
    custodian_type: Type.Optional(enumOf(CUSTODIAN_TYPES)),
    transfer_purpose: Type.Optional(Text),
  },
  Strict,
);

/** Creates or updates one address of the book: by id, or by (crypto_network, address, identity_id). */
export const PutCryptoDestinationAddressRequest = Type.Object(
  {
    id: Type.Optional(Id),
    identity_id: Type.Optional(Id),
    crypto_network: Type.Optional(NetworkName),
    address: Type.Optional(Address),
    nickname: Type.Optional(Nickname),
    bookmarked_status: Type.Optional(Type.Boolean()),
    travelrule_metadata: Type.Optional(TravelRuleMetadata),
  },
  Strict,
);
export type PutCryptoDestinationAddressRequest = Static<typeof PutCryptoDestinationAddressRequest>;

export const ListCryptoDestinationAddressesQuery = Type.Object(
  {
    ids: Type.Optional(IdList),
    identity_ids: Type.Optional(IdList),
    crypto_networks: Type.Optional(Type.Array(NetworkName, { maxItems: LIST_FILTER_MAX })),
    addresses: Type.Optional(Type.Array(Address, { maxItems: LIST_FILTER_MAX })),
    nicknames: Type.Optional(Type.Array(Nickname, { maxItems: LIST_FILTER_MAX })),
    bookmarked_status: Type.Optional(Type.Boolean()),
    ...createdAtFilters,
    limit: Type.Optional(Limit),
    order: Type.Optional(ListOrderSchema),
    order_by: Type.Optional(enumOf(CRYPTO_DESTINATION_ADDRESS_ORDER_BY)),
    page_cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  },
  Strict,
);

export const ListTransferLimitsQuery = Type.Object({ transfer_type: enumOf(TRANSFER_LIMIT_TYPES) }, Strict);

export const CreateFiatDepositInstructionsRequest = Type.Object(
  {
    profile_id: Id,
    fiat_network: enumOf(FIAT_NETWORKS),
    ref_id: Type.Optional(Id),
    identity_id: Type.Optional(Id),
    account_id: Type.Optional(Id),
    routing_number_type: Type.Optional(enumOf(FIAT_ROUTING_NUMBER_TYPES)),
    metadata: Type.Optional(Metadata),
  },
  Strict,
);
export type CreateFiatDepositInstructionsRequest = Static<typeof CreateFiatDepositInstructionsRequest>;

export const ListFiatDepositInstructionsQuery = Type.Object(
  {
    ids: Type.Optional(IdList),
    ref_ids: Type.Optional(IdList),
    ...createdAtFilters,
    limit: Type.Optional(Limit),
    order: Type.Optional(ListOrderSchema),
    page_cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  },
  Strict,
);

// ---- Fiat accounts (where fiat withdrawals go) and fiat withdrawals ---------------------------------------------

/** The OpenAPI's FiatNetworkInstructionsRtpRoutingDetails: a routing number, the bank's name and address optional. */
const RtpRoutingDetails = Type.Object(
  {
    routing_number: RequiredText,
    bank_name: Type.Optional(RequiredText),
    bank_address: Type.Optional(MailingAddress),
  },
  Strict,
);

/**
 * The OpenAPI's FiatNetworkInstructions: one network's instructions (a rule of the operation says exactly one), each
 * with the fields the OpenAPI requires of it.
 */
export const FiatAccountNetworkInstructions = Type.Object(
  {
    wire: Type.Optional(WireInstructions),
    cbit: Type.Optional(Type.Object({ wallet_address: RequiredText }, Strict)),
    dbs_act: Type.Optional(Type.Object({ account_number: RequiredText }, Strict)),
    cubix: Type.Optional(Type.Object({ account_id: RequiredText }, Strict)),
    scb: Type.Optional(Type.Object({ account_number: RequiredText }, Strict)),
    rtp: Type.Optional(
      Type.Object(
        {
          account_number: RequiredText,
          fiat_account_owner_address: Type.Optional(MailingAddress),
          routing_details: RtpRoutingDetails,
        },
        Strict,
      ),
    ),
  },
  Strict,
);
export type FiatAccountNetworkInstructions = Static<typeof FiatAccountNetworkInstructions>;

/** The OpenAPI's CreateFiatAccountRequest. */
export const CreateFiatAccountRequest = Type.Object(
  {
    ref_id: Type.Optional(Id),
    identity_id: Type.Optional(Id),
    account_id: Type.Optional(Id),
    fiat_account_owner: FiatAccountOwner,
    fiat_network_instructions: FiatAccountNetworkInstructions,
    metadata: Type.Optional(Metadata),
  },
  Strict,
);
export type CreateFiatAccountRequest = Static<typeof CreateFiatAccountRequest>;

/** The OpenAPI's UpdateWireUpdateRoutingDetails: the bank's name and address (the routing number stays). */
const UpdateRoutingDetails = Type.Object(
  { bank_name: Type.Optional(Text), bank_address: Type.Optional(MailingAddress) },
  Strict,
);

/**
 * The OpenAPI's TransferPublicUpdateFiatAccountBody: the owner's details, a wire account's owner address and banks,
 * the metadata. "Empty strings or null values are ignored" (the OpenAPI): a blank bank name leaves the one held.
 */
export const UpdateFiatAccountRequest = Type.Object(
  {
    fiat_account_owner: Type.Optional(FiatAccountOwner),
    fiat_network_instructions: Type.Optional(
      Type.Object(
        {
          wire: Type.Optional(
            Type.Object(
              {
                fiat_account_owner_address: Type.Optional(MailingAddress),
                routing_details: Type.Optional(UpdateRoutingDetails),
                intermediary_routing_details: Type.Optional(UpdateRoutingDetails),
              },
              Strict,
            ),
          ),
        },
        Strict,
      ),
    ),
    metadata: Type.Optional(Metadata),
  },
  Strict,
);
export type UpdateFiatAccountRequest = Static<typeof UpdateFiatAccountRequest>;

/** The OpenAPI's FiatAccount (a list shows it abbreviated: no owner details, the account number's last four). */
export const FiatAccount = Type.Object(
  {
    id: Type.String(),
    status: enumOf(FIAT_ACCOUNT_STATUSES),
    fiat_network_instructions: OpenObject,
    created_at: Type.String(),
    ref_id: Type.Optional(Type.String()),
    identity_id: Type.Optional(Type.String()),
    account_id: Type.Optional(Type.String()),
    fiat_account_owner: Type.Optional(OpenObject),
    metadata: Type.Optional(Type.Record(Type.String(), Type.String())),
    updated_at: Type.Optional(Type.String()),
  },
  Open,
);
export type FiatAccount = Static<typeof FiatAccount>;
export const ListFiatAccountsResponse = Page(FiatAccount);

export const FIAT_ACCOUNT_ORDER_BY = ['CREATED_AT'] as const;

// ---- Travel Rule: the VASP directory, and crypto deposits held for their originator's details ----------------

/** A virtual asset service provider of the directory (the OpenAPI's Vasp). */
export const Vasp = Type.Object({ id: Type.String(), name: Type.String() }, Open);
export type Vasp = Static<typeof Vasp>;
export const ListVaspsResponse = Page(Vasp);
export type ListVaspsResponse = Static<typeof ListVaspsResponse>;
export const GetVaspResponse = Type.Object({ vasp: Type.Optional(Vasp) }, Open);
export type GetVaspResponse = Static<typeof GetVaspResponse>;
export const ListVaspsQuery = Type.Object(
  {
    ids: Type.Optional(IdList),
    limit: Type.Optional(Limit),
    order: Type.Optional(ListOrderSchema),
    order_by: Type.Optional(enumOf(VASP_ORDER_BY)),
    page_cursor: Type.Optional(Type.String({ maxLength: 1000 })),
    /** A case-insensitive prefix of the name, for type-ahead lookup. */
    search: Type.Optional(Type.String({ maxLength: TEXT_MAX_LENGTH })),
  },
  Strict,
);
export type ListVaspsQuery = Static<typeof ListVaspsQuery>;

/** Who sent a crypto deposit (the OpenAPI's AddressInfo): a person with both names, or an institution. */
const AddressInfo = Type.Object(
  {
    individual_info: Type.Optional(Type.Object({ first_name: Text, last_name: Text }, Strict)),
    institution_info: Type.Optional(Type.Object({ institution_name: Text }, Strict)),
  },
  Strict,
);
/** UpdateCryptoDeposit: the originator's details of a deposit held for them, given by an identity. */
export const UpdateCryptoDepositRequest = Type.Object(
  { identity_id: Id, originator_address_info: AddressInfo },
  Strict,
);
export type UpdateCryptoDepositRequest = Static<typeof UpdateCryptoDepositRequest>;
/** RejectCryptoDeposit: the identity that turns a held deposit away. */
export const RejectCryptoDepositRequest = Type.Object({ identity_id: Id }, Strict);
export type RejectCryptoDepositRequest = Static<typeof RejectCryptoDepositRequest>;

export const ListFiatAccountsQuery = Type.Object(
  {
    ids: Type.Optional(IdList),
    ref_ids: Type.Optional(IdList),
    ...createdAtFilters,
    limit: Type.Optional(Limit),
    order: Type.Optional(ListOrderSchema),
    order_by: Type.Optional(enumOf(FIAT_ACCOUNT_ORDER_BY)),
    page_cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    include_deleted: Type.Optional(Type.Boolean()),
  },
  Strict,
);

export const GetFiatAccountQuery = Type.Object({ include_deleted: Type.Optional(Type.Boolean()) }, Strict);

/** The OpenAPI's memo of a fiat withdrawal: at most 500 of the mailing address characters. */
export const FIAT_MEMO_PATTERN = "^[0-9A-Za-z /?:().,&'+-]*$";

/** The OpenAPI's CreateFiatWithdrawalRequest: exactly one of amount and total (a rule), two decimals at most. */
export const CreateFiatWithdrawalRequest = Type.Object(
  {
    ref_id: Type.Optional(Id),
    amount: Type.Optional(Type.String({ pattern: FIAT_AMOUNT_PATTERN, maxLength: 30 })),
    total: Type.Optional(Type.String({ pattern: FIAT_AMOUNT_PATTERN, maxLength: 30 })),
    asset: Type.String({ minLength: 1, maxLength: 20 }),
    fiat_account_id: Id,
    profile_id: Id,
    identity_id: Type.Optional(Id),
    account_id: Type.Optional(Id),
    metadata: Type.Optional(Metadata),
    memo: Type.Optional(Type.String({ maxLength: 500, pattern: FIAT_MEMO_PATTERN })),
  },
  Strict,
);
export type CreateFiatWithdrawalRequest = Static<typeof CreateFiatWithdrawalRequest>;

// ---- The event feed ---------------------------------------------------------------------------------------------

/** The OpenAPI's Event: what happened (`type`), to what (`object_type`, `object`), when (`created_at`). */
export const Event = Type.Object(
  {
    id: Type.String(),
    type: Type.String(),
    object_type: Type.String(),
    object: OpenObject,
    created_at: Type.String(),
    undelivered_webhooks: Type.Optional(Type.Integer()),
  },
  Open,
);
export type Event = Static<typeof Event>;
/** The OpenAPI names the list `events`; next_page_cursor is empty or absent on the last page. */
export const ListEventsResponse = Type.Object(
  { events: Type.Array(Event), next_page_cursor: Type.Optional(Type.String()) },
  Open,
);
export type ListEventsResponse = Static<typeof ListEventsResponse>;

export const ListEventsQuery = Type.Object(
  {
    ...createdAtFilters,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: EVENT_LIST_LIMIT_MAX })),
    type: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: EVENT_TYPE_PATTERN })),
    is_test: Type.Optional(Type.Boolean()),
    order: Type.Optional(ListOrderSchema),
    page_cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  },
  Strict,
);
export type ListEventsQuery = Static<typeof ListEventsQuery>;
export const GetEventQuery = Type.Object({ is_test: Type.Optional(Type.Boolean()) }, Strict);

// ---- Market data snapshots (public in the OpenAPI: no scope) -----------------------------------------------------

/** A market symbol in a path or query: the local service serves its catalogue, the hosted one may list more. */
export const MARKET_SYMBOL_PATTERN = '^[A-Z0-9]{2,20}$';
const MarketSymbol = Type.String({ pattern: MARKET_SYMBOL_PATTERN });
export const MarketSymbolParams = Type.Object({ market: MarketSymbol }, Strict);
export const ListPricesQuery = Type.Object(
  { markets: Type.Array(MarketSymbol, { minItems: 1, maxItems: LIST_FILTER_MAX }) },
  Strict,
);
export type ListPricesQuery = Static<typeof ListPricesQuery>;

const PriceLevel = Type.Object({ price: Type.String(), amount: Type.String() }, Open);

export const MarketDetails = Type.Object(
  {
    market: Type.String(),
    base_asset: Type.Optional(Type.String()),
    quote_asset: Type.Optional(Type.String()),
    tick_rate: Type.Optional(Type.String()),
    market_status: Type.Optional(
      Type.Object(
        {
          buy_status: Type.Optional(Type.String()),
          sell_status: Type.Optional(Type.String()),
          buy_reason: Type.Optional(Type.String()),
          sell_reason: Type.Optional(Type.String()),
          updated_at: Type.Optional(Type.String()),
          scheduled_maintenance: Type.Optional(Type.Array(OpenObject)),
        },
        Open,
      ),
    ),
    min_base_amount: Type.Optional(Type.String()),
    min_quote_amount: Type.Optional(Type.String()),
    max_base_amount: Type.Optional(Type.String()),
    max_quote_amount: Type.Optional(Type.String()),
  },
  Open,
);
export type MarketDetails = Static<typeof MarketDetails>;
export const ListMarketsResponse = Type.Object({ markets: Type.Optional(Type.Array(MarketDetails)) }, Open);
export type ListMarketsResponse = Static<typeof ListMarketsResponse>;

export const OrderBookResponse = Type.Object(
  {
    market: Type.Optional(Type.String()),
    bids: Type.Optional(Type.Array(PriceLevel)),
    asks: Type.Optional(Type.Array(PriceLevel)),
  },
  Open,
);
export type OrderBookResponse = Static<typeof OrderBookResponse>;

/** OHLC and volume over a window. The schema names its bounds `range`, the published example start_time/end_time. */
export const ExchangeStats = Type.Object(
  {
    high: Type.Optional(Type.String()),
    low: Type.Optional(Type.String()),
    open: Type.Optional(Type.String()),
    volume: Type.Optional(Type.String()),
    volume_weighted_average_price: Type.Optional(Type.String()),
    range: Type.Optional(Type.Object({ begin: Type.Optional(Type.String()), end: Type.Optional(Type.String()) }, Open)),
    start_time: Type.Optional(Type.String()),
    end_time: Type.Optional(Type.String()),
  },
  Open,
);
export type ExchangeStats = Static<typeof ExchangeStats>;
export const Ticker = Type.Object(
  {
    market: Type.Optional(Type.String()),
    best_bid: Type.Optional(PriceLevel),
    best_ask: Type.Optional(PriceLevel),
    last_execution: Type.Optional(PriceLevel),
    last_day: Type.Optional(ExchangeStats),
    today: Type.Optional(ExchangeStats),
    snapshot_at: Type.Optional(Type.String()),
  },
  Open,
);
export type Ticker = Static<typeof Ticker>;

export const RecentExecution = Type.Object(
  {
    match_number: Type.Optional(Type.String()),
    price: Type.String(),
    amount: Type.String(),
    executed_at: Type.String(),
  },
  Open,
);
export type RecentExecution = Static<typeof RecentExecution>;
export const ListRecentExecutionsResponse = Type.Object({ items: Type.Optional(Type.Array(RecentExecution)) }, Open);
export type ListRecentExecutionsResponse = Static<typeof ListRecentExecutionsResponse>;

export const MarketPrice = Type.Object(
  {
    market: Type.String(),
    current_price: Type.Optional(Type.String()),
    yesterday_price: Type.Optional(Type.String()),
    snapshot_at: Type.Optional(Type.String()),
  },
  Open,
);
export type MarketPrice = Static<typeof MarketPrice>;
/** The schema names the list `items`, the published example `prices`: both are accepted. */
export const ListPricesResponse = Type.Object(
  { items: Type.Optional(Type.Array(MarketPrice)), prices: Type.Optional(Type.Array(MarketPrice)) },
  Open,
);
export type ListPricesResponse = Static<typeof ListPricesResponse>;

// ---- Stream messages (spec/SERVICE.md 4.6 and 6) -------------------------------------------------------------------

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

// ---- Stablecoin conversions (USD to a stablecoin and back, one to one) -----------------------------------------

/** The OpenAPI's CreateStablecoinConversionRequest: profile_id, amount, source_asset and target_asset required. */
export const CreateStablecoinConversionRequest = Type.Object(
  {
    profile_id: Id,
    amount: Amount,
    source_asset: AssetName,
    target_asset: AssetName,
    ref_id: Type.Optional(Id),
    identity_id: Type.Optional(Id),
    account_id: Type.Optional(Id),
    metadata: Type.Optional(Metadata),
    recipient_profile_id: Type.Optional(Id),
  },
  Strict,
);
export type CreateStablecoinConversionRequest = Static<typeof CreateStablecoinConversionRequest>;

/** The OpenAPI's StablecoinConversion (it requires no field; the services answer these always: id, status, ...). */
export const StablecoinConversion = Type.Object(
  {
    id: Type.String(),
    status: Type.String(),
    profile_id: Type.Optional(Type.String()),
    amount: Type.Optional(Type.String()),
    source_asset: Type.Optional(Type.String()),
    target_asset: Type.Optional(Type.String()),
    ref_id: Type.Optional(Type.String()),
    identity_id: Type.Optional(Type.String()),
    account_id: Type.Optional(Type.String()),
    created_at: Type.Optional(Type.String()),
    updated_at: Type.Optional(Type.String()),
    settled_at: Type.Optional(Type.String()),
    cancelled_at: Type.Optional(Type.String()),
    metadata: Type.Optional(Type.Record(Type.String(), Type.String())),
    recipient_profile_id: Type.Optional(Type.String()),
  },
  Open,
);
export type StablecoinConversion = Static<typeof StablecoinConversion>;
export const ListStablecoinConversionsResponse = Page(StablecoinConversion);

/** The OpenAPI's ListStablecoinConversions parameters: its time filters are .begin and .end (inclusive). */
export const ListStablecoinConversionsQuery = Type.Object(
  {
    profile_id: Type.Optional(Id),
    ref_id: Type.Optional(Id),
    'created_at.begin': Type.Optional(DateTime),
    'created_at.end': Type.Optional(DateTime),
    'updated_at.begin': Type.Optional(DateTime),
    'updated_at.end': Type.Optional(DateTime),
    order: Type.Optional(ListOrderSchema),
    page_cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    limit: Type.Optional(Limit),
  },
  Strict,
);
