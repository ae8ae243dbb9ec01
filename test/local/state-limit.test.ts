// Local service: PUT /_local/state takes what the service can hold and no more. A bigger body is a 413 answered from
// Content-Length alone, or, chunked, as soon as the limit is passed; the rest is never read and the service goes on.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateImportLimit } from '../../src/local/routes/control.js';
import { defaultConfig } from '../../src/local/config.js';
import { harness, withdrawal, type Harness } from './helpers.js';

const SMALL_LIMIT = 256 * 1024;
let h: Harness;
let small: Harness;
beforeAll(async () => {
  h = await harness();
  small = await harness({ config: { stateBodyLimitBytes: SMALL_LIMIT } });
});
afterAll(async () => {
  await h.close();
  await small.close();
});

/**
 * Sends a request head, then body bytes from `next` one piece at a time until the service answers (the body is never
 * finished); resolves with the answer, how many body bytes had been sent, and whether the service closed the connection.
 */
function exchange(
  port: number,
  head: string,
  next: () => Buffer | undefined,
): Promise<{ text: string; sent: number; closed: boolean }> {
  return new Promise((resolve) => {
    const sock = connect(port, '127.0.0.1');
    let text = '';
    let sent = 0;
    let finished = false;
    const finish = (closed: boolean) => {
      if (finished) return;
      finished = true;
      sock.destroy();
      resolve({ text, sent, closed });
    };
    sock.on('data', (d) => (text += d));
    sock.on('end', () => finish(true));
    // A reset after the answer is a close too; before it, the test fails on the missing answer.
    sock.on('error', () => finish(true));
    const pump = () => {
      if (finished || text) return;
      const piece = next();
      if (!piece) return; // nothing more to send: wait for the answer or the close
      sent += piece.length;
      sock.write(piece, () => setImmediate(pump));
    };
    sock.write(head, pump);
  });
}

describe('PUT /_local/state is bounded', () => {
  it('a body announced over the limit (400 MB) is a 413 at once, from Content-Length alone, and the connection closes', async () => {
    const limit = stateImportLimit(h.svc.config);
    let once = false;
    const r = await exchange(
      h.svc.port,
      `PUT /_local/state HTTP/1.1\r\nHost: 127.0.0.1:${h.svc.port}\r\nContent-Type: application/json\r\nContent-Length: 400000000\r\n\r\n`,
      () => {
        if (once) return undefined;
        once = true;
        return Buffer.from('{"version":');
      },
    );
    expect(r.text).toMatch(/^HTTP\/1\.1 413 /);
    expect(r.text).toContain('application/problem+json');
    expect(r.text).toContain(`the state is larger than ${limit} bytes`);
    expect(r.text).toContain('stateBodyLimitBytes');
    expect(r.text.toLowerCase()).toContain('connection: close');
    expect(r.closed).toBe(true);
    // The service goes on answering.
    expect((await h.control('GET', '/_local/health')).status).toBe(200);
  });

  it('a chunked body is refused once it passes the limit, before it ends, and the connection closes', async () => {
    const piece = Buffer.from(`4000\r\n${' '.repeat(0x4000)}\r\n`);
    const cap = 64 * SMALL_LIMIT;
    let total = 0;
    const r = await exchange(
      small.svc.port,
      `PUT /_local/state HTTP/1.1\r\nHost: 127.0.0.1:${small.svc.port}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      () => {
        if (total >= cap) return undefined;
        total += piece.length;
        return piece;
      },
    );
    expect(r.text).toMatch(/^HTTP\/1\.1 413 /);
    expect(r.text).toContain(`the state is larger than ${SMALL_LIMIT} bytes`);
    expect(r.closed).toBe(true);
    // Answered while the body was still coming, soon after it passed the limit (the pieces are sent one at a time).
    expect(r.sent).toBeGreaterThan(SMALL_LIMIT);
    expect(r.sent).toBeLessThan(2 * SMALL_LIMIT);
    expect((await small.control('GET', '/_local/health')).status).toBe(200);
  });

  it('a state under the limit still imports', async () => {
    for (let i = 0; i < 20; i++)
      await small.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: `limit-${i}` }));
    const state = (await small.control('GET', '/_local/state')).body;
    expect(JSON.stringify(state).length).toBeLessThan(SMALL_LIMIT);
    expect((await small.control('PUT', '/_local/state', state)).status).toBe(200);
  });

  it('the default limit holds an export of 100,000 transfers', async () => {
    for (let i = 0; i < 20; i++)
      await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: `size-${i}` }));
    const state = (await h.control('GET', '/_local/state')).body;
    const rows = state.tables.transfers as unknown[];
    const perTransfer = Math.max(...rows.map((t) => JSON.stringify(t).length + 1));
    const rest = JSON.stringify({ ...state, tables: { ...state.tables, transfers: [] } }).length;
    expect(rest + 100_000 * perTransfer).toBeLessThan(stateImportLimit(defaultConfig()));
  });
});
