// The service's enumerations (SERVICE.md 2.1 and UPSTREAM.md), declared once for the client and the local service.

export const CRYPTO_NETWORKS = [
  'BITCOIN', 'ETHEREUM', 'BITCOIN_CASH', 'LITECOIN', 'SOLANA', 'POLYGON_POS', 'BASE', 'ARBITRUM_ONE',
  'STELLAR', 'INK', 'XLAYER',
] as const;
export type CryptoNetwork = (typeof CRYPTO_NETWORKS)[number];

export const TRANSFER_DIRECTIONS = ['CREDIT', 'DEBIT'] as const;
export type TransferDirection = (typeof TRANSFER_DIRECTIONS)[number];

export const TRANSFER_STATUSES = ['PENDING', 'COMPLETED', 'FAILED'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

export const TRANSFER_TYPES = [
  'INTERNAL_TRANSFER_DEBIT', 'INTERNAL_TRANSFER_CREDIT', 'CRYPTO_DEPOSIT', 'CRYPTO_WITHDRAWAL', 'WIRE_DEPOSIT',
  'WIRE_WITHDRAWAL', 'SEN_DEPOSIT', 'SEN_WITHDRAWAL', 'BANK_DEPOSIT', 'BANK_WITHDRAWAL', 'PLATFORM_TRANSFER_DEBIT',
  'PLATFORM_TRANSFER_CREDIT', 'SIGNET_DEPOSIT', 'SIGNET_WITHDRAWAL', 'CBIT_WITHDRAWAL', 'CBIT_DEPOSIT',
  'CUBIX_DEPOSIT', 'CUBIX_WITHDRAWAL', 'RTP_DEPOSIT',
] as const;
export type TransferType = (typeof TRANSFER_TYPES)[number];

export const MARKETS = [
  'ETHEUR', 'ETHUSD', 'BTCEUR', 'BTCUSD', 'PAXGUSD', 'BCHUSD', 'LTCUSD', 'ETHGBP', 'BTCGBP', 'LTCGBP', 'BCHGBP',
  'USDPUSD', 'ETHBRL', 'BTCBRL', 'LTCBRL', 'BCHBRL', 'USDPGBP', 'USDPBRL', 'LINKUSD', 'MATICUSD', 'AAVEUSD',
  'UNIUSD', 'AAVEMXN', 'BCHMXN', 'BTCMXN', 'ETHMXN', 'LTCMXN', 'USDPMXN', 'AAVEEUR', 'BCHEUR', 'LTCEUR', 'LINKEUR',
  'MATICEUR', 'PAXGEUR', 'SOLEUR', 'USDPEUR', 'UNIEUR', 'PYUSDEUR', 'PYUSDGBP',
] as const;
export type Market = (typeof MARKETS)[number];

export const PRICE_INCREMENTS = [
  'ONE_MINUTE', 'FIVE_MINUTES', 'FIFTEEN_MINUTES', 'THIRTY_MINUTES', 'ONE_HOUR', 'TWO_HOURS', 'TWELVE_HOURS',
  'ONE_DAY', 'ONE_WEEK', 'TWO_WEEKS', 'FOUR_WEEKS',
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
} as const;
export type Scope = (typeof SCOPES)[keyof typeof SCOPES];
export const ALL_SCOPES: Scope[] = Object.values(SCOPES);

/** Channel types of the market data stream (SERVICE.md 4.6). */
export const STREAM_CHANNELS = ['market_data', 'market_data.top_of_book', 'execution_data', 'heartbeat'] as const;
export type StreamChannel = (typeof STREAM_CHANNELS)[number];

export const STREAM_ERROR_CODES = [
  'UNKNOWN_ACTION', 'INTERNAL_SERVER_ERROR', 'MALFORMED_REQUEST', 'NO_EFFECT_ACTION', 'UNKNOWN_CHANNEL',
  'UNKNOWN_CHANNEL_PARAMS_CONFIGURATION',
] as const;
export type StreamErrorCode = (typeof STREAM_ERROR_CODES)[number];
