// coinop audit list|verify|export|path: the audit log read back. Every read checks the hash chain as it goes: a list
// says on stderr when the log does not verify, an export exits 9 after writing, and verify names each break.
import { createHash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditEntry } from '../../audit/entry.js';
import { EXPORT_COLUMNS, exportRow, inRange } from '../../audit/export.js';
import { auditLogPath } from '../../audit/log.js';
import { Verifier, type VerifyReport, verifiedEntries as entries, verifyLog } from '../../audit/verify.js';
import type { Ports } from '../../cli/ports.js';
import { CoinopError } from '../../cli/errors.js';
import { AUDIT_LIST_COLUMNS } from '../../render/columns.js';
import { type Column, Output } from '../../render/output.js';
import type { AuditExportOptions, AuditListOptions, AuditVerifyOptions } from './options.js';

const CSV_COLUMNS: Column[] = EXPORT_COLUMNS.map((key) => ({ key }));

function matches(entry: AuditEntry, options: AuditListOptions): boolean {
  return (
    inRange(entry, options) &&
    (!options.kinds || options.kinds.includes(entry.kind)) &&
    (!options.results || options.results.includes(entry.outcome?.result)) &&
    (!options.refIds || (entry.ref_id !== null && options.refIds.includes(entry.ref_id))) &&
    (!options.assets ||
      (typeof entry.what?.asset === 'string' && options.assets.includes(entry.what.asset.toUpperCase())))
  );
}

/** What came of it, in a few words: the transfer and its status, the error, the quote, or a batch's counts. */
function detail(entry: AuditEntry): string | undefined {
  const o = entry.outcome ?? {};
  // A request at a gateway: who, what and its HTTP status ("ivy GET getProfile 200", "unauthenticated POST /v2/x 401").
  if (entry.kind === 'gateway_request') {
    const w = entry.what ?? {};
    const who = entry.who?.operator ?? '?';
    const from = w.address ? ` from ${w.address}` : '';
    const client = who === 'unauthenticated' && entry.who?.client_id ? ` (client ${entry.who.client_id})` : '';
    return `${who}${client}${from}: ${w.method} ${w.operation ?? w.path} ${w.http_status}`;
  }
  if (o.transfer_id) return `${o.transfer_id} ${o.status ?? ''}${o.already_submitted ? ' (already submitted)' : ''}`;
  if (o.error) return o.error.message;
  if (o.fee_id) return `fee ${o.fee} (fee id ${o.fee_id})`;
  if (o.counts)
    return Object.entries(o.counts)
      .filter(([, n]) => n)
      .map(([k, n]) => `${n} ${k.replace('_', ' ')}`)
      .join(', ');
  const w = entry.what ?? {};
  if (Array.isArray(w.rules)) return `rules: ${w.rules.join(', ')}`;
  if (w.batch_id !== undefined && w.rows === undefined && w.row !== undefined)
    return `batch ${w.batch_id}: row ${w.row}`;
  if (w.batch_id !== undefined) return `batch ${w.batch_id}: ${w.rows} rows${w.resumed ? ' (resumed)' : ''}`;
  if (w.memo_id !== undefined) return `memo ${w.memo_id}`;
  return undefined;
}

function tableRow(entry: AuditEntry): Record<string, unknown> {
  return {
    seq: entry.seq,
    time: entry.time,
    kind: entry.kind,
    result: entry.outcome?.result,
    asset: entry.what?.asset,
    amount: entry.what?.amount ?? entry.what?.total,
    destination: entry.what?.destination ?? entry.what?.to_profile_id,
    ref_id: entry.ref_id,
    detail: detail(entry),
  };
}

/** One line naming what breaks the chain: how many problems and the first. */
function brokenLine(report: VerifyReport): string {
  const n = report.problems.length;
  return `the audit log does not verify: ${n} problem${n === 1 ? '' : 's'}, the first: ${report.problems[0].message}`;
}

/** What the audit commands take: the output, the data directory (this machine's log) or the gateway's, the clock. */
export type AuditDeps = Pick<Ports, 'display' | 'service' | 'clock' | 'interrupt'>;

/**
 * The log a command reads: this machine's, or with --gateway the current context's gateway's chain, copied line for
 * line into a private file (the same reader and verifier then serve both); with it, the head the gateway serves.
 */
async function logOf(
  ctx: AuditDeps,
  gateway: boolean,
): Promise<{ path: string; head?: { seq: number; sha256: string } }> {
  if (!gateway) return { path: auditLogPath(ctx.service.dataDir()) };
  const [{ gatewayCall }, { privateDir }] = await Promise.all([
    import('../../client/gateway-calls.js'),
    import('../../config/private-files.js'),
  ]);
  const conn = await ctx.service.connect();
  const dir = join(ctx.service.dataDir(), 'gateway-audit');
  privateDir(dir);
  const path = join(dir, `${createHash('sha256').update(conn.serviceId).digest('hex').slice(0, 16)}.log`);
  const fd = openSync(path, 'w', 0o600);
  let after = 0;
  let head: { seq: number; sha256: string } | undefined;
  try {
    for (;;) {
      const page = await gatewayCall(conn.client, 'auditLines', { query: { after, limit: 10_000 } });
      head ??= page.head;
      if (!page.lines.length) break;
      writeSync(fd, `${page.lines.join('\n')}\n`);
      after = (JSON.parse(page.lines[page.lines.length - 1]) as { seq: number }).seq;
    }
  } finally {
    closeSync(fd);
  }
  return { path, head };
}

