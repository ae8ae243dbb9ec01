// coinop reconcile: the declaration; the flags are checked in options.ts, the work is in run.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { examples } from '../../cli/help.js';
import type { RawFlags } from '../../cli/options.js';
import { declareReconcile } from './flags.js';

export function register(program: Command, ctx: Invocation): void {
  examples(
    declareReconcile(program.command('reconcile'))
      .description(
        "what coinop meant to pay against the service's transfers of a period, and every transfer against an intent (exit 11 when a line is not explained)",
      )
      .action(async (raw: RawFlags) => {
        const { parseReconcileOptions } = await import('./options.js');
        const o = parseReconcileOptions(raw, ctx.now());
        await (await import('./run.js')).reconcileRun(ports(ctx), o);
      }),
    [
      'coinop reconcile --from 2026-11-01 --to 2026-12-01',
      'coinop reconcile --from 30d --profile-id ID -o csv > november.csv',
      'coinop reconcile --from 2026-11-01 --to 2026-12-01 --journals ./journals -o ndjson',
    ],
  );
}
