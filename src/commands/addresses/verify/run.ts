// coinop addresses verify (start a verification and prove the address: signed here with a key file, or with a
// signature made elsewhere, pasted on a terminal) and coinop addresses verifications list|get|submit. A verification
// says where money may go once the policy's verified_only is on, so its creation and its proof go through the gate
// (the audit trail names both), as a deposit address does.
import { type AddressVerification, operations } from '../../../contract/index.js';
import { SIGNATURE_NETWORKS } from '../../../contract/ownership-networks.js';
import { signProof } from '../../../contract/ownership-proof.js';
import { usageError } from '../../../cli/errors.js';
import { gateFor, refusedBeforeSending } from '../../../cli/gate.js';
import { listFooter } from '../../../cli/list-flags.js';
import type { Ports } from '../../../cli/ports.js';
import { need } from '../../../cli/prompt.js';
import { announceRefId } from '../../../cli/submit.js';
import type { Connection } from '../../../cli/invocation.js';
import { checkRequest, type Paging } from '../../../client/service-client.js';
import type { MoneyRequest } from '../../../gate/gate.js';
import { VERIFICATION_COLUMNS } from '../../../render/columns.js';
import { flatEntries, keyValueLines } from '../../../render/key-value.js';
import type { Output } from '../../../render/output.js';
import { refIdFor } from '../../../send/withdrawal.js';
import {
  keyControls,
  LIST_FLAGS,
  readSigningKey,
  SUBMIT_FLAGS,
  type SigningKey,
  type SubmitOptions,
  type VerificationsListOptions,
  VERIFY_FLAGS,
  type VerifyOptions,
} from './options.js';

/** What verify and submit take: the service through the gate (the audit trail), and the operator on a terminal. */
export type VerifyDeps = Pick<Ports, 'display' | 'service' | 'prompter' | 'audit' | 'clock' | 'interrupt' | 'policy'>;

/** A verification with its message flat, for the table and CSV. */
const flat = (verification: AddressVerification) => ({
  ...verification,
  message: verification.signature_verification?.message,
});

/** One verification: every field for people (the message to sign last, whole), the object for machines. */
function show(out: Output, verification: AddressVerification): void {
  if (out.format !== 'table')
    return out.one(out.format === 'csv' ? flat(verification) : verification, VERIFICATION_COLUMNS);
  const { signature_verification: proof, ...rest } = verification;
  const rows = flatEntries({ ...rest, nonce: proof?.nonce, signature: proof?.signature }).map(
    ([k, value]) => [k, out.cell(value, k === 'status' ? 'status' : 'text')] as const,
  );
  for (const line of keyValueLines(rows, out.p)) out.io.out(`${line}\n`);
  if (proof?.message) out.io.out(`message:\n${proof.message}\n`);
}

/** Sends one verification request through the gate: its attempt and outcome in the audit trail. */
async function throughGate(
  ctx: VerifyDeps,
  conn: Connection,
  request: MoneyRequest<'createVerification' | 'submitVerificationSignature'>,
  before?: () => void,
): Promise<{ data: AddressVerification; alreadySubmitted: boolean }> {
  const gate = gateFor(ctx, conn, request.command);
  const res = await gate.send(await gate.prepare(request), before);
  return { data: res.data as unknown as AddressVerification, alreadySubmitted: !!res.alreadySubmitted };
}

/** The signature: made with the key, else pasted on a terminal (empty: none yet), else none. */
async function signatureFor(
  ctx: Pick<Ports, 'prompter' | 'display'>,
  verification: AddressVerification,
  key: SigningKey | undefined,
): Promise<string | undefined> {
  const { address, network } = verification;
  const message = verification.signature_verification?.message ?? '';
  if (key) return signProof(network, key.key, message);
  if (!ctx.prompter.allowed) return undefined;
  ctx.display.io.err(`Sign this message with the key of ${address} (${network}):\n\n${message}\n\n`);
  const pasted = await ctx.prompter.text('Signature (empty: sign later with coinop addresses verifications submit)', {
    required: false,
  });
  return pasted.trim() || undefined;
}

/** Submits a signature of a verification, through the gate, and says how it went. */
async function submitSignature(
  ctx: VerifyDeps,
  conn: Connection,
  verification: AddressVerification,
  signature: string,
  command: string,
): Promise<AddressVerification> {
  const body = { id: verification.id, signature };
  const request: MoneyRequest<'submitVerificationSignature'> = {
    operation: 'submitVerificationSignature',
    body,
    command,
    flags: SUBMIT_FLAGS,
  };
  await refusedBeforeSending(ctx, request, () =>
    checkRequest(operations.submitVerificationSignature, { body }, SUBMIT_FLAGS, ctx.service.catalogue()),
  );
  return (await throughGate(ctx, conn, request)).data;
}

