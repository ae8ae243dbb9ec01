// What a batch may take, row after row (withdraw batch --allow-partial): each service profile's available balance of
// each asset, and what is left of each transfer limit on crypto withdrawals (of a limit on each transfer, the limit
// itself), read once before the first row. A row takes what leaves with it (its amount plus fee, or its total) from
// them when all of them cover it; otherwise it takes nothing and says which one did not. A balance or a limit that
// cannot be read, or a USD limit for an asset without a price, is not checked here (the service still enforces it):
// a note says so.
import { type Decimal, dec, fmt, isAmountString, type TransferLimit } from '../contract/index.js';
import { debitedBalance, type Debiting, type Needs, readFunds } from './funds.js';
import { counted, limitName, limitText, part, type Reader, readLimits, usdPrices } from './limits-preflight.js';

/** A row as the budget takes it: what it debits, what leaves with it, and that in words ("its amount plus fee"). */
export interface BudgetRow extends Debiting {
  leaving: Decimal;
  words: string;
}

/** Why a row was not covered: a balance (of its profile and asset) or a transfer limit (of every profile). */
export interface Uncovered {
  by: 'balance' | 'limit';
  reason: string;
}

/** A transfer limit and what is left of it (on each transfer: the limit itself, never used up). */
interface LimitLeft {
  limit: TransferLimit;
  left: Decimal;
  each: boolean;
}

export class Budget {
  private constructor(
    /** What is left of each known balance, by profile and asset (upper case). */
    private readonly funds: Map<string, Map<string, Decimal>>,
    private readonly limits: LimitLeft[],
    private readonly prices: Map<string, Decimal | string>,
    /** What could not be read, so is not checked before sending. */
    readonly notes: string[],
  ) {}

  /** The balances and limits the rows of `needs` draw on, read now. */
  static async read(conn: Reader, needs: Needs, now: number): Promise<Budget> {
    const notes: string[] = [];
    const funds = new Map<string, Map<string, Decimal>>();
    for (const [profileId, assets] of needs.funds) {
      const f = await readFunds(conn, profileId, [...assets.keys()]);
      if (f.unknown !== undefined)
        notes.push(`note: the balances of service profile ${profileId} are unknown (${f.unknown}); not checked`);
      else funds.set(profileId, new Map(f.available));
    }
    const read = await readLimits(conn);
    if (read.unknown !== undefined) notes.push(`note: transfer limits unknown (${read.unknown}); not checked`);
    const limits: LimitLeft[] = [];
    for (const limit of read.items) {
      const each = !Number(limit.period_seconds ?? '0');
      const left = each ? limit.limit : limit.remaining;
      if (isAmountString(left)) limits.push({ limit, left: dec(left), each });
      else notes.push(`note: limit ${limitName(limit)} is unknown (the service gave no amount left); not checked`);
    }
    const assets = [...needs.limits.keys()];
    const prices = limits.some((l) => l.limit.limit_asset === 'USD')
      ? await usdPrices(conn, assets, now)
      : new Map<string, Decimal | string>();
    for (const [asset, price] of prices)
      if (typeof price === 'string') notes.push(`note: USD limits not checked for ${asset}: ${price}`);
    return new Budget(funds, limits, prices, notes);
  }

  /** Takes the row from what is left when everything covers it (undefined); else takes nothing and says why. */
  take(row: BudgetRow): Uncovered | undefined {
    const asset = row.asset.toUpperCase();
    const debited = debitedBalance(row);
    const balance = debited && this.funds.get(debited.profileId)?.get(asset);
    if (debited && balance && row.leaving.gt(balance))
      return {
        by: 'balance',
        reason: `${row.words}, ${fmt(row.leaving)} ${asset}, is more than the ${fmt(balance)} ${asset} left of the available balance (service profile ${debited.profileId})`,
      };
    const taken: [LimitLeft, Decimal][] = [];
    for (const l of this.limits) {
      const v = counted(l.limit, asset, row.leaving, this.prices);
      if (!v || 'unknown' in v) continue;
      if (v.value.gt(l.left)) {
        const over = `${fmt(v.value.minus(l.left))} ${l.limit.limit_asset}`;
        const which = l.each ? 'it' : `the ${fmt(l.left)} ${l.limit.limit_asset} left of it`;
        return {
          by: 'limit',
          reason: `limit ${limitName(l.limit)} (${limitText(l.limit)}): ${row.words}, ${part(l.limit, asset, row.leaving, v.value)}, is over ${which} by ${over}`,
        };
      }
      taken.push([l, v.value]);
    }
    if (debited && balance) this.funds.get(debited.profileId)?.set(asset, balance.minus(row.leaving));
    for (const [l, value] of taken) if (!l.each) l.left = l.left.minus(value);
    return undefined;
  }
}
