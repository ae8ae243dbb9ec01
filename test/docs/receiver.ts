// A webhook receiver on a loopback port, for a page's `coinop events listen --forward-to` (<!-- webhook receiver -->):
// it answers each delivery 200, or 503 to the first delivery of one event type when the page says the receiver refuses
// it once, and keeps every request (its headers and body) so the test can check what came.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { closeServer, listenOnLoopback } from '../support/http-server.js';

export interface Delivery {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

export interface WebhookReceiver {
  port: number;
  deliveries: Delivery[];
  close(): Promise<void>;
}

/** `refuseOnce`: an event type whose first delivery is answered 503 (a receiver down for a moment). */
export async function webhookReceiver(refuseOnce?: string): Promise<WebhookReceiver> {
  const deliveries: Delivery[] = [];
  let refused = false;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const refuse = !refused && refuseOnce !== undefined && req.headers['coinop-event-type'] === refuseOnce;
      if (refuse) refused = true;
      const status = refuse ? 503 : 200;
      deliveries.push({ url: req.url ?? '', headers: req.headers, body, status });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(refuse ? 'down for a moment' : 'ok');
    });
  });
  const url = await listenOnLoopback(server);
  return { port: Number(new URL(url).port), deliveries, close: () => closeServer(server) };
}
