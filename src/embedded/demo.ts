// The documented demo data every fresh local database starts with: clients, customer, profiles, balances.
import { SCOPES } from '../contract/enums.js';

export const DEMO = {
  adminClientId: 'local-admin',
  readonlyClientId: 'local-readonly',
  clientSecret: 'local-secret',
  customerId: '0b8c6a4e-5f57-4c3e-9d2a-6c1e0f4d2a11',
  profileId: '5d1f2a3b-7c4e-4b6a-8f90-1a2b3c4d5e6f',
  memoId: 'DEMO-MEMO-0001',
  /** A second profile of the same customer that starts empty (for insufficient-funds cases). */
  emptyProfileId: 'e3a0c9d1-2b4f-4e6a-9c8d-7f6e5d4c3b2a',
  emptyMemoId: 'DEMO-MEMO-0002',
} as const;

/**
 * Scopes of the address book, transfer limits, fiat deposit instructions and the event feed: read ones for the read-only
 * client too.
 */
const DESK_SCOPES = {
  // The event feed is read-only: both clients read it.
  read: [
    SCOPES.readCryptoDestinationAddress,
    SCOPES.readTransferLimit,
    SCOPES.readFiatDepositInstructions,
    SCOPES.readConversionStablecoin,
    SCOPES.readEvent,
    SCOPES.readFiatAccount,
  ],
  write: [
    SCOPES.writeCryptoDestinationAddress,
    SCOPES.writeFiatDepositInstructions,
    SCOPES.writeFiatAccount,
    SCOPES.writeFiatWithdrawal,
    SCOPES.updateCryptoDeposit,
    SCOPES.rejectCryptoDeposit,
    SCOPES.writeConversionStablecoin,
  ],
};

export const DEMO_CLIENTS = [
  {
    id: DEMO.adminClientId,
    secret: DEMO.clientSecret,
    scopes: [
      SCOPES.createCryptoWithdrawal,
      SCOPES.createWithdrawalFee,
      SCOPES.readDepositAddress,
      SCOPES.sandboxFiatDeposit,
      SCOPES.historicalPrices,
      SCOPES.marketDataStream,
      SCOPES.readTransfer,
      SCOPES.writeDepositAddress,
      // Service profiles, balances, internal transfers.
      SCOPES.readProfile,
      SCOPES.writeProfile,
      SCOPES.writeInternalTransfer,
      ...DESK_SCOPES.read,
      ...DESK_SCOPES.write,
    ],
    allowStream: true,
  },
  {
    id: DEMO.readonlyClientId,
    secret: DEMO.clientSecret,
    scopes: [
      SCOPES.readDepositAddress,
      SCOPES.historicalPrices,
      SCOPES.readTransfer,
      // Service profiles and balances.
      SCOPES.readProfile,
      ...DESK_SCOPES.read,
    ],
    allowStream: false,
  },
];

/** Opening balances of the demo profile: generous in every asset of the catalogue. */
export const DEMO_BALANCES: Record<string, string> = {
  BTC: '1000',
  ETH: '20000',
  BCH: '50000',
  LTC: '100000',
  SOL: '1000000',
  PAXG: '10000',
  LINK: '1000000',
  AAVE: '100000',
  UNI: '1000000',
  MATIC: '10000000',
  USDP: '10000000',
  PYUSD: '10000000',
  PEPE: '1000000000000',
  TRUMP: '1000000',
  SHIB: '500000000000',
  ARB: '10000000',
  BONK: '500000000000',
  ENA: '10000000',
  MNT: '10000000',
  ONDO: '10000000',
  PENGU: '500000000',
  QNT: '100000',
  RENDER: '1000000',
  SKY: '100000000',
  WIF: '10000000',
  WLD: '10000000',
  DOGE: '50000000',
  AVAX: '100000',
  SUI: '1000000',
  POL: '10000000',
  XLM: '10000000',
  BNB: '10000',
  USD: '10000000',
  EUR: '1000000',
  GBP: '1000000',
  BRL: '5000000',
  MXN: '20000000',
};

/**
 * Wire instructions of a sandbox deposit as complete as the hosted service requires (every required field of the
 * OpenAPI's FiatNetworkInstructionsWire), for examples and tests.
 */
export const DEMO_WIRE = {
  account_number: '12345678',
  fiat_account_owner_address: {
    country: 'USA',
    address1: '1 Demo Street',
    city: 'New York',
    province: 'NY',
    zip_code: '10001',
  },
  routing_details: {
    routing_number_type: 'ABA',
    routing_number: '021000021',
    bank_name: 'Demo Bank',
    bank_address: { country: 'USA', city: 'New York' },
  },
} as const;

/** Deposit addresses of the demo profile on a fresh database (network and ref_id). */
export const DEMO_DEPOSIT_ADDRESSES = [
  { crypto_network: 'BITCOIN', ref_id: 'demo-btc' },
  { crypto_network: 'ETHEREUM', ref_id: 'demo-eth' },
  { crypto_network: 'SOLANA', ref_id: 'demo-sol' },
] as const;

/** Fiat deposit instructions of the demo profiles (ref_id): they hold the demo memo_ids. */
export const DEMO_DEPOSIT_INSTRUCTIONS = [
  { profile_id: DEMO.profileId, memo_id: DEMO.memoId, ref_id: 'demo-wire' },
  { profile_id: DEMO.emptyProfileId, memo_id: DEMO.emptyMemoId, ref_id: 'demo-wire-empty' },
] as const;

/** Transfer limit rules of a fresh database (limits.ts): crypto withdrawals in USD notional, per transfer and per 24 h. */
export const DEMO_LIMIT_RULES = [
  {
    id: 'crypto-withdrawal-per-transfer',
    transfer_types: ['CRYPTO_WITHDRAWAL'],
    period_seconds: 0,
    limit: '10000000',
    limit_asset: 'USD',
  },
  {
    id: 'crypto-withdrawal-24h',
    transfer_types: ['CRYPTO_WITHDRAWAL'],
    period_seconds: 86_400,
    limit: '50000000',
    limit_asset: 'USD',
  },
] as const;
