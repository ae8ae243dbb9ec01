// A profile's statement for a period: the opening balance, every movement of the period with its reference, the fees
// and the closing balance, per asset. Computed from the service's transfers and its balances now: a transfer moves a
// balance at known moments (a withdrawal debits amount plus fee when made and gives it back when it fails; a credit
// counts once completed), so the closing balance is the balance now less every movement since the period ended, and
// the opening balance the closing balance less the period's movements. The movements wait in a scratch file on disk
// (sorted by time there), so memory stays flat whatever the period holds.
import type { Decimal } from 'decimal.js';
import { dec, fmt, type Transfer } from '../contract/index.js';
import type { Period } from './period.js';
import { type ScratchDb, scratchDb } from './scratch-db.js';

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
  /** How many movements the period holds. */
  count: number;
  /**
   * The period's movements, oldest first, each with the balance after it: read from a scratch file on disk as they
   * are written out (a month of a million transfers is never in memory at once).
   */
  movements(): IterableIterator<Movement>;
  /** Removes the scratch file. */
  close(): void;
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

/** One asset's sums over the period's movements. */
interface Totals {
  net: Decimal;
  credits: Decimal;
  debits: Decimal;
  fees: Decimal;
}

interface Read {
  now: Map<string, string>;
  after: Map<string, Decimal>;
  totals: Map<string, Totals>;
  count: number;
  scratch: ScratchDb;
}

/** How many movements are written to the scratch file at once (one transaction). */
const CHUNK = 1000;

function tally(totals: Map<string, Totals>, change: Change): void {
  const z = dec(0);
  const t = totals.get(change.asset) ?? { net: z, credits: z, debits: z, fees: z };
  const by = dec(change.change);
  totals.set(change.asset, {
    net: t.net.plus(by),
    credits: by.gt(0) ? t.credits.plus(by) : t.credits,
    debits: by.lt(0) ? t.debits.minus(by) : t.debits,
    fees: t.fees.plus(feeOf(change)),
  });
}

/**
 * The balances now and every transfer updated since the period began: the changes after the period summed per asset,
 * those of the period summed and written to a scratch file (to be read back in time order).
 */
async function readOnce(source: StatementSource, period: Period): Promise<Read> {
  const now = await source.balances();
  const scratch = scratchDb(
    'coinop-statement-',
    'CREATE TABLE moves (seq INTEGER PRIMARY KEY, ms INTEGER NOT NULL, transfer_id TEXT NOT NULL, body TEXT NOT NULL)',
  );
  const insert = scratch.db.prepare('INSERT INTO moves (ms, transfer_id, body) VALUES (?, ?, ?)');
  const write = scratch.db.transaction((rows: Change[]) => {
    for (const c of rows) insert.run(Date.parse(c.time), c.transfer_id, JSON.stringify(c));
  });
  const read: Read = { now, after: new Map(), totals: new Map(), count: 0, scratch };
  const [from, to] = [Date.parse(period.from), Date.parse(period.to)];
  let held: Change[] = [];
  try {
    for await (const t of source.transfers(period.from))
      for (const c of changesOf(t)) {
        const ms = Date.parse(c.time);
        if (ms >= to) add(read.after, c.asset, dec(c.change));
        else if (ms >= from) {
          tally(read.totals, c);
          read.count++;
          held.push(c);
          if (held.length >= CHUNK) {
            write(held);
            held = [];
          }
        }
      }
    write(held);
  } catch (e) {
    scratch.close();
    throw e;
  }
  return read;
}

const sameBalances = (a: Map<string, string>, b: Map<string, string>) =>
  a.size === b.size && [...a].every(([k, v]) => b.has(k) && dec(b.get(k)!).eq(v));

/**
 * The statement of a period. The balances are read before and after the transfers; when they differ (money moved
 * while it was read) it is read again, up to `attempts` times, then refused. The caller closes it.
 */
export async function computeStatement(source: StatementSource, period: Period, attempts = 3): Promise<Statement> {
  for (let i = 0; i < attempts; i++) {
    const read = await readOnce(source, period);
    let same = false;
    try {
      same = sameBalances(read.now, await source.balances());
    } finally {
      if (!same) read.scratch.close();
    }
    if (same) return assemble(read, period);
  }
  throw new Error(`the balances kept changing while the transfers were read (${attempts} attempts): try again`);
}

function assemble({ now, after, totals, count, scratch }: Read, period: Period): Statement {
  const closing = new Map<string, Decimal>();
  for (const [asset, v] of now) closing.set(asset, dec(v));
  for (const [asset, v] of after) add(closing, asset, v.neg());
  for (const asset of totals.keys()) if (!closing.has(asset)) closing.set(asset, dec(0));
  const opening = new Map([...closing].map(([a, v]) => [a, v.minus(totals.get(a)?.net ?? dec(0))]));
  const assets = [...closing.keys()]
    .filter((a) => !closing.get(a)!.isZero() || totals.has(a) || !opening.get(a)!.isZero())
    .sort()
    .map((asset) => {
      const t = totals.get(asset);
      return {
        asset,
        opening: fmt(opening.get(asset)!),
        credits: fmt(t?.credits ?? dec(0)),
        debits: fmt(t?.debits ?? dec(0)),
        fees: fmt(t?.fees ?? dec(0)),
        closing: fmt(closing.get(asset)!),
      };
    });
  scratch.db.exec('CREATE INDEX moves_order ON moves (ms, transfer_id, seq)');
  function* movements(): IterableIterator<Movement> {
    const running = new Map(opening);
    const rows = scratch.db.prepare('SELECT body FROM moves ORDER BY ms, transfer_id, seq').iterate() as Iterable<{
      body: string;
    }>;
    for (const r of rows) {
      const change = JSON.parse(r.body) as Change;
      add(running, change.asset, dec(change.change));
      yield { ...change, balance: fmt(running.get(change.asset)!) };
    }
  }
  return { period, assets, count, movements, close: () => scratch.close() };
}
