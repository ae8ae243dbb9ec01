// Another program on a loopback port: a web server that knows nothing of coinop. It answers every GET with a 404
// page and every other method with 501 (as `python3 -m http.server` does), and keeps every request it was sent, so a
// test can say whether any of them carried a credential.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { closeServer, listenOnLoopback } from './http-server.js';

export interface ForeignRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ForeignServer {
  url: string;
  port: number;
  requests: ForeignRequest[];
  /** The requests that carried a credential: an Authorization header, a client secret, or one of `secrets`. */
  withSecrets(secrets: string[]): ForeignRequest[];
  close(): Promise<void>;
}

export async function foreignServer(): Promise<ForeignServer> {
  const requests: ForeignRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.setHeader('server', 'SimpleHTTP/0.6 Python/3.12.3');
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.statusCode = req.method === 'GET' || req.method === 'HEAD' ? 404 : 501;
      res.end(`<html><body><h1>Error ${res.statusCode}</h1></body></html>`);
    });
  });
  const url = await listenOnLoopback(server);
  return {
    url,
    port: Number(new URL(url).port),
    requests,
    withSecrets: (secrets) =>
      requests.filter(
        (r) =>
          r.headers.authorization !== undefined ||
          /client_secret/i.test(r.body) ||
          secrets.some((s) => r.body.includes(s) || r.url.includes(s) || JSON.stringify(r.headers).includes(s)),
      ),
    close: () => closeServer(server),
  };
}
