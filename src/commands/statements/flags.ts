// coinop statements list and coinop statements payments: their flags, declared once: index.ts declares them,
// options.ts reads their typed values, and the request field each gives names it in messages.
import type { Command } from 'commander';
import { PAYMENT_STATUSES, STATEMENT_PRODUCTS, STATEMENT_STATUSES } from '../../contract/enums.js';
import { defineFlags } from '../../cli/flags.js';
import { listOptions, tableOptions } from '../../cli/list-flags.js';

const customer = {
  kind: 'text',
  flag: '--customer-id <id>',
  help: "the customer's statements (default: every one the credentials reach)",
  field: 'customer_id',
} as const;

export const STATEMENTS_LIST_FLAG_TABLE = defineFlags({
  customerId: customer,
  status: {
    kind: 'list',
    split: true,
    flag: '--status <status>',
    help: `statuses (repeatable or comma separated): ${STATEMENT_STATUSES.join(', ')}, or INITIATED, GENERATED, PAID`,
    field: 'statuses',
    values: STATEMENT_STATUSES,
  },
  id: { kind: 'list', split: true, flag: '--id <id>', help: 'statement ids', field: 'statement_ids' },
  refId: { kind: 'list', split: true, flag: '--ref-id <id>', help: 'statement ref_ids', field: 'ref_ids' },
});

export const PAYMENTS_LIST_FLAG_TABLE = defineFlags({
  customerId: customer,
  product: {
    kind: 'choice',
    flag: '--product <product>',
    help: 'the product the payments are of',
    choices: STATEMENT_PRODUCTS,
    field: 'product',
  },
  status: {
    kind: 'text',
    flag: '--status <status>',
    help: `${PAYMENT_STATUSES.join(', ')}, or PENDING, COMPLETED, FAILED`,
    field: 'payment_status',
    values: PAYMENT_STATUSES,
  },
  id: {
    kind: 'list',
    split: true,
    flag: '--id <id>',
    help: 'payment ids (no other filter goes with them)',
    field: 'payment_ids',
  },
  refId: {
    kind: 'list',
    split: true,
    flag: '--ref-id <id>',
    help: "payment ref_ids, such as a statement's next_payment_ref_id (no other filter goes with them)",
    field: 'ref_ids',
  },
});

export function declareStatementsList(cmd: Command): Command {
  return tableOptions(listOptions(STATEMENTS_LIST_FLAG_TABLE.declare(cmd), { untimed: true }));
}

export function declarePaymentsList(cmd: Command): Command {
  return tableOptions(listOptions(PAYMENTS_LIST_FLAG_TABLE.declare(cmd), { untimed: true }));
}
