// `coinop withdraw batch`: read and validate the whole file once, look for rows another batch paid, confirm, journal
// every row with the request it sends, send under a rate limit from the journal, report.
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type CreateCryptoWithdrawalRequest, dec, fmt } from '../../../contract/index.js';
import type { Connection } from '../../../cli/invocation.js';
import type { Ports } from '../../../cli/ports.js';
import { commandProfile, knownProfile, type ProfileRef, shownLabel } from '../../../cli/service-profiles.js';
import { asCliError, CoinopError, usageError } from '../../../cli/errors.js';
import { shellQuote } from '../../../cli/help.js';
import { type BatchService, clientBatchService } from '../../../batch/service-port.js';
import { markRepeats, repeatLine, repeatObject } from '../../../batch/guard.js';
import {
  Journal,
  JournalError,
  journalPath,
  JOURNAL_VERSION,
  type PlannedRow,
  RowsDigest,
} from '../../../batch/journal.js';
import { TokenBucket } from '../../../batch/pacing.js';
import { newBatchId, withRefId } from '../../../batch/ref-ids.js';
import {
  exitCodeOf,
  outcomeLine,
  outcomeOf,
  REPORT_COLUMNS,
  ReportStream,
  reportRows,
  TABLE_COLUMNS,
} from '../../../batch/report.js';
import { READ_RATE } from '../../../batch/quote.js';
import { type PlannedBody, partialPlan, type SkippedRow, skippedProblem } from '../../../batch/partial.js';
import { FatalBatchError, plannedRows, refreshStatuses, sendRows, waitForTransfers } from '../../../batch/runner.js';
import { addToTotals, formatTotals, sortedTotals, type Totals } from '../../../batch/scan.js';
import type { BatchRow } from '../../../batch/rows.js';
import { SentRecord, SentRecordError, sentRecordPath } from '../../../batch/sent-record.js';
import { type InvalidRow, removeStale, type Stage } from '../../../batch/stage.js';
import { StageTimes } from '../../../batch/timing.js';
import { WriteError } from '../../../batch/write-error.js';
import type { AuditEvent } from '../../../audit/entry.js';
import { type ApprovalContent, ContentBuilder, type ParsedApproval, repeatSalt } from '../../../policy/approvals.js';
import { inWindow, timeOfDay } from '../../../policy/hours.js';
import { withdrawalRequest } from '../../../policy/check.js';
import type { PolicyRequest, PolicyVerdict } from '../../../policy/evaluate.js';
import type { LoadedPolicy } from '../../../policy/policy.js';
import { Needs, shortfallHint, shortfallReason, shortfalls } from '../../../send/funds.js';
import { approvalFiles, approvalScope, batchContent } from '../../../cli/approval-content.js';
import {
  type PolicyRun,
  policyVerdict,
  contextPolicy,
  refusal,
  refuseUnlessAllowed,
  showVerdict,
} from '../../../cli/policy-enforce.js';
import {
  type AuditedBatch,
  auditedRowsDigest,
  batchEnd,
  batchRefused,
  batchStart,
  rowAttempt,
  rowEvent,
} from './audit.js';
import { dryRun } from './dry-run.js';
import { atGateway, batchAtGateway } from './gateway.js';
import { progressBar } from './progress.js';
import { changedSince, readBatch, type BatchInput } from '../../../cli/batch-input.js';
import type { BatchOptions } from './options.js';

/** Where the batch is, for the line Ctrl-C or SIGTERM prints. */
type Phase = { at: 'before' } | { at: 'sending' | 'waiting'; journal: string };

function interruptLine(phase: Phase): string {
  if (phase.at === 'before') return 'interrupted: nothing was sent';
  if (phase.at === 'waiting')
    return `interrupted while following the transfers (journal ${phase.journal}); run the same command with --wait to follow them again (nothing is sent twice)`;
  return `interrupted: rows already answered are in the journal ${phase.journal}; run the same command with --resume to send the rest (nothing is sent twice)`;
}

/**
 * COINOP_BATCH_TIMES=FILE: where the time of each stage goes, written to FILE as JSON when the batch ends (the bench
 * reports it per row).
 */
function stageTimes(file: string | undefined): { times: StageTimes; write: (journal?: Journal) => void } | undefined {
  if (!file) return undefined;
  const times = new StageTimes();
  // performance.now() counts from the process's start.
  times.add('start', performance.now());
  return {
    times,
    write: (journal) => {
      if (journal) times.ms['journal-commit'] = journal.commitMs;
      writeFileSync(file, `${JSON.stringify(times)}\n`);
    },
  };
}

/** What withdraw batch takes: every port but none of the rest of the invocation. */
export type BatchDeps = Pick<
  Ports,
  'display' | 'service' | 'prompter' | 'confirmer' | 'audit' | 'clock' | 'interrupt' | 'policy'
>;

/** What the batch reads of how coinop was started, besides its ports and flags. */
export interface BatchStart {
  /** COINOP_BATCH_TIMES: the file the time of each stage is written to. */
  timesFile?: string;
  /** COINOP_BASE_URL as given (the journal is kept per service address). */
  baseUrl?: string;
  /** --context as given (said again in the command that continues the batch). */
  context?: string;
}

