// withdraw_batch: a batch of withdrawals, sent as `coinop withdraw batch` sends it. By default its dry run (batch-tool.ts)
// and the gates; with confirm: true, through the server's gates, the run itself (the BatchPort: the command's journal,
// its guards against rows another batch paid, the policy, the report). Rows given inline are kept as a file named by
// their content in the data directory, so the same rows are the same batch: a retry continues it or reports it,
// and never pays a row twice.
import type { BatchFormat } from '../batch/reader.js';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { privateDir } from '../config/private-files.js';
import { writeFileAtomic } from '../config/lock.js';
import { CoinopError, usageError } from '../errors.js';
import { BATCH_INPUT, checkBatchFile, DRY_RUN_OUTPUT, dryRunBatch } from './batch-tool.js';
import { GATES_SCHEMA, gateState, nextStep, refuseClosedServer } from './gates.js';
import { objectOf, plain } from './schema.js';
import type { Tool } from './tool.js';

/** Inline rows as a batch file of their own: `<data dir>/mcp-batches/<content hash>.json`, 0600 in a 0700 folder. */
export function rowsFile(rows: unknown[], dataDir: string, warn: (line: string) => void): string {
  const text = `${JSON.stringify(rows)}\n`;
  const dir = join(dataDir, 'mcp-batches');
  const path = join(dir, `${createHash('sha256').update(text).digest('hex').slice(0, 32)}.json`);
  privateDir(dir, warn);
  if (!existsSync(path)) writeFileAtomic(path, text, 0o600);
  return path;
}

const REPORT_ROW = plain.object({
  row: { schema: plain.integer('Row of the batch.', 1, Number.MAX_SAFE_INTEGER), required: true },
  result: {
    schema: plain.string('created, already submitted, failed, invalid, not sent or unknown.'),
    required: true,
  },
});

export const WITHDRAW_BATCH: Tool = {
  name: 'withdraw_batch',
  title: 'Send a batch of withdrawals (moves money)',
  description:
    'Sends a batch of withdrawals as `coinop withdraw batch` does. MOVES MONEY. By default a preview: its dry run (every row checked and quoted, totals, shortfalls) and the gates; nothing is sent. With confirm: true it sends, only if the server was started with --allow-writes (and --allow-production in production): every row checked first, journalled, sent once; rows another batch already paid are refused. Calling it again with the same rows (or file) continues the batch or reports it: no row is paid twice.',
  gated: true,
  input: objectOf(
    {
      ...BATCH_INPUT,
      confirm: {
        schema: plain.boolean(
          'true to send (only through the gates: the server started with --allow-writes, and --allow-production in production); otherwise a preview that sends nothing.',
        ),
      },
    },
    true,
  ),
  output: objectOf(
    {
      status: { schema: plain.enum(['preview', 'sent', 'already_submitted'], 'What this call did.'), required: true },
      sent: { schema: plain.boolean('This call sent rows (some may have been refused).'), required: true },
      gates: { schema: GATES_SCHEMA, required: true },
      dry_run: { schema: DRY_RUN_OUTPUT },
      file: { schema: plain.string('The batch file that was run (inline rows are kept as one).') },
      report: { schema: plain.array(REPORT_ROW, 'Every row: its result, ref_id, transfer and problem.') },
      counts: { schema: plain.object({}, 'Rows by result.') },
      log: { schema: plain.array(plain.string('A line.'), 'What the run said besides the report.') },
      next_step: { schema: plain.string('What to do next, in words.'), required: true },
    },
    false,
  ),
  async run(args, call) {
    const sending = args.confirm === true;
    if (!sending) {
      const dry = await dryRunBatch(args, call);
      const gates = gateState(call.deps, false, dry.verdict);
      const next = gates.open
        ? 'Nothing was sent. To send it, call withdraw_batch again with the same rows (or file) and confirm: true; a retry never pays a row twice.'
        : nextStep(call.tool, '', gates);
      return {
        outcome: 'preview',
        structured: { status: 'preview', sent: false, gates, dry_run: dry.structured, next_step: next },
      };
    }
    refuseClosedServer(call.deps, call.tool);
    const { rows, file } = args as { rows?: unknown[]; file?: string };
    if ((rows === undefined) === (file === undefined)) throw usageError('give exactly one of rows and file');
    const port = call.deps.batch;
    if (!port) throw new CoinopError('usage', 'this server was given no way to send batches; nothing was sent');
    const path =
      file !== undefined
        ? checkBatchFile(file, call.deps.configDir)
        : rowsFile(rows as unknown[], call.deps.dataDir, call.deps.log);
    // The run goes through the server's connection (made now if it was not yet), and writes the batch's own entries
    // in the audit trail (the batch, each row), naming the agent.
    await call.conn();
    const r = await port.run({
      file: path,
      format: rows ? 'json' : (args.format as BatchFormat | undefined),
      profileId: args.profile_id as string | undefined,
      skipInvalid: args.skip_invalid === true,
      agent: call.agent,
    });
    for (const line of r.log) call.note(line);
    if (r.error && !r.rows.length) throw r.error;
    const counts: Record<string, number> = {};
    for (const row of r.rows) counts[String(row.result)] = (counts[String(row.result)] ?? 0) + 1;
    const gates = gateState(call.deps, true, undefined);
    const summary = Object.entries(counts)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ');
    return {
      outcome: r.ranBefore ? 'already_submitted' : 'sent',
      structured: {
        status: r.ranBefore ? 'already_submitted' : 'sent',
        sent: !r.ranBefore,
        gates,
        file: path,
        report: r.rows,
        counts,
        log: r.log,
        next_step: r.ranBefore
          ? `Already sent: this batch ran before, and nothing was sent this time (${summary}).`
          : `Sent: ${summary}.${r.error ? ` ${r.error.message}.` : ''} Follow the transfers with transfers_list (ids or ref_ids).`,
      },
    };
  },
};
