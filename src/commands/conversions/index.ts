// coinop convert and coinop conversions list|get|cancel: declarations; the flags are checked in options.ts, the work
// is in run.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { examples } from '../../cli/help.js';
import type { RawFlags } from '../../cli/options.js';
import { CONVERSION_CANCEL_FLAG_TABLE, CONVERT_FLAG_TABLE, declareConversionsList } from './flags.js';

export function register(program: Command, ctx: Invocation): void {
  examples(
    CONVERT_FLAG_TABLE.declare(
      program
        .command('convert')
        .description(
          'convert USD to a stablecoin (USDP, PYUSD) or back, one to one, in a service profile (asks for missing values on a terminal)',
        ),
    ).action(async (raw: RawFlags) => {
      const { parseConvertOptions } = await import('./options.js');
      const o = parseConvertOptions(raw);
      await (await import('./run.js')).convert(ports(ctx), o);
    }),
    [
      'coinop convert',
      'coinop convert --to USDP --amount 2500',
      'coinop convert --from PYUSD --amount 100 --ref-id back-to-usd-1 --wait',
      'coinop convert --to USDP --amount 50000 --approvals usdp.approval-alice.txt --yes',
      'coinop convert --to PYUSD --amount 10 --dry-run -o json',
    ],
  );
  const group = examples(
    program
      .command('conversions')
      .description(
        'stablecoin conversions: list them, get one, cancel one while it is CREATED (coinop convert makes them)',
      ),
    ['coinop conversions list', 'coinop conversions get ID', 'coinop conversions cancel ID'],
  );
  examples(
    declareConversionsList(
      group.command('list').description('stablecoin conversions, newest first; --all follows every page'),
    ).action(async (raw: RawFlags) => {
      const { parseConversionListOptions } = await import('./options.js');
      const o = parseConversionListOptions(raw, ctx.now());
      await (await import('./run.js')).list(ports(ctx), o);
    }),
    [
      'coinop conversions list',
      'coinop conversions list --created-from 24h -o csv',
      'coinop conversions list --ref-id back-to-usd-1 -o json',
      'coinop conversions list -o ndjson --all',
    ],
  );
  examples(
    group
      .command('get')
      .description('one conversion (picked from a list on a terminal when no ID is given)')
      .argument('[id]', 'conversion id')
      .action(async (id: string | undefined) => (await import('./run.js')).get(ports(ctx), id)),
    ['coinop conversions get 38a2c6b4-167c-4c98-a190-406efc4121aa', 'coinop conversions get'],
  );
  examples(
    CONVERSION_CANCEL_FLAG_TABLE.declare(
      group
        .command('cancel')
        .description('cancel a conversion while it is CREATED: its source comes back to the profile (asks first)')
        .argument('[id]', 'conversion id (picked among the CREATED ones on a terminal)'),
    ).action(async (id: string | undefined, raw: RawFlags) => {
      const { parseConversionCancelOptions } = await import('./options.js');
      const o = parseConversionCancelOptions(id, raw);
      await (await import('./run.js')).cancel(ports(ctx), o);
    }),
    ['coinop conversions cancel ID', 'coinop conversions cancel ID --yes', 'coinop conversions cancel'],
  );
}