export async function runBatch(
  ctx: BatchDeps,
  file: string,
  options: BatchOptions,
  started: BatchStart = {},
): Promise<void> {
  const timing = stageTimes(started.timesFile);
  const times = timing?.times;
  const readStarted = performance.now();
  let cpu = times ? process.cpuUsage() : undefined;
  const note = (s: string) => ctx.display.io.err(`${s}\n`);
  const data = ctx.service.dataDir();
  const batches = join(data, 'batches');
  const phase: { now: Phase } = { now: { at: 'before' } };
  ctx.interrupt.say(() => interruptLine(phase.now));
  removeStale(batches);
  const context = ctx.service.context();
  // A policy file that does not load stops everything, before the file is read.
  const loaded = await contextPolicy(ctx, 'withdraw batch');
  // --profile-id by nickname, id prefix or id: an unknown one is refused before the file is read.
  const named = options.profileId !== undefined ? await commandProfile(ctx, options.profileId, undefined) : undefined;
  const defaultProfileId = named?.id ?? context.profileId;
  const input = await readBatch(ctx, file, {
    format: options.format,
    defaultProfileId,
    skipInvalid: options.skipInvalid,
    dir: batches,
  });
  const { scan } = input;
  times?.add('read', performance.now() - readStarted);
  if (cpu) cpu = times?.cpu('read-cpu', cpu);
  const beginStarted = performance.now();
  // The command that goes on names --profile-id by the id it named now: a name that names another profile later
  // would not change the rows (the journal holds them), only the scope the approvals are checked against.
  const given = options.profileId !== undefined ? defaultProfileId : undefined;
  const cont = continueCommand(started.context, file, { ...options, profileId: given });
  if (changedSince(file, input.stat))
    note(
      `${file} changed while coinop read it; what is confirmed and sent are the rows as read (sha256 ${scan.fileHash.slice(0, 12)})`,
    );
  const policy = batchPolicy(ctx, loaded, { file, o: options, input, defaultProfileId });
  const defaultProfile = batchProfile(defaultProfileId, named, scan.profiles);
  if (options.dryRun) return dryRunWithPolicy(ctx, policy, input, { ...options, file, defaultProfile });

  const conn = await ctx.service.connect({ gatewayIdentity: true });
  let gatewaySent = false;
  // At a coinop gateway the batch goes to its policy first, as one: held for approvals, or sent once approved. A repeat
  // run's rows get salted ref_ids later: they are not those submitted, so each is judged alone there.
  if (atGateway(conn) && !options.allowRepeat) {
    const waitSeconds = options.waitApprovalSeconds;
    const at = await batchAtGateway(ctx, conn, { stage: input.stage, profileId: defaultProfileId, waitSeconds });
    ctx.interrupt.say(() => interruptLine(phase.now));
    if (at === 'held') return input.stage.remove();
    gatewaySent = at === 'sent';
  }
  const base = started.baseUrl || context.baseUrl;
  // Instances of one coinop gateway are one service (its store's id): the journal follows the service, not the address.
  const where = conn.serviceId.startsWith('gateway:') ? conn.serviceId : base;
  const jPath = journalPath(data, scan.fileHash, options.journal, context.environment, where);
  const journal = openJournal(jPath, scan.fileHash, conn.serviceId);
  ctx.interrupt.onExit(() => journal.close());
  const record = openRecord(sentRecordPath(data));
  ctx.interrupt.onExit(() => record.close());

  const run: BatchRun = { file, input, o: options, base, jPath, defaultProfile, policy, times, gatewaySent };
  const clock = serviceClock(() => ctx.clock.now());
  let todo: number;
  if (journal.count() > 0 && journal.begun()) {
    // The journal holds every row and the request it sends: the staged copy of this read is not needed.
    input.stage.remove();
    todo = await resumeBatch(ctx, conn, { journal, run, cont, clock });
    // Nothing left to send: the report's statuses are asked of the service again, not those of the last run.
    if (todo === 0) return finish(ctx, journal, { waitSeconds: options.waitSeconds, phase, cont, refresh: true });
  } else {
    clock.start(await beginBatch(ctx, conn, journal, record, run));
    // --allow-partial: the rows a balance or a limit cannot cover are in the journal as skipped, not to send.
    todo = options.allowPartial ? journal.counts().planned : scan.valid;
  }

  phase.now = { at: 'sending', journal: jPath };
  times?.add('begin', performance.now() - beginStarted);
  if (cpu) cpu = times?.cpu('begin-cpu', cpu);
  if (times) times.rows = todo;
  const stream = streamReport(ctx, journal, options);
  try {
    await sendReserved(ctx, conn, run, { journal, record, todo, stream, clock, times });
  } finally {
    if (cpu) times?.cpu('send-cpu', cpu);
    timing?.write(journal);
  }
  await ctx.audit.note(batchEnd(journal, journal.meta().batch_id ?? ''), conn);
  phase.now = { at: 'before' };
  if (changedSince(file, input.stat))
    note(
      `${file} changed after coinop read it; the rows sent are those read and confirmed (sha256 ${scan.fileHash.slice(0, 12)}), as the report shows`,
    );
  const c = journal.counts();
  if (!c.planned && !c.sent && !c.unknown) journal.setMeta({ finished_at: new Date(ctx.clock.now()).toISOString() });
  return finish(ctx, journal, { waitSeconds: options.waitSeconds, phase, cont, stream });
}

/**
 * A batch begun before, its journal checked against what was confirmed: the policy again over the rows left (the
 * limits, the hours of now, the approvals against the journal's own rows), the question, the reservation, the audit
 * entry. The rows left to send (0: none, the batch ran to its end).
 */
async function resumeBatch(
  ctx: BatchDeps,
  conn: Connection,
  resume: { journal: Journal; run: BatchRun; cont: (retry: boolean) => string; clock: ReturnType<typeof serviceClock> },
): Promise<number> {
  const { journal, run, clock } = resume;
  const { o, policy } = run;
  let left: { todo: number; totals: Totals[] };
  try {
    left = resumeOf(ctx, journal, o, resume.cont);
  } catch (e) {
    // A journal whose rows are not those confirmed: the refusal in the audit log too.
    if (e instanceof CoinopError && e.category === 'file' && (e as { edited?: boolean }).edited)
      await ctx.audit.note(
        batchRefused(auditOf(run, journal), journal.count(), true, { category: e.category, message: e.message }),
        conn,
      );
    throw e;
  }
  const todo = left.todo;
  if (todo === 0) return 0;
  await conn.tokens.token();
  const resumed: PolicyRun = {
    ...policy.run,
    requests: () => journalRequests(journal),
    approvals: policy.run.approvals && { ...policy.run.approvals, content: journalContent(ctx, journal, run) },
  };
  const verdict = await policyVerdict(ctx, conn, policy.loaded, resumed);
  const audited = { ...auditOf(run, journal), totals: left.totals };
  const refusal = { batch: audited, rows: todo, resumed: true };
  await refusedBy(ctx, conn, refusal, () => refuseByPolicy(ctx, verdict, run.file));
  clock.start(verdict);
  let skipped: SkippedRow[] = [];
  await refusedBy(ctx, conn, refusal, async () => {
    skipped = await uncovered(ctx, conn, run.o, { rows: () => journalRequestBodies(journal), todo }, run.gatewaySent);
  });
  await confirmBatch(ctx, conn, run, { todo: todo - skipped.length, resumed: true, totals: left.totals, skipped });
  await reserveRows(ctx, conn, run, {
    policyRun: resumed,
    rows: () => journalReservations(journal),
    refusal,
    batchId: journal.meta().batch_id,
  });
  await ctx.audit.record(batchStart(audited, todo, true), conn);
  markUncovered(journal, skipped);
  return todo - skipped.length;
}

/** A report streamed row by row as rows finish: NDJSON and CSV (without --wait, whose rows end later). */
interface Streaming {
  report: ReportStream;
  listing: Promise<number>;
}

function streamReport(ctx: BatchDeps, journal: Journal, options: BatchOptions): Streaming | undefined {
  const out = ctx.display.output();
  if (options.waitSeconds || (out.format !== 'ndjson' && out.format !== 'csv')) return undefined;
  const report = new ReportStream(journal);
  const rows = report.rows() as unknown as AsyncIterable<Record<string, unknown>>;
  return { report, listing: out.list(rows, REPORT_COLUMNS) };
}

/** The exact command that continues this batch (--retry-failed when refused rows may be sent again). */
function continueCommand(context: string | undefined, file: string, options: BatchOptions): (retry: boolean) => string {
  const q = shellQuote;
  const opt = (flag: string, v: string | undefined) => (v === undefined ? [] : [flag, q(v)]);
  return (retry) =>
    [
      'coinop',
      ...opt('--context', context),
      'withdraw',
      'batch',
      q(file),
      '--resume',
      ...(retry ? ['--retry-failed'] : []),
      ...opt('--format', options.format),
      ...opt('--profile-id', options.profileId),
      ...opt('--journal', options.journal),
      ...(options.waitSeconds ? ['--wait'] : []),
    ].join(' ');
}

/** What the stages of one run share: the file as read, the options, where it is sent and journalled, the policy. */
interface BatchRun {
  file: string;
  input: BatchInput;
  o: BatchOptions;
  base: string;
  jPath: string;
  /** The profile of rows without one, with its nickname when known (batchProfile): what the confirmation names. */
  defaultProfile?: ProfileRef;
  policy: BatchPolicy;
  times?: StageTimes;
  /** A coinop gateway sent the rows once the batch was approved: the service holds them, and this run records them. */
  gatewaySent?: boolean;
}

