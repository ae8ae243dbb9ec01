// `coinop withdraw batch`: validate the whole file, confirm, journal every row, send under a rate limit, report.
import { createReadStream, existsSync, statSync, unlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Decimal, dec, fmt, type CryptoWithdrawalFee } from '../../api/index.js';
import type { CliContext } from '../../cli/context.js';
import { asCliError, CliError, usageError } from '../../cli/errors.js';
import { dataDir } from '../../local/paths.js';
import { clientBatchApi, type BatchApi } from '../../batch/api.js';
import { earlierRunsOf, Journal, JournalError, journalPath, JOURNAL_VERSION, type PlannedRow } from '../../batch/journal.js';
import { backoffMs, realClock, TokenBucket } from '../../batch/rate-limit.js';
import { detectFormat, FileError, hashFile, sniffFormat, spoolStdin, type BatchFormat } from '../../batch/reader.js';
import { exitCodeOf, outcomeLine, outcomeOf, ProgressBar, REPORT_COLUMNS, reportRows, TABLE_COLUMNS } from '../../batch/report.js';
import { formatRowIssue, type BatchRow, type RowIssue } from '../../batch/rows.js';
import { FatalBatchError, sendRows, waitForTransfers } from '../../batch/runner.js';
import { allRows, formatTotals, scanFile, validRows } from '../../batch/scan.js';
import type { BatchFlags } from './index.js';

/** Fee quotes and transfer reads count against the service's 50/s for other endpoints. */
const READ_RATE = 45;

function intFlag(name: string, v: string, min: number, max: number): number {
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw usageError(`--${name}: must be a whole number from ${min} to ${max}`);
  return Number(v);
}

function rateFlag(v: string): number {
  if (!/^\d+(\.\d+)?$/.test(v) || Number(v) > 10_000) throw usageError('--rate: must be a number of withdrawals per second from 0 (no limit) to 10000');
  return Number(v) === 0 ? Infinity : Number(v);
}

async function readHead(path: string): Promise<string> {
  let head = '';
  for await (const b of createReadStream(path, { start: 0, end: 4095 })) head += (b as Buffer).toString('utf8');
  return head;
}

