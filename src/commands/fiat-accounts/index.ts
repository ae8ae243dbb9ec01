// coinop fiat-accounts create|list|get|update|delete: declarations; the flags are checked in options.ts, the work is
// in run.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../cli/invocation.js';
import { ports } from '../../cli/ports.js';
import { examples } from '../../cli/help.js';
import type { RawFlags } from '../../cli/options.js';
import {
  declareFiatAccountsList,
  FIAT_ACCOUNT_CREATE_FLAG_TABLE,
  FIAT_ACCOUNT_DELETE_FLAG_TABLE,
  FIAT_ACCOUNT_UPDATE_FLAG_TABLE,
} from './flags.js';

export function register(program: Command, ctx: Invocation): void {
  const group = examples(
    program
      .command('fiat-accounts')
      .description('fiat accounts: the bank accounts fiat withdrawals go to (coinop withdraw fiat)'),
    [
      'coinop fiat-accounts create',
      'coinop fiat-accounts list',
      'coinop fiat-accounts get ID',
      'coinop withdraw fiat --fiat-account-id ID --amount 2500 --asset USD',
    ],
  );
  examples(
    FIAT_ACCOUNT_CREATE_FLAG_TABLE.declare(
      group
        .command('create')
        .description('save a bank account to withdraw fiat to (asks for missing values on a terminal)'),
    ).action(async (raw: RawFlags) => {
      const { parseFiatAccountCreateOptions } = await import('./options.js');
      const o = parseFiatAccountCreateOptions(raw);
      await (await import('./run.js')).create(ports(ctx), o);
    }),
    [
      'coinop fiat-accounts create',
      'coinop fiat-accounts create --network WIRE --owner-name "Acme Inc" --account-number 12345678 --routing-number 021000021 --bank-name "Customers Bank" --ref-id acme-ops',
      'coinop fiat-accounts create --network WIRE --routing-type SWIFT --first-name Jane --last-name Doe --account-number GB33BUKB20201555555555 --routing-number BUKBGB22 --bank-name Barclays --bank-country GBR --owner-country GBR',
      'coinop fiat-accounts create --network CUBIX --owner-name "Acme Inc" --cubix-account-id 7f1d0c52-3c1a-4d8e-9b51-2f0a6c4e8d10',
      'coinop fiat-accounts create --file account.json',
    ],
  );
  const list = declareFiatAccountsList(
    group.command('list').description('fiat accounts (abbreviated: the last four digits); --all follows every page'),
  );
  examples(
    list.action(async (raw: RawFlags) => {
      const { parseFiatAccountListOptions } = await import('./options.js');
      const o = parseFiatAccountListOptions(raw, ctx.now());
      await (await import('./run.js')).list(ports(ctx), o);
    }),
    [
      'coinop fiat-accounts list',
      'coinop fiat-accounts list --include-deleted -o csv',
      'coinop fiat-accounts list -o ndjson --all',
    ],
  );
  examples(
    group
      .command('get')
      .description('one fiat account in full (picked from a list on a terminal when no ID is given)')
      .argument('[id]', 'fiat account id')
      .action(async (id: string | undefined) => (await import('./run.js')).get(ports(ctx), id)),
    ['coinop fiat-accounts get dde1b3c5-d02a-48f6-8d11-16b4f532ea49', 'coinop fiat-accounts get'],
  );
  examples(
    FIAT_ACCOUNT_UPDATE_FLAG_TABLE.declare(
      group
        .command('update')
        .description("change an account's owner details, bank name or metadata (the service reviews it again)")
        .argument('<id>', 'fiat account id'),
    ).action(async (id: string, raw: RawFlags) => {
      const { parseFiatAccountUpdateOptions } = await import('./options.js');
      const o = parseFiatAccountUpdateOptions(id, raw);
      await (await import('./run.js')).update(ports(ctx), o);
    }),
    [
      'coinop fiat-accounts update ID --owner-name "Acme Holdings Inc"',
      'coinop fiat-accounts update ID --bank-name "Customers Bank NA" --meta desk=ops',
    ],
  );
  examples(
    FIAT_ACCOUNT_DELETE_FLAG_TABLE.declare(
      group
        .command('delete')
        .description('delete a fiat account: no withdrawal can go to it after (asks first)')
        .argument('<id>', 'fiat account id'),
    ).action(async (id: string, raw: RawFlags) => {
      const { parseFiatAccountDeleteOptions } = await import('./options.js');
      const o = parseFiatAccountDeleteOptions(id, raw);
      await (await import('./run.js')).remove(ports(ctx), o);
    }),
    ['coinop fiat-accounts delete ID', 'coinop fiat-accounts delete ID --yes'],
  );
}
