// coinop mcp: declarations; the flags are checked in options.ts, the work is in run.ts (the server: src/mcp).
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { examples } from '../../cli/help.js';
import type { RawFlags } from '../../cli/options.js';

export function register(program: Command, ctx: Invocation): void {
  examples(
    program
      .command('mcp')
      .description(
        "a Model Context Protocol server on stdio for AI agents: the profile's reads as tools; money-moving tools preview unless started with --allow-writes",
      )
      .option(
        '--allow-writes',
        'let a tool call with confirm: true send (withdraw, internal_transfer, deposit_address_create, withdraw_batch)',
      )
      .option('--allow-production', 'let writes through in production too (with --allow-writes)')
      .action(async (raw: RawFlags) => {
        const { parseMcpOptions } = await import('./options.js');
        const o = parseMcpOptions(raw);
        await (await import('./run.js')).mcp(ctx, o);
      }),
    [
      'coinop mcp',
      'coinop mcp --profile sandbox --allow-writes',
      'coinop mcp --profile production --allow-writes --allow-production',
    ],
  );
}
