// coinop reconcile: the intents of this machine (its audit log, its batch journals) against the service's transfers of
// the period; the summary, then the lines, in the chosen format; exit 11 when a line is not explained.
import { CoinopError } from '../../cli/errors.js';
import type { Ports } from '../../cli/ports.js';
import type { IO } from '../../cli/io.js';
import { EXPLAINED, type Line } from '../../reconcile/classes.js';
import type { Reconciliation } from '../../reconcile/reconcile.js';
import { runReconciliation } from '../../cli/reconcile-sources.js';
import { drained } from '../../cli/drained.js';
import { csvRow } from '../../render/csv.js';
import { getPath, type Output } from '../../render/output.js';
import { RECONCILE_LINE_COLUMNS, RECONCILE_SUMMARY_COLUMNS } from '../../render/columns.js';
import { profileIdsNamed } from '../../cli/service-profiles.js';
import type { ReconcileOptions } from './options.js';

export async function reconcileRun(
  { display, service }: Pick<Ports, 'display' | 'service'>,
  options: ReconcileOptions,
): Promise<void> {
  const profileIds = await profileIdsNamed({ service }, '--profile-id', options.profileIds);
  const o = { ...options, ...(profileIds ? { profileIds } : {}) };
  const conn = await service.connect();
  const result = await runReconciliation(service, conn, o);
  try {
    await write(display.output(o.view), result, o, display.io.stdout);
  } finally {
    result.close();
  }
  if (result.unexplained)
    throw new CoinopError(
      'unreconciled',
      `${result.unexplained} line(s) not explained (${[...new Set(result.summary.filter((r) => !r.explained).map((r) => r.class))].join(', ')}); explained are ${EXPLAINED.join(' and ')}`,
    );
}

/** The summary, then the lines, in the output's format; the lines streamed from the book. */
async function write(
  out: Output,
  result: Reconciliation,
  options: ReconcileOptions,
  stdout?: IO['stdout'],
): Promise<void> {
  const [r, o] = [result, options];
  const head = {
    from: o.period.from,
    to: o.period.to,
    intents: r.intents,
    transfers: r.transfers,
    conversions: r.conversions,
    events: r.events,
    unexplained: r.unexplained,
    explained_classes: EXPLAINED,
  };
  switch (out.format) {
    case 'json': {
      const top = JSON.stringify({ ...head, summary: r.summary }, null, 2);
      out.io.out(`${top.slice(0, -2)},\n  "lines": [`);
      let n = 0;
      for (const line of r.lines()) {
        out.io.out(`${n++ ? ',' : ''}\n    ${JSON.stringify(line)}`);
        if (n % 500 === 0) await drained(out, stdout);
      }
      out.io.out(n ? '\n  ]\n}\n' : ']\n}\n');
      return;
    }
    case 'ndjson': {
      let n = 0;
      out.io.out(`${JSON.stringify({ record: 'period', ...head })}\n`);
      for (const s of r.summary) out.io.out(`${JSON.stringify({ record: 'summary', ...s })}\n`);
      for (const line of r.lines()) {
        out.io.out(`${JSON.stringify({ record: 'line', ...line })}\n`);
        if (++n % 500 === 0) await drained(out, stdout);
      }
      return;
    }
    case 'csv':
      return writeCsv(out, r, stdout);
    default:
      out.table(r.summary, RECONCILE_SUMMARY_COLUMNS);
      out.io.out('\n');
      await out.list(r.lines() as Iterable<Line> as Iterable<object>, RECONCILE_LINE_COLUMNS, {
        empty: 'no intents and no transfers in the period',
      });
      out.note(
        out.p.dim(
          `${r.intents} intent(s), ${r.transfers} transfer(s), ${r.conversions} conversion(s) and ${r.events} event(s) of ${o.period.from} to ${o.period.to}; ${r.unexplained} line(s) not explained`,
        ),
      );
  }
}

/**
 * One CSV: a `record` column (summary or line), the summary's rows first (class, asset, lines, amount), then every
 * line with the line columns (or those of --columns).
 */
async function writeCsv(out: Output, result: Reconciliation, stdout?: IO['stdout']): Promise<void> {
  const r = result;
  const names = out.view.names;
  const cols = names
    ? RECONCILE_LINE_COLUMNS.filter((c) => names.some((n) => n.toLowerCase() === c.key || n.toLowerCase() === c.header))
    : RECONCILE_LINE_COLUMNS;
  const keys = ['record', 'lines', ...cols.map((c) => c.key)];
  out.io.out(csvRow(keys));
  for (const s of r.summary) out.io.out(csvRow(keys.map((k) => (k === 'record' ? 'summary' : getPath(s, k)))));
  let n = 0;
  for (const line of r.lines()) {
    out.io.out(csvRow(keys.map((k) => (k === 'record' ? 'line' : getPath(line, k)))));
    if (++n % 500 === 0) await drained(out, stdout);
  }
}
