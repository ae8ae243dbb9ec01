// coinop vasps list|get and coinop deposits update|reject: the Travel Rule's commands. Declarations; the flags are
// checked in options.ts, the work is in run.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { examples } from '../../cli/help.js';
import type { RawFlags } from '../../cli/options.js';
import { tableOptions } from '../../cli/list-flags.js';
import { DEPOSIT_REJECT_FLAG_TABLE, DEPOSIT_UPDATE_FLAG_TABLE, VASP_LIST_FLAG_TABLE } from './flags.js';

export function register(program: Command, ctx: Invocation): void {
  const vasps = examples(
    program
      .command('vasps')
      .description("the Travel Rule's directory of VASPs (exchanges, custodians) a destination address can name"),
    ['coinop vasps list --search coin', 'coinop vasps get ID'],
  );
  examples(
    tableOptions(
      VASP_LIST_FLAG_TABLE.declare(vasps.command('list').description('VASPs by name; --all follows every page')),
    ).action(async (raw: RawFlags) => {
      const { parseVaspListOptions } = await import('./options.js');
      const o = parseVaspListOptions(raw);
      await (await import('./run.js')).listVasps(ports(ctx), o);
    }),
    ['coinop vasps list', 'coinop vasps list --search kra', 'coinop vasps list --order DESC -o json --all'],
  );
  examples(
    vasps
      .command('get')
      .description('one VASP (picked from the directory on a terminal when no ID is given: type to search)')
      .argument('[id]', 'VASP id')
      .action(async (id: string | undefined) => {
        const { parseVaspId } = await import('./options.js');
        await (await import('./run.js')).getVasp(ports(ctx), parseVaspId(id));
      }),
    ['coinop vasps get 8e4b1c2d-9a3f-4e6b-b1d7-2c5a8f0e3b94', 'coinop vasps get'],
  );

  const deposits = examples(
    program
      .command('deposits')
      .description(
        'crypto deposits the service holds for their originator (Travel Rule: secondary status TRAVEL_RULE_INFO_REQUESTED)',
      ),
    [
      'coinop transfers list --type CRYPTO_DEPOSIT --secondary-status TRAVEL_RULE_INFO_REQUESTED',
      'coinop deposits update ID --identity-id IDENTITY --originator-first-name Ada --originator-last-name Lovelace',
      'coinop deposits reject ID --identity-id IDENTITY',
    ],
  );
  examples(
    DEPOSIT_UPDATE_FLAG_TABLE.declare(
      deposits
        .command('update')
        .description("give a held deposit its originator's details, so it goes on to be credited (asks first)")
        .argument('<id>', 'the deposit (transfer) id'),
    ).action(async (id: string, raw: RawFlags) => {
      const { parseDepositUpdateOptions } = await import('./options.js');
      const o = parseDepositUpdateOptions(id, raw);
      await (await import('./run.js')).updateDeposit(ports(ctx), o);
    }),
    [
      'coinop deposits update ID --identity-id IDENTITY --originator-first-name Ada --originator-last-name Lovelace',
      'coinop deposits update ID --identity-id IDENTITY --originator-institution "Acme Ltd" --yes',
      'coinop deposits update ID   # asks who sent it, on a terminal',
    ],
  );
  examples(
    DEPOSIT_REJECT_FLAG_TABLE.declare(
      deposits
        .command('reject')
        .description('turn a held deposit away: it ends FAILED and is never credited (asks first)')
        .argument('<id>', 'the deposit (transfer) id'),
    ).action(async (id: string, raw: RawFlags) => {
      const { parseDepositRejectOptions } = await import('./options.js');
      const o = parseDepositRejectOptions(id, raw);
      await (await import('./run.js')).rejectDeposit(ports(ctx), o);
    }),
    [
      'coinop deposits reject ID --identity-id IDENTITY',
      'coinop deposits reject ID --identity-id IDENTITY --yes -o json',
    ],
  );
}
