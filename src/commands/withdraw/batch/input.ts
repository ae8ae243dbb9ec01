// The batch's input, read exactly once: the file (or standard input, or a FIFO) is validated, hashed, totalled and
// staged in one pass; everything after (the dry run, the guards, the journal, the sending) reads the staged copy.
import { statSync, type Stats } from 'node:fs';
import type { CliContext } from '../../../cli/context.js';
import { addressCheckFor } from '../../../config/environments.js';
import { asCliError, CoinopError, usageError } from '../../../cli/errors.js';
import { fileChunks, formatFromName, sniffChunks, type BatchFormat, type Chunks } from '../../../batch/reader.js';
import { formatRowIssue, type RowIssue } from '../../../batch/rows.js';
import { scanFile, type ScanResult } from '../../../batch/scan.js';
import { Stage } from '../../../batch/stage.js';
import { WriteError } from '../../../batch/write-error.js';

export interface BatchInput {
  scan: ScanResult;
  stage: Stage;
  /** The file as it was when reading began (not for standard input or a FIFO): to notice a later change. */
  stat?: Stats;
}

/** The file's bytes: a regular file or a FIFO, or standard input for `-`; devices and sockets are refused. */
function openSource(ctx: CliContext, file: string): { chunks: Chunks; stat?: Stats } {
  if (file === '-') {
    if (ctx.io.stdinTTY)
      throw usageError('<file>: - reads the batch from standard input; pipe a file into coinop or give its name');
    return { chunks: asBuffers(ctx.io.stdin) };
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
export async function readBatch(
  ctx: CliContext,
  file: string,
  o: { format?: BatchFormat; defaultProfileId?: string; skipInvalid: boolean; dir: string },
): Promise<BatchInput> {
  const { chunks: raw, stat } = openSource(ctx, file);
  const byName = file === '-' ? undefined : formatFromName(file);
  const sniffed = (o.format ?? byName) ? undefined : await sniffChunks(raw);
  const format: BatchFormat = o.format ?? byName ?? sniffed!.format;
  const stage = staged(() => Stage.create(o.dir));
  ctx.onCleanup(() => stage.remove());
  const machine = ctx.format() === 'json' || ctx.format() === 'ndjson';
  const printIssue = (i: RowIssue) =>
    ctx.io.err(
      `${machine ? JSON.stringify({ row: i.row, line: i.line, field: i.field, rule: i.rule }) : formatRowIssue(i)}\n`,
    );
  let fileLevel = 0;
  // Once a row is invalid and not to be skipped, the batch will not be sent: the rest is only checked.
  let doomed = false;
  const scan = await staged(() =>
    scanFile(sniffed?.chunks ?? raw, {
      format,
      defaultProfileId: o.defaultProfileId,
      catalogue: ctx.catalogue(),
      addresses: addressCheckFor(ctx.profile().environment),
      onIssue: (i) => {
        printIssue(i);
        if (i.row === 0) fileLevel++;
      },
      onRow: (row) => void (doomed || stage.addValid(row)),
      onInvalid: (row, line, issues, given) =>
        o.skipInvalid ? stage.addInvalid(row, line, issues, given) : (doomed = true),
    }),
  );
  if (scan.fatal || fileLevel)
    throw usageError(
      `${file}: the file has problems (listed above); nothing was sent`,
      'fix the header or the file and run again',
    );
  if (scan.invalid && !o.skipInvalid) {
    throw usageError(
      `${scan.invalid} of ${scan.rows} rows are invalid (listed above); nothing was sent`,
      'fix them, or add --skip-invalid to send only the valid rows',
    );
  }
  if (!scan.valid) {
    ctx.io.err(
      `${
        scan.rows ? `none of the ${scan.rows} rows is valid; nothing was sent` : `${file} has no rows; nothing was sent`
      }\n`,
    );
    throw new CoinopError('nothing-sent', 'nothing to send', { quiet: true });
  }
  const repeated = staged(() => stage.finish());
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

/** Runs a step of staging; a write that fails (a full disk) is a file error naming the staging file. */
function staged<T>(fn: () => T): T {
  const map = (e: unknown): never => {
    if (e instanceof WriteError)
      throw new CoinopError('file', `${e.message}; nothing was sent`, {
        hint: 'free space on that disk (COINOP_DATA_DIR chooses where coinop writes) and run again',
      });
    throw e;
  };
  try {
    const r = fn();
    return r instanceof Promise ? (r.catch(map) as T) : r;
  } catch (e) {
    return map(e);
  }
}
