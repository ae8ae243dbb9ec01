// Exact decimal arithmetic for amounts: strings on the wire, Decimal in code, never a float.
import { Decimal as DecimalJs } from 'decimal.js';

let made: typeof DecimalJs | undefined;
/**
 * The Decimal constructor of every amount: enough precision for any amount of any asset, and no exponent in strings.
 * Made on first use (and decimal.js evaluated then: it is a lazy package of the bundles, scripts/build.mjs), so a
 * command that reckons no amount, such as a plain read, never sets it up.
 */
export function decimalClass(): typeof DecimalJs {
  made ??= DecimalJs.clone({
    precision: 80,
    rounding: DecimalJs.ROUND_DOWN,
    toExpNeg: -100,
    toExpPos: 100,
  });
  return made;
}
export type Decimal = DecimalJs;

const AMOUNT_RE = /^[0-9]*\.?[0-9]+$/;

export function isAmountString(value: unknown): value is string {
  return typeof value === 'string' && AMOUNT_RE.test(value);
}

export function dec(value: string | number | DecimalJs): DecimalJs {
  return new (decimalClass())(value);
}

/** Number of decimal places written in an amount string ("1.500" has 3). */
export function decimalPlaces(amount: string): number {
  const i = amount.indexOf('.');
  return i < 0 ? 0 : amount.length - i - 1;
}

/** Canonical string of a decimal: no exponent, no trailing zeros after the point. */
export function fmt(amount: DecimalJs): string {
  return amount.toFixed();
}

/** A decimal written with exactly `places` decimals, truncated toward zero (never rounded up). */
export function fixed(amount: DecimalJs, places: number): string {
  return amount.toFixed(places, DecimalJs.ROUND_DOWN);
}

/** The USD notional of an amount at a USD price per unit, to the cent (as a transfer's notional_value). */
export function usdNotional(amount: DecimalJs, usdPerUnit: DecimalJs): DecimalJs {
  return dec(fixed(amount.times(usdPerUnit), 2));
}

export function sum(values: Iterable<string | DecimalJs>): DecimalJs {
  let total = dec(0);
  for (const v of values) total = total.plus(v);
  return total;
}
