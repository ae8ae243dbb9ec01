// A batch taken in: its bytes read once (scan.ts), every valid row staged with its final ref_id (stage.ts), every
// problem handed to `onIssue` as it is found. `withdraw batch` prints the problems as they come; the MCP server's
// batch tool gathers them into its answer. What the problems mean for the batch is each caller's to say.
import { type AddressCheck, keccakReady } from '../contract/index.js';
import type { CataloguePolicy } from '../client/catalogue-policy.js';
import { CoinopError } from '../errors.js';
import type { BatchFormat, Chunks } from './reader.js';
import type { RowIssue } from './rows.js';
import { scanFile, type ScanOptions, type ScanResult } from './scan.js';
import { Stage } from './stage.js';
import { WriteError } from './write-error.js';

export interface Intake {
  scan: ScanResult;
  stage: Stage;
  /** Problems with the file as a whole (its header, a broken quote): the batch cannot go on. */
  fileLevel: number;
  /**
   * Rows whose ref_id another row of the file already has; found only when the whole file read well (no file-level
   * problem, no invalid row that is not skipped, some valid row).
   */
  repeated: { row: number; ref_id: string; first: number }[];
}

/** Runs a step of staging; a write that fails (a full disk) is a file error naming the staging file. */
export function staged<T>(fn: () => T): T {
  const map = (error: unknown): never => {
    if (error instanceof WriteError)
      throw new CoinopError('file', `${error.message}; nothing was sent`, {
        hint: 'free space on that disk (COINOP_DATA_DIR chooses where coinop writes) and run again',
      });
    throw error;
  };
  try {
    const r = fn();
    return r instanceof Promise ? (r.catch(map) as T) : r;
  } catch (e) {
    return map(e);
  }
}

/**
 * Reads, validates and stages a whole batch into a new staged copy in `dir` (the caller removes it: stage.remove()).
 * Once a row is invalid and not to be skipped the batch will not be sent: the rest is only checked.
 */
export async function stageBatch(
  chunks: Chunks,
  options: {
    format: BatchFormat;
    defaultProfileId?: string;
    catalogue: CataloguePolicy;
    /** How destinations are checked for this environment (testnet addresses taken or not). */
    addresses?: AddressCheck;
    skipInvalid: boolean;
    dir: string;
    onIssue: (i: RowIssue) => void;
    /** The staged copy is made: to be removed however the intake ends. */
    onStage?: (stage: Stage) => void;
    /** The service's profiles, for rows that name theirs by nickname or id prefix (scanFile's). */
    profiles?: ScanOptions['profiles'];
  },
): Promise<Intake> {
  // The EVM checksums' keccak compiled (a few milliseconds) while the staged copy is made, ready for the first row:
  // rows read before it is take the JavaScript permutation, several times slower.
  const keccak = keccakReady();
  const stage = staged(() => Stage.create(options.dir));
  options.onStage?.(stage);
  let fileLevel = 0;
  let doomed = false;
  await keccak;
  const scan = await staged(() =>
    scanFile(chunks, {
      format: options.format,
      defaultProfileId: options.defaultProfileId,
      catalogue: options.catalogue,
      addresses: options.addresses,
      profiles: options.profiles,
      onIssue: (issue) => {
        options.onIssue(issue);
        if (issue.row === 0) fileLevel++;
      },
      onRow: (row) => void (doomed || stage.addValid(row)),
      onInvalid: (row, line, issues, given) =>
        options.skipInvalid ? stage.addInvalid(row, line, issues, given) : (doomed = true),
    }),
  );
  const readWell = !scan.fatal && !fileLevel && (!scan.invalid || options.skipInvalid) && scan.valid > 0;
  const repeated = readWell ? staged(() => stage.finish()) : [];
  return { scan, stage, fileLevel, repeated };
}
