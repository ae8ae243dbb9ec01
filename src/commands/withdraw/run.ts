// coinop withdraw: gather and check every field, quote, confirm, send once (ref_id), optionally follow to the end.
import { randomUUID } from 'node:crypto';
import {
  addressIssues, ASSETS, dec, fmt, isAmountString, operations, type CreateCryptoWithdrawalRequest, type CryptoWithdrawalFee, type Transfer,
} from '../../api/index.js';
import { askAddress, askAsset, askNetwork, amountRule } from '../../cli/ask.js';
import type { CliContext, Connection } from '../../cli/context.js';
import { CliError, usageError } from '../../cli/errors.js';
import { intFlag, keyValues } from '../../cli/options.js';
import { checkRequest, issueMessage, type FlagNames } from '../../client/api.js';
import { TRANSFER_COLUMNS } from '../../render/columns.js';
import { palette } from '../../render/style.js';
import { follow } from '../transfers/follow.js';

export interface WithdrawOptions {
  asset?: string;
  network?: string;
  address?: string;
  amount?: string;
  total?: string;
  feeId?: string;
  quote?: boolean;
  refId?: string;
  profileId?: string;
  identityId?: string;
  accountId?: string;
  balanceAsset?: string;
  memo?: string;
  meta?: string[];
  beneficiary?: string;
  dryRun?: boolean;
  yes?: boolean;
  wait?: boolean;
  waitTimeout?: string;
}

export const WITHDRAW_FLAGS: FlagNames = {
  profile_id: '--profile-id',
  destination_address: '--address',
  asset: '--asset',
  crypto_network: '--network',
  ref_id: '--ref-id',
  identity_id: '--identity-id',
  account_id: '--account-id',
  balance_asset: '--balance-asset',
  metadata: '--meta',
  fee_id: '--fee-id',
  amount: '--amount',
  total: '--total',
  beneficiary: '--beneficiary',
  memo: '--memo',
  '': 'body',
};

