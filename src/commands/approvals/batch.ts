// coinop approvals for a batch a gateway holds as one (a `withdraw batch` whose policy asks for approvals): every
// row, destination and amount, and the totals, shown from the rows the approver's coinop works the content out of
// (the very rows it signs), then one signature over the whole batch's statement.
import { CoinopError } from '../../cli/errors.js';
import type { Ports } from '../../cli/ports.js';
import type { HeldRequest } from '../../client/gateway-calls.js';
import { type ApprovalContent, ContentBuilder, contentFromLines } from '../../policy/approvals.js';
import type { Column } from '../../render/table.js';

export const isBatch = (held: HeldRequest): boolean => held.operation === 'batch';

/** The rows of a held batch as signed: its request's rows, with what became of each (sent, failed) beside it. */
export function batchRows(held: HeldRequest): Record<string, unknown>[] {
  const rows = Array.isArray(held.request.rows) ? (held.request.rows as Record<string, unknown>[]) : [];
  const outcome = new Map(
    (Array.isArray((held as { rows?: unknown }).rows)
      ? (held as unknown as { rows: Record<string, unknown>[] }).rows
      : []
    ).map((r) => [String(r.ref_id), r]),
  );
  return rows.map((body, index) => {
    const o = outcome.get(String(body.ref_id));
    return {
      row: index + 1,
      ref_id: body.ref_id,
      asset: body.asset,
      network: body.crypto_network,
      amount: body.amount ?? null,
      total: body.total ?? null,
      destination: body.destination_address,
      profile_id: body.profile_id ?? null,
      status: o?.status ?? 'planned',
      transfer_id: o?.transfer_id ?? null,
    };
  });
}

const ROW_COLUMNS: Column[] = [
  { key: 'row', header: 'ROW', identity: true },
  { key: 'asset', header: 'ASSET' },
  { key: 'network', header: 'NETWORK' },
  { key: 'amount', header: 'AMOUNT', kind: 'amount' },
  { key: 'total', header: 'TOTAL', kind: 'amount' },
  { key: 'destination', header: 'DESTINATION' },
  { key: 'ref_id', header: 'REF_ID', rank: 3 },
  { key: 'status', header: 'STATUS', kind: 'status' },
];

/** approvals show ID of a batch: its summary and totals, then every row (-o json: the whole held batch, rows in). */
export async function showBatch(ctx: Pick<Ports, 'display'>, held: HeldRequest): Promise<void> {
  const out = ctx.display.output();
  const rows = batchRows(held);
  if (out.format !== 'table') return out.one({ ...held, rows });
  const content = contentFromLines(held.content);
  out.one(
    {
      pending_id: held.pending_id,
      status: held.status,
      initiator: held.initiator,
      kind: 'batch',
      rows: rows.length,
      ...Object.fromEntries(
        (content?.totals ?? []).map((t) => [
          `total ${t.asset} ${t.network}`,
          `${t.sum} (${t.rows} row${t.rows === 1 ? '' : 's'})`,
        ]),
      ),
      content: content ? `sha256 ${content.digest}` : '(unreadable)',
      approvals: `${held.approvals.map((a) => a.operator).join(', ') || 'none'} (${held.approvals.length} of ${held.approvals_required})`,
      expires_at: held.expires_at,
    },
    [
      { key: 'pending_id', kind: 'id' },
      { key: 'status', kind: 'status' },
      { key: 'expires_at', kind: 'time' },
    ],
  );
  ctx.display.io.out('\n');
  await out.list(rows, ROW_COLUMNS);
}

/** The batch's content worked out here from the rows shown; it must be the one the gateway asks to be signed. */
export function batchContentOf(held: HeldRequest, stated: ApprovalContent): ApprovalContent {
  const b = new ContentBuilder({
    kind: 'batch',
    environment: stated.environment,
    service: stated.service,
    profileId: stated.profileId,
  });
  for (const r of Array.isArray(held.request.rows) ? (held.request.rows as Record<string, unknown>[]) : []) b.add(r);
  const mine = b.finish();
  if (mine.digest !== stated.digest || mine.rows !== stated.rows)
    throw new CoinopError(
      'integrity',
      `the gateway asks to sign content ${stated.digest.slice(0, 12)}… for a batch whose rows give ${mine.digest.slice(0, 12)}…: nothing was signed`,
    );
  return mine;
}

/** What the approver is asked about a batch: the row count typed, and every row (the first 50) and total shown. */
export function batchConfirmation(held: HeldRequest, content: ApprovalContent, id: string, keyId: string) {
  const rows = batchRows(held);
  const shown = rows
    .slice(0, 50)
    .map(
      (r) =>
        [
          `row ${String(r.row)}`,
          `${String(r.amount ?? `${String(r.total)} in total`)} ${String(r.asset)} on ${String(r.network)} to ${String(r.destination)} (${String(r.ref_id)})`,
        ] as [string, string | undefined],
    );
  if (rows.length > shown.length)
    shown.push(['…', `and ${rows.length - shown.length} more rows (coinop approvals show ${id})`]);
  return {
    title: `Approve ${held.initiator}'s batch of ${content.rows} withdrawals held as ${id}`,
    typed: [{ label: 'the number of rows', value: String(rows.length) }],
    rows: [
      ['environment', `${content.environment} (${content.service})`],
      ['profile_id', content.profileId],
      ...shown,
      ...content.totals.map((t) => [`total ${t.asset} ${t.network}`, `${t.sum} (${t.rows} rows)`] as [string, string]),
      ['content', `sha256 ${content.digest}`],
      ['your key', keyId],
    ] as [string, string | undefined][],
  };
}
