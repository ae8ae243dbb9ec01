// The batch dry run: the rows of a batch of withdrawals (given inline, or a batch file on this machine) checked as
// `withdraw batch` checks them (src/batch: every row against the contract and its address, ref_ids derived and
// repeats found), each quoted a guaranteed fee, totalled per asset and network, and compared with the balances.
// Nothing is sent.
import { realpathSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import * as S from '../contract/schemas.js';
import { clientBatchService } from '../batch/service-port.js';
import { stageBatch } from '../batch/intake.js';
import { allProfiles } from '../client/profile-match.js';
import { QUOTED_WORDING, quoteRows, READ_RATE, totalsRows } from '../batch/quote.js';
import { type BatchFormat, type Chunks, fileChunks, formatFromName, sniffChunks } from '../batch/reader.js';
import { formatRowIssue, type RowIssue } from '../batch/rows.js';
import type { Stage } from '../batch/stage.js';
import { CoinopError, usageError } from '../errors.js';
import { shortfalls } from '../send/funds.js';
import { PROFILE_ID_TEXT } from './read-tools.js';
import { type Field, fieldsOf, objectOf, plain } from './schema.js';
import { POLICY_SCHEMA, verdictView } from './gates.js';
import type { PolicyVerdict } from './ports.js';
import type { Call, Tool } from './tool.js';

/** Problems listed in an answer (a file may have many: the count says how many more). */
const LISTED = 50;
const FORMATS = ['csv', 'jsonl', 'json'] as const;

/** Fields by their JSON types alone, none required. */
function typesOnly(fields: Record<string, Field>): Record<string, Field> {
  return Object.fromEntries(
    Object.entries(fields).map(([k, f]) => [
      k,
      { schema: { type: (f.schema as unknown as { type: string }).type } as never },
    ]),
  );
}

async function* bytesOf(rows: unknown[]): Chunks {
  yield Buffer.from(JSON.stringify(rows));
}

/**
 * A batch file an agent may name: a batch file by its name (.csv, .jsonl, .ndjson or .json), and none of coinop's own
 * configuration (its secrets and tokens), so a tool cannot be used to read other files into its answers.
 */
export function checkBatchFile(path: string, configDir: string): string {
  if (!/\.(csv|jsonl|ndjson|json)$/i.test(path))
    throw usageError(`file: ${path}: must be a batch file named .csv, .jsonl, .ndjson or .json`);
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw new CoinopError('file', `file: ${path}: no such file`);
  }
  if (!statSync(real).isFile()) throw new CoinopError('file', `file: ${path}: is not a regular file`);
  const config = (() => {
    try {
      return realpathSync(configDir);
    } catch {
      return resolve(configDir);
    }
  })();
  if (real === config || real.startsWith(`${config}${sep}`))
    throw usageError(`file: ${path}: is in coinop's configuration directory, not a batch file`);
  return real;
}

/** The batch's bytes and format: the rows given, or the file (its format by name, or by content for .json). */
async function source(
  args: Record<string, unknown>,
  configDir: string,
): Promise<{ chunks: Chunks; format: BatchFormat; name: string }> {
  const { rows, file, format } = args as { rows?: unknown[]; file?: string; format?: BatchFormat };
  if ((rows === undefined) === (file === undefined)) throw usageError('give exactly one of rows and file');
  if (rows !== undefined) {
    if (format !== undefined) throw usageError('format: is for a file; rows are JSON');
    return { chunks: bytesOf(rows), format: 'json', name: 'rows' };
  }
  const path = checkBatchFile(file as string, configDir);
  const byName = format ?? formatFromName(path);
  if (byName) return { chunks: fileChunks(path), format: byName, name: file as string };
  const sniffed = await sniffChunks(fileChunks(path));
  return { chunks: sniffed.chunks, format: sniffed.format, name: file as string };
}

/** A staged batch's valid rows with their request bodies, in order. */
function* stagedBodies(stage: Stage): Generator<{ row: number; body: Record<string, unknown> }> {
  for (const r of stage.valid()) yield { row: r.row, body: JSON.parse(r.body) as Record<string, unknown> };
}