/** The context's policy and what a check of this batch takes besides its rows. */
interface BatchPolicy {
  loaded: LoadedPolicy | undefined;
  run: {
    command: string;
    dryRun: boolean;
    defaultProfileId?: string;
    approvals?: { content: ApprovalContent; files: ParsedApproval[] };
  };
  /** A repeat run's salt (--allow-repeat): from its content, so the dry run, the approvers and the run agree. */
  repeatSalt?: string;
}

/**
 * The batch's policy check: the approvals given or found next to the file, and the content they must approve, from
 * the rows as read and staged (before any repeat gets a ref_id of this batch), worked out only when the policy asks.
 */
function batchPolicy(
  ctx: BatchDeps,
  loaded: LoadedPolicy | undefined,
  batch: { file: string; o: BatchOptions; input: BatchInput; defaultProfileId?: string },
): BatchPolicy {
  const files = approvalFiles(batch.file, batch.o.approvals);
  // --allow-repeat makes a repeat run: its content is marked so (approvals signed with approve --allow-repeat),
  // and the salt of its repeated rows comes from that content, whether or not the policy asks for approvals.
  const scope = {
    ...approvalScope(ctx.service.context(), 'batch', batch.defaultProfileId),
    ...(batch.o.allowRepeat ? { repeat: true } : {}),
  };
  const content =
    loaded?.policy.approvals || batch.o.allowRepeat
      ? batchContent(scope, batch.input.stage, batch.input.scan.profileNames)
      : undefined;
  const approvals = loaded?.policy.approvals && content ? { content, files } : undefined;
  return {
    loaded,
    run: { command: 'withdraw batch', dryRun: batch.o.dryRun, defaultProfileId: batch.defaultProfileId, approvals },
    repeatSalt: batch.o.allowRepeat && content ? repeatSalt(content) : undefined,
  };
}

/**
 * The content a resumed batch's approvals must approve: the journal's own rows (every row of the batch, as
 * confirmed and sent), a repeat's salted ref_ids taken back to those approved (the salt is the content's).
 */
function journalContent(ctx: BatchDeps, journal: Journal, run: BatchRun): ApprovalContent {
  const salt = journal.meta().repeat_salt;
  const scope = {
    ...approvalScope(ctx.service.context(), 'batch', run.defaultProfile?.id),
    ...(salt ? { repeat: true } : {}),
  };
  const b = new ContentBuilder(scope);
  const tail = salt ? `-${salt.slice(0, 8)}` : undefined;
  for (const r of journal.bodies()) {
    const body = JSON.parse(r.body ?? '{}') as Record<string, unknown>;
    const ref = String(body.ref_id ?? '');
    b.add({ ...body, ref_id: tail && ref.endsWith(tail) ? ref.slice(0, -tail.length) : ref });
  }
  const content = b.finish();
  if (salt && repeatSalt(content) !== salt)
    throw new CoinopError(
      'file',
      `the journal ${journal.path} salts its repeated rows with ${salt.slice(0, 8)}, and its rows' content gives ${repeatSalt(content).slice(0, 8)}: its rows are not those confirmed; nothing was sent`,
    );
  return content;
}

/** The staged rows as the policy sees them; a row paid again (--allow-repeat) under a new ref_id counts anew. */
function* stagedRequests(stage: Stage, allowRepeat: boolean): Generator<PolicyRequest> {
  for (const s of stage.valid()) {
    const body = JSON.parse(s.body) as CreateCryptoWithdrawalRequest;
    yield withdrawalRequest(allowRepeat && s.derived ? body : { ...body, ref_id: s.ref_id }, s.row);
  }
}

/** The rows a resumed batch has left to send, from its journal (with their ref_ids: a row that went counts once). */
function* journalRequests(journal: Journal): Generator<PolicyRequest> {
  for (const r of journalRequestBodies(journal)) yield withdrawalRequest(r.body, r.row);
}

function* journalRequestBodies(journal: Journal): Generator<{ row: number; body: CreateCryptoWithdrawalRequest }> {
  for (let after = 0; ; ) {
    const rows = journal.plannedAfter(after, 1000);
    if (!rows.length) return;
    for (const r of rows) if (r.body) yield { row: r.row, body: JSON.parse(r.body) as CreateCryptoWithdrawalRequest };
    after = rows[rows.length - 1].row;
  }
}

/** --dry-run: each rule's verdict, then a fee quote per row; exit 8 when the policy would refuse the batch. */
async function dryRunWithPolicy(
  ctx: BatchDeps,
  policy: BatchPolicy,
  input: BatchInput,
  options: BatchOptions & { file: string; defaultProfile?: ProfileRef },
): Promise<void> {
  const conn = await ctx.service.connect();
  const scope = await profileLine(ctx, conn.context.name, options.defaultProfile, true);
  const verdict = await policyVerdict(ctx, conn, policy.loaded, {
    ...policy.run,
    requests: () => stagedRequests(input.stage, options.allowRepeat),
  });
  showVerdict(ctx, verdict);
  if (policy.repeatSalt)
    ctx.display.io.err(
      `a repeat run (--allow-repeat): rows another batch paid are paid again under ref_ids ending -${policy.repeatSalt.slice(0, 8)}, the salt of this content (coinop approve FILE --allow-repeat shows the same)\n`,
    );
  // --allow-partial: the rows a real run would not send, listed as a real run lists them before its question.
  const skipped = await uncovered(ctx, conn, options, {
    rows: () => stagedBodies(input.stage),
    todo: input.scan.valid,
    words: 'would not be sent',
  });
  try {
    await dryRun(ctx, input.stage, { ...input.scan, scope }, options.concurrency, options.rate, {
      skipped: skipped.length,
    });
  } catch (e) {
    // A refusal by policy is what a real run would end with, over a shortfall or rows the quotes refused.
    const ce = asCliError(e);
    if (verdict.allowed || !['usage', 'failed', 'nothing-sent'].includes(ce.category)) throw e;
  }
  if (!verdict.allowed) throw refusal(verdict, { batch: options.file });
}

/**
 * A batch not begun: credentials, the rows another batch paid, the question, then every row planned in the journal.
 * Refused or cancelled before any row was recorded, no journal is left behind. Returns the policy's verdict.
 */
