// The policy's rules on fiat withdrawals, as pure functions: the destinations name fiat accounts by id (under
// bookmarked_only none is allowed: the address book holds crypto addresses), the networks rule does not apply, the
// maxima and the 24 hours count them with the service's withdrawals of the asset.
import { describe, expect, it } from 'vitest';
import type { PolicyRequest } from '../../src/policy/evaluate.js';
import { context, failed, verdict } from './verdicts.js';

const ACCOUNT = 'dde1b3c5-d02a-48f6-8d11-16b4f532ea49';
const fiat = (over: Partial<PolicyRequest> = {}): PolicyRequest => ({
  kind: 'fiat',
  asset: 'USD',
  amount: '2500',
  fiat_account_id: ACCOUNT,
  ...over,
});

describe('the policy on fiat withdrawals', () => {
  it('destinations: a fiat account id listed is allowed, another is not, and bookmarked_only allows none', () => {
    expect(verdict(`destinations: [${ACCOUNT}]\n`, [fiat()]).allowed).toBe(true);
    expect(failed(verdict('destinations: [treasury]\n', [fiat()]))).toEqual([
      ['destinations', [`fiat account ${ACCOUNT} is not among the policy's destinations`]],
    ]);
    expect(failed(verdict('destinations: bookmarked_only\n', [fiat()]))[0][1][0]).toMatch(
      /destinations are bookmarked_only, and the address book holds crypto addresses only/,
    );
  });

  it('networks do not apply to it; assets and the most per withdrawal do', () => {
    const v = verdict('networks: [BITCOIN]\nassets: [BTC]\nmax_per_withdrawal:\n  USD: 1000\n', [fiat()]);
    expect(failed(v)).toEqual([
      ['assets', ['USD is not an asset the policy allows']],
      ['max_per_withdrawal', ['2500 USD is over the most one withdrawal may send, 1000 USD']],
    ]);
  });

  it("the 24 hours count it with the service's withdrawals of the asset", () => {
    const v = verdict('max_per_24h:\n  USD: 5000\n', [fiat()], {
      recent: [{ asset: 'USD', amount: '3000' }],
      since: context.now - 86_400_000,
    });
    expect(failed(v)[0][0]).toBe('max_per_24h');
    expect(failed(v)[0][1][0]).toMatch(/USD: 3000 sent since .* \+ 2500 in this run = 5500, over the 24-hour limit/);
  });
});
