// coinop stream's run with fakes of its ports (test/commands/ports.ts) against a local service in this process: piped,
// the messages as NDJSON on stdout until --count; on a terminal, the live view drawn on a fake Screen until q (exit 0)
// or its Ctrl-C (cancelled, with the line Ctrl-C prints); a market the catalogue lacks is refused before connecting.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import type { LiveView, Screen, ScreenView } from '../../src/cli/ports.js';
import { STREAM_FLAG_TABLE } from '../../src/commands/stream/flags.js';
import { GLOBAL_FLAG_TABLE } from '../../src/cli/global-flags.js';
import type { StreamView } from '../../src/commands/stream/options.js';
import { stream } from '../../src/commands/stream/run.js';
import { parseArgv } from '../support/argv.js';
import { until } from '../support/wait.js';
import { fakeDisplay, fixedClock, keptInterrupt, sharedLocalFixture, written } from './ports.js';
import { usageMessageOf } from './support.js';

const local = sharedLocalFixture();

/** A Screen that draws frames of 100 by 30 when asked (frame()), and keeps the view it was opened with. */
function fakeScreen(): Screen & { view?: ScreenView; started: boolean; stopped: boolean; frame(): string } {
  const fake = {
    view: undefined as ScreenView | undefined,
    started: false,
    stopped: false,
    async open(view: ScreenView): Promise<LiveView> {
      fake.view = view;
      return {
        start: () => void (fake.started = true),
        draw: () => undefined,
        stop: () => void (fake.stopped = true),
      };
    },
    frame: () => (fake.view ? fake.view.render(100, 30).join('\n') : ''),
  };
  return fake;
}

const raw = (argv: string[]) =>
  parseArgv((cmd: Command) => GLOBAL_FLAG_TABLE.declare(STREAM_FLAG_TABLE.declare(cmd)), argv);

function deps(display = fakeDisplay()) {
  return { display, screen: fakeScreen(), service: local.connector(), clock: fixedClock(), interrupt: keptInterrupt() };
}

const run = (d: ReturnType<typeof deps>, view: StreamView, markets: string[], argv: string[] = []) =>
  stream(d, view, markets, raw(argv));

describe('stream run', () => {
  it('piped: each message one JSON line on stdout, ending at --count; what Ctrl-C would say', async () => {
    const d = deps();
    const stdout = written(d.display.io.stdout);
    await run(d, 'book', ['BTCUSD'], ['-o', 'ndjson', '--count', '3']);
    const lines = stdout().trim().split('\n');
    expect(lines).toHaveLength(3);
    for (const line of lines)
      expect(JSON.parse(line)).toMatchObject({ channel: expect.stringMatching(/^market_data/) });
    expect(d.screen.view).toBeUndefined();
    expect(d.interrupt.note()).toBe('stopped: the stream ended; nothing was changed');
    await d.interrupt.exit();
  });

  it('on a terminal: the live view on the Screen, drawn from what arrives, until q', async () => {
    const d = deps(fakeDisplay({ tty: true }));
    const running = run(d, 'top', ['BTCUSD']);
    await until('the live view shows BTCUSD', () => d.screen.started && d.screen.frame().includes('BTCUSD'), {
      timeoutMs: 30_000,
    });
    const stdout = written(d.display.io.stdout);
    d.screen.view?.onQuit('q');
    await running;
    expect(stdout()).toBe('');
    await d.interrupt.exit();
    expect(d.screen.stopped).toBe(true);
  });

  it("the live view's Ctrl-C: cancelled, with the line Ctrl-C prints", async () => {
    const d = deps(fakeDisplay({ tty: true }));
    const running = run(d, 'heartbeat', []);
    await until('the live view started', () => d.screen.started, { timeoutMs: 30_000 });
    d.screen.view?.onQuit('ctrl-c');
    await expect(running).rejects.toMatchObject({ category: 'cancelled' });
    expect(d.display.stderr).toBe('stopped: the stream ended; nothing was changed\n');
    await d.interrupt.exit();
  });

  it('a market the catalogue does not list: a usage error, nothing connected', async () => {
    const d = deps();
    expect(await usageMessageOf(run(d, 'book', ['XYZUSD'], ['-o', 'ndjson']))).toMatch(/^MARKET: /);
    expect(d.service.connections).toHaveLength(0);
  });
});
