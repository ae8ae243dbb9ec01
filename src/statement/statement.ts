// A profile's statement for a period: the opening balance, every movement of the period with its reference, the fees
// and the closing balance, per asset. Computed from the service's transfers and its balances now: a transfer moves a
// balance at known moments (a withdrawal debits amount plus fee when made and gives it back when it fails; a credit
// counts once completed), so the closing balance is the balance now less every movement since the period ended, and
// the opening balance the closing balance less the period's movements.
import type { Decimal } from 'decimal.js';
import { dec, fmt, type Transfer } from '../contract/index.js';
import type { Period } from './period.js';

/** One change of one balance made by one transfer. */
export interface Movement {
  time: string;
  asset: string;
  /** debit (a withdrawal made), refund (a failed withdrawal given back) or credit (money in). */
  kind: 'debit' | 'refund' | 'credit';
  /** Signed: what the balance changed by. */
  change: string;
  /** The balance of the asset after this movement. */
  balance: string;
  amount: string;
  fee: string;
  transfer_id: string;
  type: string;
  status: string;
  ref_id?: string;
  crypto_network?: string;
  crypto_tx_hash?: string;
  destination_address?: string;
  metadata?: Record<string, string>;
}

/** One asset's figures for the period. */
export interface AssetSummary {
  asset: string;
  opening: string;
  credits: string;
  debits: string;
  /** The fees of the withdrawals debited in the period less those given back. */
  fees: string;
  closing: string;
}

/** What a statement reads: the balances now and the transfers that may have moved a balance at or after `since`. */
export interface StatementSource {
  /** The profile's balances now (available plus trading: what the service holds), per asset. */
  balances(): Promise<Map<string, string>>;
  /** Every transfer of the profile last updated at or after `since`, page by page. */
  transfers(since: string): AsyncIterable<Transfer>;
}

export interface Statement {
  period: Period;
  assets: AssetSummary[];
  /** The period's movements, oldest first, each with the balance after it. */
  movements: Movement[];
}

type Change = Omit<Movement, 'balance'>;

/** The balance changes a transfer made: when, in which asset, by how much (a pending credit has made none yet). */
export function changesOf(transfer: Transfer): Change[] {
  const t = transfer;
  const asset = t.balance_asset ?? t.asset;
  const base = {
    asset,
    amount: t.amount,
    fee: t.fee,
    transfer_id: t.id,
    type: t.type,
    status: t.status,
    ...(t.ref_id !== undefined ? { ref_id: t.ref_id } : {}),
    ...(t.crypto_network !== undefined ? { crypto_network: t.crypto_network } : {}),
    ...(t.crypto_tx_hash !== undefined ? { crypto_tx_hash: t.crypto_tx_hash } : {}),
    ...(t.destination_address !== undefined ? { destination_address: t.destination_address } : {}),
    ...(t.metadata !== undefined ? { metadata: t.metadata } : {}),
  };
  if (t.direction === 'DEBIT') {
    const debit: Change = { ...base, time: t.created_at, kind: 'debit', change: fmt(dec(t.total).neg()) };
    if (t.status !== 'FAILED') return [debit];
    return [debit, { ...base, time: t.updated_at, kind: 'refund', change: fmt(dec(t.total)) }];
  }
  if (t.status !== 'COMPLETED') return [];
  return [{ ...base, time: t.updated_at, kind: 'credit', change: fmt(dec(t.total)) }];
}

const add = (m: Map<string, Decimal>, asset: string, by: Decimal) => m.set(asset, (m.get(asset) ?? dec(0)).plus(by));

/** The fee part of a change: taken with a debit, given back with a refund, none with a credit. */
function feeOf(change: Change): Decimal {
  if (change.kind === 'credit' || !/^\d/.test(change.fee)) return dec(0);
  return change.kind === 'debit' ? dec(change.fee) : dec(change.fee).neg();
}

interface Read {
  now: Map<string, string>;
  after: Map<string, Decimal>;
  within: Change[];
}

async function readOnce(source: StatementSource, period: Period): Promise<Read> {
  const now = await source.balances();
  const after = new Map<string, Decimal>();
  const within: Change[] = [];
  for await (const t of source.transfers(period.from)) {
    for (const c of changesOf(t)) {
      const ms = Date.parse(c.time);
      if (ms >= Date.parse(period.to)) add(after, c.asset, dec(c.change));
      else if (ms >= Date.parse(period.from)) within.push(c);
    }
  }
  return { now, after, within };
}

const sameBalances = (a: Map<string, string>, b: Map<string, string>) =>
  a.size === b.size && [...a].every(([k, v]) => b.has(k) && dec(b.get(k)!).eq(v));

/**
 * The statement of a period. The balances are read before and after the transfers; when they differ (money moved
 * while it was read) it is read again, up to `attempts` times, then refused.
 */
export async function computeStatement(source: StatementSource, period: Period, attempts = 3): Promise<Statement> {
  for (let i = 0; i < attempts; i++) {
    const read = await readOnce(source, period);
    if (sameBalances(read.now, await source.balances())) return assemble(read, period);
  }
  throw new Error(`the balances kept changing while the transfers were read (${attempts} attempts): try again`);
}

function assemble({ now, after, within }: Read, period: Period): Statement {
  const closing = new Map<string, Decimal>();
  for (const [asset, v] of now) closing.set(asset, dec(v));
  for (const [asset, v] of after) add(closing, asset, v.neg());
  const net = new Map<string, Decimal>();
  for (const c of within) add(net, c.asset, dec(c.change));
  for (const asset of net.keys()) if (!closing.has(asset)) closing.set(asset, dec(0));
  const opening = new Map([...closing].map(([a, v]) => [a, v.minus(net.get(a) ?? dec(0))]));
  within.sort((a, b) => Date.parse(a.time) - Date.parse(b.time) || a.transfer_id.localeCompare(b.transfer_id));
  const running = new Map(opening);
  const movements = within.map((change) => {
    add(running, change.asset, dec(change.change));
    return { ...change, balance: fmt(running.get(change.asset)!) };
  });
  const assets = [...closing.keys()]
    .filter((a) => !closing.get(a)!.isZero() || net.has(a) || !opening.get(a)!.isZero())
    .sort()
    .map((asset) => {
      const mine = within.filter((c) => c.asset === asset);
      const credits = mine.filter((c) => dec(c.change).gt(0)).reduce((s, c) => s.plus(c.change), dec(0));
      const debits = mine.filter((c) => dec(c.change).lt(0)).reduce((s, c) => s.minus(c.change), dec(0));
      return {
        asset,
        opening: fmt(opening.get(asset)!),
        credits: fmt(credits),
        debits: fmt(debits),
        fees: fmt(mine.reduce((s, c) => s.plus(feeOf(c)), dec(0))),
        closing: fmt(closing.get(asset)!),
      };
    });
  return { period, assets, movements };
}
