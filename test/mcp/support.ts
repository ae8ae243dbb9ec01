// Test support for the MCP server: the server `coinop mcp` makes (its deps from a real CLI context, so the same
// profile resolution, connection, token cache and catalogue policy), driven in this process by the SDK's own client
// over the SDK's in-memory transport.
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createContext } from '../../src/cli/invocation.js';
import { makeIO } from '../../src/cli/io.js';
import { recordPolicyEvents } from '../../src/cli/policy-audit.js';
import { ports } from '../../src/cli/ports.js';
import { batchPort } from '../../src/commands/mcp-batch.js';
import type { McpOptions } from '../../src/commands/mcp/options.js';
import { serverDeps } from '../../src/commands/mcp/run.js';
import { createServer } from '../../src/mcp/server.js';
import type { ServerDeps } from '../../src/mcp/tool.js';
import { capturedStreams } from '../cli/helpers.js';
import { BTC_ADDRESS } from '../support/addresses.js';
import type { Sandbox } from '../cli/helpers.js';

export const CLIENT = { name: 'vitest-agent', version: '1.2.3' };

export interface InProcess {
  client: Client;
  deps: ServerDeps;
  /** What the server wrote to stderr (its log); stdout is the protocol's, and in process nothing writes there. */
  readonly stderr: string;
  readonly stdout: string;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** The server for the environment `env` (a sandbox's: COINOP_BASE_URL names the local service), with the SDK client. */
export async function inProcess(
  env: Record<string, string | undefined>,
  options: McpOptions,
  more: Partial<ServerDeps> = {},
): Promise<InProcess> {
  const streams = capturedStreams();
  const io = makeIO({ stdin: new PassThrough(), stdout: streams.out, stderr: streams.err }, { env });
  const ctx = createContext(io, env, '0.0.0-test');
  // As runCli does for every command: the policy's verdicts go to the audit trail.
  recordPolicyEvents(ctx.onPolicyEvent, () => ctx.audit, ctx.onCleanup);
  await ctx.prepare();
  const deps = { ...serverDeps({ ...ports(ctx), batch: (conn) => batchPort(ctx, conn) }, options), ...more };
  const server = createServer(deps);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client(CLIENT);
  await client.connect(clientSide);
  return {
    client,
    deps,
    get stderr() {
      return streams.stderr;
    },
    get stdout() {
      return streams.stdout;
    },
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    async close() {
      await client.close();
      await server.close();
      await ctx.cleanup();
    },
  };
}

/** The text blocks of a result. */
export const texts = (r: CallToolResult): string[] =>
  r.content.filter((c): c is { type: 'text'; text: string } => c.type === 'text').map((c) => c.text);

/** A tool error's JSON error object (the CLI's -o json error, less the exit code). */
export function errorOf(result: CallToolResult): { category: string; message: string; hint?: string; problem?: any } {
  if (!result.isError)
    throw new Error(`not a tool error: ${JSON.stringify(result.structuredContent ?? result.content)}`);
  return JSON.parse(texts(result)[1]).error;
}

/** The structured answer of a call that succeeded. */
export function answerOf(result: CallToolResult): any {
  if (result.isError) throw new Error(`a tool error: ${texts(result).join(' | ')}`);
  return result.structuredContent;
}

/** The BTC destination of the MCP withdraw tests. */
export const BTC = { asset: 'BTC', crypto_network: 'BITCOIN', destination_address: BTC_ADDRESS };

/** Requests to the service's withdrawal endpoint since the sandbox's last look (control requests left out). */
export async function withdrawalPosts(sb: Sandbox): ReturnType<Sandbox['sent']> {
  return (await sb.sent()).filter((e) => e.method === 'POST' && e.url.startsWith('/v2/transfer/crypto-withdrawals'));
}
