// A recording proxy: forwards every HTTP request to a service as it came and keeps each one (method, path with its
// query, body), so a test can hold what a client sent to a description of the service (test/support/openapi.ts).
import { Agent, createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** The path with its query string, as sent. */
  url: string;
  /** The body parsed as JSON when it is JSON, else the text (undefined when there was none). */
  body?: unknown;
}

export interface RecordingProxy {
  url: string;
  /** The requests since the last call. */
  take(): RecordedRequest[];
  close(): Promise<void>;
}

async function text(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parsed(body: string, contentType: string | undefined): unknown {
  if (!body) return undefined;
  if (!/json/i.test(contentType ?? '')) return body;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/** Starts a proxy on a loopback port in front of `target` (an http:// origin). */
export async function recordingProxy(target: string): Promise<RecordingProxy> {
  const to = new URL(target);
  const agent = new Agent({ keepAlive: true });
  let recorded: RecordedRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const body = await text(req);
    const url = req.url ?? '/';
    recorded.push({ method: req.method ?? 'GET', url, body: parsed(body, req.headers['content-type']) });
    const out = request(
      {
        host: to.hostname,
        port: to.port,
        method: req.method,
        path: url,
        agent,
        headers: { ...req.headers, host: to.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    out.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    take: () => {
      const out = recorded;
      recorded = [];
      return out;
    },
    async close() {
      agent.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
