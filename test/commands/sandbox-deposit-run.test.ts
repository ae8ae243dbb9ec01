// coinop sandbox deposit's run with fakes of its ports (test/commands/ports.ts) against a local service in this
// process: the demo profile is credited by its memo, what the operator sees, what the audit trail keeps; a bad field
// or a production context is refused before anything is sent.
import { describe, expect, it } from 'vitest';
import { deposit } from '../../src/commands/sandbox/run.js';
import { DEMO } from '../../src/embedded/demo.js';
import { fakeDisplay, fixedClock, keptInterrupt, sharedLocalFixture, noPrompts, usdOf } from './ports.js';
import { usageMessageOf } from './support.js';

const local = sharedLocalFixture();

function deps(options: Parameters<typeof fakeDisplay>[0] = {}, service = local.connector()) {
  const display = fakeDisplay(options);
  return {
    display,
    service,
    prompter: noPrompts(display),
    audit: local.audit().port,
    clock: fixedClock(),
    interrupt: keptInterrupt(),
    policy: local.policy,
  };
}

/** What the demo profile has of USD now (all of it: a wire deposit may still be settling). */
const usd = () => usdOf(local, DEMO.profileId);

/** The audit entries written since `from`, as kind and outcome result. */
const entriesSince = (from: number) =>
  local
    .audit()
    .entries()
    .slice(from)
    .map((e) => [e.kind, e.outcome.result]);

describe('sandbox deposit run', () => {
  it('the amount alone on a terminal: initiated for the demo memo, said on stdout, in the audit trail', async () => {
    const d = deps({ tty: true });
    const from = local.audit().entries().length;
    await deposit(d, { amount: '25.50', asset: 'USD', wire: {} });
    expect(d.display.stdout).toBe(`✓ deposit of 25.50 USD initiated for memo ${DEMO.memoId}\n`);
    expect(entriesSince(from)).toEqual([
      ['sandbox_deposit', 'attempt'],
      ['sandbox_deposit', 'sent'],
    ]);
    expect(d.interrupt.note()).toBe('interrupted: the deposit of 25.50 USD was initiated');
  });

  it('as JSON: what was initiated', async () => {
    const d = deps({ format: 'json' });
    await deposit(d, { amount: '7', asset: 'USD', memoId: DEMO.memoId, wire: {} });
    expect(JSON.parse(d.display.stdout)).toEqual({ initiated: true, amount: '7', asset: 'USD', memo_id: DEMO.memoId });
  });

  it('a bad routing number: a usage error naming its flag, nothing sent, the refusal in the audit trail', async () => {
    const d = deps();
    const [before, from] = [await usd(), local.audit().entries().length];
    const message = await usageMessageOf(
      deposit(d, { amount: '1', asset: 'USD', wire: { routingNumber: 'not-a-number' } }),
    );
    expect(message).toMatch(/^--routing-number: /);
    expect(d.service.connections).toEqual([]);
    expect(entriesSince(from)).toEqual([['sandbox_deposit', 'refused']]);
    expect(await usd()).toBe(before);
  });

  it('against production: refused before anything', async () => {
    const service = local.connector();
    const production = {
      ...service,
      context: () => ({ ...service.context(), environment: 'production' as const, name: 'prod' }),
    };
    const d = deps({}, production);
    expect(await usageMessageOf(deposit(d, { amount: '1', asset: 'USD', wire: {} }))).toBe(
      'sandbox deposit: refused against production (context "prod")',
    );
    expect(service.connections).toEqual([]);
  });
});