export async function withdraw(ctx: CliContext, o: WithdrawOptions): Promise<void> {
  // Flag combinations and values that need no answer from anybody are checked first.
  if (o.amount !== undefined && o.total !== undefined) throw usageError('--amount and --total: give exactly one, not both');
  if (o.feeId !== undefined && o.quote) throw usageError('--fee-id and --quote: give one (--quote gets a fee id for you)');
  const waitTimeout = intFlag('--wait-timeout', o.waitTimeout, 1, 86_400) ?? 600;
  const metadata = keyValues('--meta', o.meta);
  let beneficiary: Record<string, unknown> | undefined;
  if (o.beneficiary !== undefined) {
    try {
      beneficiary = JSON.parse(o.beneficiary);
    } catch {
      throw usageError('--beneficiary: must be a JSON object such as {"name":"Ada Lovelace"}');
    }
    if (!beneficiary || typeof beneficiary !== 'object' || Array.isArray(beneficiary)) throw usageError('--beneficiary: must be a JSON object');
  }
  for (const [flag, v] of [['--amount', o.amount], ['--total', o.total]] as const) {
    if (v !== undefined && !isAmountString(v)) throw usageError(`${flag}: must be a plain decimal number such as 0.05 (digits and one point, no sign or exponent)`);
  }
  const profile = ctx.profile();
  const pr = ctx.prompter;

  // Missing values: asked on a terminal, a usage error otherwise.
  const asset = await askAsset(pr, o.asset);
  if (!ASSETS[asset] || ASSETS[asset].fiat) {
    throw usageError(issueMessage([{ field: 'asset', rule: `is not a crypto asset this service withdraws` }], WITHDRAW_FLAGS));
  }
  const network = await askNetwork(pr, asset, o.network);
  const address = await askAddress(pr, network, o.address);
  let amount = o.amount;
  let total = o.total;
  if (amount === undefined && total === undefined) {
    if (!pr.allowed) throw usageError('missing --amount or --total', 'give exactly one of them');
    const which = await pr.select('Give', [{ value: 'amount', name: 'amount (fee on top)' }, { value: 'total', name: 'total (fee included)' }], 'amount');
    const v = await pr.text(which === 'amount' ? `Amount of ${asset}` : `Total of ${asset}, fee included`, { validate: amountRule(asset) });
    if (which === 'amount') amount = v;
    else total = v;
  }
  const profileId = await (async () => {
    const v = o.profileId ?? profile.profileId;
    if (v) return v;
    if (!pr.allowed) throw usageError('missing --profile-id', "give the service's profile id, or save one with coinop login --profile-id");
    return pr.text("The service's profile id to debit");
  })();
  const generatedRef = o.refId === undefined;
  const refId = o.refId ?? `coinop-${randomUUID()}`;

  const body: CreateCryptoWithdrawalRequest = {
    profile_id: profileId,
    destination_address: address,
    asset,
    crypto_network: network,
    ref_id: refId,
    ...(amount !== undefined ? { amount } : {}),
    ...(total !== undefined ? { total } : {}),
    ...(o.feeId !== undefined ? { fee_id: o.feeId } : {}),
    ...(o.identityId !== undefined ? { identity_id: o.identityId } : {}),
    ...(o.accountId !== undefined ? { account_id: o.accountId } : {}),
    ...(o.balanceAsset !== undefined ? { balance_asset: o.balanceAsset } : {}),
    ...(o.memo !== undefined ? { memo: o.memo } : {}),
    ...(metadata ? { metadata } : {}),
    ...(beneficiary ? { beneficiary } : {}),
  };
  // The whole request against the contract before anything is sent (a quote included).
  checkRequest(operations.createCryptoWithdrawal, { body }, WITHDRAW_FLAGS);
  const addr = addressIssues(network, address);
  if (addr.length) throw usageError(issueMessage(addr, WITHDRAW_FLAGS));

  if (generatedRef) ctx.io.err(`ref_id ${refId} ${palette(ctx.io.colourErr).dim('(generated: retry with this --ref-id and it is never sent twice)')}\n`);
  const conn = await ctx.connect();

  // A quote: binding with --quote, and for the confirmation and dry run so the operator sees the fee.
  const wantsConfirm = !o.yes && pr.allowed;
  let quote: CryptoWithdrawalFee | undefined;
  let quoteError: string | undefined;
  if (o.quote || o.dryRun || wantsConfirm) {
    try {
      quote = await getQuote(conn, body);
    } catch (e) {
      if (o.quote) throw e;
      quoteError = e instanceof Error ? e.message : String(e);
    }
  }
  if (o.quote && quote) body.fee_id = quote.id;

  const fee = quote?.fee;
  const shownAmount = amount ?? (fee && total ? fmt(dec(total).minus(fee)) : undefined);
  const shownTotal = total ?? (fee && amount ? fmt(dec(amount).plus(fee)) : undefined);
  const rows: [string, string | undefined][] = [
    ['environment', profile.environment],
    ['profile', `${profile.name} (service profile ${profileId})`],
    ['asset', asset + (o.balanceAsset && o.balanceAsset !== asset ? ` (debiting ${o.balanceAsset})` : '')],
    ['network', network],
    ['destination', address],
    ['amount', shownAmount ?? '(fee not known yet)'],
    ['fee', fee ? `${fee} ${asset}${o.quote ? ' (guaranteed)' : o.feeId ? ` (estimate; fee id ${o.feeId} sets the fee)` : ' (estimate)'}` : `unknown${quoteError ? ` (${quoteError})` : ''}`],
    ['total', shownTotal ? `${shownTotal} ${asset}` : '(fee not known yet)'],
    ['ref_id', refId],
    ['memo', o.memo],
    ['metadata', metadata ? Object.entries(metadata).map(([k, v]) => `${k}=${v}`).join(', ') : undefined],
  ];

  if (o.dryRun) {
    const out = ctx.output();
    if (out.format === 'table') {
      const { summaryText } = await import('../../cli/confirm.js');
      ctx.io.err(summaryText(ctx.io, { title: 'Dry run: nothing sent', rows, environment: profile.environment }));
      ctx.io.out(JSON.stringify({ method: 'POST', path: operations.createCryptoWithdrawal.path, body }, null, 2) + '\n');
    } else {
      out.one({ dry_run: true, method: 'POST', path: operations.createCryptoWithdrawal.path, body, ...(quote ? { quote } : {}) });
    }
    return;
  }

  await ctx.confirm({ title: `Withdraw ${shownAmount ?? total} ${asset}`, rows, environment: profile.environment, yes: !!o.yes, question: 'Send this withdrawal?' });

  const res = await conn.client.call<Transfer>('createCryptoWithdrawal', { body }, WITHDRAW_FLAGS);
  let transfer = res.data as Record<string, unknown>;
  const out = ctx.output();
  if (res.alreadySubmitted) {
    ctx.io.err(`${out.p.yellow('already submitted')}: ref_id ${refId} was sent before; no money moved this time. The existing transfer:\n`);
  } else if (out.format === 'table') ctx.io.err(`${out.p.green('✓')} withdrawal submitted: transfer ${String(transfer.id)}\n`);

  if (o.wait) {
    const [final] = await follow(ctx, conn, [String(transfer.id)], { timeoutSeconds: waitTimeout });
    transfer = final;
    out.one(transfer, TRANSFER_COLUMNS);
    if (transfer.status === 'FAILED') throw new CliError('failed', `transfer ${String(transfer.id)} ended FAILED${failureReason(transfer)}`);
    return;
  }
  out.one(transfer, TRANSFER_COLUMNS);
}

/** Why a transfer failed, in a few words: the names the service put in status_details and secondary_status. */
export function failureReason(t: Record<string, unknown>): string {
  const names = [
    ...Object.keys((t.status_details as Record<string, unknown> | undefined) ?? {}),
    ...(typeof (t.secondary_status as { name?: unknown } | undefined)?.name === 'string' ? [(t.secondary_status as { name: string }).name] : []),
  ];
  return names.length ? `: ${names.join(', ')}` : '';
}

async function getQuote(conn: Connection, body: CreateCryptoWithdrawalRequest): Promise<CryptoWithdrawalFee> {
  const q = {
    asset: body.asset,
    destination_address: body.destination_address,
    crypto_network: body.crypto_network,
    ...(body.amount !== undefined ? { amount: body.amount } : { total: body.total }),
  };
  return (await conn.client.call<CryptoWithdrawalFee>('createCryptoWithdrawalFee', { body: q }, WITHDRAW_FLAGS)).data;
}
