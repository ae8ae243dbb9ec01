// Exact decimal arithmetic for amounts: strings on the wire, Decimal in code, never a float.
import { Decimal as DecimalJs } from 'decimal.js';

/** A Decimal constructor with enough precision for any amount of any asset, and no exponent in strings. */
export const Decimal = DecimalJs.clone({
  precision: 80,
  rounding: DecimalJs.ROUND_DOWN,
  toExpNeg: -100,
  toExpPos: 100,
});
export type Decimal = DecimalJs;

const AMOUNT_RE = /^[0-9]*\.?[0-9]+$/;

export function isAmountString(s: unknown): s is string {
  return typeof s === 'string' && AMOUNT_RE.test(s);
}

export function dec(s: string | number | DecimalJs): DecimalJs {
  return new Decimal(s);
}

/** Number of decimal places written in an amount string ("1.500" has 3). */
export function decimalPlaces(s: string): number {
  const i = s.indexOf('.');
  return i < 0 ? 0 : s.length - i - 1;
}

/** Canonical string of a decimal: no exponent, no trailing zeros after the point. */
export function fmt(d: DecimalJs): string {
  return d.toFixed();
}

/** A decimal written with exactly `places` decimals, truncated toward zero (never rounded up). */
export function fixed(d: DecimalJs, places: number): string {
  return d.toFixed(places, DecimalJs.ROUND_DOWN);
}

/** The USD notional of an amount at a USD price per unit, to the cent (as a transfer's notional_value). */
export function usdNotional(amount: DecimalJs, usdPerUnit: DecimalJs): DecimalJs {
  return new Decimal(fixed(amount.times(usdPerUnit), 2));
}

export function sum(values: Iterable<string | DecimalJs>): DecimalJs {
  let total = new Decimal(0);
  for (const v of values) total = total.plus(v);
  return total;
}
