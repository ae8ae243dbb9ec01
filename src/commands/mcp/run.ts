// coinop mcp: the MCP server (src/mcp) for the coinop context, on stdin and stdout, until the client closes stdin.
// Everything but the protocol goes to stderr: the line that says what is served, and the server's log.
import type { Connection } from '../../cli/invocation.js';
import type { Ports } from '../../cli/ports.js';
import type { BatchPort } from '../../mcp/ports.js';
import type { ServerDeps } from '../../mcp/tool.js';
import { gateFor } from '../../cli/gate.js';
import { auditPort } from './audit.js';
import { policyPort } from './policy.js';
import type { McpOptions } from './options.js';

/**
 * What the server takes: the stdio and its log (display), the context and its connection (service), the audit trail
 * naming the agent, the clock, the way out (interrupt), the context's policy, the version for the handshake, and how
 * a confirmed batch is sent (`coinop withdraw batch` over the server's connection: src/commands/mcp-batch.ts).
 */
export type McpDeps = Pick<
  Ports,
  'display' | 'service' | 'audit' | 'agent' | 'clock' | 'interrupt' | 'policy' | 'version'
> & { batch(connection: () => Promise<Connection> | undefined): BatchPort };

/** What the server is given: the coinop context, its connection (made on first use), the gates, the log. */
export function serverDeps(ctx: McpDeps, options: McpOptions): ServerDeps {
  // An unknown --context or a bad address override stops here, before the server starts.
  const context = ctx.service.context();
  // The server's connection, which a batch run goes through too.
  let connection: Promise<Connection> | undefined;
  return {
    version: ctx.version,
    context,
    connect: (catalogue) => (connection = ctx.service.connectAs(context, { quiet: true, tokenCache: true, catalogue })),
    allowWrites: options.allowWrites,
    allowProduction: options.allowProduction,
    dataDir: ctx.service.dataDir(),
    configDir: ctx.policy.configDir(),
    now: () => ctx.clock.now(),
    log: (line) => ctx.display.io.err(`coinop mcp: ${line}\n`),
    batch: ctx.batch(() => connection),
    policy: policyPort(ctx, () => connection),
    audit: auditPort(ctx, () => connection),
    // Every write through the gate the commands send through, over the server's connection, naming the agent.
    gate: async (tool, agent) => {
      ctx.agent.actingFor(agent);
      return gateFor(ctx, await (connection ?? ctx.service.connect()), `mcp ${tool}`);
    },
  };
}

export async function mcp(ctx: McpDeps, options: McpOptions): Promise<void> {
  const deps = serverDeps(ctx, options);
  const { createServer, serveStdio, TOOLS } = await import('../../mcp/server.js');
  const { name, environment } = deps.context;
  const writes = !options.allowWrites
    ? 'writes preview only (no --allow-writes)'
    : environment !== 'production'
      ? 'writes allowed'
      : options.allowProduction
        ? 'writes allowed, in production'
        : 'writes preview only (production without --allow-production)';
  deps.log(`serving context ${name} (${environment}) on stdio: ${TOOLS.length} tools, ${writes}`);
  ctx.interrupt.say('interrupted: the MCP server stopped (a call in flight may not have answered)');
  await serveStdio(createServer(deps), ctx.display.io.stdin, ctx.display.io.stdout);
}
