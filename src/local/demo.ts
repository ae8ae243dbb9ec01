// The documented demo data every fresh local database starts with: clients, customer, profiles, balances.
import { SCOPES } from '../api/index.js';

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

export const DEMO_CLIENTS = [
  {
    id: DEMO.adminClientId,
    secret: DEMO.clientSecret,
    scopes: [
      SCOPES.createCryptoWithdrawal, SCOPES.createWithdrawalFee, SCOPES.readDepositAddress, SCOPES.sandboxFiatDeposit,
      SCOPES.historicalPrices, SCOPES.marketDataStream, SCOPES.readTransfer, SCOPES.writeDepositAddress,
    ],
    allowStream: true,
  },
  {
    id: DEMO.readonlyClientId,
    secret: DEMO.clientSecret,
    scopes: [SCOPES.readDepositAddress, SCOPES.historicalPrices, SCOPES.readTransfer],
    allowStream: false,
  },
];

/** Opening balances of the demo profile: generous in every asset of the catalogue. */
export const DEMO_BALANCES: Record<string, string> = {
  BTC: '1000', ETH: '20000', BCH: '50000', LTC: '100000', SOL: '1000000', PAXG: '10000', LINK: '1000000',
  AAVE: '100000', UNI: '1000000', MATIC: '10000000', USDP: '10000000', PYUSD: '10000000',
  USD: '10000000', EUR: '1000000', GBP: '1000000', BRL: '5000000', MXN: '20000000',
};

/** Deposit addresses of the demo profile on a fresh database (network and ref_id). */
export const DEMO_DEPOSIT_ADDRESSES = [
  { crypto_network: 'BITCOIN', ref_id: 'demo-btc' },
  { crypto_network: 'ETHEREUM', ref_id: 'demo-eth' },
  { crypto_network: 'SOLANA', ref_id: 'demo-sol' },
] as const;
