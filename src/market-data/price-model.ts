// The deterministic price model: the mid price of a market is a function of (seed, market, time) only, so the
// HTTP historical prices, the simulated live market and every process agree on the price of any instant.
import { FIAT_USD_RATE, MARKET_INFO, usdPricing } from '../contract/catalogue.js';
import type { Market } from '../contract/enums.js';
import { type Decimal, dec, fixed } from '../contract/money.js';
import { hashString, mix } from './rng.js';

/** Reference price of each base asset in USD; markets in other currencies divide by the fiat rate. */
const BASE_USD: Record<string, number> = {
  BTC: 64000,
  ETH: 3200,
  BCH: 420,
  LTC: 85,
  PAXG: 2350,
  USDP: 1,
  LINK: 15,
  MATIC: 0.7,
  AAVE: 95,
  UNI: 7.5,
  SOL: 150,
  PYUSD: 1,
  PEPE: 0.00001,
  TRUMP: 10,
  SHIB: 0.00002,
  ARB: 0.8,
  BONK: 0.00002,
  ENA: 0.5,
  MNT: 0.8,
  ONDO: 1,
  PENGU: 0.02,
  QNT: 100,
  RENDER: 5,
  SKY: 0.07,
  WIF: 1.5,
  WLD: 1.5,
  DOGE: 0.15,
  AVAX: 30,
  SUI: 3,
  POL: 0.4,
  XLM: 0.3,
  BNB: 600,
};
/** Stablecoins barely move. */
const VOLATILITY: Record<string, number> = { USDP: 0.0004, PYUSD: 0.0004, PAXG: 0.04 };

/** Octaves of lattice noise: period in seconds and weight. Together they give moves from minutes to months. */
const OCTAVES: Array<[number, number]> = [
  [60, 0.02],
  [600, 0.05],
  [3600, 0.1],
  [6 * 3600, 0.15],
  [86400, 0.25],
  [7 * 86400, 0.3],
  [30 * 86400, 0.45],
];

function lattice(seed: number, octave: number, step: number): number {
  return mix(mix(seed, octave), step) / 4294967296 - 0.5;
}

/** Cosine interpolation between two lattice points at fraction f of the way. */
function blend(from: number, to: number, fraction: number): number {
  const w = (1 - Math.cos(fraction * Math.PI)) / 2;
  return from * (1 - w) + to * w;
}

/** Smooth noise in about [-0.5, 0.5] at time t (seconds) for one octave: cosine interpolation of lattice points. */
function noise(seed: number, octave: number, period: number, time: number): number {
  const x = time / period;
  const k = Math.floor(x);
  return blend(lattice(seed, octave, k), lattice(seed, octave, k + 1), x - k);
}

export function marketSeed(seed: number, market: string): number {
  return hashString(market, seed >>> 0);
}

/** What the mid price of a market depends on besides time, worked out once per market and seed. */
interface MarketModel {
  scale: number;
  vol: number;
  seed: number;
}

const models = new Map<string, MarketModel>();

function modelOf(seed: number, market: Market): MarketModel {
  const key = `${seed}|${market}`;
  let m = models.get(key);
  if (!m) {
    const info = MARKET_INFO[market];
    const usd = BASE_USD[info.base] ?? 1;
    const rate = Number(FIAT_USD_RATE[info.quote] ?? '1');
    m = { scale: usd / rate, vol: VOLATILITY[info.base] ?? 1, seed: marketSeed(seed, market) };
    models.set(key, m);
  }
  return m;
}

function midAt(model: MarketModel, timeMs: number): number {
  const t = timeMs / 1000;
  let n = 0;
  for (let i = 0; i < OCTAVES.length; i++) n += OCTAVES[i][1] * noise(model.seed, i, OCTAVES[i][0], t);
  return model.scale * Math.exp(model.vol * n);
}

/**
 * midAt for many instants in increasing order (an average's samples): the same arithmetic, with each octave's two
 * lattice points worked out once per lattice cell instead of once per instant, so the values are identical.
 */
function meanMid(model: MarketModel, startMs: number, stepMs: number, samples: number): number {
  const cell = new Array<number>(OCTAVES.length).fill(NaN);
  const a = new Array<number>(OCTAVES.length).fill(0);
  const b = new Array<number>(OCTAVES.length).fill(0);
  let total = 0;
  for (let s = 0; s < samples; s++) {
    const t = (startMs + ((s + 0.5) * stepMs) / samples) / 1000;
    let n = 0;
    for (let i = 0; i < OCTAVES.length; i++) {
      const x = t / OCTAVES[i][0];
      const k = Math.floor(x);
      if (k !== cell[i]) {
        cell[i] = k;
        a[i] = lattice(model.seed, i, k);
        b[i] = lattice(model.seed, i, k + 1);
      }
      n += OCTAVES[i][1] * blend(a[i], b[i], x - k);
    }
    total += model.scale * Math.exp(model.vol * n);
  }
  return total / samples;
}

/** Mid price as a float, used by the simulator for order flow around it. */
export function midPriceFloat(seed: number, market: Market, timeMs: number): number {
  return midAt(modelOf(seed, market), timeMs);
}

/** Mid price as an exact decimal string with the market's price precision. */
export function midPrice(seed: number, market: Market, timeMs: number): string {
  const info = MARKET_INFO[market];
  return fixed(dec(midPriceFloat(seed, market, timeMs).toFixed(info.priceDecimals + 2)), info.priceDecimals);
}

/**
 * Time-weighted average of the mid price over [startMs, startMs + stepMs), sampled at up to 60 points, as the
 * market's price precision. A completed period always gives the same value.
 */
export function averagePrice(seed: number, market: Market, startMs: number, stepMs: number): string {
  const info = MARKET_INFO[market];
  const samples = Math.max(1, Math.min(60, Math.round(stepMs / 60_000)));
  const mean = meanMid(modelOf(seed, market), startMs, stepMs, samples);
  return fixed(dec(mean.toFixed(info.priceDecimals + 2)), info.priceDecimals);
}

/**
 * USD value of one unit of an asset at a time (for notional values), by the contract's rule (usdPricing): a fixed
 * rate, or the model's mid price of its market; the model's reference price for an asset without a market.
 */
export function usdPrice(seed: number, asset: string, timeMs: number): Decimal {
  const pricing = usdPricing(asset);
  if (!pricing) return dec(BASE_USD[asset] ?? 0);
  if ('rate' in pricing) return dec(pricing.rate);
  return dec(midPrice(seed, pricing.market, timeMs)).times(pricing.times);
}
