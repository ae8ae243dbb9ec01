// Local service: web pages on this machine cannot drive it. Foreign Origin, cross-site Sec-Fetch-Site, a Host that is
// not a loopback name (DNS rebinding) and non-JSON control writes are refused before anything happens.
import http from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, harness, withdrawal, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

interface Answer {
  status: number;
  type: string;
  body: any;
  text: string;
}

/** One request with exactly these headers (node's fetch will not send a chosen Host). */
function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const all: Record<string, string | number> = { ...headers };
    if (body !== undefined) all['content-length'] = Buffer.byteLength(body);
    const req = http.request({ host: '127.0.0.1', port, method, path, headers: all, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        let parsed: unknown;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body: parsed, text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const own = () => `127.0.0.1:${h.svc.port}`;
const transferCount = async () => (await h.admin('GET', '/v2/transfer/transfers')).body.items.length as number;

/** Writes raw bytes; resolves with what the service sent until it closed the connection. */
function raw(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = connect(h.svc.port, '127.0.0.1');
    let text = '';
    sock.on('data', (d) => (text += d));
    sock.on('end', () => resolve(text));
    sock.on('error', reject);
    sock.write(bytes);
  });
}

describe('the control API refuses cross-site requests', () => {
  it('a POST /_local/reset with a foreign Origin is a 403 problem naming the Origin, and wipes nothing', async () => {
    await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: 'guard-keep' }));
    const before = await transferCount();
    expect(before).toBeGreaterThan(0);
    for (const origin of [
      'https://evil.example',
      'null',
      `http://localhost:${h.svc.port + 1}`,
      `https://127.0.0.1:${h.svc.port}`,
    ]) {
      const r = await send(h.svc.port, 'POST', '/_local/reset', {
        host: own(),
        origin,
        'content-type': 'application/json',
      });
      expect(r.status, origin).toBe(403);
      expect(r.type).toMatch(/application\/problem\+json/);
      expect(r.body.detail, origin).toMatch(/^Origin: .* is not this service's own origin/);
    }
    expect(await transferCount()).toBe(before);
  });

  it("the service's own origins pass, by each loopback name", async () => {
    for (const origin of [
      `http://127.0.0.1:${h.svc.port}`,
      `http://localhost:${h.svc.port}`,
      `http://[::1]:${h.svc.port}`,
    ]) {
      const r = await send(h.svc.port, 'GET', '/_local/health', { host: own(), origin });
      expect(r.status, origin).toBe(200);
    }
  });

  it('Sec-Fetch-Site cross-site or same-site is refused; same-origin and none pass', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const r = await send(h.svc.port, 'GET', '/_local/state', { host: own(), 'sec-fetch-site': site });
      expect(r.status, site).toBe(403);
      expect(r.body.detail).toMatch(/^Sec-Fetch-Site: /);
      expect(r.text).not.toContain(DEMO.clientSecret);
    }
    for (const site of ['same-origin', 'none']) {
      expect(
        (await send(h.svc.port, 'GET', '/_local/health', { host: own(), 'sec-fetch-site': site })).status,
        site,
      ).toBe(200);
    }
  });

  it('control writes take application/json only, bodiless ones too: a form post to reset is a 415 and wipes nothing', async () => {
    await h.admin('POST', '/v2/transfer/crypto-withdrawals', withdrawal({ ref_id: 'guard-keep-2' }));
    const before = await transferCount();
    const cases: [Record<string, string>, string | undefined][] = [
      [{ 'content-type': 'application/x-www-form-urlencoded' }, 'a=1'],
      [{ 'content-type': 'text/plain' }, '{}'],
      [{ 'content-type': 'multipart/form-data; boundary=x' }, '--x--'],
      [{}, undefined],
    ];
    for (const [headers, body] of cases) {
      const r = await send(h.svc.port, 'POST', '/_local/reset', { host: own(), ...headers }, body);
      expect(r.status, JSON.stringify(headers)).toBe(415);
      expect(r.body.detail).toMatch(/control API writes must send application\/json/);
    }
    expect(
      (await send(h.svc.port, 'PUT', '/_local/faults', { host: own(), 'content-type': 'text/plain' }, '{}')).status,
    ).toBe(415);
    expect(await transferCount()).toBe(before);
    // The JSON content type without a body is a reset.
    const ok = await send(h.svc.port, 'POST', '/_local/reset', { host: own(), 'content-type': 'application/json' });
    expect(ok.status, ok.text).toBe(200);
    expect(await transferCount()).toBe(0);
    // A bodiless write that needs a body still names what is wrong.
    const credit = await send(h.svc.port, 'POST', `/_local/profiles/${DEMO.profileId}/balances`, {
      host: own(),
      'content-type': 'application/json',
    });
    expect(credit.status).toBe(400);
  });
});