/** What happened, on stderr, for people: approved, or what is left to do. */
function sayStatus(ctx: Pick<Ports, 'display'>, out: Output, verification: AddressVerification): void {
  if (out.format !== 'table') return;
  const v = verification;
  if (v.status === 'APPROVED')
    ctx.display.io.err(`${out.p.green('✓')} ${v.address} (${v.network}) is verified as the customer's own\n`);
  else if (v.status === 'PENDING')
    ctx.display.io.err(
      `${out.p.yellow('pending')}: sign the message below with the key of ${v.address}, then: coinop addresses verifications submit ${v.id} --signature SIGNATURE (until ${v.expires_at})\n`,
    );
  else ctx.display.io.err(`${out.p.red(v.status.toLowerCase())}: create another with coinop addresses verify\n`);
}

export async function verify(ctx: VerifyDeps, options: VerifyOptions): Promise<void> {
  const pr = ctx.prompter;
  const network = await need(pr, '--network', options.network, () =>
    pr.select('Network of the address', [...SIGNATURE_NETWORKS]),
  );
  const address = await need(pr, '--address', options.address, () => pr.text('Address to verify'));
  const key = options.keyFile !== undefined ? readSigningKey(options.keyFile, network) : undefined;
  if (key && !keyControls(key, address))
    throw usageError(`--key-file: the key in ${key.file} controls ${key.address}, not --address ${address}`);
  const { refId, generated } = refIdFor(options.refId);
  const body = { network, address, verification_method: 'SIGNATURE' as const, ref_id: refId };
  const request: MoneyRequest<'createVerification'> = {
    operation: 'createVerification',
    body,
    command: 'addresses verify',
    flags: VERIFY_FLAGS,
  };
  await refusedBeforeSending(ctx, request, () =>
    checkRequest(operations.createVerification, { body }, VERIFY_FLAGS, ctx.service.catalogue()),
  );
  const conn = await ctx.service.connect();
  ctx.interrupt.say(
    `interrupted: the verification may exist; see coinop addresses verifications list --address ${address}`,
  );
  const made = await throughGate(ctx, conn, request, () => {
    if (generated) announceRefId(ctx.display, refId);
  });
  const out = ctx.display.output();
  if (made.alreadySubmitted)
    ctx.display.io.err(
      `${out.p.yellow('already exists')}: ref_id ${refId} was used before; the existing verification:\n`,
    );
  let v = made.data;
  if (v.status === 'PENDING') {
    const signature = await signatureFor(ctx, v, key);
    if (signature !== undefined) v = await submitSignature(ctx, conn, v, signature, 'addresses verify');
  }
  sayStatus(ctx, out, v);
  show(out, v);
}

export async function submit(ctx: VerifyDeps, options: SubmitOptions): Promise<void> {
  const conn = await ctx.service.connect();
  const { data: v } = await conn.client.call('getVerification', { params: { id: options.id } });
  if (v.status !== 'PENDING')
    throw usageError(
      `verification ${v.id} is ${v.status}: it takes no signature`,
      'coinop addresses verify starts another',
    );
  let key: SigningKey | undefined;
  if (options.keyFile !== undefined) {
    key = readSigningKey(options.keyFile, v.network);
    if (!keyControls(key, v.address))
      throw usageError(`--key-file: the key in ${key.file} controls ${key.address}, not ${v.address}`);
  }
  const signature = options.signature ?? (await signatureFor(ctx, v, key));
  if (signature === undefined)
    throw usageError('missing --signature or --key-file', 'give the signature of the message, or sign with --key-file');
  const done = await submitSignature(ctx, conn, v, signature, 'addresses verifications submit');
  const out = ctx.display.output();
  sayStatus(ctx, out, done);
  show(out, done);
}

export async function list(
  { display, service }: Pick<Ports, 'display' | 'service'>,
  options: VerificationsListOptions,
): Promise<void> {
  checkRequest(operations.listVerifications, { query: options.query }, LIST_FLAGS, service.catalogue());
  const conn = await service.connect();
  const out = display.output(options.view);
  const paging: Paging = {};
  const items = conn.client.items('listVerifications', { query: options.query }, LIST_FLAGS, options.all, paging);
  const rows = out.format === 'table' || out.format === 'csv' ? flatItems(items) : items;
  const n = await out.list(rows, VERIFICATION_COLUMNS, {
    empty: 'no address verifications match (start one: coinop addresses verify)',
  });
  listFooter(display, out, n, ['verification', 'verifications'], options.all ? undefined : paging.next);
}

async function* flatItems(items: AsyncIterable<AddressVerification>) {
  for await (const item of items) yield flat(item);
}

export async function get({ display, service }: Pick<Ports, 'display' | 'service'>, id: string): Promise<void> {
  checkRequest(operations.getVerification, { params: { id } }, { id: 'ID' }, service.catalogue());
  const conn = await service.connect();
  const { data } = await conn.client.call('getVerification', { params: { id } });
  show(display.output(), data);
}
