// coinop mcp: the raw flags, checked once.
import { usageError } from '../../cli/errors.js';
import type { RawFlags } from '../../cli/options.js';
import { MCP_FLAG_TABLE } from './flags.js';

export interface McpOptions {
  /** A confirmed call of a money-moving tool may send. */
  allowWrites: boolean;
  /** ... in production too. */
  allowProduction: boolean;
}

export function parseMcpOptions(raw: RawFlags): McpOptions {
  const { allowWrites, allowProduction } = MCP_FLAG_TABLE.read(raw);
  if (allowProduction && !allowWrites)
    throw usageError(
      '--allow-production: needs --allow-writes (it lets writes through in production; without --allow-writes there are none)',
    );
  return { allowWrites, allowProduction };
}
