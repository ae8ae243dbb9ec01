// The gateway's copy of the upstream's last day (what the rolling caps count beside the store's reservations): read
// once, used while it is young, read again in the background once it is older, waited for once it is too old, and
// an admission refused when the upstream cannot be read then.
import { describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../src/client/service-client.js';
import { HISTORY_MAX_AGE_MS, HISTORY_REFRESH_MS, UpstreamHistory } from '../../src/gateway/upstream-history.js';
import { until } from '../support/wait.js';

/** An upstream answering listTransfers with its withdrawals, by a clock the test moves. */
function upstream(start: number) {
  const state = {
    clock: start,
    reads: 0,
    down: false,
    items: [] as { ref_id: string; asset: string; amount: string; status: string; created_at: string }[],
  };
  const client = {
    callAny: async () => {
      state.reads++;
      if (state.down) throw new Error('the upstream did not answer');
      return { data: { items: [...state.items] }, date: new Date(state.clock).toUTCString() };
    },
  } as unknown as ServiceClient;
  const sent = (ref: string, amount: string) =>
    state.items.push({
      ref_id: ref,
      asset: 'ETH',
      amount,
      status: 'COMPLETED',
      created_at: new Date(state.clock).toISOString(),
    });
  return { state, client, sent };
}

describe("the gateway's copy of the upstream's last day", () => {
  it('is read once while young, again in the background when older, and waited for when too old', async () => {
    const up = upstream(Date.parse('2026-11-26T12:00:00Z'));
    const history = new UpstreamHistory(up.client, () => up.state.clock);
    up.sent('before', '1');
    const first = await history.lastDay();
    expect(up.state.reads).toBe(1);
    expect(first.recent.map((r) => r.ref_id)).toEqual(['before']);
    expect(first.clock).toBe('service');
    // Sent around the gateway after the copy was read: not in it while it is young.
    up.sent('around', '2');
    up.state.clock += HISTORY_REFRESH_MS - 1;
    const young = await history.lastDay();
    expect(up.state.reads).toBe(1);
    expect(young.recent.map((r) => r.ref_id)).toEqual(['before']);
    // Its clock moves on with the time since it was read.
    expect(young.now - first.now).toBe(HISTORY_REFRESH_MS - 1);
    // Older: answered from the copy at once, a new read on its way.
    up.state.clock += 2;
    expect((await history.lastDay()).recent.map((r) => r.ref_id)).toEqual(['before']);
    await until('the copy read again', async () => (await history.lastDay()).recent.length === 2);
    expect(up.state.reads).toBe(2);
    // Too old, and the upstream cannot be read: refused, never answered from the old copy.
    up.state.down = true;
    up.state.clock += HISTORY_MAX_AGE_MS + 1;
    await expect(history.lastDay()).rejects.toThrow('did not answer');
    up.state.down = false;
    up.sent('later', '3');
    expect((await history.lastDay()).recent.map((r) => r.ref_id)).toEqual(['before', 'around', 'later']);
  });
});
