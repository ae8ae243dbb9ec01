// coinop mcp: the MCP server (src/mcp) for the coinop context, on stdin and stdout, until the client closes stdin.
// Everything but the protocol goes to stderr: the line that says what is served, and the server's log.
import type { Invocation, Connection } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import type { ServerDeps } from '../../mcp/tool.js';
import { gateFor } from '../../cli/gate.js';
import { auditPort } from './audit.js';
import { batchPort } from '../mcp-batch.js';
import { policyPort } from './policy.js';
import type { McpOptions } from './options.js';

/** What the server is given: the coinop context, its connection (made on first use), the gates, the log. */
export function serverDeps(ctx: Invocation, options: McpOptions): ServerDeps {
  // An unknown --profile or a bad address override stops here, before the server starts.
  const profile = ctx.context();
  // The server's connection, which a batch run goes through too.
  let connection: Promise<Connection> | undefined;
  return {
    version: ctx.version,
    profile,
    connect: (catalogue) => (connection = ctx.connectAs(profile, { quiet: true, tokenCache: true, catalogue })),
    allowWrites: options.allowWrites,
    allowProduction: options.allowProduction,
    dataDir: ctx.settings.dataDir,
    configDir: ctx.settings.configDir,
    now: () => ctx.now(),
    log: (line) => ctx.io.err(`coinop mcp: ${line}\n`),
    batch: batchPort(ctx, () => connection),
    policy: policyPort(ctx, () => connection),
    audit: auditPort(ctx, () => connection),
    // Every write through the gate the commands send through, over the server's connection, naming the agent.
    gate: async (tool, agent) => {
      ctx.agent = agent;
      return gateFor(ports(ctx), await (connection ?? ctx.connect()), `mcp ${tool}`);
    },
  };
}

export async function mcp(ctx: Invocation, options: McpOptions): Promise<void> {
  const deps = serverDeps(ctx, options);
  const { createServer, serveStdio, TOOLS } = await import('../../mcp/server.js');
  const { name, environment } = deps.profile;
  const writes = !options.allowWrites
    ? 'writes preview only (no --allow-writes)'
    : environment !== 'production'
      ? 'writes allowed'
      : options.allowProduction
        ? 'writes allowed, in production'
        : 'writes preview only (production without --allow-production)';
  deps.log(`serving context ${name} (${environment}) on stdio: ${TOOLS.length} tools, ${writes}`);
  ctx.interruptNote = 'interrupted: the MCP server stopped (a call in flight may not have answered)';
  await serveStdio(createServer(deps), ctx.io.stdin, ctx.io.stdout);
}
