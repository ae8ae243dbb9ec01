// The gate's one spelling of a withdrawal holds its beneficiary: the same beneficiary typed with other spaces or key
// order is the same request (the same approval content), another beneficiary, or none, is another request, so an
// approval of a payment to one beneficiary never covers a payment to another. The audit entry names the beneficiary.
import { describe, expect, it } from 'vitest';
import { canonicalBody } from '../../src/gate/canonical.js';
import { requestWhat, type MoneyBody } from '../../src/gate/money.js';
import { ContentBuilder, canonicalRow } from '../../src/policy/approvals.js';
import { DEMO } from '../../src/embedded/demo.js';

const BASE = {
  profile_id: DEMO.profileId,
  asset: 'BTC',
  crypto_network: 'BITCOIN',
  destination_address: 'BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ',
  amount: '0.10',
  ref_id: 'pay-1',
};
const withBeneficiary = (beneficiary?: unknown) =>
  canonicalBody('createCryptoWithdrawal', {
    ...BASE,
    ...(beneficiary !== undefined ? { beneficiary } : {}),
  } as MoneyBody<'createCryptoWithdrawal'>);

const digest = (body: Record<string, unknown>) => {
  const b = new ContentBuilder({ kind: 'withdrawal', environment: 'local', service: 'x', profileId: DEMO.profileId });
  b.add(body);
  return b.finish().digest;
};

describe('the canonical withdrawal and its beneficiary', () => {
  it('spells a beneficiary once: spaces trimmed and single, whatever the key order', () => {
    const a = withBeneficiary({ person_details: { first_name: ' Ada ', last_name: 'King  Lovelace' } });
    const b = withBeneficiary({ person_details: { last_name: 'King Lovelace', first_name: 'Ada' } });
    expect(a.beneficiary).toEqual({ person_details: { first_name: 'Ada', last_name: 'King Lovelace' } });
    expect(canonicalRow(a)).toBe(canonicalRow(b));
    expect(digest(a)).toBe(digest(b));
    // The address is spelled once too, and the beneficiary given is not changed in place.
    expect(a.destination_address).toBe('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
  });

  it('makes another beneficiary, or none, another approval content', () => {
    const ada = digest(withBeneficiary({ person_details: { first_name: 'Ada', last_name: 'Lovelace' } }));
    const grace = digest(withBeneficiary({ person_details: { first_name: 'Grace', last_name: 'Hopper' } }));
    const firm = digest(withBeneficiary({ institution_details: { name: 'Ada Lovelace' } }));
    const none = digest(withBeneficiary());
    expect(new Set([ada, grace, firm, none]).size).toBe(4);
  });

  it('names the beneficiary in the audit entry', () => {
    expect(
      requestWhat('createCryptoWithdrawal', withBeneficiary({ institution_details: { name: 'Acme Ltd' } })),
    ).toMatchObject({
      beneficiary: 'Acme Ltd',
    });
    expect(
      requestWhat(
        'createCryptoWithdrawal',
        withBeneficiary({ person_details: { first_name: 'Ada', last_name: 'Lovelace' } }),
      ).beneficiary,
    ).toBe('Ada Lovelace');
  });
});
