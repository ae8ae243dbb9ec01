// coinop fiat-accounts create, update, list and delete: their flags, declared once: index.ts declares them, options.ts
// reads their typed values, and the request field each gives names it in messages.
import type { Command } from 'commander';
import { defineFlags, REF_ID_SPEC } from '../../cli/flags.js';
import { listOptions, tableOptions } from '../../cli/list-flags.js';

/** The networks a fiat account may be on, as the command line names them (the request's keys, upper case). */
export const FIAT_ACCOUNT_NETWORK_NAMES = ['WIRE', 'CBIT', 'DBS_ACT', 'CUBIX', 'SCB', 'RTP'] as const;

/** The owner's flags, which create and update share. */
const OWNER_FLAGS = {
  ownerName: {
    kind: 'text',
    flag: '--owner-name <name>',
    help: 'an institution owns the account: its name',
    field: 'fiat_account_owner.institution_details.name',
  },
  firstName: {
    kind: 'text',
    flag: '--first-name <name>',
    help: "a person owns the account: the person's first name (with --last-name)",
    field: 'fiat_account_owner.person_details.first_name',
  },
  lastName: {
    kind: 'text',
    flag: '--last-name <name>',
    help: "a person owns the account: the person's last name",
    field: 'fiat_account_owner.person_details.last_name',
  },
  meta: { kind: 'list', flag: '--meta <key=value>', help: 'metadata pair (repeatable, at most 6)', field: 'metadata' },
  file: {
    kind: 'text',
    flag: '--file <file>',
    help: 'the whole request as a JSON file, as the service takes it; no other value flag goes with it',
  },
} as const;

const WIRE = 'fiat_network_instructions.wire';

export const FIAT_ACCOUNT_CREATE_FLAG_TABLE = defineFlags({
  network: {
    kind: 'choice',
    flag: '--network <network>',
    help: 'fiat network (asked for on a terminal)',
    choices: FIAT_ACCOUNT_NETWORK_NAMES,
  },
  ...OWNER_FLAGS,
  accountNumber: {
    kind: 'text',
    flag: '--account-number <number>',
    help: 'WIRE, RTP, DBS_ACT, SCB: the bank account number',
    field: `${WIRE}.account_number`,
  },
  routingNumber: {
    kind: 'text',
    flag: '--routing-number <number>',
    help: 'WIRE, RTP: the routing number (ABA) or SWIFT/BIC code',
    field: `${WIRE}.routing_details.routing_number`,
  },
  routingType: {
    kind: 'choice',
    flag: '--routing-type <type>',
    help: 'WIRE: ABA (US wires, the default) or SWIFT (international)',
    choices: ['ABA', 'SWIFT'],
    field: `${WIRE}.routing_details.routing_number_type`,
  },
  bankName: {
    kind: 'text',
    flag: '--bank-name <name>',
    help: 'WIRE, RTP: the bank',
    field: `${WIRE}.routing_details.bank_name`,
  },
  bankCountry: {
    kind: 'text',
    flag: '--bank-country <country>',
    help: "WIRE: the bank's country (default USA)",
    field: `${WIRE}.routing_details.bank_address.country`,
  },
  ownerCountry: {
    kind: 'text',
    flag: '--owner-country <country>',
    help: "WIRE: the owner's country (default USA)",
    field: `${WIRE}.fiat_account_owner_address.country`,
  },
  ownerAddress: {
    kind: 'text',
    flag: '--owner-address <line>',
    help: "WIRE: the owner's street address",
    field: `${WIRE}.fiat_account_owner_address.address1`,
  },
  ownerCity: {
    kind: 'text',
    flag: '--owner-city <city>',
    help: "WIRE: the owner's city",
    field: `${WIRE}.fiat_account_owner_address.city`,
  },
  cubixAccountId: {
    kind: 'text',
    flag: '--cubix-account-id <id>',
    help: 'CUBIX: the CUBIX account id',
    field: 'fiat_network_instructions.cubix.account_id',
  },
  walletAddress: {
    kind: 'text',
    flag: '--wallet-address <address>',
    help: 'CBIT: the CBIT wallet address',
    field: 'fiat_network_instructions.cbit.wallet_address',
  },
  identityId: {
    kind: 'text',
    flag: '--identity-id <id>',
    help: 'the identity owning the account',
    field: 'identity_id',
  },
  accountId: { kind: 'text', flag: '--account-id <id>', help: 'the account of that identity', field: 'account_id' },
  refId: REF_ID_SPEC,
});

export const FIAT_ACCOUNT_UPDATE_FLAG_TABLE = defineFlags({
  ...OWNER_FLAGS,
  bankName: {
    kind: 'text',
    flag: '--bank-name <name>',
    help: "a wire account's bank name",
    field: `${WIRE}.routing_details.bank_name`,
  },
});

export const FIAT_ACCOUNT_DELETE_FLAG_TABLE = defineFlags({
  yes: { kind: 'switch', flag: '-y, --yes', help: 'do not ask for confirmation' },
});

export const FIAT_ACCOUNT_LIST_FLAG_TABLE = defineFlags({
  id: {
    kind: 'list',
    split: true,
    flag: '--id <id>',
    help: 'fiat account ids (repeatable or comma separated, at most 100)',
    field: 'ids',
  },
  refId: {
    kind: 'list',
    split: true,
    flag: '--ref-id <id>',
    help: 'the ref_ids they were made with',
    field: 'ref_ids',
  },
  includeDeleted: {
    kind: 'switch',
    flag: '--include-deleted',
    help: 'deleted accounts too',
    field: 'include_deleted',
  },
});

/** fiat-accounts list's flags on `cmd`: its own, then the shared list and table flags. */
export function declareFiatAccountsList(cmd: Command): Command {
  return tableOptions(listOptions(FIAT_ACCOUNT_LIST_FLAG_TABLE.declare(cmd)));
}
