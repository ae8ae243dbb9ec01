// Local service: every kind of bad HTTP input is a 4xx problem, never a 5xx.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_WIRE, harness, withdrawal, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness({ config: { bodyLimitBytes: 4096 } });
});
afterAll(() => h.close());

const W = '/v2/transfer/crypto-withdrawals';

describe('HTTP errors are problems, never a 500 for bad input', () => {
  it('unknown route is a 404 problem', async () => {
    const r = await h.admin('GET', '/v2/nothing/here');
    expect(r.status).toBe(404);
    expect(r.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(r.body).toMatchObject({ type: 'about:blank', title: 'Not Found', status: 404 });
  });

  it('a known path with a method it does not have is a 405 problem with Allow; an unknown path a 404', async () => {
    for (const [method, path, allow] of [
      ['DELETE', '/v2/transfer/transfers', 'GET, HEAD'],
      ['POST', '/v2/transfer/transfers/abc', 'GET, HEAD'],
      ['GET', W, 'POST'],
      ['PUT', '/v2/transfer/deposit-addresses', 'GET, HEAD, POST'],
      ['GET', '/v2/sandbox/fiat-deposits', 'POST'],
      ['POST', '/v2/markets/BTCUSD/historical-prices', 'GET, HEAD'],
      ['GET', '/oauth2/token', 'POST'],
      ['DELETE', '/_local/health', 'GET, HEAD'],
    ]) {
      const r =
        method === 'DELETE' && path.startsWith('/_local') ? await h.control(method, path) : await h.admin(method, path);
      expect(r.status, `${method} ${path}`).toBe(405);
      expect(r.headers.get('allow'), `${method} ${path}`).toBe(allow);
      expect(r.body).toMatchObject({ type: 'about:blank', title: 'Method Not Allowed', status: 405 });
      expect(r.body.detail).toBe(`${method} is not allowed on ${path} (allowed: ${allow})`);
    }
    for (const path of [
      '/v2/transfer/transfers/a/b',
      '/v2/transfer/transfers/',
      '/v2/transfer',
      '/v3/transfer/transfers',
    ])
      expect((await h.admin('DELETE', path)).status, path).toBe(404);
  });

  it('a request without a valid token is a 401 before its body is read: broken JSON, another type, too large', async () => {
    const bodies: [string, Record<string, string>][] = [
      ['{"amount":', { 'content-type': 'application/json' }],
      ['amount=1', { 'content-type': 'text/plain' }],
      ['x'.repeat(5000), { 'content-type': 'application/json' }],
      ['', {}],
    ];
    for (const [raw, headers] of bodies) {
      for (const token of [null, 'not-a-token']) {
        const r = await h.req('POST', W, { raw, headers, token });
        expect(r.status, `${token} ${raw.slice(0, 10)} ${JSON.stringify(headers)}`).toBe(401);
        expect(r.body.title).toBe('Unauthorized');
      }
      // A known token without the scope: 403, the body unread too.
      const readonly = await h.token('local-readonly');
      const r = await h.req('POST', W, { raw, headers, token: readonly });
      expect(r.status).toBe(403);
      expect(r.body.detail).toMatch(/^insufficient scopes/);
    }
  });

  it('wrong content type is 415', async () => {
    const r = await h.req('POST', W, { raw: 'amount=1', headers: { 'content-type': 'text/plain' } });
    expect(r.status).toBe(415);
    expect(r.body.title).toBe('Unsupported Media Type');
  });

  it('a body over the limit is 413', async () => {
    const r = await h.admin('POST', W, withdrawal({ memo: 'x'.repeat(5000) }));
    expect(r.status).toBe(413);
    expect(r.body.status).toBe(413);
  });

  it('the state import takes bodies bigger than the API limit', async () => {
    for (let i = 0; i < 10; i++) await h.admin('POST', W, withdrawal({ ref_id: `big${i}` }));
    const state = (await h.control('GET', '/_local/state')).body;
    expect(JSON.stringify(state).length).toBeGreaterThan(4096);
    expect((await h.control('PUT', '/_local/state', state)).status).toBe(200);
  });

  it('broken JSON, empty body, missing body and non-object bodies are 400', async () => {
    let r = await h.req('POST', W, { raw: '{"amount":', headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/not valid JSON/);
    r = await h.req('POST', W, { raw: '', headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    r = await h.req('POST', W, {});
    expect(r.status).toBe(400);
    expect(r.body.detail).toBe('a JSON body is required');
    r = await h.admin('POST', W, [1, 2]);
    expect(r.status).toBe(400);
    expect(r.body.detail).toBe('the body must be a JSON object');
    r = await h.req('POST', W, { raw: '{"__proto__":{"x":1}}', headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
  });

  it('requests the HTTP parser refuses are answered with a problem and journaled', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const sock = connect(h.svc.port, h.svc.host);
      let text = '';
      sock.on('data', (d) => (text += d));
      sock.on('end', () => resolve(text));
      sock.on('error', reject);
      sock.write(`GET /v2/transfer/transfers HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toContain('application/problem+json');
    const journal = (await h.control('GET', '/_local/journal')).body.items as Array<Record<string, unknown>>;
    expect(journal.at(-1)).toMatchObject({
      method: 'GET',
      url: '/v2/transfer/transfers',
      status: 431,
      reason: 'the request line and headers are larger than 16 KiB',
    });
  });

  /** Writes raw bytes on one connection; resolves with everything the service sent until it closed the connection. */
  const rawExchange = (bytes: string, closeAfterMs?: number) =>
    new Promise<{ text: string; closedByService: boolean }>((resolve, reject) => {
      const sock = connect(h.svc.port, h.svc.host);
      let text = '';
      let timer: NodeJS.Timeout | undefined;
      sock.on('data', (d) => (text += d));
      sock.on('end', () => {
        clearTimeout(timer);
        resolve({ text, closedByService: true });
      });
      sock.on('error', reject);
      sock.write(bytes);
      if (closeAfterMs) {
        timer = setTimeout(() => {
          sock.destroy();
          resolve({ text, closedByService: false });
        }, closeAfterMs);
      }
    });

  it('a body over the limit is answered at once and the connection closed, the rest never read', async () => {
    // 2 MB announced, 2 bytes sent: the answer comes without waiting for the rest, and the service hangs up. Without
    // a token the answer is a 401, just as soon.
    for (const [auth, status] of [[`Authorization: Bearer ${await h.token()}\r\n`, 413] as const, ['', 401] as const]) {
      const r = await rawExchange(
        `POST ${W} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Type: application/json\r\nContent-Length: 2000000\r\n\r\n{}`,
        5000,
      );
      expect(r.text).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(r.text.toLowerCase()).toContain('connection: close');
      expect(r.closedByService).toBe(true);
    }
  });

  it('a pipelined request the parser refuses does not take the answer of the valid one before it', async () => {
    const r = await rawExchange(
      'GET /_local/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /bad path HTTP/1.1\r\n\r\n',
      5000,
    );
    expect(r.text).toMatch(/^HTTP\/1\.1 200 [\s\S]*"status":"ok"[\s\S]*HTTP\/1\.1 400 /);
    expect(r.closedByService).toBe(true);
  });

  it('an absolute-form request target is served like its path', async () => {
    const r = await rawExchange(
      `GET http://${h.svc.host}:${h.svc.port}/_local/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      5000,
    );
    expect(r.text).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('a JSON body may begin with a byte order mark', async () => {
    const r = await h.req('POST', W, {
      raw: `\ufeff${JSON.stringify(withdrawal())}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(200);
  });

  it('a __proto__ query parameter is an unknown parameter like any other, once or repeated', async () => {
    for (const q of ['__proto__=x', '__proto__=a&__proto__=b', 'constructor=x']) {
      const r = await h.admin('GET', `/v2/transfer/transfers?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.detail, q).toMatch(/^(__proto__|constructor): is not a known/);
    }
  });

  it('JSON with a charset is accepted', async () => {
    const r = await h.req('POST', W, {
      raw: JSON.stringify(withdrawal()),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(r.status).toBe(200);
  });

  it('odd values anywhere never produce a 5xx', async () => {
    const odd = [
      null,
      true,
      0,
      -1,
      1e308,
      '',
      ' ',
      'x'.repeat(300),
      [],
      {},
      [{}],
      '0x',
      '١٢٣',
      '\u0000',
      { a: { b: { c: [] } } },
    ];
    const bodies: Record<string, Record<string, unknown>> = {
      [W]: withdrawal(),
      '/v2/transfer/fees/crypto-withdrawal': {
        asset: 'BTC',
        crypto_network: 'BITCOIN',
        destination_address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
        amount: '1',
      },
      '/v2/transfer/deposit-addresses': { profile_id: 'p', crypto_network: 'BITCOIN' },
      '/v2/sandbox/fiat-deposits': {
        amount: '1',
        asset: 'USD',
        memo_id: 'm',
        fiat_network_instructions: { wire: DEMO_WIRE },
      },
    };
    for (const [path, base] of Object.entries(bodies)) {
      for (const key of Object.keys(base)) {
        for (const v of odd) {
          const r = await h.admin('POST', path, { ...base, [key]: v });
          expect(r.status, `${path} ${key}=${JSON.stringify(v)}`).toBeLessThan(500);
        }
      }
    }
    const queries = [
      'limit=abc',
      'limit=1&limit=2',
      'ids=',
      'created_at.lt=2025-13-45T00:00:00Z',
      'page_cursor=%00',
      'order=',
      'type=',
      'statuses=PENDING&statuses=x',
    ];
    for (const q of queries) {
      for (const path of ['/v2/transfer/transfers', '/v2/transfer/deposit-addresses']) {
        const r = await h.admin('GET', `${path}?${q}`);
        expect(r.status, `${path}?${q}`).toBeLessThan(500);
      }
    }
    for (const q of [
      'max_data_points=0',
      'max_data_points=99999999999',
      'increment=ONE_DAY&range.end=1900-01-01T00:00:00Z',
      'increment=ONE_MINUTE&range.begin=2099-01-01T00:00:00Z',
      'increment=ONE_DAY&pagination.offset=99999999',
    ]) {
      const r = await h.admin('GET', `/v2/markets/ETHEUR/historical-prices?${q}`);
      expect(r.status, q).toBeLessThan(500);
    }
    expect((await h.admin('GET', `/v2/transfer/transfers/${'x'.repeat(200)}`)).status).toBe(400);
  });
});
