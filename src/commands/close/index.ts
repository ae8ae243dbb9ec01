// coinop close, close verify: declarations; the flags are checked in options.ts, the work is in run.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { examples } from '../../cli/help.js';
import type { RawFlags } from '../../cli/options.js';
import { CLOSE_FLAG_TABLE, CLOSE_VERIFY_FLAG_TABLE } from './flags.js';

export function register(program: Command, ctx: Invocation): void {
  const close = examples(
    CLOSE_FLAG_TABLE.declare(program.command('close'))
      .description(
        "the month-end bundle: each profile's statement and the audit extract, with a manifest of SHA-256 sums signed with the operator's Ed25519 key",
      )
      .action(async (raw: RawFlags) => {
        const { parseCloseOptions } = await import('./options.js');
        const o = parseCloseOptions(raw);
        await (await import('./run.js')).close(ports(ctx), o);
      }),
    [
      'coinop close --month 2026-11 --out close-2026-11',
      'coinop close --month 2026-11 --out close-2026-11 --profile-id e3a0c9d1-...',
      'coinop close verify close-2026-11 --public-key operator.pub',
    ],
  );
  examples(
    CLOSE_VERIFY_FLAG_TABLE.declare(close.command('verify'))
      .description(
        'check a bundle offline: every sum, no file missing or added, the signature (no configuration needed)',
      )
      .argument('<dir>', 'the bundle folder')
      .action(async (dir: string, raw: RawFlags) => {
        const { parseCloseVerifyOptions } = await import('./options.js');
        const o = parseCloseVerifyOptions(dir, raw);
        await (await import('./run.js')).verify(ports(ctx), o);
      }),
    ['coinop close verify close-2026-11 --public-key operator.pub', 'coinop close verify close-2026-11 -o json'],
  );
}
