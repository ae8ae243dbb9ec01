// coinop withdraw: the raw flags, checked once into the options the run works with. Every check that needs no
// answer from anybody is here; values left out are asked for on a terminal by the run (and checked there).
import { usageError } from '../../cli/errors.js';
import {
  amountFlag,
  amountXorTotal,
  jsonObjectFlag,
  keyValues,
  nameFlag,
  type RawFlags,
  readFlags,
  waitTimeoutFlag,
} from '../../cli/options.js';

export interface WithdrawOptions {
  asset?: string;
  network?: string;
  address?: string;
  /** A nickname of the address book: the destination's address and network come from there (never with address). */
  to?: string;
  /** At most one of amount and total, each a plain decimal string. */
  amount?: string;
  total?: string;
  feeId?: string;
  /** Get a guaranteed fee quote first and use its id (never with feeId). */
  quote: boolean;
  refId?: string;
  profileId?: string;
  identityId?: string;
  accountId?: string;
  balanceAsset?: string;
  memo?: string;
  metadata?: Record<string, string>;
  beneficiary?: Record<string, unknown>;
  dryRun: boolean;
  yes: boolean;
  wait: boolean;
  /** Seconds to follow the transfer with --wait (--wait-timeout). */
  waitTimeout: number;
  /** With --dry-run: where to save the request for approval (coinop approve FILE). */
  save?: string;
  /** A request saved by --dry-run --save: every value comes from it (never with a value flag). */
  request?: string;
  /** Approval files (coinop approve), besides those found next to --request's file. */
  approvals?: string[];
}

/** The flags that give a value of the request: none of them goes with --request, whose file holds every value. */
const VALUE_FLAGS: [key: string, flag: string][] = [
  ['asset', '--asset'],
  ['network', '--network'],
  ['address', '--address'],
  ['to', '--to'],
  ['amount', '--amount'],
  ['total', '--total'],
  ['feeId', '--fee-id'],
  ['refId', '--ref-id'],
  ['profileId', '--profile-id'],
  ['identityId', '--identity-id'],
  ['accountId', '--account-id'],
  ['balanceAsset', '--balance-asset'],
  ['memo', '--memo'],
  ['meta', '--meta'],
  ['beneficiary', '--beneficiary'],
];

export function parseWithdrawOptions(raw: RawFlags): WithdrawOptions {
  const f = readFlags(raw);
  const amount = f.text('amount');
  const total = f.text('total');
  // In this order, so a command line with several mistakes is told about the same one as ever.
  amountXorTotal(amount, total);
  const feeId = f.text('feeId');
  const quote = f.on('quote');
  if (feeId !== undefined && quote) throw usageError('--fee-id and --quote: give one (--quote gets a fee id for you)');
  const waitTimeout = waitTimeoutFlag(f.defaulted('waitTimeout'), 86_400);
  const metadata = keyValues('--meta', f.list('meta'));
  const beneficiary = jsonObjectFlag('--beneficiary', f.text('beneficiary'), '{"name":"Ada Lovelace"}');
  const to = f.text('to');
  if (to !== undefined && f.text('address') !== undefined)
    throw usageError('--to and --address: give one (--to takes the address from the address book)');
  if (to !== undefined && to.trim() === '') throw usageError('--to: must be a nickname of the address book');
  amountFlag('--amount', amount);
  amountFlag('--total', total);
  const save = f.text('save');
  if (save !== undefined && !f.on('dryRun'))
    throw usageError('--save: only with --dry-run (it saves the request for approval; nothing is sent)');
  const request = f.text('request');
  const clash = request !== undefined ? VALUE_FLAGS.find(([k]) => raw[k] !== undefined) : undefined;
  if (clash) throw usageError(`--request and ${clash[1]}: give one (the saved request holds every value)`);
  return {
    // By their shape: the run checks them against the catalogue once it knows the service (before asking anything).
    asset: nameFlag('--asset', f.text('asset')),
    network: nameFlag('--network', f.text('network')),
    address: f.text('address'),
    to,
    amount,
    total,
    feeId,
    quote,
    refId: f.text('refId'),
    profileId: f.text('profileId'),
    identityId: f.text('identityId'),
    accountId: f.text('accountId'),
    balanceAsset: nameFlag('--balance-asset', f.text('balanceAsset')),
    memo: f.text('memo'),
    metadata,
    beneficiary,
    dryRun: f.on('dryRun'),
    yes: f.on('yes'),
    wait: f.on('wait'),
    waitTimeout,
    save,
    request,
    approvals: f.list('approvals'),
  };
}
