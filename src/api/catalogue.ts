// Reference data of the service: assets, the networks each asset moves on, address formats and markets.
// The local service enforces it; the CLI uses it to offer choices and to check input before sending.
import type { CryptoNetwork, Market } from './enums.js';
import { MARKETS } from './enums.js';

export interface AssetInfo {
  /** Most decimal places an amount of this asset may carry. */
  decimals: number;
  /** Networks a withdrawal of this asset may use, with the network fee in units of the asset. */
  networks: Partial<Record<CryptoNetwork, { fee: string }>>;
  /** Smallest and largest amount of one withdrawal. */
  minWithdrawal: string;
  maxWithdrawal: string;
  /** Assets whose balance may be debited instead (balance_asset), 1:1. */
  balanceAssets?: string[];
  fiat?: boolean;
}

export const ASSETS: Record<string, AssetInfo> = {
  BTC: { decimals: 8, networks: { BITCOIN: { fee: '0.00002' } }, minWithdrawal: '0.0001', maxWithdrawal: '100' },
  ETH: {
    decimals: 18,
    networks: {
      ETHEREUM: { fee: '0.0005' }, BASE: { fee: '0.00001' }, ARBITRUM_ONE: { fee: '0.00002' },
      INK: { fee: '0.00001' }, XLAYER: { fee: '0.00002' },
    },
    minWithdrawal: '0.001', maxWithdrawal: '5000',
  },
  BCH: { decimals: 8, networks: { BITCOIN_CASH: { fee: '0.0001' } }, minWithdrawal: '0.001', maxWithdrawal: '10000' },
  LTC: { decimals: 8, networks: { LITECOIN: { fee: '0.0001' } }, minWithdrawal: '0.001', maxWithdrawal: '50000' },
  SOL: { decimals: 9, networks: { SOLANA: { fee: '0.000005' } }, minWithdrawal: '0.01', maxWithdrawal: '100000' },
  PAXG: { decimals: 18, networks: { ETHEREUM: { fee: '0.001' } }, minWithdrawal: '0.001', maxWithdrawal: '5000' },
  LINK: { decimals: 18, networks: { ETHEREUM: { fee: '0.2' } }, minWithdrawal: '1', maxWithdrawal: '1000000' },
  AAVE: { decimals: 18, networks: { ETHEREUM: { fee: '0.01' } }, minWithdrawal: '0.1', maxWithdrawal: '100000' },
  UNI: { decimals: 18, networks: { ETHEREUM: { fee: '0.3' } }, minWithdrawal: '1', maxWithdrawal: '1000000' },
  MATIC: {
    decimals: 18, networks: { POLYGON_POS: { fee: '0.01' }, ETHEREUM: { fee: '5' } },
    minWithdrawal: '1', maxWithdrawal: '10000000',
  },
  USDP: {
    decimals: 6, networks: { ETHEREUM: { fee: '2.5' }, SOLANA: { fee: '0.01' } },
    minWithdrawal: '1', maxWithdrawal: '10000000', balanceAssets: ['USD'],
  },
  PYUSD: {
    decimals: 6,
    networks: { ETHEREUM: { fee: '2.5' }, SOLANA: { fee: '0.01' }, STELLAR: { fee: '0.01' }, ARBITRUM_ONE: { fee: '0.1' } },
    minWithdrawal: '1', maxWithdrawal: '10000000', balanceAssets: ['USD'],
  },
  USD: { decimals: 2, networks: {}, minWithdrawal: '0', maxWithdrawal: '0', fiat: true },
  EUR: { decimals: 2, networks: {}, minWithdrawal: '0', maxWithdrawal: '0', fiat: true },
  GBP: { decimals: 2, networks: {}, minWithdrawal: '0', maxWithdrawal: '0', fiat: true },
  BRL: { decimals: 2, networks: {}, minWithdrawal: '0', maxWithdrawal: '0', fiat: true },
  MXN: { decimals: 2, networks: {}, minWithdrawal: '0', maxWithdrawal: '0', fiat: true },
};

// These tables are looked up by strings from requests and flags: without a prototype, "constructor" or
// "__proto__" is no asset or network (ASSETS.constructor was a function, and the rules then threw: a 500).
for (const info of Object.values(ASSETS)) Object.setPrototypeOf(info.networks, null);
Object.setPrototypeOf(ASSETS, null);

/** Assets that can be withdrawn to a blockchain address. */
export const CRYPTO_ASSETS = Object.keys(ASSETS).filter((a) => !ASSETS[a].fiat);

