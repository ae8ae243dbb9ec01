// The funds preflight before money moves: the available balance of each asset (GET /v2/profiles/{id}/balances),
// compared with what is about to leave (amount plus fee). A service without the balances endpoint leaves the
// balance unknown and the withdrawal goes on; an amount over a known balance is refused before anything is sent.
// Shared by withdraw, withdraw batch and the MCP server's previews.
import { dec, fmt, type Decimal } from '../contract/index.js';
import { CoinopError } from '../errors.js';
import { type AssetNeed, limitShortfalls, type Reader, type Wording } from './limits-preflight.js';

export type { Reader };

/** Available balance per asset (upper case); `unknown` says why none could be read. */
export interface Funds {
  available: Map<string, Decimal>;
  unknown?: string;
}

/** The available balances of these assets in one request; never throws (an unreadable balance is "unknown"). */
export async function readFunds(conn: Reader, profileId: string, assets: string[]): Promise<Funds> {
  try {
    // Checked already: the assets are the withdrawal's own (a name outside the catalogue was noted there once).
    const { data } = await conn.client.call(
      'listProfileBalances',
      { params: { profile_id: profileId }, query: { assets: [...new Set(assets)] } },
      undefined,
      true,
    );
    const available = new Map<string, Decimal>();
    for (const b of data.items ?? []) available.set(b.asset.toUpperCase(), dec(b.available));
    for (const a of assets) if (!available.has(a)) available.set(a, dec(0));
    return { available };
  } catch (e) {
    return { available: new Map(), unknown: e instanceof Error ? e.message : String(e) };
  }
}

/** The confirmation row: the balance before and after, or why it is unknown. */
export function balanceRow(funds: Funds, asset: string, leaving: Decimal | undefined): string {
  const before = funds.available.get(asset);
  if (!before) return 'balance unknown (the service did not say)';
  const after = leaving ? `, ${fmt(before.minus(leaving))} ${asset} after` : '';
  return `${fmt(before)} ${asset} available${after}`;
}

/** The shortfall of an asset (what is needed beyond the available balance), or undefined when it is covered or unknown. */
export function shortfall(funds: Funds, asset: string, needed: Decimal): Decimal | undefined {
  const before = funds.available.get(asset);
  if (!before || needed.lte(before)) return undefined;
  return needed.minus(before);
}

/** The refusal of a withdrawal its balance cannot cover: a usage error (exit 2), nothing sent. */
export function insufficientFunds(asset: string, needed: Decimal, funds: Funds, what: string): CoinopError {
  const before = funds.available.get(asset) ?? dec(0);
  return new CoinopError(
    'usage',
    `insufficient funds: ${what} ${fmt(needed)} ${asset} is more than the available ${fmt(before)} ${asset} (short by ${fmt(needed.minus(before))})`,
    { hint: 'nothing was sent; check coinop balances, or send less' },
  );
}

/** A withdrawal as far as the balances go: its profile, its asset, and the balance it is debited from if another. */
export interface Debiting {
  profile_id?: string;
  asset: string;
  balance_asset?: string;
}

/**
 * The balance a withdrawal is debited from, when it is its profile's balance of its own asset (upper case); one
 * debited from another asset's balance (balance_asset) is not counted against its asset.
 */
export function debitedBalance(withdrawal: Debiting): { profileId: string; asset: string } | undefined {
  const { profile_id: profileId, balance_asset: balanceAsset } = withdrawal;
  const asset = withdrawal.asset.toUpperCase();
  if (!profileId || (balanceAsset && balanceAsset.toUpperCase() !== asset)) return undefined;
  return { profileId, asset };
}

/**
 * What a batch takes: from each service profile's balance of each asset (rows debiting that asset), and per asset
 * against the transfer limits (every row: a limit counts the withdrawal, whatever balance it is debited from).
 */
export class Needs {
  readonly funds = new Map<string, Map<string, Decimal>>();
  readonly limits = new Map<string, AssetNeed>();

  /** One withdrawal of `amount` (its total, or its amount when the fee is not counted). */
  add(balance: Debiting, amount: Decimal): void {
    const asset = balance.asset.toUpperCase();
    const l = this.limits.get(asset);
    if (!l) this.limits.set(asset, { total: amount, largest: amount });
    else {
      l.total = l.total.plus(amount);
      if (amount.gt(l.largest)) l.largest = amount;
    }
    const debited = debitedBalance(balance);
    if (!debited) return;
    let m = this.funds.get(debited.profileId);
    if (!m) this.funds.set(debited.profileId, (m = new Map()));
    m.set(asset, (m.get(asset) ?? dec(0)).plus(amount));
  }
}

/** What a batch would go over: a line per balance and per transfer limit (why it cannot complete), and notes. */
export interface Shortfalls {
  funds: string[];
  limits: string[];
  notes: string[];
}

/**
 * One line per profile and asset the available balance cannot cover (a balance that cannot be read is not one), and
 * per transfer limit the batch would go over (one that cannot be read is noted).
 */
export async function shortfalls(
  conn: Reader,
  needs: Needs,
  options: { what: Wording; now: number },
): Promise<Shortfalls> {
  const lines: string[] = [];
  for (const [profileId, assets] of needs.funds) {
    const funds = await readFunds(conn, profileId, [...assets.keys()]);
    for (const [asset, needed] of [...assets].sort(([a], [b]) => a.localeCompare(b))) {
      const short = shortfall(funds, asset, needed);
      if (!short) continue;
      const available = fmt(funds.available.get(asset) ?? dec(0));
      lines.push(
        `shortfall: ${asset} ${options.what.sum} ${fmt(needed)}, available ${available} (service profile ${profileId}): short by ${fmt(short)} ${asset}`,
      );
    }
  }
  const limits = await limitShortfalls(conn, needs.limits, options);
  return { funds: lines, limits: limits.short, notes: limits.notes };
}

/** What to do about shortfalls: less, or more money, or time for the limits (`then`: what else may be done). */
export function shortfallHint(shortfalls: Shortfalls, then: string): string {
  const fix = shortfalls.funds.length ? 'send less or top up' : 'send less, or wait until more of the limit is left';
  return `${fix}; ${then}`;
}

/** Why a batch with shortfalls cannot complete: the balances, the transfer limits, or both; undefined when it can. */
export function shortfallReason(shortfalls: Shortfalls): string | undefined {
  if (shortfalls.funds.length && shortfalls.limits.length)
    return 'insufficient funds and over the transfer limits: this batch cannot complete';
  if (shortfalls.funds.length) return 'insufficient funds: the available balance cannot cover this batch';
  if (shortfalls.limits.length)
    return 'over the transfer limits: this batch cannot complete within what is left of them';
  return undefined;
}
