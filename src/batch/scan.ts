// The one pass over a batch: hash its bytes, validate every row, total the amounts per asset and network, and hand
// each row on (to be staged). The file is never read again.
import { createHash } from 'node:crypto';
import { type AddressCheck, dec, type Decimal, fmt } from '../contract/index.js';
import { FileError, readRecordChunks, type BatchFormat, type Chunks } from './reader.js';
import { REF_ID_PLACEHOLDER } from './ref-ids.js';
import type { CataloguePolicy } from '../client/catalogue-policy.js';
import type { Profile } from '../contract/schemas.js';
import { RowValidator, type BatchRow, type GivenFields, type RowIssue } from './rows.js';

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
  /** Valid rows whose ref_id is derived from their content (no ref_id given). */
  derived: number;
  /** Rows whose issues were reported (through onIssue). */
  issueCount: number;
  totals: Totals[];
  /** A problem that stopped reading the file; everything after it is unknown. */
  fatal?: RowIssue;
  /** The service's profiles, when a row named one by nickname or id prefix (they were listed for it). */
  profiles?: readonly Profile[];
  /** Each nickname or id prefix the rows gave (trimmed, in lower case), and the id of the profile it named. */
  profileNames: Record<string, string>;
}

export interface ScanOptions {
  format: BatchFormat;
  defaultProfileId?: string;
  /** How the catalogue's rules count for the service the batch goes to (refused, or noted): RowValidator's. */
  catalogue?: CataloguePolicy;
  /** Whether a testnet destination is taken: RowValidator's. */
  addresses?: AddressCheck;
  onIssue?: (issue: RowIssue) => void;
  /**
   * A valid row. A row without ref_id has none in its body yet: it is derived from its content and its occurrence
   * once the whole file is read (Stage).
   */
  onRow?: (row: BatchRow) => void | Promise<void>;
  /** An invalid row, its issues in one line. */
  onInvalid?: (row: number, line: number, issues: string, given: GivenFields) => void;
  /**
   * The service's profiles, asked for once, when the first row names its profile by nickname or id prefix: each such
   * row is staged with the id it names, or is invalid (unknown, or ambiguous). Unset: such a value is taken as given.
   */
  profiles?: () => Promise<readonly Profile[]>;
}

export function totalsKey(asset: string, network: string): string {
  return `${asset}\u0000${network}`;
}

/** Fixed-point scale of the running sums: no asset has more than 18 decimals (validated per row). */
const SCALE = 18;
const ONE = dec(10).pow(SCALE);

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

export function addToTotals(
  map: Map<string, Totals>,
  body: { asset: string; crypto_network: string; amount?: string; total?: string },
): void {
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
    map.set(key, {
      asset: r.asset,
      network: r.network,
      rows: r.rows,
      amount: dec(r.amount.toString()).div(ONE),
      total: dec(r.total.toString()).div(ONE),
    });
  }
  return [...map.values()].sort((a, b) => a.asset.localeCompare(b.asset) || a.network.localeCompare(b.network));
}

export function formatTotals(totals: Totals): string {
  const parts = [];
  if (!totals.amount.isZero()) parts.push(`${fmt(totals.amount)} ${totals.asset} plus fees`);
  if (!totals.total.isZero()) parts.push(`${fmt(totals.total)} ${totals.asset} fees included`);
  return `${totals.asset} on ${totals.network}: ${totals.rows} row${totals.rows === 1 ? '' : 's'}, ${parts.join(' and ') || '0'}`;
}

/** Reads a batch once (a path, or the bytes of standard input or a FIFO); rows go to onRow, issues to onIssue. */
export async function scanFile(source: string | Chunks, opts: ScanOptions): Promise<ScanResult> {
  const hash = createHash('sha256');
  // Validation checks a derived ref_id's length against the longest one coinop makes.
  const validator = new RowValidator({
    defaultProfileId: opts.defaultProfileId,
    catalogue: opts.catalogue,
    addresses: opts.addresses,
    deriveRefId: () => REF_ID_PLACEHOLDER,
  });
  const totals = new Map<string, Totals>();
  const result: ScanResult = {
    fileHash: '',
    format: opts.format,
    rows: 0,
    valid: 0,
    invalid: 0,
    derived: 0,
    issueCount: 0,
    totals: [],
    profileNames: {},
  };
  let lastBadRow = 0;
  const report = (issue: RowIssue) => {
    result.issueCount++;
    if (issue.row > 0 && issue.row !== lastBadRow) {
      lastBadRow = issue.row;
      result.invalid++;
    }
    opts.onIssue?.(issue);
  };
  let sawHeader = opts.format !== 'csv';
  try {
    for await (const chunk of readRecordChunks(source, opts.format, (b) => hash.update(b))) {
      for (const rec of chunk) {
        if ('header' in rec) {
          sawHeader = true;
          for (const i of validator.header(rec.header, rec.line)) report(i);
          continue;
        }
        result.rows++;
        const built = validator.build(rec);
        if (opts.profiles && validator.awaitsProfiles(built)) {
          result.profiles = await opts.profiles();
          validator.knowProfiles(result.profiles);
        }
        const { row, issues, given } = validator.checkBuilt(rec, built);
        for (const i of issues) report(i);
        if (!row) {
          opts.onInvalid?.(
            rec.row,
            rec.line,
            issues.map((i) => (i.field ? `${i.field}: ${i.rule}` : i.rule)).join('; '),
            given ?? {},
          );
          continue;
        }
        result.valid++;
        if (row.derived) {
          result.derived++;
          delete (row.body as { ref_id?: string }).ref_id;
        }
        addToTotals(totals, row.body);
        if (opts.onRow) {
          // Awaited only when it is asynchronous: a microtask per row is a second per million rows.
          const pending = opts.onRow(row);
          if (pending) await pending;
        }
      }
    }
  } catch (e) {
    if (!(e instanceof FileError)) throw e;
    result.fatal = {
      row: e.row ?? 0,
      line: e.line,
      field: '',
      rule: `${e.message}; the rest of the file was not read`,
    };
    report(result.fatal);
  }
  if (!sawHeader) report({ row: 0, field: '', rule: 'the file is empty: a CSV batch needs a header line and rows' });
  result.fileHash = hash.digest('hex');
  result.totals = sortedTotals(totals);
  result.profileNames = Object.fromEntries(validator.profileNames);
  return result;
}
