// coinop events listen's run with fakes of its ports (test/commands/ports.ts) against a local service in this process
// and a receiver in this test: --print-secret prints the context's signing secret (made once, kept in the configuration
// directory); --forward-to POSTs each event signed with it, a refused delivery retried until the receiver takes it,
// each attempt a record on stdout, and the line Ctrl-C prints says how many were forwarded. A receiver that is down,
// then up: one line when it goes down and one when it is back, whatever the number of attempts, and a status line
// only when stdout and stderr are both terminals.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenOnLoopback } from '../support/http-server.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContextStore } from '../../src/cli/ports.js';
import { declareEventsListen } from '../../src/commands/events/flags.js';
import { listen } from '../../src/commands/events/listen.js';
import { SIGNATURE_HEADER, verifySignature } from '../../src/events/signature.js';
import { parseArgv } from '../support/argv.js';
import { until } from '../support/wait.js';
import {
  EVENTS_SINCE,
  eventWindow,
  type FakeDisplay,
  fakeDisplay,
  fixedClock,
  keptInterrupt,
  sharedLocalFixture,
} from './ports.js';

const local = sharedLocalFixture();
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coinop-listen-run-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

const contexts = (): ContextStore => ({
  store: () => {
    throw new Error('listen reads no saved context');
  },
  configDir: () => dir,
  flag: () => undefined,
  settings: () => ({ overrides: {} }),
  env: {},
});

function deps(display = fakeDisplay()) {
  return {
    display,
    service: local.connector(),
    clock: fixedClock(),
    interrupt: keptInterrupt(),
    contexts: contexts(),
    version: '1.2.3',
  };
}

/** --print-secret's answer: the context's signing secret. */
async function printedSecret(): Promise<string> {
  const d = deps();
  await listen(d, parseArgv(declareEventsListen, ['--print-secret']));
  expect(d.display.stderr).toBe('');
  return d.display.stdout.trim();
}

