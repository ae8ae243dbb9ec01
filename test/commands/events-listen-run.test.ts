// coinop events listen's run with fakes of its ports (test/commands/ports.ts) against a local service in this process
// and a receiver in this test: --print-secret prints the context's signing secret (made once, kept in the configuration
// directory); --forward-to POSTs each event signed with it, a refused delivery retried until the receiver takes it,
// each attempt a record on stdout, and the line Ctrl-C prints says how many were forwarded.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContextStore } from '../../src/cli/ports.js';
import { declareEventsListen } from '../../src/commands/events/flags.js';
import { listen } from '../../src/commands/events/listen.js';
import { SIGNATURE_HEADER, verifySignature } from '../../src/events/signature.js';
import { parseArgv } from '../support/argv.js';
import { fakeDisplay, fixedClock, keptInterrupt, sharedLocalFixture } from './ports.js';

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
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
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
      expect(delivered.length).toBeGreaterThanOrEqual(2);
      expect(received.every((r) => r.signed && r.agent === 'coinop/1.2.3')).toBe(true);
      expect(d.display.stderr).toContain(`Forwarding events to ${url} (context local, every type), from `);
      expect(d.interrupt.note()).toMatch(/^interrupted: forwarding stopped; \d+ events forwarded in order\./);
      await d.interrupt.exit();
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