async function beginBatch(
  ctx: BatchDeps,
  conn: Connection,
  journal: Journal,
  record: SentRecord,
  run: BatchRun,
): Promise<PolicyVerdict> {
  const { input, o } = run;
  try {
    // Credentials and the address proven before the guards and the question: a wrong secret or a dead host
    // stops here (exit 4 or 5), with nothing planned.
    await conn.tokens.token();
    if (o.resume) ctx.display.io.err('no interrupted run of this file was found; starting it\n');
    const begun: PolicyRun = {
      ...run.policy.run,
      requests: () => stagedRequests(input.stage, o.allowRepeat),
      // One request per valid row: without a policy, nothing more of them is read.
      count: input.scan.valid,
    };
    const verdict = await policyVerdict(ctx, conn, run.policy.loaded, begun);
    const batchId = journal.meta().batch_id ?? newBatchId();
    const refusal = { batch: { ...auditOf(run, journal), batchId }, rows: input.scan.valid, resumed: false };
    await refusedBy(ctx, conn, refusal, () => refuseByPolicy(ctx, verdict, run.file));
    const salt = run.policy.repeatSalt;
    const repeatsStarted = performance.now();
    const guard = { conn, record, batchId, salt, o, valid: input.scan.valid, gatewaySent: run.gatewaySent };
    const repeats = await guardRepeats(ctx, input.stage, guard);
    run.times?.add('repeats', performance.now() - repeatsStarted);
    if (!o.allowPartial) await refusedBy(ctx, conn, refusal, () => guardFunds(ctx, conn, input.stage));
    let skipped: SkippedRow[] = [];
    await refusedBy(ctx, conn, refusal, async () => {
      skipped = await uncovered(
        ctx,
        conn,
        run.o,
        { rows: () => stagedBodies(input.stage), todo: input.scan.valid },
        run.gatewaySent,
      );
    });
    await confirmBatch(ctx, conn, run, { todo: input.scan.valid - skipped.length, resumed: false, repeats, skipped });
    await reserveRows(ctx, conn, run, {
      policyRun: begun,
      rows: () => stagedReservations(input.stage),
      refusal,
      batchId,
    });
    // The digest of the rows as confirmed: in the audit entry (hash-chained) and the journal, for --resume to check.
    const confirmed = confirmedDigest(input.stage);
    const rowsSha256 = confirmed.digest;
    await ctx.audit.record(batchStart({ ...refusal.batch, rowsSha256 }, input.scan.valid, false), conn);
    planBatch(ctx, journal, input, {
      file: run.file,
      batchId,
      serviceId: conn.serviceId,
      base: run.base,
      rowsSha256,
      rows: confirmed.rows,
      // A repeat run is one whether or not a row turned out to be paid before: its approvals say "repeat: true".
      repeatSalt: salt,
    });
    markUncovered(journal, skipped);
    return verdict;
  } catch (e) {
    journal.discard();
    throw e;
  }
}

/** A row as the gate reserves it against the rolling caps: its ref_id, asset and the most it sends. */
interface ReservedRow {
  ref_id: string;
  asset: string;
  amount: string;
}

function* stagedReservations(stage: Stage): Generator<ReservedRow> {
  for (const s of stage.valid())
    if (s.asset) yield { ref_id: s.ref_id, asset: s.asset, amount: s.amount ?? s.total ?? '0' };
}

function* journalReservations(journal: Journal): Generator<ReservedRow> {
  for (const r of journal.bodies()) {
    if (r.state !== 'planned' || !r.body) continue;
    const b = JSON.parse(r.body) as CreateCryptoWithdrawalRequest;
    yield { ref_id: r.ref_id, asset: b.asset, amount: b.amount ?? b.total ?? '0' };
  }
}

/**
 * Under a 24-hour cap, the batch at the gate's lock (src/gate): the policy once more with what this machine has
 * reserved (a withdrawal another process admitted a moment ago, another batch's rows), and, when it allows, the rows
 * left to send reserved, so a withdrawal started beside the batch counts them before the service shows them.
 */
async function reserveRows(
  ctx: BatchDeps,
  conn: Connection,
  run: BatchRun,
  reserving: {
    policyRun: PolicyRun;
    rows: () => Iterable<ReservedRow>;
    refusal: Parameters<typeof refusedBy>[2];
    batchId?: string;
  },
): Promise<void> {
  const loaded = run.policy.loaded;
  if (!loaded?.policy.maxPer24h) return;
  const { gateFor } = await import('../../../cli/gate.js');
  const gate = gateFor(ctx, conn, 'withdraw batch');
  const verdict = await gate.reserveRows(reserving.batchId ?? '', reserving.rows, (reserved, onSeen) =>
    policyVerdict(ctx, conn, loaded, { ...reserving.policyRun, reserved, onSeen }),
  );
  await refusedBy(ctx, conn, reserving.refusal, () => refuseByPolicy(ctx, verdict, run.file));
}

/** Sends the journal's rows; then rows the service refused go back from the caps (rows left stay reserved). */
async function sendReserved(
  ctx: BatchDeps,
  conn: Connection,
  run: BatchRun,
  sending: {
    journal: Journal;
    record: SentRecord;
    todo: number;
    stream?: Streaming;
    clock: ReturnType<typeof serviceClock>;
    times?: Parameters<typeof sendBatch>[7]['times'];
  },
): Promise<void> {
  const { journal, clock } = sending;
  const started = performance.now();
  try {
    await sendBatch(ctx, journal, conn, sending.record, run.o, sending.todo, sending.stream?.report, {
      clock,
      beforeRow: hoursGate(run.policy.loaded, clock),
      audited: auditOf(run, journal),
      times: sending.times,
    });
  } finally {
    sending.times?.add('send', performance.now() - started);
    if (run.policy.loaded?.policy.maxPer24h) await releaseRefused(ctx, conn, journal);
  }
}

/** The reservations of rows the service refused (state failed without a transfer) go back. */
async function releaseRefused(ctx: BatchDeps, conn: Connection, journal: Journal): Promise<void> {
  const refused: string[] = [];
  for (const r of journal.bodies()) if (r.state === 'failed') refused.push(r.ref_id);
  if (!refused.length) return;
  const { gateFor } = await import('../../../cli/gate.js');
  try {
    await gateFor(ctx, conn, 'withdraw batch').releaseRows(refused);
  } catch {
    /* kept: counted a day at most, which errs on the side of the cap */
  }
}

/** refuseUnlessAllowed, its error carrying the full reason for the audit entry: every violation kept, not "listed above". */
function refuseByPolicy(ctx: BatchDeps, verdict: PolicyVerdict, file: string): void {
  try {
    refuseUnlessAllowed(ctx, verdict, { batch: file });
  } catch (e) {
    const lines = verdict.rules
      .filter((r) => r.status === 'fail')
      .flatMap((r) => [
        ...r.violations.map((x) => `${r.rule}: ${x.row !== undefined ? `row ${x.row}: ` : ''}${x.message}`),
        ...(r.violations_total > r.violations.length
          ? [`${r.rule}: … and ${r.violations_total - r.violations.length} more`]
          : []),
      ]);
    throw Object.assign(e as Error, {
      auditReason: `refused by policy (${verdict.file}): ${lines.join('; ')}; nothing was sent`,
    });
  }
}

/**
 * Runs one of coinop's own checks of a batch (the policy, the funds, the transfer limits); a refusal leaves an audit
 * entry with the batch's id, rows, totals and the full reason (result refused) before it is thrown.
 */
async function refusedBy(
  ctx: BatchDeps,
  conn: Connection,
  refused: { batch: AuditedBatch; rows: number; resumed: boolean },
  check: () => void | Promise<void>,
): Promise<void> {
  try {
    await check();
  } catch (e) {
    const ce = asCliError(e);
    const reason = (e as { auditReason?: string }).auditReason ?? ce.message;
    await ctx.audit.note(
      batchRefused(refused.batch, refused.rows, refused.resumed, { category: ce.category, message: reason }),
      conn,
    );
    throw e;
  }
}

/**
 * Refuses, before the first row, a batch the available balances or what is left of the transfer limits cannot
 * cover: the sum of each profile's amounts per asset, and each asset's amounts against each limit (fees come on top,
 * so a batch refused here could never complete). --allow-partial sends the rows they cover instead (uncovered).
 */
