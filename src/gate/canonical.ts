// Step 1 of the gate: the request as the service will receive it, in one spelling. A destination has one canonical
// form per network (canonicalAddress in src/contract/addresses.ts: bech32 and CashAddr in lower case, CashAddr with its
// prefix, EVM in its EIP-55 casing), so the same payment spelled another way is the same request: the same policy
// verdict, the same approval content, the same derived ref_id. An address that is not valid comes back as given (step
// 2 refuses it). A withdrawal's beneficiary (the Travel Rule's party paid) is part of the request: its names are
// spelled once (spaces trimmed and single), so an approval of a payment to one beneficiary covers that beneficiary
// however it was typed, and never another (canonicalRow hashes the whole body, the beneficiary with it).
import { canonicalAddress } from '../contract/index.js';
import { isCall, type MoneyBody, type MoneyOperationId } from './money.js';

/** The checked request with one spelling of its destination (a copy, of the operation's body type). */
export function canonicalBody<Op extends MoneyOperationId>(operation: Op, body: MoneyBody<Op>): MoneyBody<Op> {
  const out = { operation, body: { ...body } };
  if (isCall(out, 'createCryptoWithdrawal')) {
    out.body.destination_address = canonicalAddress(out.body.crypto_network, out.body.destination_address);
    if (out.body.beneficiary !== undefined) out.body.beneficiary = spelledOnce(out.body.beneficiary);
  }
  return out.body;
}

/** Every string of a JSON value with its spaces trimmed and runs of them made one (a copy). */
function spelledOnce<T>(value: T): T {
  if (typeof value === 'string') return value.trim().replace(/\s+/g, ' ') as T;
  if (Array.isArray(value)) return value.map(spelledOnce) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, spelledOnce(v)])) as T;
  return value;
}
