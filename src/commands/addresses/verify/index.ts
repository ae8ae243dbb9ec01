// coinop addresses verify and coinop addresses verifications list|get|submit: declarations; the flags are checked in
// options.ts, the work is in run.ts.
import type { Command } from 'commander';
import type { Invocation } from '../../../cli/invocation.js';
import { ports } from '../../../cli/ports.js';
import { examples } from '../../../cli/help.js';
import type { RawFlags } from '../../../cli/options.js';
import { declareVerificationsList, VERIFICATION_SUBMIT_FLAG_TABLE, VERIFY_FLAG_TABLE } from './flags.js';

/** Declares `verify` and `verifications` under the `addresses` command. */
export function register(addresses: Command, ctx: Invocation): void {
  examples(
    VERIFY_FLAG_TABLE.declare(
      addresses
        .command('verify')
        .description(
          "prove a destination address is the customer's own: the service gives a message, its owner signs it (asks for missing values on a terminal)",
        ),
    ).action(async (raw: RawFlags) => {
      const { parseVerifyOptions } = await import('./options.js');
      const o = parseVerifyOptions(raw);
      await (await import('./run.js')).verify(ports(ctx), o);
    }),
    [
      'coinop addresses verify --network ETHEREUM --address 0x2c7536E3605D9C16a7a3D7b1898e529396a65c23 --key-file eth.key',
      'coinop addresses verify --network SOLANA --address 7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV --key-file ~/.config/solana/id.json',
      'coinop addresses verify --network ETHEREUM --address 0x2c7536E3605D9C16a7a3D7b1898e529396a65c23',
    ],
  );
  const group = examples(
    addresses.command('verifications').description('address verifications: list, get, submit a signature'),
    ['coinop addresses verifications list --status APPROVED', 'coinop addresses verifications get ID'],
  );
  examples(
    declareVerificationsList(
      group.command('list').description('address verifications, filtered; --all follows every page'),
    ).action(async (raw: RawFlags) => {
      const { parseVerificationsListOptions } = await import('./options.js');
      const o = parseVerificationsListOptions(raw, ctx.now());
      await (await import('./run.js')).list(ports(ctx), o);
    }),
    [
      'coinop addresses verifications list',
      'coinop addresses verifications list --status APPROVED --network ETHEREUM -o csv',
      'coinop addresses verifications list --address 0x2c7536E3605D9C16a7a3D7b1898e529396a65c23 -o json',
    ],
  );
  examples(
    group
      .command('get')
      .description('one address verification, with the message to sign')
      .argument('<id>', 'the verification id')
      .action(async (id: string) => (await import('./run.js')).get(ports(ctx), id)),
    ['coinop addresses verifications get ID', 'coinop addresses verifications get ID -o json'],
  );
  examples(
    VERIFICATION_SUBMIT_FLAG_TABLE.declare(
      group
        .command('submit')
        .description("submit the signature of a PENDING verification's message (made here with --key-file, or given)")
        .argument('<id>', 'the verification id'),
    ).action(async (id: string, raw: RawFlags) => {
      const { parseSubmitOptions } = await import('./options.js');
      const o = parseSubmitOptions(id, raw);
      await (await import('./run.js')).submit(ports(ctx), o);
    }),
    [
      'coinop addresses verifications submit ID --signature 0xb91467e5...1c',
      'coinop addresses verifications submit ID --key-file eth.key',
    ],
  );
}