describe('the Host must name the service by a loopback name (DNS rebinding)', () => {
  it('GET /_local/state with a foreign Host is a 403 and gives away no secret', async () => {
    const r = await send(h.svc.port, 'GET', '/_local/state', { host: `evil.example:${h.svc.port}` });
    expect(r.status).toBe(403);
    expect(r.type).toMatch(/application\/problem\+json/);
    expect(r.body.detail).toMatch(/^Host: "evil\.example:\d+" is not a loopback name of this service/);
    expect(r.text).not.toContain(DEMO.clientSecret);
  });

  it('a service on a loopback address checks the Host of the API and token endpoint too', async () => {
    const token = await h.token();
    const evil = `evil.example:${h.svc.port}`;
    expect(
      (await send(h.svc.port, 'GET', '/v2/transfer/transfers', { host: evil, authorization: `Bearer ${token}` }))
        .status,
    ).toBe(403);
    const form = `grant_type=client_credentials&client_id=${DEMO.adminClientId}&client_secret=${DEMO.clientSecret}`;
    const t = await send(
      h.svc.port,
      'POST',
      '/oauth2/token',
      { host: evil, 'content-type': 'application/x-www-form-urlencoded' },
      form,
    );
    expect(t.status).toBe(403);
    expect(t.text).not.toContain('access_token');
    for (const host of [
      `127.0.0.1:${h.svc.port}`,
      `localhost:${h.svc.port}`,
      `LOCALHOST:${h.svc.port}`,
      `[::1]:${h.svc.port}`,
      '127.0.0.1',
      'localhost:8080',
    ]) {
      expect(
        (await send(h.svc.port, 'GET', '/v2/transfer/transfers', { host, authorization: `Bearer ${token}` })).status,
        host,
      ).toBe(200);
    }
  });

  it('refuses look-alike names', async () => {
    for (const host of [
      '127.0.0.1.evil.example',
      'localhost.',
      'evil.localhost',
      '127.0.0.2',
      'user@127.0.0.1',
      '[::2]',
      '0x7f.1',
    ]) {
      const r = await send(h.svc.port, 'GET', '/_local/health', { host });
      expect(r.status, host).toBe(403);
    }
    // node's client puts its own Host in place of an empty one.
    expect(await raw('GET /_local/health HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 403 /);
  });

  it('an absolute-form request target names the host, whatever the Host header says', async () => {
    const bad = await raw(
      `GET http://evil.example:${h.svc.port}/_local/state HTTP/1.1\r\nHost: ${own()}\r\nConnection: close\r\n\r\n`,
    );
    expect(bad).toMatch(/^HTTP\/1\.1 403 /);
    expect(bad).not.toContain(DEMO.clientSecret);
    const good = await raw(
      `GET http://${own()}/_local/health HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n`,
    );
    expect(good).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('an HTTP/1.1 request without a Host is a 400 problem; HTTP/1.0 may leave it out', async () => {
    const missing = await raw('GET /_local/health HTTP/1.1\r\nConnection: close\r\n\r\n');
    expect(missing).toMatch(/^HTTP\/1\.1 400 /);
    expect(missing).toContain('application/problem+json');
    expect(missing).toContain('Host: the header is required');
    expect(await raw('GET /_local/health HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('a service on every address serves the API under any Host, the control API under loopback names only', async () => {
    const open = await harness({ host: '0.0.0.0' });
    try {
      const token = await open.token();
      const r = await send(open.svc.port, 'GET', '/v2/transfer/transfers', {
        host: `coinop.lan:${open.svc.port}`,
        authorization: `Bearer ${token}`,
      });
      expect(r.status).toBe(200);
      expect((await send(open.svc.port, 'GET', '/_local/health', { host: `coinop.lan:${open.svc.port}` })).status).toBe(
        403,
      );
      expect((await send(open.svc.port, 'GET', '/_local/health', { host: `127.0.0.1:${open.svc.port}` })).status).toBe(
        200,
      );
    } finally {
      await open.close();
    }
  });

  it('every refusal is in the journal with its reason', async () => {
    await send(h.svc.port, 'GET', '/_local/profiles', { host: 'evil.example' });
    const { items } = (await h.control('GET', '/_local/journal')).body as {
      items: { url: string; status: number; reason?: string }[];
    };
    expect(items.at(-1)).toMatchObject({
      url: '/_local/profiles',
      status: 403,
      reason: expect.stringMatching(/^Host: "evil\.example"/),
    });
  });
});
