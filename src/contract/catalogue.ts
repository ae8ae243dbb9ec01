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

/** A token that moves on one network, with the usual shape of its limits. */
const token = (
  decimals: number,
  networks: AssetInfo['networks'],
  minWithdrawal: string,
  maxWithdrawal: string,
): AssetInfo => ({ decimals, networks, minWithdrawal, maxWithdrawal });

export const ASSETS: Record<string, AssetInfo> = {
  BTC: { decimals: 8, networks: { BITCOIN: { fee: '0.00002' } }, minWithdrawal: '0.0001', maxWithdrawal: '100' },
  ETH: {
    decimals: 18,
    networks: {
      ETHEREUM: { fee: '0.0005' },
      BASE: { fee: '0.00001' },
      ARBITRUM_ONE: { fee: '0.00002' },
      INK: { fee: '0.00001' },
      XLAYER: { fee: '0.00002' },
      ROBINHOOD: { fee: '0.00001' },
    },
    minWithdrawal: '0.001',
    maxWithdrawal: '5000',
  },
  BCH: { decimals: 8, networks: { BITCOIN_CASH: { fee: '0.0001' } }, minWithdrawal: '0.001', maxWithdrawal: '10000' },
  LTC: { decimals: 8, networks: { LITECOIN: { fee: '0.0001' } }, minWithdrawal: '0.001', maxWithdrawal: '50000' },
  SOL: { decimals: 9, networks: { SOLANA: { fee: '0.000005' } }, minWithdrawal: '0.01', maxWithdrawal: '100000' },
  PAXG: { decimals: 18, networks: { ETHEREUM: { fee: '0.001' } }, minWithdrawal: '0.001', maxWithdrawal: '5000' },
  LINK: { decimals: 18, networks: { ETHEREUM: { fee: '0.2' } }, minWithdrawal: '1', maxWithdrawal: '1000000' },
  AAVE: { decimals: 18, networks: { ETHEREUM: { fee: '0.01' } }, minWithdrawal: '0.1', maxWithdrawal: '100000' },
  UNI: { decimals: 18, networks: { ETHEREUM: { fee: '0.3' } }, minWithdrawal: '1', maxWithdrawal: '1000000' },
  MATIC: {
    decimals: 18,
    networks: { POLYGON_POS: { fee: '0.01' }, ETHEREUM: { fee: '5' } },
    minWithdrawal: '1',
    maxWithdrawal: '10000000',
  },
  USDP: {
    decimals: 6,
    networks: { ETHEREUM: { fee: '2.5' }, SOLANA: { fee: '0.01' } },
    minWithdrawal: '1',
    maxWithdrawal: '10000000',
    balanceAssets: ['USD'],
  },
  PYUSD: {
    decimals: 6,
    networks: {
      ETHEREUM: { fee: '2.5' },
      SOLANA: { fee: '0.01' },
      STELLAR: { fee: '0.01' },
      ARBITRUM_ONE: { fee: '0.1' },
    },
    minWithdrawal: '1',
    maxWithdrawal: '10000000',
    balanceAssets: ['USD'],
  },
  // The assets of the OpenAPI's further markets, with simulated fees and limits worth a few dollars and about a
  // million dollars.
  PEPE: token(18, { ETHEREUM: { fee: '400000' } }, '1000000', '100000000000'),
  TRUMP: token(6, { SOLANA: { fee: '0.01' } }, '0.1', '1000000'),
  SHIB: token(18, { ETHEREUM: { fee: '200000' } }, '500000', '50000000000'),
  ARB: token(18, { ARBITRUM_ONE: { fee: '0.1' }, ETHEREUM: { fee: '5' } }, '1', '10000000'),
  BONK: token(5, { SOLANA: { fee: '500' } }, '100000', '50000000000'),
  ENA: token(18, { ETHEREUM: { fee: '5' } }, '10', '10000000'),
  MNT: token(18, { ETHEREUM: { fee: '5' } }, '10', '10000000'),
  ONDO: token(18, { ETHEREUM: { fee: '3' } }, '10', '10000000'),
  PENGU: token(6, { SOLANA: { fee: '1' } }, '100', '1000000000'),
  QNT: token(18, { ETHEREUM: { fee: '0.03' } }, '0.1', '100000'),
  RENDER: token(8, { SOLANA: { fee: '0.01' } }, '1', '1000000'),
  SKY: token(18, { ETHEREUM: { fee: '50' } }, '100', '100000000'),
  WIF: token(6, { SOLANA: { fee: '0.01' } }, '1', '10000000'),
  WLD: token(18, { ETHEREUM: { fee: '2' } }, '5', '10000000'),
  DOGE: token(8, { DOGECOIN: { fee: '2' } }, '10', '10000000'),
  AVAX: token(18, { AVALANCHE: { fee: '0.01' } }, '0.1', '100000'),
  SUI: token(9, { SUI: { fee: '0.01' } }, '1', '1000000'),
  POL: token(18, { POLYGON_POS: { fee: '0.01' }, ETHEREUM: { fee: '10' } }, '1', '10000000'),
  XLM: token(7, { STELLAR: { fee: '0.01' } }, '1', '10000000'),
  BNB: token(18, { BNB: { fee: '0.0005' } }, '0.01', '10000'),
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

/**
 * Decimal places of prices and of order amounts in the markets of each base asset: about five significant digits
 * of price, and lots small enough that an order of a few dollars is many of them.
 */
const MARKET_PRECISION: Record<string, [price: number, amount: number]> = {
  BTC: [2, 8],
  ETH: [2, 8],
  BCH: [2, 8],
  LTC: [2, 8],
  SOL: [2, 8],
  PAXG: [2, 8],
  AAVE: [2, 8],
  LINK: [2, 4],
  UNI: [2, 4],
  USDP: [4, 2],
  PYUSD: [4, 2],
  MATIC: [4, 2],
  PEPE: [10, 0],
  TRUMP: [3, 3],
  SHIB: [9, 0],
  ARB: [4, 2],
  BONK: [9, 0],
  ENA: [4, 2],
  MNT: [4, 2],
  ONDO: [4, 2],
  PENGU: [6, 0],
  QNT: [2, 4],
  RENDER: [3, 3],
  SKY: [5, 1],
  WIF: [4, 2],
  WLD: [4, 2],
  DOGE: [5, 1],
  AVAX: [2, 4],
  SUI: [4, 2],
  POL: [4, 2],
  XLM: [5, 1],
  BNB: [2, 6],
};

function splitMarket(market: string): [string, string] {
  for (const q of QUOTES) if (market.endsWith(q) && market.length > q.length) return [market.slice(0, -q.length), q];
  throw new Error(`market ${market} has no known quote currency`);
}

export const MARKET_INFO: Record<Market, MarketInfo> = Object.fromEntries(
  MARKETS.map((market) => {
    const [base, quote] = splitMarket(market);
    const precision = MARKET_PRECISION[base];
    if (!precision) throw new Error(`market ${market}: no precision for ${base}`);
    return [market, { base, quote, priceDecimals: precision[0], amountDecimals: precision[1] }];
  }),
) as Record<Market, MarketInfo>;

/** One unit of the last of `decimals` decimal places: "0.01" for 2, "1" for 0. */
export function lastDecimalUnit(decimals: number): string {
  return decimals > 0 ? `0.${'0'.repeat(decimals - 1)}1` : '1';
}

/** A catalogue market as GET /v2/markets describes one: its assets, its tick and its smallest amount. */
export function catalogueMarket(market: Market): {
  market: Market;
  base_asset: string;
  quote_asset: string;
  tick_rate: string;
  min_base_amount: string;
} {
  const info = MARKET_INFO[market];
  return {
    market,
    base_asset: info.base,
    quote_asset: info.quote,
    tick_rate: lastDecimalUnit(info.priceDecimals),
    min_base_amount: lastDecimalUnit(info.amountDecimals),
  };
}

/** USD value of one unit of each fiat currency, fixed for the local service's notional values. */
export const FIAT_USD_RATE: Record<string, string> = { USD: '1', EUR: '1.08', GBP: '1.27', BRL: '0.18', MXN: '0.055' };

/**
 * Where the USD value of one unit of an asset comes from (a transfer's notional_value, which USD limits count): a
 * fixed rate (fiat, and the dollar stablecoins at par), or the price of the asset's USD market, else of its EUR market
 * times the euro's rate; undefined for an asset with neither. The local service prices by this rule with its model's
 * mid price, the CLI's limits preflight with the market's latest price.
 */
export type UsdPricing = { rate: string } | { market: Market; times: string } | undefined;

export function usdPricing(asset: string): UsdPricing {
  if (FIAT_USD_RATE[asset]) return { rate: FIAT_USD_RATE[asset] };
  if (asset === 'USDP' || asset === 'PYUSD') return { rate: '1' };
  for (const [quote, times] of [
    ['USD', '1'],
    ['EUR', FIAT_USD_RATE.EUR],
  ]) {
    const market = `${asset}${quote}` as Market;
    if (MARKET_INFO[market]) return { market, times };
  }
  return undefined;
}

Object.setPrototypeOf(MARKET_INFO, null);
Object.setPrototypeOf(FIAT_USD_RATE, null);

/**
 * The stablecoins a conversion turns USD into and back, one to one: the assets whose withdrawals may debit USD (their
 * balance asset). A conversion is between USD and one of them.
 */
export const STABLECOINS: readonly string[] = Object.entries(ASSETS)
  .filter(([, info]) => info.balanceAssets?.includes('USD'))
  .map(([asset]) => asset);
