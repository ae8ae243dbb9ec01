// The market-data stream through the gateway: an operator's WebSocket (bearer token of theirs, on /ws or /) is
// answered by a connection of the gateway's own to the upstream stream (the gateway's token), and frames pass both
// ways unchanged. A handshake without a valid operator token is refused before anything reaches the upstream.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { SCOPES } from '../contract/enums.js';
import { ROLE_SCOPES } from './operators.js';
import type { Operator } from './store.js';

export interface StreamProxyOptions {
  upstreamWsUrl: string;
  authenticate(token: string | undefined): Promise<Operator | undefined>;
  bearer(): Promise<string>;
}

function refuse(socket: Duplex, status: number, title: string, detail: string): void {
  const body = JSON.stringify({ type: 'about:blank', title, status, detail });
  socket.end(
    `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export function attachStreamProxy(server: Server, options: StreamProxyOptions): void {
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    upgrade(options, req, socket, head).catch(() => socket.destroy());
  });
}

async function upgrade(options: StreamProxyOptions, req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (path !== '/ws' && path !== '/') return refuse(socket, 404, 'Not Found', `no WebSocket endpoint at ${path}`);
  if (req.headers.origin !== undefined) return refuse(socket, 403, 'Forbidden', 'cross-site requests are refused');
  const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const op = await options.authenticate(token);
  if (!op) return refuse(socket, 401, 'Unauthorized', 'an operator token is required');
  if (!ROLE_SCOPES[op.role].includes(SCOPES.marketDataStream))
    return refuse(socket, 403, 'Forbidden', `${op.name}'s role lacks ${SCOPES.marketDataStream}`);
  const { WebSocket, WebSocketServer } = await import('ws');
  const upstream = new WebSocket(options.upstreamWsUrl, {
    headers: { Authorization: `Bearer ${await options.bearer()}` },
  });
  upstream.once('unexpected-response', (_r, res) =>
    refuse(socket, res.statusCode === 429 ? 429 : 502, 'Bad Gateway', `the upstream stream answered ${res.statusCode}`),
  );
  upstream.once('error', () => socket.destroy());
  upstream.once('open', () => {
    const wss = new WebSocketServer({ noServer: true });
    wss.handleUpgrade(req, socket, head, (client) => {
      upstream.on('message', (data, binary) => client.send(data, { binary }));
      client.on('message', (data, binary) => upstream.send(data, { binary }));
      client.on('close', () => upstream.close());
      upstream.on('close', (code) => client.close(code === 1005 ? 1000 : code));
      client.on('error', () => upstream.terminate());
    });
  });
}