async function guardFunds(ctx: BatchDeps, conn: Connection, stage: Stage): Promise<void> {
  const needs = new Needs();
  for (const r of stage.valid()) {
    const debiting = {
      profile_id: r.profile_id ?? undefined,
      asset: r.asset ?? '',
      balance_asset: r.balance_asset ?? undefined,
    };
    needs.add(debiting, dec(r.amount ?? r.total ?? '0'));
  }
  const short = await shortfalls(conn, needs, {
    what: { sum: 'amounts (fees on top)', one: 'the largest row (fee on top)' },
    now: ctx.clock.now(),
  });
  for (const s of [...short.funds, ...short.limits, ...short.notes]) ctx.display.io.err(`${s}\n`);
  const reason = shortfallReason(short);
  if (!reason) return;
  const e = usageError(
    `${reason} (shortfalls above); nothing was sent`,
    shortfallHint(short, 'or add --allow-partial to send the rows in order until a balance or a limit runs out'),
  );
  // The audit entry of the refusal holds the shortfalls themselves.
  throw Object.assign(e, {
    auditReason: `${reason}: ${[...short.funds, ...short.limits].join('; ')}; nothing was sent`,
  });
}

/** The staged rows with the requests they send, for a partial batch's plan. */
function* stagedBodies(stage: Stage): Generator<PlannedBody> {
  for (const s of stage.valid()) yield { row: s.row, body: JSON.parse(s.body) as CreateCryptoWithdrawalRequest };
}

/** How many rows not sent are listed one by one before the question (the report lists them all). */
const SKIPPED_SHOWN = 20;

/**
 * --allow-partial: the rows a balance or a limit cannot cover (partialPlan), listed on stderr before the question (a
 * dry run's `words`: "would not be sent"); none without the flag, or when a coinop gateway sent the rows already.
 * When they are all of the `todo` rows, the batch is refused (exit 2), nothing sent.
 */
async function uncovered(
  ctx: BatchDeps,
  conn: Connection,
  options: Pick<BatchOptions, 'allowPartial'>,
  planned: { rows: () => Iterable<PlannedBody>; todo: number; words?: string },
  gatewaySent = false,
): Promise<SkippedRow[]> {
  if (!options.allowPartial || gatewaySent) return [];
  const plan = await partialPlan(conn, planned.rows, ctx.clock.now());
  const say = (line: string) => ctx.display.io.err(`${line}\n`);
  for (const n of plan.notes) say(n);
  const words = planned.words ?? 'not sent';
  for (const s of plan.skipped.slice(0, SKIPPED_SHOWN)) say(`row ${s.row}: ${words}: ${s.reason}`);
  if (plan.skipped.length > SKIPPED_SHOWN)
    say(`… and ${plan.skipped.length - SKIPPED_SHOWN} more (the report lists them all)`);
  if (plan.skipped.length && plan.skipped.length >= planned.todo) {
    const reasons = plan.skipped.map((r) => `row ${r.row}: not sent: ${r.reason}`).slice(0, SKIPPED_SHOWN);
    throw Object.assign(
      usageError(
        'insufficient funds or over the transfer limits: no row can be sent, not even the first of each asset (listed above); nothing was sent',
        'send less, top up, or wait until more of the limit is left',
      ),
      { auditReason: `no row can be sent (--allow-partial): ${reasons.join('; ')}; nothing was sent` },
    );
  }
  return plan.skipped;
}

/** The rows not sent, recorded in the journal as skipped with their reasons, before any row leaves. */
function markUncovered(journal: Journal, skipped: SkippedRow[]): void {
  if (!skipped.length) return;
  try {
    journal.markSkipped(skipped.map((s) => ({ row: s.row, problem: skippedProblem(s.reason) })));
  } catch (e) {
    throw stopError(e, journal);
  }
}

/** The batch as its audit entries name it. */
function auditOf(run: BatchRun, journal: Journal): AuditedBatch {
  const meta = journal.meta();
  return {
    file: run.file,
    scan: run.input.scan,
    batchId: meta.batch_id ?? '',
    journal: run.jPath,
    profileId: run.defaultProfile?.id,
    rowsSha256: meta.rows_sha256,
  };
}

/** Opens the journal; one that belongs to another service is refused, whatever it holds. */
function openJournal(jPath: string, fileHash: string, serviceId: string): Journal {
  let journal: Journal;
  try {
    journal = Journal.open(jPath, fileHash);
  } catch (e) {
    if (e instanceof JournalError) throw new CoinopError('file', e.message);
    if (e instanceof WriteError)
      throw new CoinopError('file', `${e.message}; nothing was sent`, {
        hint: 'free space on that disk, or name another journal with --journal',
      });
    throw e;
  }
  const owner = journal.meta().service_id;
  if (owner && owner !== serviceId) {
    journal.close();
    throw usageError(
      `the journal ${jPath} belongs to the service ${owner}, and this run talks to ${serviceId}: the rows it records were sent there, not here`,
      `to go on with that batch, point coinop at ${owner} again (its context, or COINOP_BASE_URL); to run the file against ${serviceId}, name a new journal with --journal`,
    );
  }
  return journal;
}

function openRecord(path: string): SentRecord {
  try {
    return SentRecord.open(path);
  } catch (e) {
    if (e instanceof SentRecordError) throw new CoinopError('file', e.message);
    if (e instanceof WriteError)
      throw new CoinopError('file', `${e.message}; nothing was sent`, {
        hint: 'free space on that disk (COINOP_DATA_DIR chooses where coinop writes)',
      });
    throw e;
  }
}

/**
 * A batch that has begun: --resume checks that the journal's rows are those confirmed, then requeues what is left;
 * without it an unfinished batch is refused. The rows left to send and their totals.
 */
function resumeOf(
  ctx: BatchDeps,
  journal: Journal,
  options: BatchOptions,
  cont: (retry: boolean) => string,
): { todo: number; totals: Totals[] } {
  const c = journal.counts();
  const unfinished = c.planned + c.sent + c.unknown;
  if (!options.resume) {
    if (unfinished) {
      throw usageError(
        `this file has an interrupted run (${journal.count() - unfinished} of ${journal.count()} rows done; journal ${journal.path})`,
        'add --resume to continue it; rows keep their ref_ids, so nothing is sent twice',
      );
    }
    const meta = journal.meta();
    const refused = journal.refused();
    ctx.display.io.err(
      `this batch already ran to the end${meta.finished_at ? ` (${meta.finished_at})` : ''}; nothing was sent. Journal: ${journal.path}\n`,
    );
    if (refused)
      ctx.display.io.err(
        `${refused} row${refused === 1 ? ' was' : 's were'} refused; to send them again: ${cont(true)}\n`,
      );
    return { todo: 0, totals: [] };
  }
  checkJournalRows(ctx, journal);
  try {
    journal.requeue(options.retryFailed);
  } catch (e) {
    throw stopError(e, journal);
  }
  const todo = journal.counts().planned;
  const totals = plannedTotals(journal);
  ctx.display.io.err(
    todo
      ? `resuming: ${todo} of ${journal.count()} rows to send: ${totals.map((t) => `${t.asset} ${t.network} ${formatTotals(t).replace(/^[^:]*: /, '')}`).join('; ')} (journal ${journal.path})\n`
      : `nothing left to send in this batch (journal ${journal.path})\n`,
  );
  return { todo, totals };
}

/**
 * Refuses (exit 2, nothing sent) a journal whose rows are not those confirmed: each row's hash kept at confirmation,
 * the digest of them all in its meta, and the digest the batch's audit entry (hash-chained) recorded. An edited
 * destination or amount, a row added or removed, or hashes recomputed to match are each named.
 */
