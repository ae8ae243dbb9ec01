// The transfer limits preflight before money moves: what is left of each limit on crypto withdrawals (GET
// /v2/transfer/limits/utilizations, as `coinop limits` shows it), compared with what a batch or one withdrawal would
// take. A limit in USD counts a transfer's USD notional, priced by the contract's rule (usdPricing, the local
// service's own) with the market's latest price; a limit in an asset counts that asset's totals. A limit or a price
// that cannot be read is unknown: noted, never a refusal (the service still enforces its limits).
import {
  type Decimal,
  dec,
  type FIAT_WITHDRAWAL_TRANSFER_TYPES,
  fmt,
  isAmountString,
  type TransferLimit,
  usdNotional,
  usdPricing,
} from '../contract/index.js';
import type { ServiceClient } from '../client/service-client.js';
import { CoinopError } from '../errors.js';
import { durationText } from '../render/time.js';

/** What the preflights read through: a connection's API client. */
export interface Reader {
  client: ServiceClient;
}

/** What withdrawals of one asset take: their sum, and the largest single one (what a limit on each transfer sees). */
export interface AssetNeed {
  total: Decimal;
  largest: Decimal;
}

/** The limits on crypto withdrawals with what is left of each; `unknown` says why none could be read. */
export interface Limits {
  items: TransferLimit[];
  unknown?: string;
}

