// coinop close: the month's bundle (a statement per profile, the reconciliation, the audit extract), sealed with a
// signed manifest; coinop close verify: the bundle checked with nothing but the folder and the public key.
import { profileIdsNamed } from '../../cli/service-profiles.js';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { EXPORT_COLUMNS, exportRow, inRange } from '../../audit/export.js';
import { auditLogPath } from '../../audit/log.js';
import { Verifier, verifiedEntries } from '../../audit/verify.js';
import { CoinopError } from '../../cli/errors.js';
import type { Ports } from '../../cli/ports.js';
import type { Connection } from '../../cli/invocation.js';
import { STATEMENT_MOVEMENT_COLUMNS, statementOf, statementRows, writeStatementDocument } from '../../cli/statement.js';
import { type BundleProblemKind, type BundleReport, MANIFEST, sealBundle, verifyBundle } from '../../close/bundle.js';
import type { ErrorCategory } from '../../errors.js';
import { approverKey } from '../../policy/keys.js';
import { csvRow } from '../../render/csv.js';
import { runReconciliation } from '../../cli/reconcile-sources.js';
import { EXPLAINED } from '../../reconcile/classes.js';
import type { CloseOptions, CloseVerifyOptions } from './options.js';

/** Rows written to `path` as CSV, a buffer of them at a time. */
function writeCsv(path: string, keys: readonly string[], rows: Iterable<object>): number {
  const fd = openSync(path, 'wx', 0o644);
  let n = 0;
  try {
    let held = csvRow([...keys]);
    for (const row of rows) {
      held += csvRow(keys.map((k) => (row as Record<string, unknown>)[k]));
      n++;
      if (held.length > 1 << 16) {
        writeSync(fd, held);
        held = '';
      }
    }
    writeSync(fd, held);
  } finally {
    closeSync(fd);
  }
  return n;
}

/** The month's audit extract: this machine's entries of the period, as `coinop audit export` writes them. */
function writeAuditExtract(dataDir: string, options: CloseOptions, path: string): number {
  const log = auditLogPath(dataDir);
  const verifier = new Verifier(log);
  const rows = function* () {
    for (const x of verifiedEntries(log, verifier))
      if (inRange(x.entry, options.period)) yield exportRow(x.entry, x.sha256);
  };
  const n = writeCsv(path, EXPORT_COLUMNS, rows());
  const report = verifier.finish();
  if (!report.ok)
    throw new CoinopError('integrity', `the audit log does not verify (${report.problems[0].message}): not sealed`, {
      hint: 'coinop audit verify names every problem',
    });
  return n;
}

/** What the month's reconciliation found, as the close's answer says it. */
interface ReconciliationCount {
  intents: number;
  transfers: number;
  unexplained: number;
}

/**
 * The month's reconciliation (as `coinop reconcile --from --to [--profile-id]` finds it over this machine's audit log
 * and batch journals) written to `path` as `coinop reconcile -o json` writes it: the period, the summary, every line.
 */
async function writeReconciliation(
  service: CloseDeps['service'],
  conn: Connection,
  options: CloseOptions,
  path: string,
): Promise<ReconciliationCount> {
  const { from, to } = options.period;
  const result = await runReconciliation(service, conn, options);
  const fd = openSync(path, 'wx', 0o644);
  try {
    const { intents, transfers, conversions, events, unexplained } = result;
    const head = { from, to, intents, transfers, conversions, events, unexplained };
    const top = JSON.stringify({ ...head, explained_classes: EXPLAINED, summary: result.summary }, null, 2);
    let held = `${top.slice(0, -2)},\n  "lines": [`;
    let n = 0;
    for (const line of result.lines()) {
      held += `${n++ ? ',' : ''}\n    ${JSON.stringify(line)}`;
      if (held.length > 1 << 16) {
        writeSync(fd, held);
        held = '';
      }
    }
    writeSync(fd, `${held}${n ? '\n  ]\n}\n' : ']\n}\n'}`);
    return { intents: result.intents, transfers: result.transfers, unexplained: result.unexplained };
  } finally {
    closeSync(fd);
    result.close();
  }
}

