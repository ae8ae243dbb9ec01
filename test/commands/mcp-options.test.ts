// coinop mcp: a real argv to checked options.
import { describe, expect, it } from 'vitest';
import { MCP_FLAG_TABLE } from '../../src/commands/mcp/flags.js';
import { parseMcpOptions as parseRaw } from '../../src/commands/mcp/options.js';
import { parseArgv } from '../support/argv.js';
import { usageMessage } from './support.js';

const parseMcpOptions = (argv: string[]) => parseRaw(parseArgv(MCP_FLAG_TABLE, argv));

describe('parseMcpOptions', () => {
  it('previews only by default; --allow-writes lets confirmed calls send; --allow-production adds production', () => {
    expect(parseMcpOptions([])).toEqual({ allowWrites: false, allowProduction: false });
    expect(parseMcpOptions(['--allow-writes'])).toEqual({ allowWrites: true, allowProduction: false });
    expect(parseMcpOptions(['--allow-writes', '--allow-production'])).toEqual({
      allowWrites: true,
      allowProduction: true,
    });
  });

  it('refuses --allow-production alone: there are no writes for it to let through', () => {
    expect(usageMessage(() => parseMcpOptions(['--allow-production']))).toBe(
      '--allow-production: needs --allow-writes (it lets writes through in production; without --allow-writes there are none)',
    );
  });
});
