// coinop's Model Context Protocol server: the tools (read-tools.ts, batch-tool.ts, write-tools.ts) and resources
// (resources.ts) of one coinop context, over any MCP transport (`coinop mcp` serves it on stdio).
//
// Tools are listed and called through the SDK's low-level handlers rather than McpServer.registerTool, which takes
// zod schemas: the tools' schemas are the contract's JSON Schemas (schema.ts), listed as they are and checked with
// the contract's own validator, so a bad argument is refused with the same `field: rule` the CLI prints, before
// anything is sent. A failure is a tool error (isError) with the CLI's line and its JSON error object (category,
// message, hint, problem), never a crash of the server. Every call is written to the audit trail, with the client's
// name from the handshake.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Readable, Writable } from 'node:stream';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  type JSONRPCMessage,
  ListToolsRequestSchema,
  McpError,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import type { TSchema } from '@sinclair/typebox';
import { schemaIssues } from '../contract/index.js';
import { issueMessage } from '../client/service-client.js';
import type { CataloguePolicy } from '../client/catalogue-policy.js';
import { type CoinopError, errorLine, errorReport, toCoinopError, usageError } from '../errors.js';
import { WITHDRAW_BATCH } from './batch-send.js';
import { BATCH_DRY_RUN } from './batch-tool.js';
import type { AuditOutcome } from '../audit/entry.js';
import { outcomeOfError } from '../audit/outcomes.js';
import type { AuditAttempt } from './ports.js';
import { READ_TOOLS } from './read-tools.js';
import { registerResources } from './resources.js';
import type { Answer, Call, McpConnection, ServerDeps, Tool } from './tool.js';
import { WRITE_TOOLS } from './write-tools.js';
import { DEPOSIT_TOOLS } from './deposit-tools.js';

export const TOOLS: Tool[] = [...READ_TOOLS, BATCH_DRY_RUN, ...WRITE_TOOLS, WITHDRAW_BATCH, ...DEPOSIT_TOOLS];

const INSTRUCTIONS = `coinop: balances, transfers, deposit addresses, the address book, fiat accounts, fee quotes, limits and market data of one coinop context (read coinop://context for which, and coinop://catalogue for the assets, networks and markets).
Tools that move money or create resources (withdraw, internal_transfer, fiat_withdrawal, conversion, deposit_address_create) preview by default and send nothing: the preview shows the request, the fee, the balance after, the policy's verdict and the gates. They send only with confirm: true, on a server the operator started with --allow-writes (and --allow-production in production), when the policy allows it. Every write carries a ref_id (returned by the preview): confirm with that ref_id, and retry with it; it never sends twice.
Amounts are decimal strings ("0.01"), never numbers.`;

/** The tool as tools/list shows it: plain JSON schemas, and hints of what it does. */
function listed(tool: Tool): McpTool {
  const plain = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: plain(tool.input) as McpTool['inputSchema'],
    outputSchema: plain(tool.output) as McpTool['outputSchema'],
    annotations: {
      title: tool.title,
      readOnlyHint: !tool.gated,
      destructiveHint: !!tool.gated,
      // The same call twice (with its ref_id) does what it did once.
      idempotentHint: true,
      openWorldHint: true,
    },
  };
}

/** A failure as a tool error: the CLI's line, then its JSON error object. */
function errorResult(err: CoinopError, notes: string[]): CallToolResult {
  return {
    isError: true,
    content: [
      { type: 'text', text: errorLine(err) },
      { type: 'text', text: JSON.stringify({ error: errorReport(err) }) },
      ...notes.map((text) => ({ type: 'text' as const, text })),
    ],
  };
}

function okResult(answer: Answer, notes: string[]): CallToolResult {
  return {
    content: [
      { type: 'text', text: JSON.stringify(answer.structured) },
      ...notes.map((text) => ({ type: 'text' as const, text })),
    ],
    structuredContent: answer.structured,
  };
}

