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
  waitTimeoutFlag,
} from '../../cli/options.js';
import { beneficiaryBody, partyOf } from '../../cli/travel-rule.js';
import { WITHDRAW_FLAG_TABLE, WITHDRAW_VALUE_KEYS } from './flags.js';

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
  /** At a coinop gateway that holds it for approvals: follow it until it is sent, rejected or expired. */
  waitApproval: boolean;
  /** Seconds to follow the transfer with --wait (--wait-timeout). */
  waitTimeout: number;
  /** With --dry-run: where to save the request for approval (coinop approve FILE). */
  save?: string;
  /** A request saved by --dry-run --save: every value comes from it (never with a value flag). */
  request?: string;
  /** Approval files (coinop approve), besides those found next to --request's file. */
  approvals?: string[];
}

/** --beneficiary's JSON, or the beneficiary the name flags give (never both). */
function beneficiaryFlags(flags: {
  beneficiary?: string;
  beneficiaryFirstName?: string;
  beneficiaryLastName?: string;
  beneficiaryInstitution?: string;
}): Record<string, unknown> | undefined {
  const json = jsonObjectFlag(
    '--beneficiary',
    flags.beneficiary,
    '{"person_details":{"first_name":"Ada","last_name":"Lovelace"}}',
  );
  const party = partyOf('--beneficiary', {
    firstName: flags.beneficiaryFirstName,
    lastName: flags.beneficiaryLastName,
    institution: flags.beneficiaryInstitution,
  });
  if (json && party)
    throw usageError(
      '--beneficiary and the --beneficiary-* name flags: give one (the JSON holds the whole beneficiary)',
    );
  return json ?? (party ? beneficiaryBody(party) : undefined);
}

export function parseWithdrawOptions(raw: RawFlags): WithdrawOptions {
  const f = WITHDRAW_FLAG_TABLE.read(raw);
  const amount = f.amount;
  const total = f.total;
  // In this order, so a command line with several mistakes is told about the same one as ever.
  amountXorTotal(amount, total);
  const feeId = f.feeId;
  const quote = f.quote;
  if (feeId !== undefined && quote) throw usageError('--fee-id and --quote: give one (--quote gets a fee id for you)');
  const waitTimeout = waitTimeoutFlag(f.waitTimeout, 86_400);
  const metadata = keyValues('--meta', f.meta);
  const beneficiary = beneficiaryFlags(f);
  const to = f.to;
  if (to !== undefined && f.address !== undefined)
    throw usageError('--to and --address: give one (--to takes the address from the address book)');
  if (to !== undefined && to.trim() === '') throw usageError('--to: must be a nickname of the address book');
  amountFlag('--amount', amount);
  amountFlag('--total', total);
  const save = f.save;
  if (save !== undefined && !f.dryRun)
    throw usageError('--save: only with --dry-run (it saves the request for approval; nothing is sent)');
  const request = f.request;
  const [clash] = request !== undefined ? WITHDRAW_FLAG_TABLE.given(raw, WITHDRAW_VALUE_KEYS) : [];
  if (clash)
    throw usageError(
      `--request and ${WITHDRAW_FLAG_TABLE.flag(clash)}: give one (the saved request holds every value)`,
    );
  return {
    // By their shape: the run checks them against the catalogue once it knows the service (before asking anything).
    asset: nameFlag('--asset', f.asset),
    network: nameFlag('--network', f.network),
    address: f.address,
    to,
    amount,
    total,
    feeId,
    quote,
    refId: f.refId,
    profileId: f.profileId,
    identityId: f.identityId,
    accountId: f.accountId,
    balanceAsset: nameFlag('--balance-asset', f.balanceAsset),
    memo: f.memo,
    metadata,
    beneficiary,
    dryRun: f.dryRun,
    yes: f.yes,
    wait: f.wait,
    waitApproval: f.waitApproval,
    waitTimeout,
    save,
    request,
    approvals: f.approvals,
  };
}
