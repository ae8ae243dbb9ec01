// coinop fee quote.
import { dec, fmt, isAmountString, operations, type CryptoWithdrawalFee } from '../../contract/index.js';
import type { AuditWhat } from '../../audit/entry.js';
import { askAddress, askTarget, amountRule } from '../../cli/ask.js';
import { outcomeOfError, quoteOutcome } from '../../cli/audit.js';
import type { Ports } from '../../cli/ports.js';
import { amountOrTotalMissing } from '../../cli/options.js';
import { checkRequest } from '../../client/service-client.js';
import { addressCheckFor } from '../../config/environments.js';
import { FEE_COLUMNS } from '../../render/columns.js';
import { keyValueLines } from '../../render/key-value.js';
import { relativeTime } from '../../render/time.js';
import { canonicalRequest } from '../../send/withdrawal.js';
import { WITHDRAW_FLAGS } from '../../cli/withdrawal-flags.js';
import type { FeeQuoteOptions } from './options.js';

/** What a fee quote takes: where it is shown, the service, questions, the audit trail (a quote is noted), the clock. */
export type FeeQuoteDeps = Pick<Ports, 'display' | 'service' | 'prompter' | 'audit' | 'clock'>;

export async function quote(ctx: FeeQuoteDeps, options: FeeQuoteOptions): Promise<void> {
  const pr = ctx.prompter;
  const { asset, network } = await askTarget(ctx, options, WITHDRAW_FLAGS);
  const addresses = addressCheckFor(ctx.service.context().environment);
  const address = await askAddress(pr, network, addresses, options.address);
  let { amount, total } = options;
  if (amount === undefined && total === undefined) {
    if (!pr.allowed) throw amountOrTotalMissing();
    amount = await pr.text(`Amount of ${asset}`, { validate: amountRule(asset) });
  }
  const asGiven = {
    asset,
    crypto_network: network,
    destination_address: address,
    ...(amount !== undefined ? { amount } : { total }),
  };
  checkRequest(operations.createCryptoWithdrawalFee, { body: asGiven }, WITHDRAW_FLAGS, ctx.service.catalogue());
  // Quoted for the destination as the withdrawal will send it (its one spelling), so its fee id fits that withdrawal.
  const body = canonicalRequest(asGiven, addresses, WITHDRAW_FLAGS);
  const conn = await ctx.service.connect();
  const what: AuditWhat = {
    asset,
    network,
    amount,
    total,
    destination: body.destination_address,
    profile_id: conn.context.profileId,
  };
  let data: CryptoWithdrawalFee;
  try {
    ({ data } = await conn.client.call('createCryptoWithdrawalFee', { body }, WITHDRAW_FLAGS));
  } catch (e) {
    await ctx.audit.note({ kind: 'quote', what, outcome: outcomeOfError(e) }, conn);
    throw e;
  }
  await ctx.audit.note({ kind: 'quote', what, outcome: quoteOutcome(data) }, conn);
  const out = ctx.display.output();
  if (out.format === 'table') {
    // Amount and total as the service sent them; worked out from the fee only when it sent one of them alone.
    const a = data.amount ?? (data.total && isAmountString(data.total) ? fmt(dec(data.total).minus(data.fee)) : amount);
    const t = data.total ?? (a && isAmountString(a) ? fmt(dec(a).plus(data.fee)) : total);
    const rows: [string, string][] = [
      ['fee id', data.id],
      ['fee', `${data.fee} ${data.asset}`],
      ['amount', `${a ?? '-'} ${data.asset}`],
      ['total', `${t ?? '-'} ${data.asset}`],
      ['network', String(data.crypto_network)],
      ['destination', String(data.destination_address)],
      ['expires', `${relativeTime(data.expires_at, ctx.clock.now())} (${data.expires_at})`],
    ];
    ctx.display.io.out(`${keyValueLines(rows, out.p).join('\n')}\n`);
    ctx.display.io.err(`${out.p.dim(`use it: coinop withdraw ... --fee-id ${data.id}`)}\n`);
  } else out.one(data, FEE_COLUMNS);
}