export async function runBatch(ctx: CliContext, file: string, flags: BatchFlags): Promise<void> {
  const concurrency = intFlag('concurrency', flags.concurrency, 1, 64);
  const rate = rateFlag(flags.rate);
  const resume = !!flags.resume || !!flags.retryFailed;
  const waitTimeout = intFlag('wait-timeout', flags.waitTimeout ?? '600', 1, 7 * 86_400);
  if (flags.dryRun && resume) throw usageError('--dry-run: cannot be combined with --resume (a dry run sends nothing to resume)');
  const io = ctx.io;
  const note = (s: string) => io.err(s + '\n');
  const dir = dataDir(ctx.env as NodeJS.ProcessEnv);

  // ---- The file ----------------------------------------------------------------------------------------------
  let path = file;
  if (file === '-') {
    if (io.stdinTTY) throw usageError('<file>: - reads the batch from standard input; pipe a file into coinop or give its name');
    path = join(dir, 'batches', `stdin-${process.pid}-${ctx.now()}.spool`);
    ctx.onCleanup(() => unlinkSync(path));
    await spoolStdin(io.stdin, path);
  } else if (!existsSync(file)) {
    throw new CliError('file', `${file}: no such file`);
  } else if (statSync(file).isDirectory()) {
    throw new CliError('file', `${file}: is a directory, not a batch file`);
  }
  const format: BatchFormat = flags.format ?? (file === '-' ? sniffFormat(await readHead(path)) : await detectFormat(path));
  const profile = ctx.profile();
  const defaultProfileId = flags.profileId ?? profile.profileId;
  const fileHash = await hashFile(path);

  // ---- Every row checked before anything is sent ------------------------------------------------------------
  const machine = ctx.format() === 'json' || ctx.format() === 'ndjson';
  let fileLevel = 0;
  const scan = await scanFile(path, {
    format,
    defaultProfileId,
    fileHash,
    onIssue: (i: RowIssue) => {
      io.err((machine ? JSON.stringify({ row: i.row, line: i.line, field: i.field, rule: i.rule }) : formatRowIssue(i)) + '\n');
      if (i.row === 0) fileLevel++;
    },
  }).catch((e: unknown) => {
    if (e instanceof FileError) throw new CliError('file', `${file}: ${e.message}`);
    throw e;
  });
  if (scan.fatal || fileLevel) {
    throw usageError(`${file}: the file has problems (listed above); nothing was sent`, 'fix the header or the file and run again');
  }
  if (scan.invalid && !flags.skipInvalid) {
    throw usageError(
      `${scan.invalid} of ${scan.rows} rows are invalid (listed above); nothing was sent`,
      'fix them, or add --skip-invalid to send only the valid rows',
    );
  }
  if (!scan.valid) {
    note(scan.rows ? `none of the ${scan.rows} rows is valid; nothing was sent` : `${file} has no rows; nothing was sent`);
    throw new CliError('nothing-sent', 'nothing to send', { quiet: true });
  }

  if (flags.dryRun) return dryRun(ctx, path, format, fileHash, defaultProfileId, scan.valid, scan.invalid, concurrency, rate);

  // ---- The journal ----------------------------------------------------------------------------------------------
  const base = ctx.env.COINOP_BASE_URL || profile.baseUrl;
  const jPath = journalPath(dir, fileHash, flags.journal, profile.environment, base);
  let journal: Journal;
  try {
    journal = Journal.open(jPath, fileHash);
  } catch (e) {
    if (e instanceof JournalError) throw new CliError('file', e.message);
    throw e;
  }
  ctx.onCleanup(() => journal.close());
  const meta = journal.meta();
  // A journal whose rows were all planned and none ever left (stopped by a bad token, say) is a batch not yet begun.
  const existed = journal.count() > 0 && journal.begun();
  if (existed && meta.base_url && meta.environment && meta.environment !== profile.environment) {
    throw usageError(`the journal of this file was started in ${meta.environment} (${meta.base_url}); this run is for ${profile.environment}`, `give another --journal to run the file in ${profile.environment}`);
  }
  let todo: number;
  if (existed) {
    const c = journal.counts();
    const unfinished = c.planned + c.sent + c.unknown;
    if (!resume) {
      if (unfinished) {
        const done = journal.count() - unfinished;
        throw usageError(
          `this file has an interrupted run (${done} of ${journal.count()} rows done; journal ${jPath})`,
          'add --resume to continue it; rows keep their ref_ids, so nothing is sent twice',
        );
      }
      note(`this batch already ran to the end${meta.finished_at ? ` (${meta.finished_at})` : ''}; nothing was sent. Journal: ${jPath}`);
      return finish(ctx, journal, flags.wait ? waitTimeout : 0);
    }
    journal.requeue(!!flags.retryFailed);
    todo = journal.counts().planned;
    if (!todo) {
      note(`nothing left to send in this batch (journal ${jPath})`);
      return finish(ctx, journal, flags.wait ? waitTimeout : 0);
    }
    note(`resuming: ${todo} of ${journal.count()} rows to send (journal ${jPath})`);
  } else {
    // The same file, edited after a run that sent rows: derived ref_ids changed, so those rows would go out again.
    if (file !== '-' && !flags.journal && !flags.newBatch && scan.derived) {
      const earlier = earlierRunsOf(dirname(jPath), resolve(file), fileHash, base);
      if (earlier.length) {
        const e = earlier[0];
        throw usageError(
          `${file} changed since an earlier run sent ${e.sent} row${e.sent === 1 ? '' : 's'} from it${e.created_at ? ` (${e.created_at})` : ''}; ` +
            `rows without a ref_id get new ref_ids from the new content and would be sent again (journal ${e.journal})`,
          'give the rows their ref_ids from the earlier report in a ref_id column, or add --new-batch if it really is a new batch',
        );
      }
    }
    if (resume) note('no earlier run of this file was found; starting it');
    todo = scan.valid;
  }

  // Credentials and the address proven before the question and the first row: a wrong secret or a dead host stops
  // here (exit 4 or 5), with nothing planned, instead of every row retrying into "unknown".
  const conn = await ctx.connect();
  await conn.tokens.token();

  // ---- Confirmation ---------------------------------------------------------------------------------------------
  await ctx.confirm({
    title: `Batch withdrawal of ${todo} row${todo === 1 ? '' : 's'}`,
    environment: profile.environment,
    yes: !!flags.yes,
    question: `Send ${todo} withdrawal${todo === 1 ? '' : 's'}?`,
    rows: [
      ['environment', `${profile.environment} (${base})`],
      ['profile', `${profile.name}${defaultProfileId ? `, default profile_id ${defaultProfileId}` : ''}`],
      ['file', `${file} (${format}, sha256 ${fileHash.slice(0, 12)})`],
      ['rows', `${scan.rows} in the file: ${scan.valid} valid${scan.invalid ? `, ${scan.invalid} invalid (skipped)` : ''}${existed ? `, ${todo} left to send` : ''}`],
      ...scan.totals.map((t) => [`${t.asset} ${t.network}`, formatTotals(t).replace(/^[^:]*: /, '')] as [string, string]),
      ['pace', `${Number.isFinite(rate) ? `${rate}/s` : 'no client-side limit'}, ${concurrency} at once`],
      ['journal', jPath],
    ],
  });

  if (!existed) {
    journal.setMeta({
      version: JOURNAL_VERSION, file_hash: fileHash, file_name: file, format, rows: String(scan.rows),
      environment: profile.environment, base_url: base, created_at: new Date(ctx.now()).toISOString(),
      file_path: file === '-' ? undefined : resolve(file),
    });
    // Streamed in chunks: a file of any length is planned with bounded memory, invalid rows (--skip-invalid) too.
    let chunk: PlannedRow[] = [];
    let invalid: { row: number; issues: string }[] = [];
    for await (const r of allRows(path, format, fileHash, defaultProfileId)) {
      if ('body' in r) chunk.push(planned(r));
      else invalid.push(r);
      if (chunk.length >= 5000) journal.plan(chunk), (chunk = []);
      if (invalid.length >= 5000) journal.planInvalid(invalid), (invalid = []);
    }
    journal.plan(chunk);
    journal.planInvalid(invalid);
  }

  // ---- Sending ----------------------------------------------------------------------------------------------------
  const api: BatchApi = clientBatchApi(conn.client);
  const bar = new ProgressBar(io.stderrTTY ? io.err : undefined, io.width, ctx.now);
  const limiter = new TokenBucket(rate);
  let sending = true;
  // Ctrl-C or SIGTERM: the journal is flushed and closed by the cleanup; say how to go on.
  ctx.onCleanup(() => {
    if (!sending) return;
    bar.clear();
    note(`interrupted: rows already answered are in the journal ${jPath}; run the same command with --resume to send the rest (nothing is sent twice)`);
  });
  try {
    const progress = await sendRows(validRows(path, format, fileHash, defaultProfileId), todo, {
      journal, api, concurrency, limiter, onProgress: (p) => bar.update(p),
    });
    bar.update(progress, true);
    bar.clear();
  } catch (e) {
    sending = false;
    bar.clear();
    journal.flush();
    if (e instanceof FatalBatchError) {
      const ce = asCliError(e.cause);
      throw new CliError(ce.category, `${ce.message}; the batch stopped (rows sent so far are in the journal: run again with --resume)`, { hint: ce.hint, problem: ce.problem });
    }
    if (e instanceof FileError) throw new CliError('file', e.message);
    throw e;
  }
  sending = false;
  const c = journal.counts();
  if (!c.planned && !c.sent && !c.unknown) journal.setMeta({ finished_at: new Date(ctx.now()).toISOString() });
  return finish(ctx, journal, flags.wait ? waitTimeout : 0);
}

