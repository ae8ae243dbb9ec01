// withdraw batch --allow-partial: the rows sent are those the balances and the transfer limits cover, in the file's
// order. Before the first row leaves, what each row takes (its amount plus the fee its asset and network are quoted
// now, or its total) is counted against what the budget read (src/send/budget.ts); the first row of an asset that a
// balance or a limit cannot cover is not sent, nor is any later row of that asset (of that profile, for a balance),
// so a partial batch pays the first rows of each asset and none out of order. Rows not sent are skipped with the
// reason, in the journal and the report; --resume --retry-failed sends them once there is money again.
import type { CreateCryptoWithdrawalRequest, Decimal } from '../contract/index.js';
import { Budget, type Uncovered } from '../send/budget.js';
import { debitedBalance, Needs } from '../send/funds.js';
import type { Reader } from '../send/limits-preflight.js';
import { feeRequestOf, leavingWords, withdrawalFigures } from '../send/withdrawal.js';

/** A row as the plan reads it: its number and the request it sends. */
export interface PlannedBody {
  row: number;
  body: CreateCryptoWithdrawalRequest;
}

export interface SkippedRow {
  row: number;
  asset: string;
  reason: string;
}

export interface PartialPlan {
  skipped: SkippedRow[];
  /** What was not checked (a balance, a limit or a fee that could not be read). */
  notes: string[];
}

const feeKey = (b: CreateCryptoWithdrawalRequest) => `${b.asset.toUpperCase()}\u0000${b.crypto_network}`;

/** The fee of each asset and network the rows without a total pay now: one quote each (a failed one is a note). */
async function currentFees(
  conn: Reader,
  rows: () => Iterable<PlannedBody>,
  notes: string[],
): Promise<Map<string, string>> {
  const first = new Map<string, CreateCryptoWithdrawalRequest>();
  for (const { body } of rows())
    if (body.total === undefined && !first.has(feeKey(body))) first.set(feeKey(body), body);
  const fees = new Map<string, string>();
  for (const [key, body] of first) {
    try {
      const { data } = await conn.client.call('createCryptoWithdrawalFee', { body: feeRequestOf(body) });
      fees.set(key, data.fee);
    } catch (e) {
      notes.push(
        `note: the fee of ${body.asset} on ${body.crypto_network} is unknown (${(e as Error).message}); its rows count their amounts alone`,
      );
    }
  }
  return fees;
}

/**
 * Which rows a partial batch does not send: read the balances, the limits and the fees once, then take the rows in
 * order. `rows` is read twice (what to read, then the walk).
 */
export async function partialPlan(conn: Reader, rows: () => Iterable<PlannedBody>, now: number): Promise<PartialPlan> {
  const notes: string[] = [];
  const fees = await currentFees(conn, rows, notes);
  const leaving = (b: CreateCryptoWithdrawalRequest): Decimal => withdrawalFigures(b, fees.get(feeKey(b))).leaving;
  const needs = new Needs();
  for (const { body } of rows()) needs.add(body, leaving(body));
  const budget = await Budget.read(conn, needs, now);
  notes.push(...budget.notes);
  // Where an asset ran out: of a profile's balance ("profile\0ASSET"), or of a limit (the asset): the row and why.
  const out = new Map<string, { row: number; uncovered: Uncovered }>();
  const skipped: SkippedRow[] = [];
  for (const { row, body } of rows()) {
    const asset = body.asset.toUpperCase();
    const debited = debitedBalance(body);
    const before = out.get(asset) ?? (debited ? out.get(`${debited.profileId}\u0000${asset}`) : undefined);
    if (before) {
      skipped.push({ row, asset, reason: `${asset} ran out at row ${before.row} (rows of an asset go in order)` });
      continue;
    }
    const words = leavingWords(body, fees.has(feeKey(body)));
    const uncovered = budget.take({ ...body, leaving: leaving(body), words });
    if (!uncovered) continue;
    out.set(uncovered.by === 'limit' || !debited ? asset : `${debited.profileId}\u0000${asset}`, { row, uncovered });
    skipped.push({ row, asset, reason: uncovered.reason });
  }
  return { skipped, notes };
}

/** The problem a skipped row is recorded with: not the service's (it was never sent), coinop's own. */
export function skippedProblem(reason: string): { type: string; title: string; status: number; detail: string } {
  return { type: 'about:blank', title: 'Not sent (--allow-partial)', status: 0, detail: reason };
}