function checkJournalRows(ctx: BatchDeps, journal: Journal): void {
  const refuse = (why: string) =>
    Object.assign(
      new CoinopError(
        'file',
        `the journal ${journal.path} does not hold the rows that were confirmed: ${why}; nothing was sent`,
        {
          hint: `put back the journal as coinop wrote it; or move it aside (mv '${journal.path}' '${journal.path}.edited') and run the batch again with --resume: rows keep their ref_ids, so rows already sent are answered "already submitted"`,
        },
      ),
      { edited: true },
    );
  const check = journal.checkRows();
  if (!check.ok) throw refuse(check.row ? `row ${check.row}: ${check.why}` : check.why);
  const batchId = journal.meta().batch_id ?? '';
  const audited = auditedRowsDigest(ctx.service.dataDir(), batchId);
  if (!audited) throw refuse(`the audit log has no entry of batch ${batchId} with the digest of its confirmed rows`);
  if (audited !== check.digest)
    throw refuse(
      `its rows' digest ${check.digest.slice(0, 12)}… is not the one the audit log recorded when batch ${batchId} was confirmed (${audited.slice(0, 12)}…)`,
    );
}

/** The totals per asset and network of the journal's rows left to send (what a resume sends). */
function plannedTotals(journal: Journal): Totals[] {
  const map = new Map<string, Totals>();
  for (const r of journalRequestBodies(journal)) addToTotals(map, r.body);
  return sortedTotals(map);
}

/**
 * Rows of a new batch that another batch already paid (the service holds their ref_ids, or this machine sent
 * them): listed and refused; with --allow-repeat paid again under ref_ids of this batch; with --resume (this is
 * that batch, its journal lost) sent with the same ref_ids, so the service answers "already submitted".
 */
async function guardRepeats(
  ctx: BatchDeps,
  stage: Stage,
  guard: {
    conn: Connection;
    record: SentRecord;
    batchId: string;
    salt?: string;
    o: BatchOptions;
    valid: number;
    gatewaySent?: boolean;
  },
): Promise<number> {
  const service = clientBatchService(guard.conn.client);
  let n: number;
  try {
    // Reads count against the service's 50/s for other endpoints; --rate 0 lifts the client-side limit here too.
    const limiter = new TokenBucket(Number.isFinite(guard.o.rate) ? READ_RATE : Infinity);
    n = await markRepeats(stage, {
      service,
      limiter,
      record: guard.record,
      serviceId: guard.conn.serviceId,
      batchId: guard.batchId,
      atOnce: guard.o.concurrency,
    });
  } catch (e) {
    if (e instanceof WriteError) throw new CoinopError('file', `${e.message}; nothing was sent`);
    throw asCliError(e);
  }
  if (!n) return 0;
  if (guard.o.allowRepeat && guard.salt) {
    // The salt comes from the repeat run's content (approved as such), not from this run: the same repeat run
    // again pays nothing more (its salted ref_ids are paid: the service answers "already submitted").
    stage.saltRepeats(guard.salt);
    ctx.display.io.err(
      `${n} row${n === 1 ? ' was' : 's were'} already paid by another batch and ${n === 1 ? 'is' : 'are'} paid again, as --allow-repeat asks (ref_ids ending -${guard.salt.slice(0, 8)})\n`,
    );
    return n;
  }
  if (guard.gatewaySent) return 0;
  if (guard.o.resume) {
    ctx.display.io.err(
      `${n} row${n === 1 ? ' was' : 's were'} sent by another batch before; --resume sends them with the same ref_ids, so the service answers "already submitted" instead of paying twice\n`,
    );
    return 0;
  }
  const machine = ctx.display.format() === 'json' || ctx.display.format() === 'ndjson';
  let shown = 0;
  for (const r of stage.repeats()) {
    if (machine) ctx.display.io.err(`${JSON.stringify(repeatObject(r))}\n`);
    else if (++shown <= 20) ctx.display.io.err(`${repeatLine(r)}\n`);
  }
  if (!machine && n > 20) ctx.display.io.err(`… and ${n - 20} more (-o json lists them all)\n`);
  throw usageError(
    `${n} of ${guard.valid} rows were already paid by another batch (listed above); nothing was sent`,
    'add --allow-repeat to pay them again; if this is that batch going on (its journal lost), add --resume to send the rest; or remove those rows',
  );
}

async function confirmBatch(
  ctx: BatchDeps,
  conn: Connection,
  run: BatchRun,
  to: { todo: number; resumed: boolean; repeats?: number; totals?: Totals[]; skipped?: SkippedRow[] },
): Promise<void> {
  const c = { ...run, ...to };
  const { scan } = c.input;
  // A resume shows what it is about to send: the journal's rows left and their totals, not the file's.
  const totals = c.totals ?? scan.totals;
  const whose = c.totals ? 'rows left to send' : "file's amounts";
  const context = conn.context;
  const yes = c.o.yes;
  const p = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  await ctx.confirmer.confirm({
    title: `Batch withdrawal of ${p(c.todo, 'row')}`,
    environment: context.environment,
    yes,
    question: `Send ${p(c.todo, 'withdrawal')}?`,
    typed: [
      { label: 'the number of rows', value: String(c.todo) },
      ...totals.map((t) => ({
        label: `the ${t.asset} ${t.network} sum of the ${whose}`,
        value: fmt(t.amount.plus(t.total)),
      })),
    ],
    rows: [
      ['environment', `${context.environment} (${c.base})`],
      ['profile', await profileLine(ctx, context.name, c.defaultProfile, !yes && ctx.prompter.allowed)],
      ['file', `${c.file} (${scan.format}, sha256 ${scan.fileHash.slice(0, 12)})`],
      [
        'rows',
        `${scan.rows} in the file: ${scan.valid} valid${scan.invalid ? `, ${scan.invalid} invalid (skipped)` : ''}${c.resumed ? `, ${c.todo} left to send` : ''}`,
      ],
      ...totals.map(
        (t) =>
          [`${t.asset} ${t.network}${c.totals ? ' (left)' : ''}`, formatTotals(t).replace(/^[^:]*: /, '')] as [
            string,
            string,
          ],
      ),
      [
        'repeats',
        c.repeats ? `${p(c.repeats, 'row')} already paid by another batch, paid again (--allow-repeat)` : undefined,
      ],
      [
        'not sent',
        c.skipped?.length
          ? `${p(c.skipped.length, 'row')} a balance or a limit cannot cover (--allow-partial; listed above)`
          : undefined,
      ],
      ['pace', `${Number.isFinite(c.o.rate) ? `${c.o.rate}/s` : 'no client-side limit'}, ${c.o.concurrency} at once`],
      ['journal', c.jPath],
    ],
  });
}

/**
 * The batch's default profile (--profile-id's, else the context's), with its nickname when --profile-id or the rows'
 * names were looked up already (`named`, the list read for them): nothing is asked for it here.
 */
function batchProfile(
  id: string | undefined,
  named: ProfileRef | undefined,
  listed: readonly ProfileRef[] | undefined,
): ProfileRef | undefined {
  return id === undefined ? undefined : knownProfile(id, [...(named ? [named] : []), ...(listed ?? [])]);
}

/**
 * The context and the default profile, as the confirmation and the dry run name them: "payroll (e950ba30)" as approve
 * does, its nickname asked of the service only when it is shown and not known already (one GET /v2/profiles per run).
 */
async function profileLine(
  ctx: Pick<BatchDeps, 'service'>,
  contextName: string,
  profile: ProfileRef | undefined,
  shown: boolean,
): Promise<string> {
  return `${contextName}${profile?.id ? `, default profile_id ${await shownLabel(ctx, profile, shown)}` : ''}`;
}

