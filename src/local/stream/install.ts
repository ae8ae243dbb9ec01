// Puts the market data stream on the local service's HTTP server: the WebSocket at /ws, GET /_local/books/{market}
// and GET/PUT /_local/stream (connections, counters and the stream settings).
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { MARKETS, type Market } from '../../contract/enums.js';
import { problems } from '../../contract/problems.js';
import { mergeConfig } from '../config.js';
import type { Router } from '../router.js';
import type { HubContext, StreamHub } from './hub.js';

/** What the local service gives the stream: the hub's own context (config, seed, clock, authentication, request log). */
export type StreamContext = HubContext;

// Not imported from hub.js: that module (and ws) loads only on the first WebSocket request.
const MARKET_SET = new Set<string>(MARKETS);

export async function installStream(
  server: Server,
  app: Router,
  ctx: StreamContext,
): Promise<{ close(): Promise<void> }> {
  // The hub (and ws with it) loads on the first use: a local service that only answers HTTP, such as the CLI's
  // embedded one for a single command, never pays for it.
  let hub: Promise<StreamHub> | undefined;
  const getHub = () => (hub ??= import('./hub.js').then(({ StreamHub }) => new StreamHub(ctx)));
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    getHub().then(
      (h) => h.handleUpgrade(req, socket, head),
      () => socket.destroy(),
    );
  };
  server.on('upgrade', onUpgrade);

  app.get('/_local/books/:market', async (req) => {
    const { market } = req.params as { market: string };
    // Thrown, so the service's error handler answers it and the journal records why.
    if (!MARKET_SET.has(market)) throw problems.notFound(`market: must be one of ${MARKETS.join(', ')}`);
    // The shared markets answer it: the stream (and ws) need not load for a look at a book.
    return ctx.exchange.current(market as Market).snapshot();
  });

  app.get('/_local/stream', async () => ({ ...(await getHub()).stats(), settings: ctx.config.stream }));
  // Stream settings at run time (rate, pause, heartbeat interval, buffer cap, faults): merged key by key, checked.
  app.put('/_local/stream', async (req) => {
    const r = mergeConfig(ctx.config.stream, req.body);
    if (r.issues.length)
      throw problems.badRequest(r.issues.map((i) => `${i.field}: ${i.rule}`).join('; '), { issues: r.issues });
    const { faults, ...rest } = r.value;
    // In place: the hub and the control API hold these very objects.
    Object.assign(ctx.config.stream.faults, faults);
    Object.assign(ctx.config.stream, rest);
    return { ...(await getHub()).stats(), settings: ctx.config.stream };
  });

  return {
    close: async () => {
      server.off('upgrade', onUpgrade);
      if (hub) await (await hub).close();
    },
  };
}
