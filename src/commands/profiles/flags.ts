// coinop profiles list, get and create: their flags, declared once: index.ts declares them, options.ts reads their
// typed values, and the request field each gives names it in messages.
import type { Command } from 'commander';
import { LIST_ORDERS } from '../../contract/enums.js';
import { defineFlags, timeFilterSpecs } from '../../cli/flags.js';
import { tableOptions } from '../../cli/list-flags.js';
import { TIME_HELP } from '../../cli/options.js';

export const PROFILES_LIST_FLAG_TABLE = defineFlags({
  id: {
    kind: 'list',
    split: true,
    flag: '--id <id>',
    help: 'profile ids (repeatable or comma separated, at most 100)',
    field: 'ids',
  },
  nickname: {
    kind: 'text',
    flag: '--nickname <prefix>',
    help: 'nicknames starting with this (any case)',
    field: 'nickname',
  },
  ...timeFilterSpecs('created', 'created_at', (key, op) => (op === 'lt' ? `${key}: ${TIME_HELP}` : key)),
  limit: { kind: 'text', flag: '--limit <n>', help: 'items per page (1 to 1000, default 1000)', field: 'limit' },
  order: {
    kind: 'choice',
    flag: '--order <order>',
    help: 'sort direction (default ASC)',
    choices: LIST_ORDERS,
    field: 'order',
  },
  cursor: { kind: 'text', flag: '--cursor <cursor>', help: 'start from this page cursor', field: 'page_cursor' },
  all: { kind: 'switch', flag: '--all', help: 'every page' },
});

/** profiles list's flags on `cmd`: its own, then the table flags (--columns, --wide). */
export function declareProfilesList(cmd: Command): Command {
  return tableOptions(PROFILES_LIST_FLAG_TABLE.declare(cmd));
}

export const PROFILES_GET_FLAG_TABLE = defineFlags({
  includeDeactivated: {
    kind: 'switch',
    flag: '--include-deactivated',
    help: 'find it even when it was deactivated',
    field: 'include_deactivated',
  },
});

export const PROFILES_CREATE_FLAG_TABLE = defineFlags({
  nickname: {
    kind: 'text',
    flag: '--nickname <name>',
    help: 'its name, unique among the profiles',
    field: 'nickname',
  },
  description: { kind: 'text', flag: '--description <text>', help: 'what it is for', field: 'description' },
});