export function createServer(deps: ServerDeps): McpServer {
  const mcp = new McpServer({ name: 'coinop', title: 'coinop', version: deps.version }, { instructions: INSTRUCTIONS });
  const { server } = mcp;
  const byName = new Map(TOOLS.map((t) => [t.name, t]));
  const list = TOOLS.map(listed);
  // A catalogue note (a name the catalogue does not list) goes with the answer of the call that made it.
  const notesOfCall = new AsyncLocalStorage<string[]>();
  const catalogue: CataloguePolicy = {
    authoritative: deps.context.environment === 'local',
    listed: new Set(),
    note(text) {
      const notes = notesOfCall.getStore();
      if (!notes) deps.log(text);
      else if (!notes.includes(text)) notes.push(text);
    },
  };
  let connection: Promise<McpConnection> | undefined;
  // Made on first use and kept; one that failed (the service unreachable) is tried again by the next call.
  const conn = () =>
    (connection ??= deps.connect(catalogue).catch((error: unknown) => {
      connection = undefined;
      throw error;
    }));

  server.registerCapabilities({ tools: { listChanged: false } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: list }));
  server.setRequestHandler(CallToolRequestSchema, (req) => {
    const tool = byName.get(req.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Tool ${req.params.name} not found`);
    const notes: string[] = [];
    const call = makeCall(deps, tool, { catalogue, conn, notes, client: server.getClientVersion() });
    const args = (req.params.arguments ?? {}) as Record<string, unknown>;
    return notesOfCall.run(notes, () => callTool(tool, args, call, notes));
  });
  registerResources(mcp, deps, TOOLS);
  return mcp;
}

/** Without an audit trail, an attempt's handle that records nothing. */
const UNRECORDED: AuditAttempt = { done: async () => {}, failed: async () => {} };

function makeCall(
  deps: ServerDeps,
  tool: Tool,
  options: {
    catalogue: CataloguePolicy;
    conn: () => Promise<McpConnection>;
    notes: string[];
    client?: { name: string; version: string };
  },
): Call {
  const client = { name: options.client?.name ?? 'unknown', version: options.client?.version ?? '' };
  const agent = `${client.name} ${client.version}`.trim();
  const { audit } = deps;
  return {
    deps,
    tool: tool.name,
    client,
    agent,
    catalogue: options.catalogue,
    conn: options.conn,
    note: (text) => void options.notes.push(text),
    attempt: (event) => (audit ? audit.attempt(event, agent) : Promise.resolve(UNRECORDED)),
    record: async (event) => {
      try {
        await audit?.note(event, agent);
      } catch (e) {
        deps.log(`the audit trail could not record ${event.kind} of ${tool.name}: ${toCoinopError(e).message}`);
      }
    },
  };
}

/** The arguments as the trail keeps them: a batch's rows counted, not copied. */
function keptArguments(args: Record<string, unknown>): Record<string, unknown> {
  const { rows, ...rest } = args;
  return Array.isArray(rows) ? { ...rest, rows: rows.length } : args;
}

/** How a call ended, for the trail: sent (or sent before: already_submitted), answered, or its error's outcome. */
function callOutcome(answer: Answer | undefined, err: CoinopError | undefined): AuditOutcome {
  if (err || !answer) return outcomeOfError(err);
  if (answer.outcome === 'read' || answer.outcome === 'preview') return { result: 'answered' };
  return {
    result: 'sent',
    ...(answer.transfer_id ? { transfer_id: answer.transfer_id } : {}),
    ...(answer.outcome === 'already_submitted' ? { already_submitted: true } : {}),
  };
}

/** One call: its arguments against the tool's schema, the tool, its answer or its error, and the audit trail. */
async function callTool(
  tool: Tool,
  args: Record<string, unknown>,
  call: Call,
  notes: string[],
): Promise<CallToolResult> {
  let answer: Answer | undefined;
  let err: CoinopError | undefined;
  try {
    const issues = schemaIssues(tool.input as unknown as TSchema, args);
    if (issues.length) throw usageError(issueMessage(issues));
    answer = await tool.run(args, call);
  } catch (e) {
    err = toCoinopError(e);
  }
  await call.record({
    kind: 'mcp_call',
    ref_id: answer?.ref_id ?? (typeof args.ref_id === 'string' ? args.ref_id : null),
    what: { tool: tool.name, arguments: keptArguments(args) },
    outcome: callOutcome(answer, err),
  });
  return answer ? okResult(answer, notes) : errorResult(err as CoinopError, notes);
}

/**
 * Serves on stdio (`stdin` and `stdout`: the protocol, nothing else) until the client closes stdin or the
 * connection. Every request read before that is answered first: a withdrawal being sent ends and says so.
 */
export async function serveStdio(mcp: McpServer, stdin: Readable, stdout: Writable): Promise<void> {
  const transport = new StdioServerTransport(stdin, stdout);
  const closed = new Promise<void>((resolve) => {
    mcp.server.onclose = () => resolve();
  });
  const ended = new Promise<void>((resolve) => {
    stdin.once('end', () => resolve());
    stdin.once('close', () => resolve());
  });
  await mcp.connect(transport);
  const unanswered = new Set<string | number>();
  let answeredAll = () => {};
  const received = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if ('method' in message && 'id' in message) unanswered.add(message.id);
    received?.(message);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage) => {
    await send(message);
    if (
      !('method' in message) &&
      'id' in message &&
      message.id !== undefined &&
      unanswered.delete(message.id) &&
      !unanswered.size
    )
      answeredAll();
  };
  await Promise.race([closed, ended]);
  if (unanswered.size) await Promise.race([closed, new Promise<void>((resolve) => (answeredAll = resolve))]);
  await mcp.close();
}
