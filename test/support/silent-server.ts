// A server on loopback that accepts connections and never answers: a stopped (kill -STOP) or stuck service.
import { createServer, type AddressInfo, type Socket } from 'node:net';

/** Listens on a free loopback port; `connections` counts what it accepted; `close` drops them all and stops it. */
export async function silentServer(): Promise<{ url: string; connections(): number; close(): Promise<void> }> {
  const sockets: Socket[] = [];
  const server = createServer((s) => void sockets.push(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => sockets.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
