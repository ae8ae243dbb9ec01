// coinop statements list|payments: declarations; the flags are checked in options.ts, the work is in run.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { examples } from '../../cli/help.js';
import type { RawFlags } from '../../cli/options.js';
import { declarePaymentsList, declareStatementsList } from './flags.js';

export function register(program: Command, ctx: Invocation): void {
  const group = examples(
    program
      .command('statements')
      .description("the service's monthly statements (USDG rewards owed and paid) and the payments that settle them"),
    ['coinop statements list', 'coinop statements payments'],
  );
  examples(
    declareStatementsList(
      group.command('list').description('statements, newest period first; --all follows every page'),
    ).action(async (raw: RawFlags) => {
      const { parseStatementListOptions } = await import('./options.js');
      const o = parseStatementListOptions(raw, ctx.now());
      await (await import('./run.js')).listStatements(ports(ctx), o);
    }),
    [
      'coinop statements list',
      'coinop statements list --status GENERATED -o json',
      'coinop statements list --order ASC --all -o csv > statements.csv',
    ],
  );
  examples(
    declarePaymentsList(group.command('payments').description('the payments of statements, newest first')).action(
      async (raw: RawFlags) => {
        const { parsePaymentListOptions } = await import('./options.js');
        const o = parsePaymentListOptions(raw, ctx.now());
        await (await import('./run.js')).listPayments(ports(ctx), o);
      },
    ),
    [
      'coinop statements payments',
      'coinop statements payments --status PENDING -o ndjson',
      'coinop statements payments --ref-id REF_ID',
    ],
  );
}