function planned(r: BatchRow): PlannedRow {
  const b = r.body;
  return { row: r.row, ref_id: b.ref_id as string, asset: b.asset, crypto_network: b.crypto_network, destination_address: b.destination_address, amount: b.amount, total: b.total };
}

/** With --wait, follows the batch's transfers to their end; then the report of every row, a summary line, the exit code. */
async function finish(ctx: CliContext, journal: Journal, waitSeconds: number): Promise<void> {
  let stillPending = 0;
  if (waitSeconds && journal.pendingTransfers().length) {
    const conn = await ctx.connect();
    const bar = new ProgressBar(ctx.io.stderrTTY ? ctx.io.err : undefined, ctx.io.width, ctx.now);
    stillPending = await waitForTransfers({
      journal, api: clientBatchApi(conn.client), limiter: new TokenBucket(READ_RATE), signal: AbortSignal.timeout(waitSeconds * 1000),
      onProgress: (n) => bar.status(n ? `waiting for ${n} transfer${n === 1 ? '' : 's'} to end…` : ''),
    });
    bar.clear();
  }
  const out = ctx.output();
  await out.list(reportRows(journal) as unknown as Iterable<Record<string, unknown>>, out.forPeople ? TABLE_COLUMNS : REPORT_COLUMNS);
  if (out.forPeople) {
    // A narrow table cuts problems short: the first ones in full, below it.
    let shown = 0;
    for (const r of reportRows(journal)) {
      if (!r.problem) continue;
      if (++shown > 20) {
        ctx.io.err('… (every row is in the journal; -o csv lists them all)\n');
        break;
      }
      ctx.io.err(`row ${r.row}${r.ref_id ? ` (${r.ref_id})` : ''}: ${r.problem}\n`);
    }
  }
  const o = outcomeOf(journal);
  ctx.io.err(`${outcomeLine(o)} · journal ${journal.path}\n`);
  if (stillPending) {
    // As the single withdrawal does: waiting that runs out is not an answer (exit 5).
    throw new CliError('network', `gave up waiting after ${waitSeconds} s: ${stillPending} transfer${stillPending === 1 ? '' : 's'} still PENDING`, {
      hint: 'run the same command with --wait again to follow them; nothing is sent twice',
    });
  }
  const code = exitCodeOf(o);
  if (code === 6) throw new CliError('failed', outcomeLine(o), { quiet: true });
  if (code === 7) throw new CliError('nothing-sent', outcomeLine(o), { quiet: true });
}