/** The staged rows as the journal plans them: each with the exact request it sends. */
function* plannedOf(stage: Stage): Generator<PlannedRow> {
  for (const s of stage.valid()) {
    yield {
      row: s.row,
      ref_id: s.ref_id,
      asset: s.asset ?? undefined,
      crypto_network: s.crypto_network ?? undefined,
      destination_address: s.destination_address ?? undefined,
      amount: s.amount ?? undefined,
      total: s.total ?? undefined,
      body: withRefId(s.body, s.ref_id),
    };
  }
}

/** Rows of a batch this size or smaller are planned from the rows their digest was worked out from (kept in memory). */
const PLANNED_KEPT = 10_000;

/** The digest of the staged rows and, for a batch of PLANNED_KEPT rows or fewer, those rows with their hashes. */
interface Confirmed {
  digest: string;
  rows?: PlannedRow[];
}

/**
 * The digest of the staged rows as the journal plans them (what the audit entry records and planBatch checks), and,
 * for a batch of PLANNED_KEPT rows or fewer, those rows with their hashes: what planBatch plans, not worked out again.
 */
function confirmedDigest(stage: Stage): Confirmed {
  const digest = new RowsDigest();
  let rows: PlannedRow[] | undefined = [];
  for (const r of plannedOf(stage)) {
    const hash = digest.add(r);
    if (rows && rows.length < PLANNED_KEPT) rows.push({ ...r, hash });
    else rows = undefined;
  }
  return { digest: digest.finish(), rows };
}

/**
 * Records the confirmed batch in the journal: its identity, every row with the exact request it sends and the hash
 * of it, and the digest of them all (as the audit entry has it).
 */
function planBatch(
  ctx: BatchDeps,
  journal: Journal,
  input: BatchInput,
  plan: {
    file: string;
    batchId: string;
    serviceId: string;
    base: string;
    rowsSha256: string;
    /** The rows as digested, with their hashes (a batch of PLANNED_KEPT rows or fewer); else read again. */
    rows?: PlannedRow[];
    repeatSalt?: string;
  },
): void {
  const { scan, stage } = input;
  const context = ctx.service.context();
  try {
    // A journal whose rows were all planned and none ever left (stopped by a bad token, say) is planned afresh.
    if (journal.count()) journal.reset();
    journal.setMeta({
      version: JOURNAL_VERSION,
      file_hash: scan.fileHash,
      file_name: plan.file,
      format: scan.format,
      rows: String(scan.rows),
      environment: context.environment,
      base_url: plan.base,
      created_at: new Date(ctx.clock.now()).toISOString(),
      file_path: plan.file === '-' ? undefined : resolve(plan.file),
      batch_id: plan.batchId,
      service_id: plan.serviceId,
      rows_sha256: plan.rowsSha256,
      repeat_salt: plan.repeatSalt,
    });
    if (plan.rows) journal.plan(plan.rows);
    else planFromStage(journal, stage, plan.rowsSha256);
    let invalid: InvalidRow[] = [];
    for (const r of stage.invalid()) {
      invalid.push(r);
      if (invalid.length >= 5000) {
        journal.planInvalid(invalid);
        invalid = [];
      }
    }
    journal.planInvalid(invalid);
  } catch (e) {
    throw stopError(e, journal);
  }
  // The journal holds every row now: the staged copy goes.
  stage.remove();
}

/**
 * Plans the staged rows, read again: they must give the digest the audit entry recorded. Each row's hash is worked
 * out once, for the digest and the journal's row_hash.
 */
function planFromStage(journal: Journal, stage: Stage, rowsSha256: string): void {
  let chunk: PlannedRow[] = [];
  const digest = new RowsDigest();
  for (const r of plannedOf(stage)) {
    chunk.push({ ...r, hash: digest.add(r) });
    if (chunk.length >= 5000) {
      journal.plan(chunk);
      chunk = [];
    }
  }
  journal.plan(chunk);
  // The staged copy read twice must give the same rows: what is planned is what the audit entry recorded.
  if (digest.finish() !== rowsSha256)
    throw new Error('internal: the staged rows changed between their digest and their plan');
}

/**
 * Sends the journal's planned rows; each window's attempts are first made durable in the audit log, then written to
 * the record of sent ref_ids and the journal. A row outside the policy's hours (by the service's clock, as rows go)
 * stops the batch there.
 */
async function sendBatch(
  ctx: BatchDeps,
  journal: Journal,
  conn: Connection,
  record: SentRecord,
  options: BatchOptions,
  todo: number,
  report: ReportStream | undefined,
  sending: {
    clock: ServiceClock;
    beforeRow?: (r: BatchRow) => Error | undefined;
    audited: AuditedBatch;
    times?: StageTimes;
  },
): Promise<void> {
  const bar = progressBar(ctx);
  const batchId = journal.meta().batch_id ?? '';
  const audit = await ctx.audit.group(conn);
  // What is sent is the journal's rows, each validated when the file was read and checked against its row_hash on a
  // --resume: not validated again as it leaves.
  const client = clientBatchService(conn.client, true);
  // Every answer's Date moves the service's clock the rules of time read.
  const service: BatchService = {
    ...client,
    async createWithdrawal(body) {
      const res = await client.createWithdrawal(body);
      if (res.kind === 'created' || res.kind === 'exists') sending.clock.saw(res.date);
      return res;
    },
  };
  try {
    const progress = await sendRows(plannedRows(journal), todo, {
      journal,
      service,
      concurrency: options.concurrency,
      beforeWindow: (rows) =>
        auditDurable(
          audit,
          rows.map((r) => rowAttempt(r, batchId)),
        ),
      // A window written ahead is not sent once the log failed since (an answer's entry could not be written).
      beforeLaunch: () => auditDurable(audit, []),
      beforeRow: sending.beforeRow,
      times: sending.times,
      limiter: new TokenBucket(options.rate),
      onProgress: (p) => bar.update(p),
      onDone: report ? (row) => report.done(row) : undefined,
      onSend: (rows) =>
        record.record(
          conn.serviceId,
          batchId,
          journal.path,
          rows.map((r) => ({ row: r.row, ref_id: r.body.ref_id as string, profile_id: r.body.profile_id })),
          new Date(ctx.clock.now()).toISOString(),
        ),
      onRefused: (r) =>
        record.markRefused(conn.serviceId, batchId, { ref_id: r.body.ref_id as string, profile_id: r.body.profile_id }),
      onOutcome: (r, out) => audit.add(rowEvent(r, out, batchId)),
    });
    bar.update(progress, true);
    bar.clear();
  } catch (e) {
    bar.clear();
    journal.flush();
    const cause = e instanceof FatalBatchError ? e.cause : e;
    const stopped = stopError(cause, journal);
    // Stopped by the policy (its hours) as rows went: the refusal in the audit log, with the rows left.
    if (cause instanceof CoinopError && cause.category === 'policy') {
      const left = journal.counts().planned;
      await ctx.audit.note(
        batchRefused({ ...sending.audited, totals: plannedTotals(journal) }, left, true, {
          category: 'policy',
          message: cause.message,
        }),
        conn,
      );
    }
    throw stopped;
  } finally {
    await audit.close();
  }
}

/** Entries on disk before rows leave (none: whether the log can still be written); a failure stops the batch. */
async function auditDurable(audit: { durable(events: AuditEvent[]): Promise<void> }, events: AuditEvent[]) {
  try {
    await audit.durable(events);
  } catch (e) {
    throw new CoinopError('failed', `${(e as Error).message}: no row is sent without its entry`, {
      hint: 'fix the audit log (free space, its folder), then run the same command with --resume; nothing is sent twice',
    });
  }
}

