// coinop mcp: declarations; the flags are checked in options.ts, the work is in run.ts (the server: src/mcp).
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { examples } from '../../cli/help.js';
import { ports, type RootPorts } from '../../cli/ports.js';
import type { RawFlags } from '../../cli/options.js';
import { MCP_FLAG_TABLE } from './flags.js';

export function register(program: Command, ctx: Invocation, root: RootPorts): void {
  examples(
    MCP_FLAG_TABLE.declare(program.command('mcp'))
      .description(
        "a Model Context Protocol server on stdio for AI agents: the context's reads as tools; money-moving tools preview unless started with --allow-writes",
      )
      .action(async (raw: RawFlags) => {
        const { parseMcpOptions } = await import('./options.js');
        const o = parseMcpOptions(raw);
        const [{ mcp }, batchPort] = await Promise.all([import('./run.js'), root.mcpBatch()]);
        await mcp({ ...ports(ctx), batch: (connection) => batchPort(ctx, connection) }, o);
      }),
    [
      'coinop mcp',
      'coinop mcp --context sandbox --allow-writes',
      'coinop mcp --context production --allow-writes --allow-production',
    ],
  );
}
