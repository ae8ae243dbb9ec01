// coinop addresses create: a deposit address through the gate. Its own folder, so that its work (the gate, the
// policy, the audit trail) is built into rare.cjs, not the main bundle `addresses list` starts with.
import { commandProfile } from '../../../cli/service-profiles.js';
import { CRYPTO_NETWORKS, type CryptoNetwork } from '../../../contract/enums.js';
import { operations } from '../../../contract/operations.js';
import { networkIssues } from '../../../contract/validate.js';
import { refusedToAsk } from '../../../cli/ask.js';
import { gateFor, refusedBeforeSending } from '../../../cli/gate.js';
import type { MoneyRequest } from '../../../gate/gate.js';
import type { Ports } from '../../../cli/ports.js';
import type { RawFlags } from '../../../cli/options.js';
import { need } from '../../../cli/prompt.js';
import { checkRequest } from '../../../client/service-client.js';
import { DEPOSIT_ADDRESS_COLUMNS } from '../../../render/columns.js';
import { refIdFor } from '../../../send/withdrawal.js';
import { announceRefId } from '../../../cli/submit.js';
import { CREATE_FLAGS, parseAddressCreateOptions } from '../options.js';

/** What addresses create takes: the service, through the gate (so the audit trail and the policy), and the operator. */
export type AddressCreateDeps = Pick<
  Ports,
  'display' | 'service' | 'prompter' | 'audit' | 'clock' | 'interrupt' | 'policy'
>;

export async function create(ctx: AddressCreateDeps, raw: RawFlags): Promise<void> {
  const o = parseAddressCreateOptions(raw);
  const pr = ctx.prompter;
  const context = ctx.service.context();
  // On a terminal a network the catalogue refuses is picked from the list instead.
  const refused = refusedToAsk(ctx, networkIssues('crypto_network', o.network), CREATE_FLAGS);
  const network = await need(pr, '--network', refused.size ? undefined : o.network, () =>
    pr.select<CryptoNetwork>('Network', [...CRYPTO_NETWORKS]),
  );
  const profileId = (await commandProfile(ctx, o.profileId, context.profileId)).id;
  const { refId, generated } = refIdFor(o.refId);
  const body = {
    profile_id: profileId,
    crypto_network: network,
    ref_id: refId,
    ...(o.identityId !== undefined ? { identity_id: o.identityId } : {}),
    ...(o.accountId !== undefined ? { account_id: o.accountId } : {}),
    ...(o.conversion !== undefined ? { conversion_target_asset: o.conversion } : {}),
    ...(o.metadata ? { metadata: o.metadata } : {}),
  };
  const request: MoneyRequest = {
    operation: 'createDepositAddress',
    body,
    command: 'addresses create',
    flags: CREATE_FLAGS,
  };
  await refusedBeforeSending(ctx, request, () =>
    checkRequest(operations.createDepositAddress, { body }, CREATE_FLAGS, ctx.service.catalogue()),
  );
  const conn = await ctx.service.connect();
  // Where money may be sent to the customer: through the gate, and so in the audit trail.
  const gate = gateFor(ctx, conn, 'addresses create');
  const res = await gate.send(await gate.prepare(request), () => {
    if (generated) announceRefId(ctx.display, refId);
  });
  const out = ctx.display.output();
  if (res.alreadySubmitted && res.submittedByThisCall) {
    ctx.display.io.err(
      `deposit address created by this command (its first attempt reached the service but the answer was lost; the retry with ref_id ${refId} found it):\n`,
    );
  } else if (res.alreadySubmitted)
    ctx.display.io.err(
      `${out.p.yellow('already exists')}: ref_id ${refId} was used before; the existing deposit address:\n`,
    );
  out.one(res.data, DEPOSIT_ADDRESS_COLUMNS);
}
