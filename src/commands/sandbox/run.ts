// coinop sandbox deposit: a simulated wire deposit, from flags, a JSON file or prompts; never in production.
import { readFileSync } from 'node:fs';
import { operations, type InitiateSandboxFiatDepositRequest } from '../../api/index.js';
import type { CliContext } from '../../cli/context.js';
import { CliError, usageError } from '../../cli/errors.js';
import { need } from '../../cli/prompt.js';
import { checkRequest, type FlagNames } from '../../client/api.js';
import { DEMO } from '../../local/demo.js';

interface DepositOptions {
  amount?: string;
  asset?: string;
  memoId?: string;
  file?: string;
  accountNumber?: string;
  routingNumber?: string;
  routingType?: string;
  bankName?: string;
  bankCountry?: string;
  ownerCountry?: string;
  ownerCity?: string;
  ownerAddress?: string;
  institution?: string;
}

const FLAGS: FlagNames = {
  amount: '--amount',
  asset: '--asset',
  memo_id: '--memo-id',
  'fiat_network_instructions.wire.account_number': '--account-number',
  'fiat_network_instructions.wire.routing_details.routing_number': '--routing-number',
  'fiat_network_instructions.wire.routing_details.routing_number_type': '--routing-type',
  'fiat_network_instructions.wire.routing_details.bank_name': '--bank-name',
  fiat_network_instructions: '--file',
  fiat_account_owner: '--institution',
};

function readFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw usageError(`--file: cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw usageError(`--file: ${path} is not valid JSON (${(e as Error).message})`);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw usageError(`--file: ${path} must hold a JSON object`);
  return v as Record<string, unknown>;
}

const compact = <T extends Record<string, unknown>>(o: T): T | undefined => {
  const out = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && !(typeof v === 'object' && v && !Object.keys(v).length)));
  return Object.keys(out).length ? (out as T) : undefined;
};

export async function deposit(ctx: CliContext, o: DepositOptions): Promise<void> {
  const profile = ctx.profile();
  if (profile.environment === 'production') {
    throw new CliError('usage', `sandbox deposit: refused against production (profile "${profile.name}")`, { hint: 'use a sandbox or local profile: --profile sandbox' });
  }
  const file = o.file ? readFile(o.file) : undefined;
  // The file may be a whole request, {"wire": ...} or the wire object itself.
  const fromFile: Partial<InitiateSandboxFiatDepositRequest> = file?.fiat_network_instructions
    ? (file as Partial<InitiateSandboxFiatDepositRequest>)
    : file?.wire
      ? { fiat_network_instructions: file as InitiateSandboxFiatDepositRequest['fiat_network_instructions'] }
      : file
        ? { fiat_network_instructions: { wire: file as InitiateSandboxFiatDepositRequest['fiat_network_instructions']['wire'] } }
        : {};
  const pr = ctx.prompter;
  const amount = await need(pr, '--amount', o.amount ?? fromFile.amount, () =>
    pr.text('Amount (USD, at most 2 decimals)', { validate: (s) => (/^[0-9]*\.?[0-9]{1,2}$/.test(s) && Number(s) > 0 ? true : 'such as 1000.00') }),
  );
  const memoDefault = profile.environment === 'local' ? DEMO.memoId : undefined;
  const memoId = await need(pr, '--memo-id', o.memoId ?? fromFile.memo_id ?? (pr.allowed ? undefined : memoDefault), () =>
    pr.text('Memo id (credits the profile with this memo)', { default: memoDefault }),
  );
  const fileWire = fromFile.fiat_network_instructions?.wire ?? {};
  let accountNumber = o.accountNumber ?? fileWire.account_number;
  let routingNumber = o.routingNumber ?? fileWire.routing_details?.routing_number;
  let bankName = o.bankName ?? fileWire.routing_details?.bank_name;
  if (!file && pr.allowed) {
    accountNumber ??= await pr.text('Sending account number', { required: false });
    routingNumber ??= await pr.text('Routing number (ABA)', { required: false });
    bankName ??= await pr.text('Bank name', { required: false });
  }
  const wire = compact({
    ...fileWire,
    account_number: accountNumber || undefined,
    fiat_account_owner_address: compact({
      ...(fileWire.fiat_account_owner_address ?? {}),
      country: o.ownerCountry ?? fileWire.fiat_account_owner_address?.country,
      city: o.ownerCity ?? fileWire.fiat_account_owner_address?.city,
      address1: o.ownerAddress ?? fileWire.fiat_account_owner_address?.address1,
    }),
    routing_details: compact({
      ...(fileWire.routing_details ?? {}),
      routing_number_type: routingNumber || fileWire.routing_details?.routing_number_type ? (fileWire.routing_details?.routing_number_type ?? o.routingType) : undefined,
      routing_number: routingNumber || undefined,
      bank_name: bankName || undefined,
      bank_address: compact({ ...(fileWire.routing_details?.bank_address ?? {}), country: o.bankCountry ?? fileWire.routing_details?.bank_address?.country }),
    }),
  }) ?? {};
  const body: InitiateSandboxFiatDepositRequest = {
    amount,
    asset: o.asset ?? fromFile.asset ?? 'USD',
    memo_id: memoId,
    fiat_network_instructions: { wire },
    ...(o.institution ? { fiat_account_owner: { institution_details: { name: o.institution } } } : fromFile.fiat_account_owner ? { fiat_account_owner: fromFile.fiat_account_owner } : {}),
  };
  checkRequest(operations.initiateSandboxFiatDeposit, { body }, FLAGS);
  const conn = await ctx.connect();
  await conn.client.call('initiateSandboxFiatDeposit', { body }, FLAGS);
  const out = ctx.output();
  if (out.format === 'table') ctx.io.out(`${out.p.green('✓')} deposit of ${amount} ${body.asset} initiated for memo ${memoId}\n`);
  else out.one({ initiated: true, amount, asset: body.asset, memo_id: memoId });
}