/** The service's clock as its answers tell it (their Date), run on by this machine's clock between answers. */
interface ServiceClock {
  /** From the policy's verdict: its time when it read the service's clock. */
  start(v: PolicyVerdict): void;
  saw(date: string | undefined): void;
  now(): number;
  /** Whether the time is the service's (else this machine's: the service sent no Date). */
  service(): boolean;
}

function serviceClock(machineNow: () => number): ServiceClock {
  let at: number | undefined;
  let seenAt = 0;
  let lastDate: string | undefined;
  let lastParsed = Number.NaN;
  const set = (seconds: number) => {
    at = seconds;
    seenAt = machineNow();
  };
  return {
    start(verdict) {
      if (verdict.clock === 'service') set(Date.parse(verdict.checked_at));
    },
    saw(date) {
      // Answers within a second share their Date: parsed once (a batch sees thousands of them).
      if (date !== lastDate) {
        lastDate = date;
        lastParsed = date ? Date.parse(date) : Number.NaN;
      }
      if (Number.isFinite(lastParsed)) set(lastParsed);
    },
    now: () => (at === undefined ? machineNow() : at + (machineNow() - seenAt)),
    service: () => at !== undefined,
  };
}

/**
 * The policy's hours, checked for each row right before it leaves, by the service's clock: a row outside them stops
 * the batch there (exit 8; the rows left go with --resume within the hours). The verdict is the same for a whole
 * minute (windows are in minutes), so it is worked out once a minute.
 */
function hoursGate(
  loaded: LoadedPolicy | undefined,
  clock: ServiceClock,
): ((r: BatchRow) => Error | undefined) | undefined {
  const windows = loaded?.policy.hours;
  if (!windows?.length) return undefined;
  let minute = Number.NaN;
  let open = true;
  return (row) => {
    const now = clock.now();
    const m = Math.floor(now / 60_000);
    if (m !== minute) {
      minute = m;
      open = windows.some((w) => inWindow(w, now));
    }
    if (open) return undefined;
    const zone = windows[0].zone;
    const by = clock.service() ? "by the service's clock" : "by this machine's clock";
    return new CoinopError(
      'policy',
      `refused by policy: rule hours: row ${row.row}: sending is allowed ${windows.map((w) => w.text).join(', ')}; it is ${timeOfDay(now, zone).text} ${zone} (${by}); row ${row.row} and the rows after it were not sent (policy ${loaded?.file})`,
      { hint: 'run the same command with --resume within those hours; nothing is sent twice' },
    );
  };
}

/**
 * Why the batch stopped, as the error to exit with. A journal or record that cannot be written (a full disk) is
 * named, with what was sent: exit 2 when no row can have left, otherwise 6 (rows left to send, --resume).
 */
export function stopError(error: unknown, journal: Journal): CoinopError {
  if (error instanceof WriteError) {
    let begun = true;
    try {
      begun = journal.begun();
    } catch {
      /* cannot tell: say rows may have gone */
    }
    const sent = begun ? 'rows sent so far are in the journal, and nothing more was sent' : 'nothing was sent';
    return new CoinopError(begun ? 'failed' : 'file', `${error.message}: the batch stopped; ${sent}`, {
      hint: `free space on that disk (or fix the file), then run the same command${begun ? ' with --resume' : ''}; nothing is sent twice`,
    });
  }
  const ce = asCliError(error);
  return new CoinopError(
    ce.category,
    `${ce.message}; the batch stopped (rows sent so far are in the journal: run again with --resume)`,
    { hint: ce.hint, problem: ce.problem },
  );
}

/**
 * The transfers a finished batch's journal still has as PENDING, asked of the service (a list request per 100 rows);
 * when it does not answer, the report says its statuses are those of the last run.
 */
async function refreshReport(ctx: BatchDeps, journal: Journal): Promise<void> {
  if (!journal.pendingTransfers().length) return;
  try {
    const conn = await ctx.service.connect();
    await refreshStatuses({ journal, service: clientBatchService(conn.client) });
  } catch (e) {
    const when = journal.meta().finished_at;
    ctx.display.io.err(
      `note: PENDING statuses are as of the last run${when ? ` (${when})` : ''}: the service did not say them now (${asCliError(e).message})\n`,
    );
  }
}

/** With --wait, follows the batch's transfers to their end; then the report of every row, a summary line, the exit code. */
async function finish(
  ctx: BatchDeps,
  journal: Journal,
  finishing: {
    waitSeconds: number;
    phase: { now: Phase };
    cont: (retry: boolean) => string;
    stream?: Streaming;
    /** A run that sent nothing (the batch had ended): the PENDING statuses of its journal are asked again. */
    refresh?: boolean;
  },
): Promise<void> {
  const { waitSeconds, phase } = finishing;
  if (finishing.refresh && !waitSeconds) await refreshReport(ctx, journal);
  let stillPending = 0;
  if (waitSeconds && journal.pendingTransfers().length) {
    phase.now = { at: 'waiting', journal: journal.path };
    const conn = await ctx.service.connect();
    const bar = progressBar(ctx);
    stillPending = await waitForTransfers({
      journal,
      service: clientBatchService(conn.client),
      limiter: new TokenBucket(READ_RATE),
      signal: AbortSignal.timeout(waitSeconds * 1000),
      onProgress: (n) => bar.status(n ? `waiting for ${n} transfer${n === 1 ? '' : 's'} to end…` : ''),
    });
    bar.clear();
    phase.now = { at: 'before' };
  }
  const out = ctx.display.output();
  if (finishing.stream) {
    finishing.stream.report.finish();
    await finishing.stream.listing;
  } else
    await out.list(
      reportRows(journal) as unknown as Iterable<Record<string, unknown>>,
      out.forPeople ? TABLE_COLUMNS : REPORT_COLUMNS,
    );
  if (out.forPeople) {
    // A narrow table cuts problems short: the first ones in full, below it.
    let shown = 0;
    for (const r of reportRows(journal)) {
      if (!r.problem) continue;
      if (++shown > 20) {
        ctx.display.io.err('… (every row is in the journal; -o csv lists them all)\n');
        break;
      }
      ctx.display.io.err(`row ${r.row}${r.ref_id ? ` (${r.ref_id})` : ''}: ${r.problem}\n`);
    }
  }
  const o = outcomeOf(journal);
  ctx.display.io.err(`${outcomeLine(o)} · journal ${journal.path}\n`);
  const refused = journal.refused();
  if (refused || o.notSent) ctx.display.io.err(`continue it: ${finishing.cont(refused > 0)}\n`);
  if (stillPending) {
    // As the single withdrawal does: waiting that runs out is its own end (exit 10), neither a failure nor the network.
    throw new CoinopError(
      'timeout',
      `stopped waiting after ${waitSeconds} s (--wait-timeout): ${stillPending} transfer${stillPending === 1 ? '' : 's'} still PENDING; they go on without coinop`,
      {
        hint: 'run the same command with --wait again to follow them; nothing is sent twice',
      },
    );
  }
  const code = exitCodeOf(o);
  if (code === 6) throw new CoinopError('failed', outcomeLine(o), { quiet: true });
  if (code === 7) throw new CoinopError('nothing-sent', outcomeLine(o), { quiet: true });
}
