// Requests node's HTTP parser refuses (headers over 16 KiB, broken HTTP, a slow client) still get a problem+json:
// one per connection, which then closes, and an entry in the request log.
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { PROBLEM_CONTENT_TYPE } from '../contract/index.js';
import type { RequestLog } from './request-log.js';
import { isoMillis } from './service-clock.js';

function statusOf(code: string | undefined): [number, string] {
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'the request line and headers are larger than 16 KiB'];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'the request did not arrive in time'];
  return [400, 'the request is not valid HTTP'];
}

/** Logged like any answered request, with the request line when the parser got that far. */
function logRefusal(log: RequestLog, err: Error, status: number, detail: string): void {
  const line = /^([A-Z]{1,20}) (\S{1,2000})/.exec(
    (err as { rawPacket?: Buffer }).rawPacket?.toString('latin1', 0, 2100) ?? '',
  );
  log.add({
    time: isoMillis(Date.now()),
    method: line?.[1] ?? '',
    url: line?.[2] ?? '',
    status,
    duration_ms: 0,
    reason: detail,
  });
}

export function answerParserRefusals(server: Server, log: RequestLog): void {
  // The latest response of each connection. Responses on a connection go out in order, so once this one is finished
  // every earlier one is too.
  const latest = new WeakMap<Duplex, ServerResponse>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => latest.set(req.socket, res));
  const refused = new WeakSet<Duplex>();
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || socket.destroyed || refused.has(socket)) return;
    refused.add(socket);
    const [status, detail] = statusOf(err.code);
    const title = STATUS_CODES[status] ?? 'Bad Request';
    const body = JSON.stringify({ type: 'about:blank', title, status, detail });
    logRefusal(log, err, status, detail);
    const answer = () => {
      if (!socket.writable) return void socket.destroy();
      socket.end(
        `HTTP/1.1 ${status} ${title}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    };
    // Responses still being made for earlier requests on this connection (pipelining) go out first.
    const earlier = latest.get(socket);
    if (earlier && !earlier.writableFinished) {
      earlier.once('finish', answer);
      earlier.once('close', () => earlier.writableFinished || socket.destroy());
    } else answer();
  });
}