export async function list(ctx: AuditDeps, options: AuditListOptions, gateway = false): Promise<void> {
  ctx.interrupt.say('interrupted: nothing was changed (this command only reads)');
  const { path } = await logOf(ctx, gateway);
  // --columns and --wide choose the table's columns; CSV is the export's, whole.
  const out = ctx.display.output(ctx.display.format() === 'table' ? options.view : undefined);
  const row = (x: { entry: AuditEntry; sha256: string }) =>
    out.format === 'table' ? tableRow(x.entry) : out.format === 'csv' ? exportRow(x.entry, x.sha256) : x.entry;
  const v = new Verifier(path);
  let matched = 0;
  const picked = function* () {
    const kept: { entry: AuditEntry; sha256: string }[] = [];
    for (const x of entries(path, v)) {
      if (!matches(x.entry, options)) continue;
      matched++;
      if (options.limit === undefined) yield row(x);
      else if (kept.push(x) >= 2 * options.limit) kept.splice(0, kept.length - options.limit);
    }
    for (const x of kept.slice(-(options.limit ?? 0))) yield row(x);
  };
  const columns = out.format === 'table' ? AUDIT_LIST_COLUMNS : CSV_COLUMNS;
  const shown = await out.list(picked(), columns, { empty: `no audit entries (${path})` });
  if (out.format === 'table' && shown)
    ctx.display.io.err(
      `${out.p.dim(shown < matched ? `the latest ${shown} of ${matched} entries · --limit N or --all for more` : `${shown} entr${shown === 1 ? 'y' : 'ies'}`)}\n`,
    );
  const report = v.finish();
  if (!report.ok) ctx.display.io.err(`${out.p.yellow(`warning: ${brokenLine(report)} (coinop audit verify)`)}\n`);
}

export async function verify(ctx: AuditDeps, options: AuditVerifyOptions, gateway = false): Promise<void> {
  ctx.interrupt.say('interrupted: nothing was changed (this command only reads)');
  const log = await logOf(ctx, gateway);
  // A gateway's chain is checked against the head it serves too (a line taken off its end shows).
  const report = verifyLog(log.path, options.head ?? log.head);
  const out = ctx.display.output();
  if (out.format === 'json' || out.format === 'ndjson') out.one(report);
  else if (out.format === 'csv')
    await out.list(report.problems, [{ key: 'line' }, { key: 'seq' }, { key: 'kind' }, { key: 'message' }]);
  else for (const line of reportLines(report)) ctx.display.io.out(`${line}\n`);
  if (!report.ok) throw new CoinopError('integrity', brokenLine(report), { quiet: true });
}

/** The report for people. */
export function reportLines(report: VerifyReport): string[] {
  if (!report.lines) return [`no audit log yet at ${report.path}: nothing has been recorded`];
  const lines = report.ok
    ? [`✓ the audit log is whole: ${report.entries} entries on ${report.lines} lines (${report.path})`]
    : [
        `✗ the audit log does not verify: ${report.problems.length} problem${report.problems.length === 1 ? '' : 's'} (${report.path})`,
      ];
  for (const p of report.problems) lines.push(`  ${p.message}`);
  for (const x of report.recovered)
    lines.push(`  line ${x.line}: ${x.bytes} bytes of a write a crash cut short, recorded by line ${x.recorded_by}`);
  if (report.torn_tail)
    lines.push(
      `torn last line: line ${report.torn_tail.line} holds ${report.torn_tail.bytes} bytes of a write a crash cut short; the log is whole up to the last whole line, and the next entry records them`,
    );
  if (report.head) lines.push(`head: seq ${report.head.seq} sha256 ${report.head.sha256}`);
  if (report.head && report.ok)
    lines.push(
      `(keep it elsewhere: coinop audit verify --head ${report.head.seq}:${report.head.sha256} shows the log still holds it)`,
    );
  return lines;
}

export async function exportLog(ctx: AuditDeps, options: AuditExportOptions, gateway = false): Promise<void> {
  ctx.interrupt.say('interrupted: nothing was changed (this command only reads)');
  const { path } = await logOf(ctx, gateway);
  const v = new Verifier(path);
  const rows = function* () {
    for (const x of entries(path, v)) if (inRange(x.entry, options)) yield exportRow(x.entry, x.sha256);
  };
  await new Output(ctx.display.io, options.format, () => ctx.clock.now()).list(rows(), CSV_COLUMNS);
  const report = v.finish();
  if (!report.ok)
    throw new CoinopError('integrity', `${brokenLine(report)}; the export holds the lines as they are`, {
      hint: 'coinop audit verify names every problem',
    });
}

/** The path alone (for $(coinop audit path)), or as an object when -o json, ndjson or csv asks for one. */
export async function path(ctx: AuditDeps): Promise<void> {
  const p = auditLogPath(ctx.service.dataDir());
  const asked = ctx.display.formatGiven() ? ctx.display.format() : undefined;
  if (!asked || asked === 'table') ctx.display.io.out(`${p}\n`);
  else ctx.display.output().one({ path: p });
}
