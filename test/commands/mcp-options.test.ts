// coinop mcp: raw flags to checked options.
import { describe, expect, it } from 'vitest';
import { parseMcpOptions } from '../../src/commands/mcp/options.js';
import { usageMessage } from './support.js';

describe('parseMcpOptions', () => {
  it('previews only by default; --allow-writes lets confirmed calls send; --allow-production adds production', () => {
    expect(parseMcpOptions({})).toEqual({ allowWrites: false, allowProduction: false });
    expect(parseMcpOptions({ allowWrites: true })).toEqual({ allowWrites: true, allowProduction: false });
    expect(parseMcpOptions({ allowWrites: true, allowProduction: true })).toEqual({
      allowWrites: true,
      allowProduction: true,
    });
  });

  it('refuses --allow-production alone: there are no writes for it to let through', () => {
    expect(usageMessage(() => parseMcpOptions({ allowProduction: true }))).toBe(
      '--allow-production: needs --allow-writes (it lets writes through in production; without --allow-writes there are none)',
    );
  });
});
