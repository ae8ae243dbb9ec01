// Starting and stopping the tests' own HTTP servers on loopback.
import type { Server } from 'node:http';

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
