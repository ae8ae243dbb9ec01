// The policy's rules on transfers to another customer of the service, as pure functions: the destinations name
// recipients by their profile id (under bookmarked_only none is allowed: the address book holds crypto addresses),
// the networks rule does not apply, assets, the maxima, the 24 hours and the hours do; an internal transfer is judged
// by none of the withdrawal rules, a transfer to another customer by all of them.
import { describe, expect, it } from 'vitest';
import type { PolicyRequest } from '../../src/policy/evaluate.js';
import { context, failed, verdict } from './verdicts.js';
import { policyRequestOf } from '../../src/gate/money.js';

const RECIPIENT = '37867177-f88c-45cc-b9b5-d786e7079609';
const paxos = (over: Partial<PolicyRequest> = {}): PolicyRequest => ({
  kind: 'paxos',
  asset: 'USD',
  amount: '2500',
  to_profile_id: RECIPIENT,
  ...over,
});

describe('the policy on transfers to another customer', () => {
  it("the gate's request is a paxos one, naming the recipient's profile", () => {
    const body = { from_profile_id: 'p', to_profile_id: RECIPIENT, asset: 'USD', amount: '1', ref_id: 'r' };
    expect(policyRequestOf({ operation: 'createPaxosTransfer', body })).toEqual({
      kind: 'paxos',
      ref_id: 'r',
      profile_id: 'p',
      asset: 'USD',
      amount: '1',
      to_profile_id: RECIPIENT,
    });
    expect(policyRequestOf({ operation: 'createInternalTransfer', body })?.kind).toBe('internal');
  });

  it('destinations: a recipient profile id listed is allowed, another is not, and bookmarked_only allows none', () => {
    expect(verdict(`destinations: [${RECIPIENT}]\n`, [paxos()]).allowed).toBe(true);
    expect(failed(verdict('destinations: [treasury]\n', [paxos()]))).toEqual([
      ['destinations', [`recipient profile ${RECIPIENT} is not among the policy's destinations`]],
    ]);
    expect(failed(verdict('destinations: bookmarked_only\n', [paxos()]))[0][1][0]).toMatch(
      /recipient profile .*: destinations are bookmarked_only, and the address book holds crypto addresses only \(list the recipient profile's id among the destinations\)/,
    );
    // An internal transfer stays within the customer: the destinations do not judge it.
    expect(verdict('destinations: [treasury]\n', [paxos({ kind: 'internal' })]).allowed).toBe(true);
  });

  it('networks do not apply to it; assets and the most per withdrawal do', () => {
    const v = verdict('networks: [BITCOIN]\nassets: [BTC]\nmax_per_withdrawal:\n  USD: 1000\n', [paxos()]);
    expect(failed(v)).toEqual([
      ['assets', ['USD is not an asset the policy allows']],
      ['max_per_withdrawal', ['2500 USD is over the most one withdrawal may send, 1000 USD']],
    ]);
  });

  it("the 24 hours count it with the service's withdrawals of the asset", () => {
    const v = verdict('max_per_24h:\n  USD: 5000\n', [paxos()], {
      recent: [{ asset: 'USD', amount: '3000' }],
      since: context.now - 86_400_000,
    });
    expect(failed(v)[0][0]).toBe('max_per_24h');
    expect(failed(v)[0][1][0]).toMatch(/USD: 3000 sent since .* \+ 2500 in this run = 5500, over the 24-hour limit/);
  });

  it('the hours apply to it', () => {
    expect(failed(verdict('hours: "13:00-14:00 UTC"\n', [paxos()]))[0][0]).toBe('hours');
    expect(verdict('hours: "11:00-13:00 UTC"\n', [paxos()]).allowed).toBe(true);
  });
});