describe('events listen run', () => {
  it('--print-secret: the same secret every time, on stdout alone', async () => {
    const secret = await printedSecret();
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(await printedSecret()).toBe(secret);
  });

  it('--forward-to: each event POSTed signed, the first refused then retried, every attempt on stdout', async () => {
    const secret = await printedSecret();
    const received: { id: string; signed: boolean; agent: string }[] = [];
    let refused = 0;
    const receiver: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        if (refused === 0) {
          refused++;
          res.writeHead(503).end();
          return;
        }
        const header = String(req.headers[SIGNATURE_HEADER.toLowerCase()] ?? '');
        received.push({
          id: (JSON.parse(body) as { id: string }).id,
          signed: verifySignature(secret, header, body, Math.floor(Date.now() / 1000)),
          agent: String(req.headers['user-agent']),
        });
        res.writeHead(200).end();
      });
    });
    const url = `${await listenOnLoopback(receiver)}/hook`;
    try {
      const d = deps();
      await listen(
        d,
        parseArgv(declareEventsListen, ['--forward-to', url, '--since', '2020-01-01T00:00:00Z', '--count', '2']),
      );
      const attempts = d.display.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { event_id: string; attempt: number; status: number; delivered: boolean });
      expect(attempts[0]).toMatchObject({ attempt: 1, status: 503, delivered: false });
      const delivered = attempts.filter((a) => a.delivered).map((a) => a.event_id);
      expect(delivered).toEqual(received.map((r) => r.id));
      expect(delivered).toHaveLength(2);
      expect(received.every((r) => r.signed && r.agent === 'coinop/1.2.3')).toBe(true);
      expect(d.display.stderr).toContain(`Forwarding events to ${url} (context local, every type), from `);
      expect(d.interrupt.note()).toMatch(/^interrupted: forwarding stopped; \d+ events forwarded in order\./);
      await d.interrupt.exit();
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('--count N: N events delivered and none after them, the checkpoint at the Nth (the next run starts after it)', async () => {
    // A window of far more events than asked for: more than a page of the feed.
    const feed = await eventWindow(local, 150, 5);
    expect(feed).toHaveLength(5);
    const received: string[] = [];
    const receiver: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push((JSON.parse(body) as { id: string }).id);
        res.writeHead(200).end();
      });
    });
    const url = `${await listenOnLoopback(receiver)}/hook`;
    try {
      const first = deps();
      await listen(
        first,
        parseArgv(declareEventsListen, ['--forward-to', url, '--since', EVENTS_SINCE, '--count', '3']),
      );
      expect(received).toEqual(feed.slice(0, 3));
      const records = first.display.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { event_id: string });
      expect(records.map((r) => r.event_id)).toEqual(feed.slice(0, 3));
      expect(first.display.stderr).toContain('forwarding ended: 3 events forwarded in order, 0 pending');
      // From the checkpoint: the 4th event of the window is the next one, nothing was skipped or sent twice.
      const next = deps();
      await listen(next, parseArgv(declareEventsListen, ['--forward-to', url, '--count', '1']));
      expect(next.display.stderr).toContain('from after the checkpoint');
      expect(received).toEqual(feed.slice(0, 4));
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  describe('a receiver that is down, then up', () => {
    /** A port nothing listens on (yet): a receiver's, closed. */
    async function freePort(): Promise<number> {
      const s = createServer();
      await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
      const { port } = s.address() as AddressInfo;
      await new Promise((resolve) => s.close(resolve));
      return port;
    }

    /** Runs listen to `port` until `count` events are delivered; the receiver starts once `down` says so. */
    async function outage(display: FakeDisplay, down: () => boolean) {
      const port = await freePort();
      const receiver = createServer((req, res) => {
        req.resume();
        req.on('end', () => res.writeHead(200).end());
      });
      const d = { ...deps(display) };
      const args = ['--forward-to', `http://127.0.0.1:${port}/hook`, '--since', '2020-01-01T00:00:00Z', '--count', '3'];
      const run = listen(d, parseArgv(declareEventsListen, args));
      try {
        await until('attempts to fail while the receiver is down', down, { timeoutMs: 60_000 });
        await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve));
        await run;
      } finally {
        await new Promise((resolve) => receiver.close(resolve));
      }
      return d;
    }

    /** stderr's lines as a terminal keeps them: a status line (redrawn after \r and a clear) is not a line. */
    const lines = (stderr: string) =>
      stderr
        .split('\n')
        .map((l) => l.slice(l.lastIndexOf('\r\u001b[2K') + 1).replace(/^\u001b\[2K/, ''))
        .filter(Boolean);

    it('on a terminal: one line down, one line back, the retries counted on the status line; deliveries on stdout', async () => {
      const display = fakeDisplay({ tty: true, width: 80 });
      const retries = () =>
        Number(/(\d+) retries/.exec(display.stderr.slice(display.stderr.lastIndexOf('forwarding ·')))?.[1] ?? 0);
      await outage(display, () => retries() >= 3);
      const said = lines(display.stderr);
      expect(said.filter((l) => /target down/.test(l))).toHaveLength(1);
      expect(said.filter((l) => /target down/.test(l))[0]).toMatch(
        /^\d\d:\d\d:\d\d\.\d{3} target down: .*ECONNREFUSED.*; retrying \(attempt 1, next in [\d.]+ m?s\)$/,
      );
      expect(said.filter((l) => /target back/.test(l))).toEqual([
        expect.stringMatching(/target back after [\d.]+ m?s down \(\d+ failed attempts\)$/),
      ]);
      expect(said.filter((l) => /^forwarding ended/.test(l))).toEqual([
        expect.stringMatching(
          /^forwarding ended: \d+ events forwarded in order, \d+ pending; the target was down once \(\d+ failed attempts\)$/,
        ),
      ]);
      // The retries were many; the lines were not: the status line counted them.
      const failed = Number(/down once \((\d+) failed/.exec(display.stderr)?.[1]);
      expect(failed).toBeGreaterThanOrEqual(3);
      expect(display.stderr).toMatch(
        /forwarding · \d+ delivered in order · \d+ pending · target down \(.*ECONNREFUSED.*\) · \d+ retries/,
      );
      // stdout: deliveries only, each within the 80 columns.
      const out = display.stdout.trim().split('\n');
      expect(out.length).toBeGreaterThanOrEqual(3);
      for (const l of out) {
        expect(l).toMatch(/→ 200/);
        expect(l.length).toBeLessThanOrEqual(80);
      }
    });

    it('stdout piped, stderr a terminal: no status line at all, every attempt an NDJSON record, the changes once each', async () => {
      const display = fakeDisplay({ stdoutTTY: false, stderrTTY: true });
      const failures = () => display.stdout.split('\n').filter((l) => l.includes('"delivered":false')).length;
      await outage(display, () => failures() >= 3);
      expect(display.stderr).not.toContain('\r');
      expect(display.stderr).not.toContain('\u001b[2K');
      const said = lines(display.stderr);
      expect(said.filter((l) => /target down/.test(l))).toHaveLength(1);
      expect(said.filter((l) => /target back/.test(l))).toHaveLength(1);
      expect(failures()).toBeGreaterThanOrEqual(3);
    });
  });
});
