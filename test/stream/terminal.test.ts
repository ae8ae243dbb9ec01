// The live views on a real pseudo-terminal, read back through a terminal emulator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pty from 'node-pty';
import xterm from '@xterm/headless';
import type { LocalService } from '../../src/local/service.js';
import { DEMO } from '../../src/embedded/demo.js';
import { startService, token } from './helpers.js';
import { until } from '../support/wait.js';
import { BIN } from '../support/paths.js';

const { Terminal } = xterm as unknown as { Terminal: typeof import('@xterm/headless').Terminal };

let svc: LocalService;
let dir: string;
beforeAll(async () => {
  svc = await startService({ messagesPerSecond: 100, heartbeatIntervalMs: 200 });
  dir = mkdtempSync(join(tmpdir(), 'coinop-stream-tty-'));
});
afterAll(async () => {
  await svc?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Session {
  term: InstanceType<typeof Terminal>;
  proc: pty.IPty;
  raw: () => string;
  exited: Promise<number>;
  screen(): string;
  waitFor(pred: (screen: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
}

function launch(args: string[], env: Record<string, string> = {}, cols = 100, rows = 30): Session {
  const term = new Terminal({ cols, rows, allowProposedApi: true });
  let raw = '';
  const proc = pty.spawn(process.execPath, [BIN, ...args], {
    cols,
    rows,
    name: 'xterm-256color',
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      TERM: 'xterm-256color',
      COINOP_CONFIG_DIR: join(dir, 'config'),
      COINOP_DATA_DIR: join(dir, 'data'),
      COINOP_BASE_URL: svc.baseUrl,
      COINOP_STREAM_FPS: '30',
      ...env,
    },
  });
  proc.onData((chunk) => {
    raw += chunk;
    term.write(chunk);
  });
  const exited = new Promise<number>((res) => proc.onExit(({ exitCode }) => res(exitCode)));
  const screen = () => {
    const b = term.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < term.rows; i++) lines.push(b.getLine(b.viewportY + i)?.translateToString(true) ?? '');
    return lines.join('\n');
  };
  const waitFor = async (pred: (s: string) => boolean, what: string, timeoutMs = 30_000) => {
    let s = '';
    await until(
      () => `${what}; screen:\n${s}\nraw tail: ${JSON.stringify(raw.slice(-300))}`,
      // The screen is read, and judged, in xterm's callback once it has parsed what arrived so far (nothing parsed
      // later mixes in), and only when that ends a whole frame: a frame split across reads is never judged.
      () => {
        const upTo = raw.length;
        return new Promise<boolean>((r) =>
          term.write('', () => {
            s = screen();
            r(raw.slice(0, upTo).endsWith('\u001b[J') && pred(s));
          }),
        );
      },
      { timeoutMs, everyMs: 50 },
    );
    return s;
  };
  return { term, proc, raw: () => raw, exited, screen, waitFor };
}

/** After exit: the normal screen is back and the cursor is shown. */
async function expectRestored(session: Session): Promise<void> {
  // node-pty may report the exit before it hands over the last output read from the terminal: the restoring
  // sequences are awaited (with a deadline), then xterm's parse of everything that arrived.
  await until('the alternate screen left in the output', () => {
    const raw = session.raw();
    return raw.lastIndexOf('\u001b[?1049l') > raw.lastIndexOf('\u001b[?1049h');
  });
  await new Promise<void>((r) => session.term.write('', () => r()));
  expect(session.term.buffer.active.type).toBe('normal');
  const core = (session.term as unknown as { _core?: { coreService?: { isCursorHidden?: boolean } } })._core;
  if (core?.coreService) expect(core.coreService.isCursorHidden).toBe(false);
  const raw = session.raw();
  expect(raw.lastIndexOf('\u001b[?25h')).toBeGreaterThan(raw.lastIndexOf('\u001b[?25l'));
  expect(raw.lastIndexOf('\u001b[?1049l')).toBeGreaterThan(raw.lastIndexOf('\u001b[?1049h'));
}

describe('live views on a terminal', () => {
  it('book: a ladder with spread, mid and depth bars on the alternate screen; follows resizes; q restores the terminal', async () => {
    const s = launch(['stream', 'book', 'BTCUSD']);
    const levels = (x: string) => x.split('\n').filter((l) => /^\s*\d+\.\d{2}\s+\d+\.\d{8}\s+\d/.test(l));
    // The simulated book's depth varies (a side may hold fewer levels than the screen has rows for a while): the
    // frame judged is one with a dozen levels or more.
    const screen = await s.waitFor(
      (x) => /● live/.test(x) && /spread \d/.test(x) && /█/.test(x) && levels(x).length > 12,
      'the ladder',
    );
    expect(s.term.buffer.active.type).toBe('alternate');
    expect(screen).toMatch(/BTCUSD order book/);
    expect(screen).toMatch(/mid \d+\.\d+/);
    expect(screen).toMatch(/last update \d+\.\d s ago/);
    expect(screen).toMatch(/PRICE\s+AMOUNT\s+TOTAL\s+DEPTH/);
    // Levels: asks above the mid line, bids below, prices with the market's 2 decimals, best ask above best bid.
    expect(levels(screen).length).toBeGreaterThan(12);
    const mid = screen.split('\n').findIndex((l) => /─\s+spread/.test(l));
    expect(mid).toBeGreaterThan(3);
    const lines = screen.split('\n');
    const bestAsk = Number(lines[mid - 1].trim().split(/\s+/)[0]);
    const bestBid = Number(lines[mid + 1].trim().split(/\s+/)[0]);
    expect(bestAsk).toBeGreaterThan(bestBid);
    // A wider terminal gets longer depth bars.
    const widest = (x: string) => Math.max(...x.split('\n').map((l) => l.match(/█+/)?.[0].length ?? 0));
    const before = widest(screen);
    s.proc.resize(160, 30);
    s.term.resize(160, 30);
    await s.waitFor((x) => widest(x) > before + 30, 'longer bars after the resize');
    s.proc.write('q');
    expect(await s.exited).toBe(0);
    await expectRestored(s);
  });

  it('top: a board of best bid and ask per market; Ctrl-C restores the terminal', async () => {
    const s = launch(['stream', 'top', 'BTCUSD', 'ETHEUR', 'SOLEUR']);
    const screen = await s.waitFor(
      (x) =>
        ['BTCUSD', 'ETHEUR', 'SOLEUR'].every((m) =>
          new RegExp(`${m}\\s+\\d+\\.\\d+\\s+\\d+\\.\\d+\\s+\\d+\\.\\d+`).test(x),
        ),
      'three markets',
    );
    expect(screen).toMatch(/MARKET\s+BID SIZE\s+BID\s+ASK\s+ASK SIZE\s+SPREAD\s+BP\s+AGE/);
    for (const l of screen.split('\n').filter((x) => /^(BTCUSD|ETHEUR|SOLEUR) /.test(x))) {
      const [, , bid, ask] = l.trim().split(/\s+/);
      expect(Number(ask)).toBeGreaterThan(Number(bid));
    }
    s.proc.write('\u0003');
    await s.exited;
    await expectRestored(s);
  });

  it('trades: tape with running volume, VWAP and rate', async () => {
    const s = launch(['stream', 'trades', 'BTCUSD', 'ETHUSD']);
    const screen = await s.waitFor(
      (x) =>
        /BTCUSD\s+\d+\s+\d+\.\d+\s+\d+\.\d{2}\s+\d+\.\d\/s/.test(x) &&
        (x.match(/\d\d:\d\d:\d\d\.\d{3}\s+(BTCUSD|ETHUSD)/g)?.length ?? 0) >= 3,
      'trade statistics and tape',
    );
    expect(screen).toMatch(/MARKET\s+TRADES\s+VOLUME\s+VWAP\s+RATE\s+LAST/);
    expect(screen).toMatch(/EXECUTED\s+MARKET\s+PRICE\s+AMOUNT/);
    s.proc.write('q');
    expect(await s.exited).toBe(0);
    await expectRestored(s);
  });

  it('heartbeat: age and latency', async () => {
    const s = launch(['stream', 'heartbeat']);
    const screen = await s.waitFor((x) => /heartbeats\s+[3-9]/.test(x) && /latency\s+-?\d+ ms/.test(x), 'heartbeats');
    expect(screen).toMatch(/last heartbeat\s+\d{4}-\d\d-\d\dT/);
    expect(screen).toMatch(/age\s+\d+\.\d s/);
    s.proc.write('q');
    expect(await s.exited).toBe(0);
    await expectRestored(s);
  });

  it('--channel: any mix of channels with counts and latest messages', async () => {
    const s = launch(['stream', '-c', 'market_data:ETHUSD', '-c', 'execution_data:ETHUSD', '-c', 'heartbeat']);
    const screen = await s.waitFor(
      (x) =>
        /market_data:ETHUSD\s+\d+\s+(SNAPSHOT|UPDATE)/.test(x) &&
        /execution_data:ETHUSD\s+[1-9]\d*\s+\S+ @ \d/.test(x) &&
        /heartbeat\s+[1-9]/.test(x),
      'channel rows',
    );
    expect(screen).toMatch(/latest messages/);
    s.proc.write('q');
    expect(await s.exited).toBe(0);
    await expectRestored(s);
  });

  it('shows the connection state: reconnecting after a drop, live again with a rebuilt book', async () => {
    const s = launch(['stream', 'book', 'LTCUSD'], { COINOP_RETRY_BASE_MS: '3000' });
    await s.waitFor((x) => /● live/.test(x) && /spread \d/.test(x), 'the live ladder');
    svc.config.stream.faults.dropConnectionsEveryMs = 100;
    try {
      await s.waitFor((x) => /○ reconnecting \(connection closed/.test(x), 'the reconnecting state');
    } finally {
      svc.config.stream.faults.dropConnectionsEveryMs = 0;
    }
    const back = await s.waitFor(
      (x) => /● live/.test(x) && /reconnects [1-9]/.test(x) && /spread \d/.test(x),
      'live again',
    );
    expect(back).toMatch(/LTCUSD order book/);
    s.proc.write('q');
    expect(await s.exited).toBe(0);
    await expectRestored(s);
  });

  it('with NO_COLOR the sides are labelled ask and bid, and the mid row sits under the prices', async () => {
    const s = launch(['stream', 'book', 'BTCUSD'], { NO_COLOR: '1' });
    const sides = (screen: string) => {
      const ls = screen.split('\n');
      const mid = ls.findIndex((l) => /─\s+spread/.test(l));
      return {
        asks: ls.slice(0, Math.max(0, mid)).filter((l) => /^ask\s/.test(l)),
        bids: mid < 0 ? [] : ls.slice(mid + 1).filter((l) => /^bid\s/.test(l)),
      };
    };
    // A mid with one decimal more than the prices (an odd sum of the best bid and ask) is the case that shows it; the
    // book's depth varies, so the frame judged has a few levels a side.
    const screen = await s.waitFor((screen) => {
      const { asks, bids } = sides(screen);
      return (
        /● live/.test(screen) && /^\s+\d+\.\d{3}\s+─+\s+spread/m.test(screen) && asks.length > 3 && bids.length > 3
      );
    }, 'a ladder whose mid has an extra decimal');
    const lines = screen.split('\n');
    expect(lines.some((l) => /^SIDE\s+PRICE\s+AMOUNT\s+TOTAL\s+DEPTH/.test(l))).toBe(true);
    const priceEnd = (line: string) => {
      const m = /^(?:ask|bid)?\s*\d+\.\d+/.exec(line);
      return m ? m[0].length : -1;
    };
    const midRow = lines.findIndex((l) => /─\s+spread/.test(l));
    const { asks, bids } = sides(screen);
    expect(asks.length).toBeGreaterThan(3);
    expect(bids.length).toBeGreaterThan(3);
    // The mid's last digit is in the prices' last column, and its rule under the amounts and totals.
    for (const l of [...asks, ...bids]) expect(priceEnd(l)).toBe(priceEnd(lines[midRow]));
    expect(lines[midRow].indexOf('spread')).toBe(lines[0 + lines.findIndex((l) => /^SIDE/.test(l))].indexOf('DEPTH'));
    expect(s.raw()).not.toMatch(/\u001b\[3\dm/);
    s.proc.write('q');
    expect(await s.exited).toBe(0);
  });

  it('when heartbeats stop, the header stops saying live and says for how long; live again when they come back', async () => {
    const s = launch(['stream', 'book', 'ETHUSD']);
    await s.waitFor((x) => /● live/.test(x) && /spread \d/.test(x), 'the live ladder');
    svc.config.stream.faults.stallHeartbeats = true;
    try {
      const stalled = await s.waitFor((x) => /◌ stale \d+ s \(no heartbeat\)/.test(x), 'the stale header');
      expect(stalled).not.toMatch(/● live/);
    } finally {
      svc.config.stream.faults.stallHeartbeats = false;
    }
    await s.waitFor((x) => /● live/.test(x) && !/stale/.test(x), 'live again');
    s.proc.write('q');
    expect(await s.exited).toBe(0);
  });

  it('while reconnecting, the last book is shown dimmed and labelled stale', async () => {
    const s = launch(['stream', 'book', 'BCHUSD'], { COINOP_RETRY_BASE_MS: '6000' });
    await s.waitFor((x) => /● live/.test(x) && /spread \d/.test(x), 'the live ladder');
    svc.config.stream.faults.dropConnectionsEveryMs = 100;
    // How many rows of the ladder the screen shows, and how many of them are drawn dim (read with the screen).
    const b = s.term.buffer.active;
    const ladder = (screen: string) => {
      const ys = screen.split('\n').flatMap((l, y) => (/^\s*\d+\.\d+\s+\d+\.\d+/.test(l) ? [y] : []));
      const dim = ys.filter((row) => {
        const line = b.getLine(b.viewportY + row)!;
        return !!line.getCell(line.translateToString().search(/\d/))?.isDim();
      });
      return { rows: ys.length, dim: dim.length };
    };
    let stale = { rows: 0, dim: 0 };
    try {
      await s.waitFor((screen) => {
        if (!/○ reconnecting/.test(screen) || !/stale book \(reconnecting\): as it was/.test(screen)) return false;
        stale = ladder(screen);
        return stale.rows > 0;
      }, 'the stale book');
    } finally {
      svc.config.stream.faults.dropConnectionsEveryMs = 0;
    }
    // Every price of the ladder is drawn dim.
    expect(stale.rows).toBeGreaterThan(0);
    expect(stale.dim).toBe(stale.rows);
    let live = { rows: 0, dim: 0 };
    await s.waitFor((screen) => {
      if (!/● live/.test(screen) || !/spread \d/.test(screen) || /stale/.test(screen)) return false;
      live = ladder(screen);
      return live.rows > 0;
    }, 'live again');
    expect(live.dim).toBe(0);
    s.proc.write('q');
    expect(await s.exited).toBe(0);
  });

  it('a refused handshake leaves the screen, says why and exits with the authentication code', async () => {
    const readonly = await token(svc, DEMO.readonlyClientId);
    const s = launch(['stream', 'book', 'BTCUSD'], { COINOP_TOKEN: readonly });
    expect(await s.exited).toBe(4);
    await expectRestored(s);
    expect(s.screen()).toMatch(/refused this client \(403\)/);
  });
});