export type CloseDeps = Pick<Ports, 'display' | 'service' | 'policy'>;

export async function close({ display, service, policy }: CloseDeps, options: CloseOptions): Promise<void> {
  const named = await profileIdsNamed({ service }, '--profile-id', options.profileIds);
  const conn = await service.connect();
  const ids: string[] = named ?? [];
  if (!named) for await (const p of conn.client.items('listProfiles', { query: {} })) ids.push(p.id);
  mkdirSync(join(options.out, 'statements'), { recursive: true });
  const say = (line: string) => display.io.err(`${line}\n`);
  for (const id of ids) {
    const s = await statementOf(conn, id, options);
    try {
      const keys = ['record', ...STATEMENT_MOVEMENT_COLUMNS.map((c) => c.key)];
      writeCsv(join(options.out, 'statements', `${id}.csv`), keys, statementRows(s));
      const fd = openSync(join(options.out, 'statements', `${id}.json`), 'wx', 0o644);
      try {
        await writeStatementDocument(id, s, (text) => void writeSync(fd, text));
      } finally {
        closeSync(fd);
      }
      say(`statement of ${id}: ${s.count} movements in ${s.assets.length} assets`);
    } finally {
      s.close();
    }
  }
  const rec = await writeReconciliation(service, conn, options, join(options.out, 'reconciliation.json'));
  say(
    `reconciliation: ${rec.intents} intents, ${rec.transfers} transfers, ${rec.unexplained} line(s) not explained${rec.unexplained ? ' (sealed as found: coinop reconcile shows them)' : ''}`,
  );
  const entries = writeAuditExtract(service.dataDir(), options, join(options.out, 'audit.csv'));
  say(`audit extract: ${entries} entries`);
  const key = approverKey(policy.configDir(), say);
  const files = sealBundle(options.out, key);
  display.output().one({
    out: options.out,
    month: options.month,
    from: options.period.from,
    to: options.period.to,
    profiles: ids.length,
    reconciliation: rec,
    files,
    manifest: join(options.out, MANIFEST),
    key_id: key.publicKey.id,
    public_key: key.publicKey.text,
  });
  say(
    `sealed: ${files} files signed by key ${key.publicKey.id}; check it with coinop close verify ${options.out} --public-key FILE`,
  );
}

/** The exit code's category of each kind of problem: the first problem's decides. */
const CATEGORY: Record<BundleProblemKind, ErrorCategory> = {
  changed: 'bundle-changed',
  missing: 'bundle-missing',
  extra: 'bundle-extra',
  signature: 'bundle-signature',
};

/** The problems in the order of their exit codes' precedence: the signature first, then changed, missing, extra. */
const ORDER: BundleProblemKind[] = ['signature', 'changed', 'missing', 'extra'];

export function reportLines(dir: string, report: BundleReport): string[] {
  const whose = report.key_given ? 'the key given' : 'the key the bundle names (give --public-key to know whose)';
  if (report.ok) return [`✓ ${dir}: ${report.files} files as sealed, signed by key ${report.key_id} (${whose})`];
  return [`✗ ${dir}: does not verify`, ...report.problems.map((p) => `  ${p.message}`)];
}

export type CloseVerifyDeps = Pick<Ports, 'display'>;

export async function verify({ display }: CloseVerifyDeps, options: CloseVerifyOptions): Promise<void> {
  const report = verifyBundle(options.dir, options.publicKey);
  const out = display.output();
  if (out.format === 'json' || out.format === 'ndjson') out.one(report);
  else if (out.format === 'csv') await out.list(report.problems, [{ key: 'kind' }, { key: 'message' }]);
  else for (const line of reportLines(options.dir, report)) display.io.out(`${line}\n`);
  if (report.ok) return;
  const first = ORDER.find((k) => report.problems.some((p) => p.kind === k))!;
  const n = report.problems.length;
  throw new CoinopError(
    CATEGORY[first],
    `${options.dir}: does not verify: ${n} problem${n === 1 ? '' : 's'}, the first: ${report.problems.find((p) => p.kind === first)!.message}`,
    { quiet: out.format === 'table' },
  );
}