/** The problems found, for a message: the first LISTED, and how many more. */
function listed(issues: RowIssue[], count: number): string {
  const more = count > issues.length ? `; and ${count - issues.length} more` : '';
  return `${issues.map(formatRowIssue).join('; ')}${more}`;
}

/** Reads and stages the batch; refuses it as withdraw batch would (nothing sent), naming the problems. */
async function intake(args: Record<string, unknown>, call: Call, onStage: (s: Stage) => void) {
  const src = await source(args, call.deps.configDir);
  const issues: RowIssue[] = [];
  let count = 0;
  const skipInvalid = args.skip_invalid === true;
  const taken = await stageBatch(src.chunks, {
    format: src.format,
    defaultProfileId: (args.profile_id as string | undefined) ?? call.deps.context.profileId,
    catalogue: call.catalogue,
    skipInvalid,
    dir: join(call.deps.dataDir, 'batches'),
    // Rows (and profile_id) may name a profile by nickname or id prefix, as withdraw batch takes them.
    profiles: async () => allProfiles((await call.conn()).client),
    onIssue: (issue) => {
      count++;
      // Rows given inline are one JSON text: a line number says nothing of them.
      if (issues.length < LISTED) issues.push(src.name === 'rows' ? { ...issue, line: undefined } : issue);
    },
    onStage,
  });
  const { scan } = taken;
  if (scan.fatal || taken.fileLevel)
    throw usageError(`${src.name}: the batch has problems: ${listed(issues, count)}; nothing was sent`);
  if (scan.invalid && !skipInvalid)
    throw usageError(
      `${scan.invalid} of ${scan.rows} rows are invalid: ${listed(issues, count)}; nothing was sent`,
      'fix them, or give skip_invalid: true to check only the valid rows',
    );
  if (!scan.valid)
    throw new CoinopError(
      'nothing-sent',
      scan.rows
        ? `none of the ${scan.rows} rows is valid: ${listed(issues, count)}`
        : `${src.name}: the batch has no rows`,
    );
  if (taken.repeated.length)
    throw usageError(
      `${taken.repeated.length} rows repeat a ref_id: ${taken.repeated
        .slice(0, LISTED)
        .map((d) => `row ${d.row} repeats the ref_id of row ${d.first}`)
        .join('; ')}; nothing was sent`,
      'give each row its own ref_id',
    );
  return { scan, stage: taken.stage, invalid: issues, invalidCount: count };
}

const TOTALS = plain.object({
  asset: { schema: plain.string('Asset.'), required: true },
  crypto_network: { schema: plain.string('Network.'), required: true },
  rows: { schema: plain.integer('Rows quoted.', 0, Number.MAX_SAFE_INTEGER), required: true },
  amount: { schema: plain.string('Their amounts.'), required: true },
  fee: { schema: plain.string('Their quoted fees.'), required: true },
  total: { schema: plain.string('Amounts plus fees.'), required: true },
});
const ISSUE = plain.object({
  row: { schema: plain.integer('Row (0: the file).', 0, Number.MAX_SAFE_INTEGER), required: true },
  line: { schema: plain.integer('Line of the file.', 0, Number.MAX_SAFE_INTEGER) },
  field: { schema: plain.string('Field.'), required: true },
  rule: { schema: plain.string('The rule it breaks.'), required: true },
});
const count = (d: string) => plain.integer(d, 0, Number.MAX_SAFE_INTEGER);

