// coinop approvals: the inbox of a coinop gateway (the current context must be one): list, show, approve and reject
// the requests it holds. Approving signs, with this machine's approver key, the very statement `coinop approve`
// signs, after the content has been worked out again here from the request shown (a gateway that showed one request
// and asked for another's signature is caught before anything is signed).
import type { Ports } from '../../cli/ports.js';
import { CoinopError, usageError } from '../../cli/errors.js';
import { gatewayCall, type HeldRequest, POLICY_CHANGE_OPERATION } from '../../client/gateway-calls.js';
import type { HeldStatus } from '../../contract/gateway.js';
import { checkedPolicyContent, policyChangeConfirmation, showPolicyChange } from './policy-change-review.js';
import { approvalText, ContentBuilder, contentFromLines } from '../../policy/approvals.js';
import { approverKey, KeyFileError } from '../../policy/keys.js';
import type { Column } from '../../render/table.js';
import { batchConfirmation, batchContentOf, isBatch, showBatch } from './batch.js';

/** What the approvals commands take: the gateway (the context's service), the output, this machine's approver key (in
 * the configuration directory), the confirmation and the clock of an approval. */
export type ApprovalsDeps = Pick<Ports, 'display' | 'service' | 'confirmer' | 'clock' | 'policy'>;

const COLUMNS: Column[] = [
  { key: 'pending_id', kind: 'id', identity: true, short: true },
  { key: 'status', kind: 'status' },
  { key: 'initiator' },
  { key: 'what.asset', header: 'ASSET' },
  { key: 'what.amount', header: 'AMOUNT', kind: 'amount' },
  { key: 'what.destination', header: 'DESTINATION', rank: 3 },
  { key: 'approvals_required', header: 'NEEDED' },
  { key: 'expires_at', kind: 'time', rank: 2 },
];

const held = async (ctx: ApprovalsDeps, id: string) =>
  gatewayCall((await ctx.service.connect()).client, 'showApproval', { params: { id } });

export async function list(ctx: ApprovalsDeps, status: HeldStatus | undefined): Promise<void> {
  const { client } = await ctx.service.connect();
  const { items } = await gatewayCall(client, 'listApprovals', { query: { status } });
  await ctx.display.output().list(items, COLUMNS, { empty: 'nothing is held' });
}

export async function show(ctx: ApprovalsDeps, id: string): Promise<void> {
  const h = await held(ctx, id);
  if (h.operation === POLICY_CHANGE_OPERATION) return showPolicyChange(ctx, h);
  if (isBatch(h)) return showBatch(ctx, h);
  ctx.display
    .output()
    .one(h, [
      { key: 'pending_id', kind: 'id' },
      { key: 'status', kind: 'status' },
      { key: 'initiator' },
      { key: 'ref_id' },
      { key: 'what.asset', header: 'asset' },
      { key: 'what.network', header: 'network' },
      { key: 'what.amount', header: 'amount' },
      { key: 'what.destination', header: 'destination' },
      { key: 'approvals_required', header: 'approvals needed' },
      { key: 'expires_at', kind: 'time' },
    ]);
}

/** The content the gateway asks to be signed, checked against the request it shows: they must be one. */
function checkedContent(held: HeldRequest) {
  const stated = contentFromLines(held.content);
  if (!stated) throw new CoinopError('integrity', `the gateway's statement of ${held.pending_id} cannot be read`);
  if (isBatch(held)) return batchContentOf(held, stated);
  const b = new ContentBuilder({
    kind: stated.kind,
    environment: stated.environment,
    service: stated.service,
    profileId: stated.profileId,
  });
  b.add(held.request);
  const mine = b.finish();
  if (mine.digest !== stated.digest)
    throw new CoinopError(
      'integrity',
      `the gateway asks to sign content ${stated.digest.slice(0, 12)}… for a request whose content is ${mine.digest.slice(0, 12)}…: nothing was signed`,
    );
  return stated;
}

