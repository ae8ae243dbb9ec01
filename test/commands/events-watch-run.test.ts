// coinop events watch's run with fakes of its ports (test/commands/ports.ts) against a local service in this process:
// piped it writes each event as an NDJSON line, keeps its checkpoint in the data directory so the next watch starts
// after it, and leaves the line Ctrl-C prints.
import { describe, expect, it } from 'vitest';
import { watch } from '../../src/commands/events/watch.js';
import { eventWindow, fakeDisplay, fixedClock, keptInterrupt, sharedLocalFixture } from './ports.js';

const local = sharedLocalFixture();

function deps() {
  const display = fakeDisplay();
  return { display, service: local.connector(), clock: fixedClock(), interrupt: keptInterrupt() };
}

const lines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { id: string; type: string; created_at: string });

describe('events watch run', () => {
  it('piped: --since and --count write that many events as NDJSON, then a second watch starts after them', async () => {
    // A window of far more events than asked for: more than a page of the feed.
    const feed = await eventWindow(local, 150, 3);
    const first = deps();
    await watch(first, { since: '2020-01-01T00:00:00Z', count: '2' });
    const seen = lines(first.display.stdout);
    expect(seen.map((e) => e.id)).toEqual(feed.slice(0, 2));
    expect(seen[0].created_at <= seen[1].created_at).toBe(true);
    expect(first.display.stderr).toContain('watching events from 2020-01-01T00:00:00Z on (--since)');
    expect(first.interrupt.note()).toMatch(/^interrupted: stopped watching after 2 events; nothing was changed/);
    await first.interrupt.exit();

    const next = deps();
    await watch(next, { count: '1' });
    expect(next.display.stderr).toMatch(/watching after the checkpoint \(/);
    expect(lines(next.display.stdout).map((e) => e.id)).toEqual([feed[2]]);
  });
});
