// coinop destinations list and put: their flags, declared once: index.ts declares them, options.ts reads their typed
// values, and the request field each gives names it in messages.
import type { Command } from 'commander';
import { CRYPTO_DESTINATION_ADDRESS_ORDER_BY, CUSTODIAN_TYPES } from '../../contract/enums.js';
import { defineFlags } from '../../cli/flags.js';
import { listOptions, tableOptions } from '../../cli/list-flags.js';

export const DESTINATION_LIST_FLAG_TABLE = defineFlags({
  nickname: {
    kind: 'list',
    split: true,
    flag: '--nickname <name>',
    help: 'nicknames (repeatable or comma separated, at most 100)',
    field: 'nicknames',
  },
  network: {
    kind: 'list',
    split: true,
    flag: '--network <network>',
    help: 'networks, such as ETHEREUM',
    field: 'crypto_networks',
  },
  address: { kind: 'list', split: true, flag: '--address <address>', help: 'addresses', field: 'addresses' },
  id: { kind: 'list', split: true, flag: '--id <id>', help: 'ids', field: 'ids' },
  identityId: {
    kind: 'list',
    split: true,
    flag: '--identity-id <id>',
    help: 'identities the addresses belong to',
    field: 'identity_ids',
  },
  bookmarked: { kind: 'switch', flag: '--bookmarked', help: 'bookmarked addresses only', field: 'bookmarked_status' },
  notBookmarked: { kind: 'switch', flag: '--not-bookmarked', help: 'addresses not bookmarked only' },
});

/** destinations list's flags on `cmd`: its own, then the shared list and table flags. */
export function declareDestinationList(cmd: Command): Command {
  return tableOptions(
    listOptions(DESTINATION_LIST_FLAG_TABLE.declare(cmd), { orderBy: CRYPTO_DESTINATION_ADDRESS_ORDER_BY }),
  );
}

export const DESTINATION_PUT_FLAG_TABLE = defineFlags({
  network: {
    kind: 'text',
    flag: '--network <network>',
    help: 'crypto network (crypto_network)',
    field: 'crypto_network',
  },
  address: { kind: 'text', flag: '--address <address>', help: 'the address', field: 'address' },
  id: {
    kind: 'text',
    flag: '--id <id>',
    help: 'the id of an address of the book to change (instead of --network and --address)',
    field: 'id',
  },
  nickname: {
    kind: 'text',
    flag: '--nickname <name>',
    help: 'nickname, unique in the book (default for a new address: made from its network and address)',
    field: 'nickname',
  },
  bookmark: {
    kind: 'toggle',
    flag: '--bookmark',
    help: 'bookmark it',
    noHelp: 'take its bookmark away',
    field: 'bookmarked_status',
  },
  identityId: {
    kind: 'text',
    flag: '--identity-id <id>',
    help: 'the identity the address belongs to (none: your own)',
    field: 'identity_id',
  },
  travelRule: {
    kind: 'text',
    flag: '--travel-rule <json>',
    help: 'travel rule details as a JSON object (travelrule_metadata); or the flags below',
    field: 'travelrule_metadata',
  },
  custodianType: {
    kind: 'choice',
    flag: '--custodian-type <type>',
    help: 'Travel Rule: who holds the address: VASP (an exchange, a custodian) or PRIVATE (a wallet of its own)',
    choices: CUSTODIAN_TYPES,
    field: 'travelrule_metadata.custodian_type',
  },
  vaspId: {
    kind: 'text',
    flag: '--vasp-id <id>',
    help: 'Travel Rule: the VASP, from the directory (coinop vasps list; picked on a terminal when not given)',
    field: 'travelrule_metadata.vasp.id',
  },
  vaspName: {
    kind: 'text',
    flag: '--vasp-name <name>',
    help: 'Travel Rule: a VASP not in the directory: its name (with --vasp-website)',
    field: 'travelrule_metadata.vasp.custom_vasp_name',
  },
  vaspWebsite: {
    kind: 'text',
    flag: '--vasp-website <url>',
    help: "Travel Rule: that VASP's website",
    field: 'travelrule_metadata.vasp.custom_vasp_website',
  },
  beneficiaryFirstName: {
    kind: 'text',
    flag: '--beneficiary-first-name <name>',
    help: 'Travel Rule: the beneficiary is a person: the first name (with --beneficiary-last-name)',
    field: 'travelrule_metadata.beneficiary.person_details.first_name',
  },
  beneficiaryLastName: {
    kind: 'text',
    flag: '--beneficiary-last-name <name>',
    help: "Travel Rule: the beneficiary person's last name",
    field: 'travelrule_metadata.beneficiary.person_details.last_name',
  },
  beneficiaryInstitution: {
    kind: 'text',
    flag: '--beneficiary-institution <name>',
    help: 'Travel Rule: the beneficiary is an institution: its name',
    field: 'travelrule_metadata.beneficiary.institution_details.name',
  },
  beneficiarySelf: {
    kind: 'switch',
    flag: '--beneficiary-self',
    help: "Travel Rule: the beneficiary is the address's identity itself (its own wallet)",
    field: 'travelrule_metadata.beneficiary.self',
  },
  transferPurpose: {
    kind: 'text',
    flag: '--transfer-purpose <text>',
    help: 'Travel Rule: the purpose of transfers to it',
    field: 'travelrule_metadata.transfer_purpose',
  },
});
