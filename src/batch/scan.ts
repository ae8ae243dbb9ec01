// One streaming pass over a batch file: hash its bytes, validate every row, total the amounts per asset and network.
import { createHash } from 'node:crypto';
import { Decimal, fmt } from '../api/index.js';
import { FileError, readRecordChunks, type BatchFormat } from './reader.js';
import { RowValidator, type BatchRow, type RowIssue } from './rows.js';

/**
 * The ref_id of a row that has none: from the file's SHA-256 and the row number, so the same file run again maps
 * every row to the same ref_id and the service answers already-exists instead of moving money twice.
 */
export function deriveRefId(fileHash: string, row: number): string {
  return `batch-${fileHash.slice(0, 16)}-${row}`;
}

export interface Totals {
  asset: string;
  network: string;
  rows: number;
  /** Sum of the rows that give `amount`. */
  amount: Decimal;
  /** Sum of the rows that give `total` (fees included). */
  total: Decimal;
}

export interface ScanResult {
  fileHash: string;
  format: BatchFormat;
  /** Records read (valid and invalid). */
  rows: number;
  valid: number;
  invalid: number;
  /** Valid rows whose ref_id is derived from the file (no ref_id given). */
  derived: number;
  /** Rows whose issues were reported (through onIssue). */
  issueCount: number;
  totals: Totals[];
  /** A problem that stopped reading the file; everything after it is unknown. */
  fatal?: RowIssue;
}

export interface ScanOptions {
  format: BatchFormat;
  defaultProfileId?: string;
  /** The file's hash when already known: derived ref_ids are then the real ones. */
  fileHash?: string;
  onIssue?: (issue: RowIssue) => void;
  onRow?: (row: BatchRow) => void | Promise<void>;
}

export function totalsKey(asset: string, network: string): string {
  return `${asset}\u0000${network}`;
}

/** Fixed-point scale of the running sums: no asset has more than 18 decimals (validated per row). */
const SCALE = 18;
const ONE = new Decimal(10).pow(SCALE);

/** An amount string (valid, at most 18 decimals) as an integer of 10^-18 units: exact and much cheaper than Decimal. */
function units(amount: string): bigint {
  const dot = amount.indexOf('.');
  if (dot < 0) return BigInt(amount) * 10n ** BigInt(SCALE);
  const frac = amount.slice(dot + 1);
  if (frac.length > SCALE) throw new Error(`amount ${amount} has more than ${SCALE} decimals`);
  return BigInt((amount.slice(0, dot) || '0') + frac.padEnd(SCALE, '0'));
}

interface Running {
  asset: string;
  network: string;
  rows: number;
  amount: bigint;
  total: bigint;
}

const running = new WeakMap<Map<string, Totals>, Map<string, Running>>();

export function addToTotals(map: Map<string, Totals>, body: { asset: string; crypto_network: string; amount?: string; total?: string }): void {
  let sums = running.get(map);
  if (!sums) running.set(map, (sums = new Map()));
  const key = totalsKey(body.asset, body.crypto_network);
  let t = sums.get(key);
  if (!t) sums.set(key, (t = { asset: body.asset, network: body.crypto_network, rows: 0, amount: 0n, total: 0n }));
  t.rows++;
  if (body.amount !== undefined) t.amount += units(body.amount);
  if (body.total !== undefined) t.total += units(body.total);
}

export function sortedTotals(map: Map<string, Totals>): Totals[] {
  for (const [key, r] of running.get(map) ?? []) {
    map.set(key, { asset: r.asset, network: r.network, rows: r.rows, amount: new Decimal(r.amount.toString()).div(ONE), total: new Decimal(r.total.toString()).div(ONE) });
  }
  return [...map.values()].sort((a, b) => a.asset.localeCompare(b.asset) || a.network.localeCompare(b.network));
}

