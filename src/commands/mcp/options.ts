// coinop mcp: the raw flags, checked once.
import { usageError } from '../../cli/errors.js';
import { type RawFlags, readFlags } from '../../cli/options.js';

export interface McpOptions {
  /** A confirmed call of a money-moving tool may send. */
  allowWrites: boolean;
  /** ... in production too. */
  allowProduction: boolean;
}

export function parseMcpOptions(raw: RawFlags): McpOptions {
  const f = readFlags(raw);
  const allowWrites = f.on('allowWrites');
  const allowProduction = f.on('allowProduction');
  if (allowProduction && !allowWrites)
    throw usageError(
      '--allow-production: needs --allow-writes (it lets writes through in production; without --allow-writes there are none)',
    );
  return { allowWrites, allowProduction };
}
