// A coinop gateway for tests: started as `coinop gateway start` starts it (serveGateway, over an invocation of its
// own whose upstream context is the sandbox's local service), in this process, on an ephemeral port.
import { PassThrough } from 'node:stream';
import { createContext } from '../../src/cli/invocation.js';
import { makeIO } from '../../src/cli/io.js';
import { serveGateway } from '../../src/commands/gateway/run.js';
import type { Sandbox } from '../cli/helpers.js';

export interface TestGateway {
  url: string;
  wsUrl: string;
  close(): Promise<void>;
}

export async function startTestGateway(
  sb: Sandbox,
  store: string,
  o: { approvalTtlMs?: number; rate?: number } = {},
): Promise<TestGateway> {
  const stdin = new PassThrough();
  stdin.end();
  const sink = () => {
    const s = new PassThrough();
    s.resume();
    return s;
  };
  const io = makeIO({ stdin, stdout: sink(), stderr: sink() }, { env: sb.env, noInput: true, noColour: true });
  const inv = createContext(io, sb.env, 'test');
  await inv.prepare();
  const gw = await serveGateway(inv, {
    store,
    upstream: 'local',
    host: '127.0.0.1',
    port: 0,
    rate: o.rate ?? 10_000,
    approvalTtlMs: o.approvalTtlMs ?? 3_600_000,
  });
  return { url: gw.url, wsUrl: gw.wsUrl, close: () => inv.cleanup() };
}