export function networksForAsset(asset: string): CryptoNetwork[] {
  return Object.keys(ASSETS[asset]?.networks ?? {}) as CryptoNetwork[];
}

/** Address formats per network. A destination that does not match gets the unsupported-address problem. */
export const ADDRESS_FORMATS: Record<CryptoNetwork, { pattern: RegExp; example: string }> = {
  BITCOIN: {
    pattern: /^(?:[13][a-km-zA-HJ-NP-Z1-9]{25,34}|(?:bc1|tb1)[02-9ac-hj-np-z]{11,71})$/,
    example: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
  },
  BITCOIN_CASH: {
    pattern: /^(?:(?:bitcoincash:)?[qp][02-9ac-hj-np-z]{41}|[13][a-km-zA-HJ-NP-Z1-9]{25,34})$/,
    example: 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a',
  },
  LITECOIN: {
    pattern: /^(?:[LM3][a-km-zA-HJ-NP-Z1-9]{26,33}|ltc1[02-9ac-hj-np-z]{11,71})$/,
    example: 'LZ9tA6ovSuH5b3Kqh3f6qZQ5J7YbYtWkF8',
  },
  ETHEREUM: { pattern: /^0x[0-9a-fA-F]{40}$/, example: '0xF0Aa84466e353E5390be37FE2934301c07c19a55' },
  POLYGON_POS: { pattern: /^0x[0-9a-fA-F]{40}$/, example: '0xF0Aa84466e353E5390be37FE2934301c07c19a55' },
  BASE: { pattern: /^0x[0-9a-fA-F]{40}$/, example: '0xF0Aa84466e353E5390be37FE2934301c07c19a55' },
  ARBITRUM_ONE: { pattern: /^0x[0-9a-fA-F]{40}$/, example: '0xF0Aa84466e353E5390be37FE2934301c07c19a55' },
  INK: { pattern: /^0x[0-9a-fA-F]{40}$/, example: '0xF0Aa84466e353E5390be37FE2934301c07c19a55' },
  XLAYER: { pattern: /^0x[0-9a-fA-F]{40}$/, example: '0xF0Aa84466e353E5390be37FE2934301c07c19a55' },
  SOLANA: { pattern: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/, example: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV' },
  STELLAR: { pattern: /^G[A-Z2-7]{55}$/, example: 'GDQE7IXJ4HUHV6RQHIUPRJSEZE4DRS5WY577O2FY6YQ5LVWZ7JZTU2V5' },
};

Object.setPrototypeOf(ADDRESS_FORMATS, null);

export function isValidAddress(network: CryptoNetwork, address: string): boolean {
  const f = ADDRESS_FORMATS[network];
  return !!f && f.pattern.test(address);
}

/**
 * The documented class of destinations whose withdrawals end FAILED in the local service: any address that
 * ends in "dead" (case-insensitive), such as 0x000000000000000000000000000000000000dEaD.
 */
export function isFailingDestination(address: string): boolean {
  return address.toLowerCase().endsWith('dead');
}

export interface MarketInfo {
  base: string;
  quote: string;
  /** Decimal places of prices in this market. */
  priceDecimals: number;
  /** Decimal places of order amounts in this market. */
  amountDecimals: number;
}

const QUOTES = ['USD', 'EUR', 'GBP', 'BRL', 'MXN'];

function splitMarket(m: string): [string, string] {
  for (const q of QUOTES) if (m.endsWith(q) && m.length > q.length) return [m.slice(0, -q.length), q];
  throw new Error(`market ${m} has no known quote currency`);
}

export const MARKET_INFO: Record<Market, MarketInfo> = Object.fromEntries(
  MARKETS.map((m) => {
    const [base, quote] = splitMarket(m);
    const stable = base === 'USDP' || base === 'PYUSD' || base === 'MATIC';
    return [m, { base, quote, priceDecimals: stable ? 4 : 2, amountDecimals: stable ? 2 : base === 'LINK' || base === 'UNI' ? 4 : 8 }];
  }),
) as Record<Market, MarketInfo>;

/** USD value of one unit of each fiat currency, fixed for the local service's notional values. */
export const FIAT_USD_RATE: Record<string, string> = { USD: '1', EUR: '1.08', GBP: '1.27', BRL: '0.18', MXN: '0.055' };

Object.setPrototypeOf(MARKET_INFO, null);
Object.setPrototypeOf(FIAT_USD_RATE, null);