/** The dry run of a batch: checked, quoted, totalled and held to the balances; nothing sent. */
export async function dryRunBatch(
  args: Record<string, unknown>,
  call: Call,
): Promise<{ structured: Record<string, unknown>; verdict?: PolicyVerdict }> {
  let stage: Stage | undefined;
  try {
    const taken = await intake(args, call, (s) => (stage = s));
    const conn = await call.conn();
    const verdict = await call.deps.policy?.check(
      {
        kind: 'batch',
        tool: call.tool,
        context: call.deps.context.name,
        environment: call.deps.context.environment,
        profile_id: ((args.profile_id as string | undefined) ?? call.deps.context.profileId) || '-',
        rows: () => stagedBodies(taken.stage),
      },
      { sending: false },
    );
    const quoted = await quoteRows(clientBatchService(conn.client), taken.stage.valid(), {
      concurrency: 4,
      rate: READ_RATE,
    });
    const short = await shortfalls(conn, quoted.needs, { what: QUOTED_WORDING, now: call.deps.now() });
    const over = [...short.funds, ...short.limits];
    const sendable = !over.length && !quoted.failures.length && !taken.scan.invalid && verdict?.allowed !== false;
    const structured = {
      rows: taken.scan.rows,
      valid: taken.scan.valid,
      invalid: taken.scan.invalid,
      invalid_rows: taken.invalid.map((i) => ({
        row: i.row,
        ...(i.line ? { line: i.line } : {}),
        field: i.field,
        rule: i.rule,
      })),
      quoted: quoted.quoted,
      totals: totalsRows(quoted.totals),
      refused: quoted.failures,
      shortfalls: over,
      notes: short.notes,
      ...(verdict ? { policy: verdictView(verdict) } : {}),
      sendable,
      next_step: `Nothing was sent. ${
        sendable
          ? `All ${quoted.quoted} rows are valid, quoted and covered by the balances.`
          : 'The batch would not go through as it is: see invalid_rows, refused, shortfalls and policy.'
      } The withdraw_batch tool sends a batch (journalled: a retry never pays a row twice).`,
    };
    return { structured, verdict };
  } finally {
    stage?.remove();
  }
}

export const BATCH_INPUT: Record<string, Field> = {
  rows: {
    schema: plain.array(
      // The request's fields by their types only: the batch's own checks name a row's problems (row and field),
      // and skip_invalid skips the row, as withdraw batch does.
      objectOf(typesOnly(fieldsOf(S.CreateCryptoWithdrawalRequest)), false),
      'The withdrawals, one object each; metadata may also be given as meta.KEY fields.',
      { minItems: 1, maxItems: 10_000 },
    ),
  },
  file: { schema: plain.string('A batch file on this machine (instead of rows).', { minLength: 1 }) },
  format: { schema: plain.enum(FORMATS, "The file's format; by default from its name or first character.") },
  profile_id: { schema: plain.string(`The profile of rows that give none. ${PROFILE_ID_TEXT}`, { minLength: 1 }) },
  skip_invalid: {
    schema: plain.boolean('Go on with the valid rows and list the invalid ones, instead of refusing the batch.'),
  },
};

export const DRY_RUN_OUTPUT = objectOf(
  {
    rows: { schema: count('Rows read.'), required: true },
    valid: { schema: count('Valid rows.'), required: true },
    invalid: { schema: count('Invalid rows (with skip_invalid).'), required: true },
    invalid_rows: { schema: plain.array(ISSUE, 'The problems of the invalid rows (the first 50).'), required: true },
    quoted: { schema: count('Rows quoted a fee.'), required: true },
    totals: { schema: plain.array(TOTALS, 'Per asset and network.'), required: true },
    refused: {
      schema: plain.array(plain.string('A row the service would not quote.'), 'Rows refused.'),
      required: true,
    },
    shortfalls: {
      schema: plain.array(plain.string('A shortfall.'), 'What the balances or the transfer limits cannot cover.'),
      required: true,
    },
    notes: { schema: plain.array(plain.string('A note.'), 'What could not be checked (a limit, a price).') },
    policy: { schema: POLICY_SCHEMA },
    sendable: {
      schema: plain.boolean('Every row is valid, quoted and covered, and the policy allows the batch.'),
      required: true,
    },
    next_step: { schema: plain.string('What it means, in words.'), required: true },
  },
  false,
);

export const BATCH_DRY_RUN: Tool = {
  name: 'batch_dry_run',
  title: 'Dry run of a batch of withdrawals',
  description:
    "Checks a batch of withdrawals as `coinop withdraw batch --dry-run` does, and sends nothing: every row against the contract and its destination's address format, a guaranteed fee quoted for each, totals per asset and network, and the balances each profile needs. Give `rows` (withdrawal objects, amounts as strings) or `file` (a CSV, JSON Lines or JSON batch file on this machine).",
  input: objectOf(BATCH_INPUT, true),
  output: DRY_RUN_OUTPUT,
  run: async (args, call) => ({ outcome: 'read', structured: (await dryRunBatch(args, call)).structured }),
};