export function formatTotals(t: Totals): string {
  const parts = [];
  if (!t.amount.isZero()) parts.push(`${fmt(t.amount)} ${t.asset} plus fees`);
  if (!t.total.isZero()) parts.push(`${fmt(t.total)} ${t.asset} fees included`);
  return `${t.asset} on ${t.network}: ${t.rows} row${t.rows === 1 ? '' : 's'}, ${parts.join(' and ') || '0'}`;
}

/** Reads the whole file once; rows go to onRow as they are validated, issues to onIssue. */
export async function scanFile(path: string, opts: ScanOptions): Promise<ScanResult> {
  const hash = createHash('sha256');
  const known = opts.fileHash;
  const validator = new RowValidator({
    defaultProfileId: opts.defaultProfileId,
    // Before the hash is known, a stand-in of the same shape keeps validation honest about the ref_id's length.
    deriveRefId: (row) => deriveRefId(known ?? '0'.repeat(64), row),
  });
  const totals = new Map<string, Totals>();
  const result: ScanResult = { fileHash: '', format: opts.format, rows: 0, valid: 0, invalid: 0, derived: 0, issueCount: 0, totals: [] };
  let lastBadRow = 0;
  const report = (i: RowIssue) => {
    result.issueCount++;
    if (i.row > 0 && i.row !== lastBadRow) {
      lastBadRow = i.row;
      result.invalid++;
    }
    opts.onIssue?.(i);
  };
  let sawHeader = opts.format !== 'csv';
  try {
    for await (const chunk of readRecordChunks(path, opts.format, (b) => hash.update(b))) {
      for (const rec of chunk) {
        if ('header' in rec) {
          sawHeader = true;
          for (const i of validator.header(rec.header, rec.line)) report(i);
          continue;
        }
        result.rows++;
        const { row, issues } = validator.check(rec);
        for (const i of issues) report(i);
        if (row) {
          result.valid++;
          if (row.derived) result.derived++;
          addToTotals(totals, row.body);
          if (opts.onRow) await opts.onRow(row);
        }
      }
    }
  } catch (e) {
    if (!(e instanceof FileError)) throw e;
    result.fatal = { row: e.row ?? 0, line: e.line, field: '', rule: `${e.message}; the rest of the file was not read` };
    report(result.fatal);
  }
  if (!sawHeader) report({ row: 0, field: '', rule: 'the file is empty: a CSV batch needs a header line and rows' });
  result.fileHash = hash.digest('hex');
  if (known && known !== result.fileHash) {
    throw new FileError('the file changed while coinop was reading it; run the batch again once it is written');
  }
  result.totals = sortedTotals(totals);
  return result;
}

/** The valid rows of a file whose hash is known, in order, with their real ref_ids (the pass that sends). */
export async function* validRows(path: string, format: BatchFormat, fileHash: string, defaultProfileId?: string): AsyncGenerator<BatchRow> {
  for await (const item of allRows(path, format, fileHash, defaultProfileId)) if ('body' in item) yield item;
}

/** Every row of a file whose hash is known: valid rows, and invalid ones with their issues in one line. */
export async function* allRows(
  path: string, format: BatchFormat, fileHash: string, defaultProfileId?: string,
): AsyncGenerator<BatchRow | { row: number; issues: string }> {
  const validator = new RowValidator({ defaultProfileId, deriveRefId: (row) => deriveRefId(fileHash, row) });
  const hash = createHash('sha256');
  for await (const chunk of readRecordChunks(path, format, (b) => hash.update(b))) {
    for (const rec of chunk) {
      if ('header' in rec) {
        validator.header(rec.header, rec.line);
        continue;
      }
      const { row, issues } = validator.check(rec);
      if (row) yield row;
      else yield { row: rec.row, issues: issues.map((i) => (i.field ? `${i.field}: ${i.rule}` : i.rule)).join('; ') };
    }
  }
  if (hash.digest('hex') !== fileHash) {
    throw new FileError('the file changed while the batch was running; rows sent so far are in the journal');
  }
}