export async function approve(ctx: ApprovalsDeps, id: string, yes: boolean): Promise<void> {
  const h = await held(ctx, id);
  if (h.status !== 'pending') throw usageError(`ID: ${id} is ${h.status}, not waiting for approvals`);
  const change = h.operation === POLICY_CHANGE_OPERATION;
  const content = change ? checkedPolicyContent(h) : checkedContent(h);
  // Only an approver (or an admin) may: said before a key is made on this machine for nothing.
  const me = await gatewayCall((await ctx.service.connect()).client, 'whoami', {});
  if (me.role !== 'approver' && me.role !== 'admin')
    throw new CoinopError(
      'auth',
      `${me.operator} is ${me.role === 'initiator' ? 'an' : 'a'} ${me.role} at this gateway: only approvers approve`,
    );
  if (me.operator === h.initiator)
    throw new CoinopError('policy', `the ${change ? 'proposer' : 'initiator'} cannot approve their own request`);
  let key: ReturnType<typeof approverKey>;
  try {
    key = approverKey(ctx.policy.configDir(), (line) => ctx.display.io.err(`${line}\n`));
  } catch (e) {
    if (e instanceof KeyFileError) throw new CoinopError('file', e.message);
    throw e;
  }
  if (key.created) ctx.display.io.err(`made a new approver key: ${key.path} (0600; keep it, and never send it)\n`);
  const w = h.what as Record<string, string | undefined>;
  const asked = change
    ? policyChangeConfirmation(ctx, h, id, key.publicKey.id)
    : isBatch(h)
      ? batchConfirmation(h, content, id, key.publicKey.id)
      : undefined;
  await ctx.confirmer.confirm({
    title: `Approve ${h.initiator}'s ${h.operation === 'createCryptoWithdrawal' ? 'withdrawal' : h.operation} held as ${id}`,
    environment: content.environment,
    yes,
    question: 'Sign this approval with your key?',
    typed: [{ label: 'the amount', value: w.amount ?? w.total ?? '' }],
    rows: [
      ['environment', `${content.environment} (${content.service})`],
      ['profile_id', content.profileId],
      ['asset', w.asset],
      ['network', w.network],
      ['destination', w.destination],
      ['amount', w.amount ?? (w.total ? `${w.total} in total` : undefined)],
      ['ref_id', h.ref_id ?? undefined],
      ...content.totals.map((t) => [`total ${t.asset} ${t.network}`, t.sum] as [string, string]),
      ['content', `sha256 ${content.digest}`],
      ['your key', key.publicKey.id],
    ],
    ...asked,
  });
  const text = approvalText(content, key, `gateway:${id}`, new Date(ctx.clock.now()).toISOString());
  const after = await gatewayCall((await ctx.service.connect()).client, 'approve', {
    params: { id },
    body: { approval: text },
  });
  ctx.display.io.err(
    after.status === 'sent'
      ? change
        ? `approved: that was the last approval needed, and the gateway's policy is version ${String(after.result?.version ?? '')} now\n`
        : `approved: that was the last approval needed, and the gateway sent it (${sentWhat(after)})\n`
      : `approved (${after.approvals.length} of ${after.approvals_required})\n`,
  );
  ctx.display.output().one(after, [
    { key: 'pending_id', kind: 'id' },
    { key: 'status', kind: 'status' },
  ]);
}

export async function reject(ctx: ApprovalsDeps, id: string, reason: string | undefined): Promise<void> {
  const { client } = await ctx.service.connect();
  const after = await gatewayCall(client, 'reject', { params: { id }, body: { reason: reason ?? '' } });
  ctx.display.io.err(`rejected: ${id} will never be sent\n`);
  ctx.display.output().one(after, [
    { key: 'pending_id', kind: 'id' },
    { key: 'status', kind: 'status' },
  ]);
}

/** What the gateway sent on the last approval: the transfer's id, or a batch's rows sent. */
function sentWhat(after: HeldRequest): string {
  if (!isBatch(after)) return String(after.result?.id ?? '');
  const r = after.result ?? {};
  return `${String(r.sent ?? 0)} of ${String(r.rows ?? 0)} rows sent${Number(r.failed) ? `, ${String(r.failed)} refused` : ''}`;
}
