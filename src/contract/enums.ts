// The service's enumerations (spec/SERVICE.md 2.1, grown to what the hosted OpenAPI lists, spec/), declared once
// for the client and the local service.

export const CRYPTO_NETWORKS = [
  'BITCOIN',
  'ETHEREUM',
  'BITCOIN_CASH',
  'LITECOIN',
  'SOLANA',
  'POLYGON_POS',
  'BASE',
  'ARBITRUM_ONE',
  'STELLAR',
  'INK',
  'XLAYER',
  // Listed by the OpenAPI (CryptoNetwork), not by spec/SERVICE.md.
  'AVALANCHE',
  'DOGECOIN',
  'SUI',
  'ROBINHOOD',
  'BNB',
] as const;
export type CryptoNetwork = (typeof CRYPTO_NETWORKS)[number];

export const TRANSFER_DIRECTIONS = ['CREDIT', 'DEBIT'] as const;
export type TransferDirection = (typeof TRANSFER_DIRECTIONS)[number];

export const TRANSFER_STATUSES = ['PENDING', 'COMPLETED', 'FAILED'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/** Names of a transfer's secondary_status (the OpenAPI's SecondaryStatusName). */
export const TRANSFER_SECONDARY_STATUSES = [
  'TRAVEL_RULE_INFO_REQUESTED',
  'TRAVEL_RULE_REJECTED',
  'CUSTOMER_REJECTED',
  'PENDING_CUSTOMER_APPROVAL',
] as const;
export type TransferSecondaryStatus = (typeof TRANSFER_SECONDARY_STATUSES)[number];

export const TRANSFER_TYPES = [
  'INTERNAL_TRANSFER_DEBIT',
  'INTERNAL_TRANSFER_CREDIT',
  'CRYPTO_DEPOSIT',
  'CRYPTO_WITHDRAWAL',
  'WIRE_DEPOSIT',
  'WIRE_WITHDRAWAL',
  'SEN_DEPOSIT',
  'SEN_WITHDRAWAL',
  'BANK_DEPOSIT',
  'BANK_WITHDRAWAL',
  'PLATFORM_TRANSFER_DEBIT',
  'PLATFORM_TRANSFER_CREDIT',
  'SIGNET_DEPOSIT',
  'SIGNET_WITHDRAWAL',
  'CBIT_WITHDRAWAL',
  'CBIT_DEPOSIT',
  'CUBIX_DEPOSIT',
  'CUBIX_WITHDRAWAL',
  'RTP_DEPOSIT',
] as const;
export type TransferType = (typeof TRANSFER_TYPES)[number];

/**
 * The list filter's transfer types: spec/SERVICE.md's, and the OpenAPI's names of the platform transfers (PAXOS_ where
 * spec/SERVICE.md says PLATFORM_), so either may be typed. What is sent is the OpenAPI's (openApiTransferType): its
 * enumeration has no PLATFORM_ name; the local service takes either.
 */
export const TRANSFER_TYPE_FILTERS = [...TRANSFER_TYPES, 'PAXOS_TRANSFER_DEBIT', 'PAXOS_TRANSFER_CREDIT'] as const;

/** A transfer type as the OpenAPI names it: spec/SERVICE.md's PLATFORM_TRANSFER_* are its PAXOS_TRANSFER_*. */
export const openApiTransferType = (type: string): string => type.replace(/^PLATFORM_TRANSFER_/, 'PAXOS_TRANSFER_');

export const MARKETS = [
  'ETHEUR',
  'ETHUSD',
  'BTCEUR',
  'BTCUSD',
  'PAXGUSD',
  'BCHUSD',
  'LTCUSD',
  'ETHGBP',
  'BTCGBP',
  'LTCGBP',
  'BCHGBP',
  'USDPUSD',
  'ETHBRL',
  'BTCBRL',
  'LTCBRL',
  'BCHBRL',
  'USDPGBP',
  'USDPBRL',
  'LINKUSD',
  'MATICUSD',
  'AAVEUSD',
  'UNIUSD',
  'AAVEMXN',
  'BCHMXN',
  'BTCMXN',
  'ETHMXN',
  'LTCMXN',
  'USDPMXN',
  'AAVEEUR',
  'BCHEUR',
  'LTCEUR',
  'LINKEUR',
  'MATICEUR',
  'PAXGEUR',
  'SOLEUR',
  'USDPEUR',
  'UNIEUR',
  'PYUSDEUR',
  'PYUSDGBP',
  // Listed by the OpenAPI (the market parameter of historical prices), not by spec/SERVICE.md. Its MATICUSD and
  // MATICEUR are not in the OpenAPI's list; they stay (src/local/README.md lists the difference).
  'PEPEUSD',
  'TRUMPUSD',
  'SHIBUSD',
  'ARBUSD',
  'BONKUSD',
  'ENAUSD',
  'MNTUSD',
  'ONDOUSD',
  'PENGUUSD',
  'QNTUSD',
  'RENDERUSD',
  'SKYUSD',
  'WIFUSD',
  'WLDUSD',
  'DOGEUSD',
  'AVAXUSD',
  'SUIUSD',
  'POLUSD',
  'XLMUSD',
  'BNBUSD',
] as const;
export type Market = (typeof MARKETS)[number];

export const PRICE_INCREMENTS = [
  'ONE_MINUTE',
  'FIVE_MINUTES',
  'FIFTEEN_MINUTES',
  'THIRTY_MINUTES',
  'ONE_HOUR',
  'TWO_HOURS',
  'TWELVE_HOURS',
  'ONE_DAY',
  'ONE_WEEK',
  'TWO_WEEKS',
  'FOUR_WEEKS',
] as const;
export type PriceIncrement = (typeof PRICE_INCREMENTS)[number];

/** Length of each price increment in seconds, finest first. */
export const INCREMENT_SECONDS: Record<PriceIncrement, number> = {
  ONE_MINUTE: 60,
  FIVE_MINUTES: 300,
  FIFTEEN_MINUTES: 900,
  THIRTY_MINUTES: 1800,
  ONE_HOUR: 3600,
  TWO_HOURS: 7200,
  TWELVE_HOURS: 43200,
  ONE_DAY: 86400,
  ONE_WEEK: 604800,
  TWO_WEEKS: 1209600,
  FOUR_WEEKS: 2419200,
};

export const LIST_ORDERS = ['DESC', 'ASC'] as const;
export type ListOrder = (typeof LIST_ORDERS)[number];

export const DEPOSIT_ADDRESS_ORDER_BY = ['CREATED_AT'] as const;
export const TRANSFER_ORDER_BY = ['CREATED_AT', 'UPDATED_AT'] as const;
export type TransferOrderBy = (typeof TRANSFER_ORDER_BY)[number];

/** Service profiles: DEFAULT is the one the service made with the customer, NORMAL every one made since. */
export const PROFILE_TYPES = ['NORMAL', 'DEFAULT'] as const;
export type ProfileType = (typeof PROFILE_TYPES)[number];
export const PROFILE_ORDER_BY = ['CREATED_AT'] as const;

/**
 * The event types the local service records, named as the hosted service names its own (`transfer.<type>.<status>`:
 * its documentation lists transfer.crypto_withdrawal.pending, .completed, .failed, transfer.crypto_deposit.*): the
 * transfer's type and status in lower case. Deposit addresses have no hosted event; theirs follows the same style.
 * The hosted service has more (identity.*, orchestration.*): the type filter takes any name of that shape.
 */
export const EVENT_TYPES = [
  'transfer.crypto_withdrawal.pending',
  'transfer.crypto_withdrawal.completed',
  'transfer.crypto_withdrawal.failed',
  'transfer.crypto_deposit.pending',
  'transfer.crypto_deposit.completed',
  'transfer.wire_deposit.completed',
  'transfer.internal_transfer_debit.completed',
  'transfer.internal_transfer_credit.completed',
  'transfer.wire_withdrawal.pending',
  'transfer.wire_withdrawal.completed',
  'transfer.wire_withdrawal.failed',
  'transfer.cbit_withdrawal.pending',
  'transfer.cbit_withdrawal.completed',
  'transfer.cbit_withdrawal.failed',
  'transfer.cubix_withdrawal.pending',
  'transfer.cubix_withdrawal.completed',
  'transfer.cubix_withdrawal.failed',
  'transfer.bank_withdrawal.pending',
  'transfer.bank_withdrawal.completed',
  'transfer.bank_withdrawal.failed',
  'transfer.paxos_transfer_debit.completed',
  'transfer.paxos_transfer_credit.completed',
  'deposit_address.created',
  'conversion.stablecoin.created',
  'conversion.stablecoin.settled',
  'conversion.stablecoin.cancelled',
  'conversion.stablecoin.failed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** The shape of an event type name: lower-case words joined by dots (identity.kyc_refresh.started). */
export const EVENT_TYPE_PATTERN = '^[a-z0-9_]+(\\.[a-z0-9_]+)*$';
/** The most events a page holds: the OpenAPI's 400 example says "limit must be between 1 and 100" (100 is the default). */
export const EVENT_LIST_LIMIT_MAX = 100;
/** What an event's `object` is: a transfer as GET /v2/transfer/transfers/{id} answers it, or a deposit address. */
export const EVENT_OBJECT_TYPES = {
  transfer: 'transfer_status_change',
  depositAddress: 'deposit_address',
  stablecoinConversion: 'stablecoin_conversion',
} as const;

export const CONVERSION_TARGET_ASSETS = ['NO_CONVERSION', 'USD'] as const;
export type ConversionTargetAsset = (typeof CONVERSION_TARGET_ASSETS)[number];

export const SCOPES = {
  createCryptoWithdrawal: 'transfer:write_crypto_withdrawal',
  createWithdrawalFee: 'fee:write_crypto_withdrawal_fee',
  readDepositAddress: 'transfer:read_deposit_address',
  writeDepositAddress: 'transfer:write_deposit_address',
  sandboxFiatDeposit: 'transfer:write_sandbox_fiat_deposit',
  historicalPrices: 'exchange:historical_prices',
  readTransfer: 'transfer:read_transfer',
  marketDataStream: 'exchange:read_aggregated_marketdata_stream',
  // Service profiles, their balances and internal transfers between them.
  readProfile: 'funding:read_profile',
  writeProfile: 'funding:write_profile',
  writeInternalTransfer: 'transfer:write_internal_transfer',
  // Transfers to a profile of another customer of the service (POST /v2/transfer/paxos).
  writePaxosTransfer: 'transfer:write_paxos_transfer',
  // The operator's desk: the address book, transfer limits and fiat deposit instructions.
  readCryptoDestinationAddress: 'transfer:read_crypto_destination_address',
  writeCryptoDestinationAddress: 'transfer:write_crypto_destination_address',
  readTransferLimit: 'transfer:read_transfer_limit',
  readFiatDepositInstructions: 'transfer:read_fiat_deposit_instructions',
  writeFiatDepositInstructions: 'transfer:write_fiat_deposit_instructions',
  // The event feed (GET /v2/events): the OpenAPI's security names events:read_event (its 403 example says event:).
  readEvent: 'events:read_event',
  // Fiat accounts (where fiat withdrawals go) and fiat withdrawals.
  readFiatAccount: 'transfer:read_fiat_account',
  writeFiatAccount: 'transfer:write_fiat_account',
  writeFiatWithdrawal: 'transfer:write_fiat_withdrawal',
  // Travel Rule: a crypto deposit held for its originator's details, released with them or rejected.
  updateCryptoDeposit: 'transfer:update_crypto_deposit',
  rejectCryptoDeposit: 'transfer:reject_crypto_deposit',
  // Stablecoin conversions (USD to a stablecoin and back, one to one).
  readConversionStablecoin: 'conversion:read_conversion_stablecoin',
  writeConversionStablecoin: 'conversion:write_conversion_stablecoin',
  // Address verification (proving a destination address is the customer's own) and statements with their payments.
  readVerification: 'address_ownership:read_verification',
  writeVerification: 'address_ownership:write_verification',
  readStatement: 'statements:read_statement',
  readPayment: 'statements:read_payment',
} as const;
export type Scope = (typeof SCOPES)[keyof typeof SCOPES];
/** What reading address verifications, statements and their payments takes (a reader of the desk has them). */
export const VERIFICATION_AND_STATEMENT_READ_SCOPES = [
  SCOPES.readVerification,
  SCOPES.readStatement,
  SCOPES.readPayment,
] as const;
export const ALL_SCOPES: Scope[] = Object.values(SCOPES);

/** Channel types of the market data stream (spec/SERVICE.md 4.6). */
export const STREAM_CHANNELS = ['market_data', 'market_data.top_of_book', 'execution_data', 'heartbeat'] as const;
export type StreamChannel = (typeof STREAM_CHANNELS)[number];

export const STREAM_ERROR_CODES = [
  'UNKNOWN_ACTION',
  'INTERNAL_SERVER_ERROR',
  'MALFORMED_REQUEST',
  'NO_EFFECT_ACTION',
  'UNKNOWN_CHANNEL',
  'UNKNOWN_CHANNEL_PARAMS_CONFIGURATION',
] as const;
export type StreamErrorCode = (typeof STREAM_ERROR_CODES)[number];

// ---- The address book, transfer limits and fiat deposit instructions (the OpenAPI's enumerations) ---------------

export const CRYPTO_DESTINATION_ADDRESS_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export type CryptoDestinationAddressStatus = (typeof CRYPTO_DESTINATION_ADDRESS_STATUSES)[number];
export const CRYPTO_DESTINATION_ADDRESS_ORDER_BY = ['CREATED_AT'] as const;
export const CUSTODIAN_TYPES = ['VASP', 'PRIVATE'] as const;
/** The order of the VASP directory (the OpenAPI's ListVasps order_by). */
export const VASP_ORDER_BY = ['NAME'] as const;

/** A transfer type as the OpenAPI's TransferType (used by limits) names it: the platform transfers are PAXOS_. */
export type TransferLimitType = TransferType extends infer T
  ? T extends `PLATFORM_${infer Rest}`
    ? `PAXOS_${Rest}`
    : T
  : never;
/** Transfer types a limit may apply to: TRANSFER_TYPES under the OpenAPI TransferType's names (one list, two names). */
export const TRANSFER_LIMIT_TYPES = TRANSFER_TYPES.map((t) =>
  t.replace(/^PLATFORM_/, 'PAXOS_'),
) as readonly TransferLimitType[] as readonly [TransferLimitType, ...TransferLimitType[]];

export const FIAT_NETWORKS = ['WIRE', 'DBS_ACT', 'CUBIX', 'SCB', 'RTP'] as const;
export type FiatNetwork = (typeof FIAT_NETWORKS)[number];
export const FIAT_ROUTING_NUMBER_TYPES = ['ABA', 'SWIFT'] as const;
/** The OpenAPI's FiatAccountStatus. */
export const FIAT_ACCOUNT_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export type FiatAccountStatus = (typeof FIAT_ACCOUNT_STATUSES)[number];
/** The fiat networks a fiat account's instructions may name (the OpenAPI's FiatNetworkInstructions). */
export const FIAT_ACCOUNT_NETWORKS = ['wire', 'cbit', 'dbs_act', 'cubix', 'scb', 'rtp'] as const;
export type FiatAccountNetwork = (typeof FIAT_ACCOUNT_NETWORKS)[number];
/**
 * The transfer type of a fiat withdrawal by the network of its fiat account: the OpenAPI's TransferType has wire, CBIT
 * and CUBIX withdrawals; the intrabank networks (DBS, SCB) and RTP, which it names no withdrawal type for, are BANK.
 */
export const FIAT_WITHDRAWAL_TYPES = {
  wire: 'WIRE_WITHDRAWAL',
  cbit: 'CBIT_WITHDRAWAL',
  dbs_act: 'BANK_WITHDRAWAL',
  cubix: 'CUBIX_WITHDRAWAL',
  scb: 'BANK_WITHDRAWAL',
  rtp: 'BANK_WITHDRAWAL',
} as const satisfies Record<FiatAccountNetwork, TransferType>;
/** Every transfer type a fiat withdrawal may have. */
export const FIAT_WITHDRAWAL_TRANSFER_TYPES = [...new Set(Object.values(FIAT_WITHDRAWAL_TYPES))];
export type FiatRoutingNumberType = (typeof FIAT_ROUTING_NUMBER_TYPES)[number];
export const FIAT_DEPOSIT_INSTRUCTIONS_STATUSES = ['VALID', 'DEPRECATED'] as const;

// ---- Choices ------------------------------------------------------------------------------------------------------

/**
 * The one rule for a value picked from a closed list (an enumeration, an output format, a command's word): any case
 * is taken, and the list's own spelling is what is kept, printed and sent. Undefined when `value` is none of them.
 */
export function canonicalChoice<T extends string>(choices: readonly T[], value: string): T | undefined {
  const v = value.trim().toLowerCase();
  return choices.find((c) => c.toLowerCase() === v);
}

/** The HTTP methods of the service's operations (and of `coinop api METHOD PATH`). */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * A stablecoin conversion's statuses: the OpenAPI's examples name CREATED (the source debited), SETTLED (the target
 * credited) and CANCELLED (cancelled while CREATED, the source given back); its status is a free string. FAILED is the
 * local service's end of a conversion under its failConversions fault (the source given back).
 */
export const STABLECOIN_CONVERSION_STATUSES = ['CREATED', 'SETTLED', 'CANCELLED', 'FAILED'] as const;
export type StablecoinConversionStatus = (typeof STABLECOIN_CONVERSION_STATUSES)[number];
// ---- Address verification and statements (the OpenAPI's enumerations) ---------------------------------------------

/** How an address is proven the customer's own (publicVerificationMethod). */
export const VERIFICATION_METHODS = ['SIGNATURE', 'SMALL_DEPOSIT', 'MANUAL'] as const;
export type VerificationMethod = (typeof VERIFICATION_METHODS)[number];
/** publicVerificationStatus: PENDING until proven, APPROVED once proven, EXPIRED when the proof came too late. */
export const VERIFICATION_STATUSES = ['PENDING', 'APPROVED', 'EXPIRED'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
export const VERIFICATION_ORDER_BY = ['CREATED_AT'] as const;
export const STATEMENT_TYPES = ['STATEMENT_TYPE_UNSPECIFIED', 'STATEMENT_TYPE_USDG_REWARD'] as const;
export const STATEMENT_PRODUCTS = ['USDG_REWARDS'] as const;
export const STATEMENT_STATUSES = [
  'STATEMENT_STATUS_UNSPECIFIED',
  'STATEMENT_STATUS_INITIATED',
  'STATEMENT_STATUS_GENERATED',
  'STATEMENT_STATUS_PAID',
] as const;
export type StatementStatus = (typeof STATEMENT_STATUSES)[number];
export const PAYMENT_TYPES = ['PAYMENT_TYPE_CRYPTO_WITHDRAWAL'] as const;
export const PAYMENT_STATUSES = [
  'PAYMENT_STATUS_PENDING',
  'PAYMENT_STATUS_COMPLETED',
  'PAYMENT_STATUS_FAILED',
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
