// The policy's rules on stablecoin conversions, as pure functions: the assets rule holds both sides (the source and the
// target), destinations and networks do not apply (a conversion stays in its profile), the most per transfer and the
// 24 hours count what it takes of its source, with the day's withdrawals and conversions of that asset; hours and
// approvals apply as to a withdrawal.
import { describe, expect, it } from 'vitest';
import type { PolicyRequest } from '../../src/policy/evaluate.js';
import { context, failed, verdict } from './verdicts.js';
import { policyRequestOf } from '../../src/gate/money.js';

const conversion = (over: Partial<PolicyRequest> = {}): PolicyRequest => ({
  kind: 'conversion',
  asset: 'USD',
  target_asset: 'USDP',
  amount: '2500',
  ...over,
});

describe('the policy on stablecoin conversions', () => {
  it('is asked about the source as asset and the target beside it (the gate says so of a conversion request)', () => {
    expect(
      policyRequestOf({
        operation: 'createStablecoinConversion',
        body: { profile_id: 'p', amount: '3', source_asset: 'PYUSD', target_asset: 'USD', ref_id: 'r' },
      }),
    ).toEqual({ kind: 'conversion', ref_id: 'r', profile_id: 'p', asset: 'PYUSD', target_asset: 'USD', amount: '3' });
  });

  it('assets: both the source and the target must be allowed', () => {
    expect(verdict('assets: [USD, USDP]\n', [conversion()]).allowed).toBe(true);
    expect(failed(verdict('assets: [USD]\n', [conversion()]))).toEqual([
      ['assets', ["USDP (the conversion's target) is not an asset the policy allows"]],
    ]);
    expect(failed(verdict('assets: [USDP]\n', [conversion()]))).toEqual([
      ['assets', ['USD is not an asset the policy allows']],
    ]);
  });

  it('destinations and networks do not hold it back; the most per transfer counts its source', () => {
    const v = verdict('destinations: [treasury]\nnetworks: [BITCOIN]\nmax_per_withdrawal:\n  USD: 1000\n', [
      conversion(),
    ]);
    expect(failed(v)).toEqual([
      ['max_per_withdrawal', ['2500 USD is over the most one withdrawal may send, 1000 USD']],
    ]);
    expect(
      verdict('max_per_withdrawal:\n  USD: 1000\n', [conversion({ asset: 'PYUSD', target_asset: 'USD' })]).allowed,
    ).toBe(true);
  });

  it('the 24 hours count it with what the day took of the source asset', () => {
    const v = verdict('max_per_24h:\n  USD: 5000\n', [conversion()], {
      recent: [{ asset: 'USD', amount: '3000' }],
      since: context.now - 86_400_000,
    });
    expect(failed(v)[0][0]).toBe('max_per_24h');
    expect(failed(v)[0][1][0]).toMatch(/USD: 3000 sent since .* \+ 2500 in this run = 5500, over the 24-hour limit/);
  });

  it('hours and approvals apply to it as to a withdrawal', () => {
    const v = verdict('hours: "00:00-01:00 UTC"\n', [conversion()]);
    expect(failed(v)[0][0]).toBe('hours');
    const keys = 'approvals:\n  required: 1\n  keys:\n    - ed25519:11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=\n';
    const a = verdict(keys, [conversion()]);
    expect(a.rules.find((r) => r.rule === 'approvals')?.status).not.toBe('n/a');
  });
});
