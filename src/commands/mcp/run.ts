// coinop mcp: the MCP server (src/mcp) for the coinop profile, on stdin and stdout, until the client closes stdin.
// Everything but the protocol goes to stderr: the line that says what is served, and the server's log.
import type { CliContext } from '../../cli/context.js';
import type { McpOptions } from './options.js';

export async function mcp(ctx: CliContext, o: McpOptions): Promise<void> {
  // An unknown --profile or a bad address override stops here, before the server starts.
  const profile = ctx.profile();
  const { createServer, serveStdio, TOOLS } = await import('../../mcp/server.js');
  const log = (line: string) => ctx.io.err(`coinop mcp: ${line}\n`);
  const writes = o.allowWrites
    ? `writes allowed${profile.environment === 'production' ? (o.allowProduction ? ' (production too)' : ' (but not in production)') : ''}`
    : 'writes preview only (no --allow-writes)';
  log(`serving profile ${profile.name} (${profile.environment}) on stdio: ${TOOLS.length} tools, ${writes}`);
  ctx.interruptNote = 'interrupted: the MCP server stopped (a call in flight may not have answered)';
  const server = createServer({
    version: ctx.version,
    profile,
    connect: (catalogue) => ctx.connectAs(profile, { quiet: true, tokenCache: true, catalogue }),
    allowWrites: o.allowWrites,
    allowProduction: o.allowProduction,
    dataDir: ctx.settings.dataDir,
    now: ctx.now,
    log,
  });
  await serveStdio(server, ctx.io.stdin, ctx.io.stdout);
}