interface QuoteTotals {
  asset: string;
  crypto_network: string;
  rows: number;
  amount: Decimal;
  fee: Decimal;
  total: Decimal;
}

/** --dry-run: a guaranteed fee for every row, then totals per asset and network. Nothing is sent. */
async function dryRun(
  ctx: CliContext, path: string, format: BatchFormat, fileHash: string, defaultProfileId: string | undefined,
  valid: number, invalid: number, concurrency: number, rate: number,
): Promise<void> {
  const conn = await ctx.connect();
  await conn.tokens.token();
  const api = clientBatchApi(conn.client);
  const limiter = new TokenBucket(Number.isFinite(rate) ? READ_RATE : Infinity);
  const bar = new ProgressBar(ctx.io.stderrTTY ? ctx.io.err : undefined, ctx.io.width, ctx.now);
  const totals = new Map<string, QuoteTotals>();
  const progress = { todo: valid, done: 0, succeeded: 0, failed: 0, retries: 0, startedAt: ctx.now() };
  const failures: string[] = [];
  let fatal: Error | undefined;
  const quoteOne = async (r: BatchRow): Promise<void> => {
    const b = r.body;
    const req = { asset: b.asset, destination_address: b.destination_address, crypto_network: b.crypto_network, ...(b.amount !== undefined ? { amount: b.amount } : { total: b.total }) };
    for (let attempt = 1; ; attempt++) {
      await limiter.take();
      const res = await api.quoteFee(req);
      if (res.kind === 'quote') return add(b, res.quote);
      if (res.kind === 'fatal') {
        fatal ??= res.error;
        return;
      }
      if (res.kind === 'refused' || attempt >= 8) {
        failures.push(`row ${r.row}: ${[res.problem.title, res.problem.detail].filter(Boolean).join(': ')}`);
        progress.failed++;
        return;
      }
      if (res.throttled) limiter.hold(backoffMs(attempt, 1000, 15_000));
      else await realClock.sleep(backoffMs(attempt));
    }
  };
  const add = (b: BatchRow['body'], q: CryptoWithdrawalFee) => {
    const key = `${b.asset}\u0000${b.crypto_network}`;
    let t = totals.get(key);
    if (!t) totals.set(key, (t = { asset: b.asset, crypto_network: b.crypto_network, rows: 0, amount: new Decimal(0), fee: new Decimal(0), total: new Decimal(0) }));
    const fee = dec(q.fee);
    const amount = q.amount !== undefined ? dec(q.amount) : b.amount !== undefined ? dec(b.amount) : dec(b.total as string).minus(fee);
    const total = q.total !== undefined ? dec(q.total) : b.total !== undefined ? dec(b.total) : amount.plus(fee);
    t.rows++;
    t.amount = t.amount.plus(amount);
    t.fee = t.fee.plus(fee);
    t.total = t.total.plus(total);
    progress.succeeded++;
  };
  const inFlight = new Set<Promise<void>>();
  for await (const r of validRows(path, format, fileHash, defaultProfileId)) {
    if (fatal) break;
    while (inFlight.size >= concurrency) await Promise.race(inFlight);
    const p: Promise<void> = quoteOne(r).finally(() => {
      inFlight.delete(p);
      progress.done++;
      bar.update(progress);
    });
    inFlight.add(p);
  }
  await Promise.all([...inFlight]);
  bar.clear();
  if (fatal) throw asCliError(fatal);
  for (const f of failures) ctx.io.err(f + '\n');
  const list = [...totals.values()]
    .sort((a, b) => a.asset.localeCompare(b.asset) || a.crypto_network.localeCompare(b.crypto_network))
    .map((t) => ({ asset: t.asset, crypto_network: t.crypto_network, rows: t.rows, amount: fmt(t.amount), fee: fmt(t.fee), total: fmt(t.total) }));
  await ctx.output().list(list, [
    { key: 'asset' }, { key: 'crypto_network', header: 'network' }, { key: 'rows' },
    { key: 'amount', kind: 'amount' }, { key: 'fee', kind: 'amount' }, { key: 'total', kind: 'amount' },
  ]);
  ctx.io.err(
    `dry run: ${progress.succeeded} of ${valid} rows quoted${failures.length ? `, ${failures.length} refused (listed above)` : ''}` +
      `${invalid ? `, ${invalid} invalid rows skipped` : ''}; nothing was sent\n`,
  );
  // The same exit codes as a real run would give: every row fine, some not, none.
  if (!progress.succeeded) throw new CliError('nothing-sent', 'no row could be quoted', { quiet: true });
  if (failures.length || invalid) throw new CliError('failed', 'some rows could not be quoted', { quiet: true });
}
