// Step 1 of the gate: the request as the service will receive it, in one spelling. A destination has one canonical
// form per network (canonicalAddress in src/contract/addresses.ts: bech32 and CashAddr in lower case, CashAddr with its
// prefix, EVM in its EIP-55 casing), so the same payment spelled another way is the same request: the same policy
// verdict, the same approval content, the same derived ref_id. An address that is not valid comes back as given (step
// 2 refuses it).
import { canonicalAddress } from '../contract/index.js';
import type { MoneyOperationId } from './money.js';

export function canonicalBody(op: MoneyOperationId, body: Record<string, unknown>): Record<string, unknown> {
  const out = { ...body };
  if (op === 'createCryptoWithdrawal' && typeof out.destination_address === 'string')
    out.destination_address = canonicalAddress(String(out.crypto_network), out.destination_address);
  return out;
}
