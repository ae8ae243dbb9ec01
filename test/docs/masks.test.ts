// The masks the pages' examples are compared through (test/docs/masks.ts): a value that differs per run is masked
// whatever its letters, and the names a page shows are not.
import { describe, expect, it } from 'vitest';
import { mask } from './masks.js';

describe('masks', () => {
  it('masks a local memo id with or without a digit, and a hosted one', () => {
    expect(mask('deposits that carry memo CQGGRCQCAWKWGNXH credit')).toBe('deposits that carry memo <memo> credit');
    expect(mask('initiated for memo CY647P5RTYQ39V7G')).toBe('initiated for memo <memo>');
    expect(mask('memo_id  9CFXQSCMSPLFHXLZ')).toBe('memo_id  <memo>');
  });

  it("masks a profile's short id after its name whatever its digits, and only there", () => {
    for (const id of ['e950ba30', '89514038', 'abcdefab'])
      expect(mask(`to  service profile payroll (${id})`)).toBe('to  service profile payroll (<short>)');
    expect(mask('context local (service profile demo (5d1f2a3b))')).toBe(
      'context local (service profile demo (<short>))',
    );
    expect(mask('available 10002500 USD')).toBe('available 10002500 USD');
  });

  it('leaves the service names a page shows as they are', () => {
    for (const text of ['--increment FIFTEEN_MINUTES', 'status PENDING', 'network BITCOIN_CASH', 'ACKNOWLEDGEMENTS'])
      expect(mask(text)).toBe(text);
  });
});
