// coinop fee quote.
import { addressIssues, dec, fmt, isAmountString, operations, type CryptoWithdrawalFee } from '../../api/index.js';
import { askAddress, askAsset, askNetwork, amountRule } from '../../cli/ask.js';
import type { CliContext } from '../../cli/context.js';
import { usageError } from '../../cli/errors.js';
import { checkRequest, issueMessage } from '../../client/api.js';
import { FEE_COLUMNS } from '../../render/columns.js';
import { relativeTime } from '../../render/time.js';
import { WITHDRAW_FLAGS } from '../withdraw/run.js';

export async function quote(ctx: CliContext, o: { asset?: string; network?: string; address?: string; amount?: string; total?: string }): Promise<void> {
  if (o.amount !== undefined && o.total !== undefined) throw usageError('--amount and --total: give exactly one, not both');
  for (const [flag, v] of [['--amount', o.amount], ['--total', o.total]] as const) {
    if (v !== undefined && !isAmountString(v)) throw usageError(`${flag}: must be a plain decimal number such as 0.05 (digits and one point, no sign or exponent)`);
  }
  const pr = ctx.prompter;
  const asset = await askAsset(pr, o.asset);
  const network = await askNetwork(pr, asset, o.network);
  const address = await askAddress(pr, network, o.address);
  let { amount, total } = o;
  if (amount === undefined && total === undefined) {
    if (!pr.allowed) throw usageError('missing --amount or --total', 'give exactly one of them');
    amount = await pr.text(`Amount of ${asset}`, { validate: amountRule(asset) });
  }
  const body = { asset, crypto_network: network, destination_address: address, ...(amount !== undefined ? { amount } : { total }) };
  checkRequest(operations.createCryptoWithdrawalFee, { body }, WITHDRAW_FLAGS);
  const addr = addressIssues(network, address);
  if (addr.length) throw usageError(issueMessage(addr, WITHDRAW_FLAGS));
  const conn = await ctx.connect();
  const { data } = await conn.client.call<CryptoWithdrawalFee>('createCryptoWithdrawalFee', { body }, WITHDRAW_FLAGS);
  const out = ctx.output();
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
      ['expires', `${relativeTime(data.expires_at, ctx.now())} (${data.expires_at})`],
    ];
    const w = Math.max(...rows.map(([k]) => k.length));
    ctx.io.out(rows.map(([k, v]) => `${out.p.dim(k.padEnd(w))}  ${v}`).join('\n') + '\n');
    ctx.io.err(out.p.dim(`use it: coinop withdraw ... --fee-id ${data.id}`) + '\n');
  } else out.one(data, FEE_COLUMNS);
}
