// coinop sandbox deposit: the raw flags, typed once. The request is checked against the contract by the run, once
// the file, the prompts and the sandbox's values have filled it in.
import { dec, FIAT_AMOUNT_PATTERN, operations } from '../../contract/index.js';
import { checkRequest } from '../../client/service-client.js';
import { SHAPE_ONLY } from '../../client/catalogue-policy.js';
import { usageError } from '../../cli/errors.js';
import { choiceFlag, nameFlag, type RawFlags } from '../../cli/options.js';
import { SANDBOX_DEPOSIT_FLAG_TABLE, WIRE_FLAG_TABLE } from './flags.js';
import { ROUTING_NUMBER_TYPES, WIRE_FIELDS } from './wire.js';
import { accountNumberRule, routingNumberRule } from '../../cli/bank-rules.js';

export interface SandboxDepositOptions {
  amount?: string;
  asset: string;
  memoId?: string;
  /** Fiat deposit instructions whose memo_id to use (never with memoId). */
  instructions?: string;
  /** Wire instructions as JSON (the wire object, {"wire": ...} or a whole request body). */
  file?: string;
  /** The flags of the wire instructions given, by their field's key (WIRE_FIELDS); an empty one is left out. */
  wire: Record<string, string>;
}

export function parseSandboxDepositOptions(raw: RawFlags): SandboxDepositOptions {
  const f = SANDBOX_DEPOSIT_FLAG_TABLE.read(raw);
  const given = WIRE_FLAG_TABLE.read(raw);
  const { memoId, instructions } = f;
  if (memoId !== undefined && instructions !== undefined)
    throw usageError('--memo-id and --instructions: give one (--instructions takes the memo id from them)');
  if (instructions !== undefined)
    checkRequest(
      operations.getFiatDepositInstructions,
      { params: { id: instructions } },
      { id: '--instructions' },
      SHAPE_ONLY,
    );
  const wire: Record<string, string> = {};
  for (const field of WIRE_FIELDS) {
    const v = given[field.key]?.trim();
    if (v) wire[field.key] = v;
  }
  if (wire.routingType !== undefined)
    wire.routingType = choiceFlag('--routing-type', wire.routingType, ROUTING_NUMBER_TYPES)!;
  // The numbers by the rules their prompts keep, before anything is asked (a file's type is read by the run).
  const account = accountNumberRule(wire.accountNumber);
  if (account) throw usageError(`--account-number: ${account}`);
  const routing = f.file === undefined ? routingNumberRule(wire.routingType ?? 'ABA', wire.routingNumber) : undefined;
  if (routing) throw usageError(`--routing-number: ${routing}`);
  if (wire.institution !== undefined && (wire.ownerFirstName !== undefined || wire.ownerLastName !== undefined))
    throw usageError(
      '--institution and --owner-first-name/--owner-last-name: give one owner, an institution or a person',
    );
  return {
    amount: f.amount,
    asset: nameFlag('--asset', f.asset)!,
    memoId,
    instructions,
    file: f.file,
    wire,
  };
}

const FIAT_AMOUNT = new RegExp(FIAT_AMOUNT_PATTERN);

/** A deposit amount typed at the prompt: the contract's fiat amount (at most 2 decimals), above 0. */
export function depositAmountRule(amount: string): true | string {
  return FIAT_AMOUNT.test(amount) && dec(amount).gt(0) ? true : 'such as 1000.00';
}
