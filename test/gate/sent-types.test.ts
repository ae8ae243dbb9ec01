// The money path typed end to end (checked by tsc -p tsconfig.test.json, which covers tests): the gate sends with the
// client's call keyed by the operation, so what it answers is that operation's response as the contract types it (or
// a gateway's hold), and Output takes a typed answer as it is, no cast to a string-keyed record.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { HeldRequest } from '../../src/client/gateway-calls.js';
import { isHeld } from '../../src/client/gateway-calls.js';
import type { ResponseOf } from '../../src/contract/index.js';
import type { MoneyGate, Prepared, Sent } from '../../src/gate/gate.js';
import type { Output } from '../../src/render/output.js';

describe('the typed money path', () => {
  it("a sent request's data is its operation's response, or a gateway's hold", () => {
    expectTypeOf<Sent<'createCryptoWithdrawal'>['data']>().toEqualTypeOf<
      ResponseOf<'createCryptoWithdrawal'> | HeldRequest
    >();
    type SendWithdrawal = (p: Prepared<'createCryptoWithdrawal'>) => Promise<Sent<'createCryptoWithdrawal'>>;
    expectTypeOf<MoneyGate['send']>().toExtend<SendWithdrawal>();
    expectTypeOf<ReturnType<MoneyGate['send']>>().not.toEqualTypeOf<Promise<{ data: Record<string, unknown> }>>();
  });

  it('a hold is told from an answer by its pending_id, and narrows to the held request', () => {
    const answer: ResponseOf<'createCryptoWithdrawal'> | HeldRequest = { pending_id: 'p1' } as HeldRequest;
    expect(isHeld(answer)).toBe(true);
    expect(isHeld({ id: 't1', status: 'PENDING' })).toBe(false);
    if (isHeld(answer)) expectTypeOf(answer).toEqualTypeOf<HeldRequest>();
  });

  it('Output writes a typed answer as it is', () => {
    expectTypeOf<ResponseOf<'getTransfer'>>().toExtend<Parameters<Output['one']>[0]>();
    expectTypeOf<HeldRequest[]>().toExtend<Parameters<Output['list']>[0]>();
  });
});
