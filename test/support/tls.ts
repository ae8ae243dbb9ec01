// Test support for https: a TLS front (127.0.0.1, a self-signed certificate valid to 2126) that passes every
// connection through to a plain http service, so a sandbox or production profile can be pointed at the local
// service over https. Child processes trust the certificate with NODE_EXTRA_CA_CERTS: { ...TLS_ENV }.
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';

export const TLS_CERT = join(__dirname, 'tls/cert.pem');
export const TLS_KEY = join(__dirname, 'tls/key.pem');
/** The environment a child process needs to trust the test certificate. */
export const TLS_ENV = { NODE_EXTRA_CA_CERTS: TLS_CERT };

export interface TlsFront {
  /** https://127.0.0.1:<port>, in front of the target. */
  url: string;
  close(): Promise<void>;
}

/** An https address in front of a plain http one (websocket upgrades included: bytes pass through as they are). */
export async function tlsFront(target: string): Promise<TlsFront> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const server = createTlsServer({ key: readFileSync(TLS_KEY), cert: readFileSync(TLS_CERT) }, (front) => {
    const back = connect(Number(port), hostname);
    for (const s of [front, back]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => (s === front ? back : front).destroy());
    }
    front.pipe(back).pipe(front);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
