// Starting and stopping the tests' own HTTP servers on loopback, and a free port for a server started otherwise.
import type { Server } from 'node:http';
import { createServer } from 'node:net';

/** Listens on a free loopback port; resolves with the server's base URL. */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
  const addr = server.address();
  return `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
}

/** Drops the server's connections and waits until it is closed (nothing when it never started). */
export async function closeServer(server: Server | undefined): Promise<void> {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
}

/** A loopback port free now, for a server the test starts by a command line (`--port N`): two runs must not meet. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * fetch, a read retried once when the service closed the kept-alive connection as it was reused (ECONNRESET: the
 * client's idle pool keeps a connection until a second before the service's keep-alive ends, and on a loaded machine
 * that second passes before the request is written). Writes are never retried: the caller decides.
 */
export async function fetchRead(url: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (e) {
    const method = (init.method ?? 'GET').toUpperCase();
    const code = ((e as Error).cause as NodeJS.ErrnoException | undefined)?.code;
    if (method !== 'GET' || (code !== 'ECONNRESET' && code !== 'EPIPE')) throw e;
    return fetch(url, init);
  }
}
