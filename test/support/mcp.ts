// Reading MCP resources in tests: a resource's contents are text or a blob; coinop's resources are all text.
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';

/** The text of the first content of a resource read; throws when it is missing or a blob. */
export function resourceText(result: ReadResourceResult): string {
  const c = result.contents[0];
  if (!c || !('text' in c) || typeof c.text !== 'string')
    throw new Error(`expected a text resource, got ${JSON.stringify(c)?.slice(0, 200)}`);
  return c.text;
}