/** What the preflight found: one line per limit an asset would go over, and notes on what could not be checked. */
export interface LimitCheck {
  short: string[];
  notes: string[];
  /** The names of the limits read (checked, or noted as unknown); undefined when none could be read. */
  limits?: string[];
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The kinds of transfer whose limits a preflight reads: crypto withdrawals, and fiat withdrawals by their type. */
export type LimitedType = 'CRYPTO_WITHDRAWAL' | (typeof FIAT_WITHDRAWAL_TRANSFER_TYPES)[number];

/** The limits on crypto withdrawals (or another kind of withdrawal), in one request; never throws (an unreadable limit is "unknown"). */
export async function readLimits(conn: Reader, transferType: LimitedType = 'CRYPTO_WITHDRAWAL'): Promise<Limits> {
  try {
    const { data } = await conn.client.call('listTransferLimits', {
      query: { transfer_type: transferType },
    });
    return { items: data.items ?? [] };
  } catch (e) {
    return { items: [], unknown: message(e) };
  }
}

/** The name a limit is known by: its rule's id, else the limit's id. */
export const limitName = (l: TransferLimit) => l.rule_id ?? l.id ?? 'a transfer limit';

/** The limit in words: "10000000 USD on each transfer", "50000000 USD per 24 h, 1000 USD left". */
export function limitText(limit: TransferLimit): string {
  const seconds = Number(limit.period_seconds ?? '0');
  if (!seconds) return `${limit.limit} ${limit.limit_asset} on each transfer`;
  return `${limit.limit} ${limit.limit_asset} per ${durationText(seconds)}, ${limit.remaining} ${limit.limit_asset} left`;
}

/**
 * USD per unit of each asset, by the contract's rule: a fixed rate, or its market's latest price (the last point of
 * the market's historical prices over the last hour; the local service's is its mid price now). A string says why
 * an asset's price is unknown.
 */
export async function usdPrices(conn: Reader, assets: string[], now: number): Promise<Map<string, Decimal | string>> {
  const prices = new Map<string, Decimal | string>();
  for (const asset of assets) {
    const pricing = usdPricing(asset);
    if (!pricing) prices.set(asset, `${asset} has no USD or EUR market`);
    else if ('rate' in pricing) prices.set(asset, dec(pricing.rate));
    else {
      try {
        const { data } = await conn.client.call('listHistoricalPrices', {
          params: { market: pricing.market },
          query: {
            'range.begin': new Date(now - 3_600_000).toISOString(),
            max_data_points: '100',
            'pagination.limit': '100',
          },
        });
        const last = data.items?.at(-1)?.average_price;
        if (!isAmountString(last)) prices.set(asset, `no recent ${pricing.market} price`);
        else prices.set(asset, dec(last).times(pricing.times));
      } catch (e) {
        prices.set(asset, `the ${pricing.market} price could not be read: ${message(e)}`);
      }
    }
  }
  return prices;
}

/** What one limit counts of an asset's amount: its USD notional, the amount itself (a limit in that asset), or nothing. */
export type Counted = { value: Decimal } | { unknown: string } | undefined;

export function counted(
  limit: TransferLimit,
  asset: string,
  amount: Decimal,
  prices: Map<string, Decimal | string>,
): Counted {
  if (limit.limit_asset === 'USD') {
    const price = prices.get(asset);
    if (price === undefined || typeof price === 'string') return { unknown: price ?? 'no price' };
    return { value: usdNotional(amount, price) };
  }
  return limit.limit_asset === asset ? { value: amount } : undefined;
}

/** "BTC 0.9 (about 57600 USD)": an asset's amount as a limit counts it. */
export const part = (l: TransferLimit, asset: string, amount: Decimal, value: Decimal) =>
  `${asset} ${fmt(amount)}${l.limit_asset === asset ? '' : ` (about ${fmt(value)} ${l.limit_asset})`}`;

/** How the amounts checked are described: their sum per asset, and one withdrawal (the largest of an asset). */
export interface Wording {
  sum: string;
  one: string;
}

/** One limit against what is needed: the line of its shortfall, if any; what it could not price goes to `notes`. */
function checkLimit(
  limit: TransferLimit,
  needs: Map<string, AssetNeed>,
  prices: Map<string, Decimal | string>,
  check: { what: Wording; notes: string[] },
): string | undefined {
  const name = `limit ${limitName(limit)} (${limitText(limit)})`;
  const each = !Number(limit.period_seconds ?? '0');
  const left = each ? limit.limit : limit.remaining;
  if (!isAmountString(left)) {
    check.notes.push(`note: ${name} is unknown (the service gave no amount left); not checked`);
    return undefined;
  }
  const parts: string[] = [];
  let sum = dec(0);
  for (const [asset, need] of [...needs].sort(([a], [b]) => a.localeCompare(b))) {
    const amount = each ? need.largest : need.total;
    const v = counted(limit, asset, amount, prices);
    if (!v) continue;
    if ('unknown' in v) {
      check.notes.push(`note: ${name}: not checked for ${asset}, whose USD value is unknown (${v.unknown})`);
      continue;
    }
    parts.push(part(limit, asset, amount, v.value));
    sum = sum.plus(v.value);
  }
  if (!parts.length || sum.lte(left)) return undefined;
  const excess = `${fmt(sum.minus(left))} ${limit.limit_asset}`;
  if (each) return `${name}: ${check.what.one}, ${parts[0]}, is over it by ${excess}`;
  const total = parts.length > 1 ? ` come to about ${fmt(sum)} ${limit.limit_asset}` : '';
  return `${name}: ${check.what.sum}, ${parts.join(' and ')}${total}; short by ${excess}`;
}

/**
 * Every limit on crypto withdrawals against what is needed per asset (upper case): a line per limit it would go
 * over (on each transfer: per asset whose largest withdrawal is over it), and notes on what could not be checked.
 */
export async function limitShortfalls(
  conn: Reader,
  needs: Map<string, AssetNeed>,
  options: { what: Wording; now: number; transferType?: LimitedType },
): Promise<LimitCheck> {
  const check: LimitCheck = { short: [], notes: [] };
  if (!needs.size) return check;
  const limits = await readLimits(conn, options.transferType);
  if (limits.unknown !== undefined) {
    check.notes.push(`note: transfer limits unknown (${limits.unknown}); not checked before sending`);
    return check;
  }
  check.limits = limits.items.map(limitName);
  const usd = limits.items.some((l) => l.limit_asset === 'USD');
  const prices = usd ? await usdPrices(conn, [...needs.keys()], options.now) : new Map<string, Decimal | string>();
  for (const l of limits.items) {
    if (Number(l.period_seconds ?? '0')) {
      const line = checkLimit(l, needs, prices, { what: options.what, notes: check.notes });
      if (line) check.short.push(line);
      continue;
    }
    // On each transfer: one line per asset over it.
    for (const [asset, need] of needs) {
      const line = checkLimit(l, new Map([[asset, need]]), prices, { what: options.what, notes: check.notes });
      if (line) check.short.push(line);
    }
  }
  return check;
}

/** One withdrawal (`leaving`: its total, or its amount when the fee is not known) against every limit on them. */
export function withdrawalLimits(
  conn: Reader,
  withdrawal: { asset: string; leaving: Decimal; words: string; transferType?: LimitedType },
  now: number,
): Promise<LimitCheck> {
  const what = `this withdrawal (${withdrawal.words.replace(/^the /, '')})`;
  const needs = new Map([[withdrawal.asset.toUpperCase(), { total: withdrawal.leaving, largest: withdrawal.leaving }]]);
  return limitShortfalls(conn, needs, { what: { sum: what, one: what }, now, transferType: withdrawal.transferType });
}

/** Refuses, before sending, a withdrawal over what is left of a transfer limit, naming the limit. */
export function refuseOverLimit(check: LimitCheck): void {
  if (!check.short.length) return;
  throw new CoinopError('usage', `over a transfer limit: ${check.short.join('; ')}`, {
    hint: 'nothing was sent; see coinop limits, or send less',
  });
}
