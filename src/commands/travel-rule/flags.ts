// coinop vasps list and deposits update|reject: their flags, declared once: index.ts declares them, options.ts reads
// their typed values, and the request field each gives names it in messages.
import { LIST_ORDERS } from '../../contract/enums.js';
import { defineFlags } from '../../cli/flags.js';
import { PAGE_FLAG_SPECS } from '../../cli/list-flags.js';

export const VASP_LIST_FLAG_TABLE = defineFlags({
  search: {
    kind: 'text',
    flag: '--search <prefix>',
    help: 'names starting with this (case ignored)',
    field: 'search',
  },
  id: {
    kind: 'list',
    split: true,
    flag: '--id <id>',
    help: 'VASP ids (repeatable or comma separated, at most 100)',
    field: 'ids',
  },
  limit: { kind: 'text', flag: '--limit <n>', help: 'items per page (1 to 1000, default 100)', field: 'limit' },
  order: {
    kind: 'choice',
    flag: '--order <order>',
    help: 'by name: ASC (the default) or DESC',
    choices: LIST_ORDERS,
    field: 'order',
  },
  ...PAGE_FLAG_SPECS,
});

/** Who asks: the identity (update and reject). */
const IDENTITY = {
  identityId: {
    kind: 'text',
    flag: '--identity-id <id>',
    help: 'the identity (identity_id) answering for the deposit (asked for on a terminal)',
    field: 'identity_id',
  },
  yes: { kind: 'switch', flag: '-y, --yes', help: 'do not ask for confirmation' },
} as const;

export const DEPOSIT_UPDATE_FLAG_TABLE = defineFlags({
  ...IDENTITY,
  originatorFirstName: {
    kind: 'text',
    flag: '--originator-first-name <name>',
    help: 'the sender is a person: the first name (with --originator-last-name; asked for on a terminal)',
    field: 'originator_address_info.individual_info.first_name',
  },
  originatorLastName: {
    kind: 'text',
    flag: '--originator-last-name <name>',
    help: "the sender person's last name",
    field: 'originator_address_info.individual_info.last_name',
  },
  originatorInstitution: {
    kind: 'text',
    flag: '--originator-institution <name>',
    help: 'the sender is an institution: its name',
    field: 'originator_address_info.institution_info.institution_name',
  },
});

export const DEPOSIT_REJECT_FLAG_TABLE = defineFlags(IDENTITY);
