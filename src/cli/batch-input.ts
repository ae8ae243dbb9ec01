// The batch's input, read exactly once: the file (or standard input, or a FIFO) is validated, hashed, totalled and
// staged in one pass; everything after (the dry run, the guards, the journal, the sending) reads the staged copy.
import { statSync, type Stats } from 'node:fs';
import type { Ports } from './ports.js';
import { addressCheckFor } from '../config/environments.js';
import { asCliError, CoinopError, usageError } from './errors.js';
import { stageBatch } from '../batch/intake.js';
import { fileChunks, formatFromName, sniffChunks, type BatchFormat, type Chunks } from '../batch/reader.js';
import { formatRowIssue, type RowIssue } from '../batch/rows.js';
import type { ScanResult } from '../batch/scan.js';
import type { Stage } from '../batch/stage.js';
import { listed } from './service-profiles.js';

export interface BatchInput {
  scan: ScanResult;
  stage: Stage;
  /** The file as it was when reading began (not for standard input or a FIFO): to notice a later change. */
  stat?: Stats;
}

/** The file's bytes: a regular file or a FIFO, or standard input for `-`; devices and sockets are refused. */
function openSource(ctx: Pick<Ports, 'display'>, file: string): { chunks: Chunks; stat?: Stats } {
  if (file === '-') {
    if (ctx.display.io.stdinTTY)
      throw usageError('<file>: - reads the batch from standard input; pipe a file into coinop or give its name');
    return { chunks: asBuffers(ctx.display.io.stdin) };
  }
  let st: Stats;
  try {
    st = statSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new CoinopError('file', `${file}: no such file`);
    throw asCliError(e);
  }
  if (st.isDirectory()) throw new CoinopError('file', `${file}: is a directory, not a batch file`);
  if (!st.isFile() && !st.isFIFO()) {
    throw new CoinopError('file', `${file}: is not a regular file (a device or a socket may never end)`, {
      hint: 'give a batch file, or - with the rows on standard input',
    });
  }
  return { chunks: fileChunks(file), stat: st.isFile() ? st : undefined };
}

async function* asBuffers(stream: AsyncIterable<Buffer | string>): AsyncGenerator<Buffer> {
  for await (const b of stream) yield typeof b === 'string' ? Buffer.from(b) : b;
}

/** Whether a regular file read earlier has changed since (or is gone). */
export function changedSince(file: string, before: Stats | undefined): boolean {
  if (!before) return false;
  try {
    const now = statSync(file);
    return now.size !== before.size || now.mtimeMs !== before.mtimeMs || now.ino !== before.ino;
  } catch {
    return true;
  }
}

/**
 * Reads, validates and stages the whole batch. Every problem is printed (row, line, field, rule); a file with
 * problems, invalid rows without --skip-invalid, or no valid row stops here with nothing sent.
 */
/** How many of a refused batch's problems its audit entry lists. */
const AUDITED_PROBLEMS = 100;

export async function readBatch(
  ctx: Pick<Ports, 'display' | 'service' | 'audit' | 'interrupt'>,
  file: string,
  options: { format?: BatchFormat; defaultProfileId?: string; skipInvalid: boolean; dir: string },
): Promise<BatchInput> {
  const { chunks: raw, stat } = openSource(ctx, file);
  const byName = file === '-' ? undefined : formatFromName(file);
  const sniffed = (options.format ?? byName) ? undefined : await sniffChunks(raw);
  const format: BatchFormat = options.format ?? byName ?? sniffed!.format;
  const machine = ctx.display.format() === 'json' || ctx.display.format() === 'ndjson';
  // The first problems go into the audit entry of a batch refused for them.
  const problems: string[] = [];
  const printIssue = (issue: RowIssue) => {
    if (problems.length < AUDITED_PROBLEMS) problems.push(formatRowIssue(issue));
    ctx.display.io.err(
      `${machine ? JSON.stringify({ row: issue.row, line: issue.line, field: issue.field, rule: issue.rule }) : formatRowIssue(issue)}\n`,
    );
  };
  // A batch refused for its rows is a refusal of coinop's own checks: in the audit trail with what was read.
  const refuse = async (error: CoinopError): Promise<never> => {
    await ctx.audit.note({
      kind: 'batch',
      ref_id: null,
      what: { file, file_sha256: scan.fileHash, rows: scan.rows, invalid: scan.invalid, problems },
      outcome: { result: 'refused', error: { category: error.category, message: error.message } },
    });
    throw error;
  };
  const { scan, stage, fileLevel, repeated } = await stageBatch(sniffed?.chunks ?? raw, {
    format,
    defaultProfileId: options.defaultProfileId,
    catalogue: ctx.service.catalogue(),
    addresses: addressCheckFor(ctx.service.context().environment),
    skipInvalid: options.skipInvalid,
    dir: options.dir,
    onIssue: printIssue,
    onStage: (s) => ctx.interrupt.onExit(() => s.remove()),
    // Rows may name their profile by nickname or id prefix: the service's list, read once (for this connection).
    profiles: () => listed(ctx, 'profile_id'),
  });
  if (scan.fatal || fileLevel)
    await refuse(
      usageError(
        `${file}: the file has problems (listed above); nothing was sent`,
        'fix the header or the file and run again',
      ),
    );
  if (scan.invalid && !options.skipInvalid)
    await refuse(
      usageError(
        `${scan.invalid} of ${scan.rows} rows are invalid (listed above); nothing was sent`,
        'fix them, or add --skip-invalid to send only the valid rows',
      ),
    );
  if (!scan.valid) {
    ctx.display.io.err(
      `${
        scan.rows ? `none of the ${scan.rows} rows is valid; nothing was sent` : `${file} has no rows; nothing was sent`
      }\n`,
    );
    throw new CoinopError('nothing-sent', 'nothing to send', { quiet: true });
  }
  for (const d of repeated)
    printIssue({
      row: d.row,
      field: 'ref_id',
      rule: `repeats the ref_id of row ${d.first} (each withdrawal needs its own)`,
    });
  if (repeated.length)
    throw usageError(
      `${repeated.length} rows repeat a ref_id (listed above); nothing was sent`,
      'give each row its own ref_id',
    );
  return { scan, stage, stat };
}
