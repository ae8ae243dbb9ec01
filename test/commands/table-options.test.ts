// --columns and --wide on every command that prints a table: a real argv to the view each parse function returns, and
// to the usage error that lists the table's columns, in process.
import { describe, expect, it } from 'vitest';
import { parseAddressesListOptions } from '../../src/commands/addresses/options.js';
import { parseBalancesOptions } from '../../src/commands/balances/options.js';
import { parseInstructionsListOptions } from '../../src/commands/deposit-instructions/options.js';
import { parseDestinationListOptions } from '../../src/commands/destinations/options.js';
import { parseLimitsOptions } from '../../src/commands/limits/options.js';
import { parseMarketsOptions, parseTradesOptions } from '../../src/commands/markets/options.js';
import { parsePricesOptions } from '../../src/commands/prices/options.js';
import { parseProfilesListOptions } from '../../src/commands/profiles/options.js';
import { parseTransfersListOptions, parseTransfersWatchOptions } from '../../src/commands/transfers/options.js';
import type { Command } from 'commander';
import { parseArgv } from '../support/argv.js';
import { declareAddressesList } from '../../src/commands/addresses/flags.js';
import { declareBalances } from '../../src/commands/balances/flags.js';
import { declareInstructionsList } from '../../src/commands/deposit-instructions/flags.js';
import { declareDestinationList } from '../../src/commands/destinations/flags.js';
import { declareLimits } from '../../src/commands/limits/flags.js';
import { declareMarkets, TRADES_FLAG_TABLE } from '../../src/commands/markets/flags.js';
import { declarePrices } from '../../src/commands/prices/flags.js';
import { declareProfilesList } from '../../src/commands/profiles/flags.js';
import { declareTransfersList, declareTransfersWatch } from '../../src/commands/transfers/flags.js';
import { tableOptions } from '../../src/cli/list-flags.js';
import { declareConversionsList } from '../../src/commands/conversions/flags.js';
import { parseConversionListOptions } from '../../src/commands/conversions/options.js';
import type { RawFlags } from '../../src/cli/options.js';
import type { TableView } from '../../src/render/table.js';
import { usageMessage } from './support.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');

/** Each table command's declarations and parse function, a column of its table, and the columns its error lists. */
const TRANSFER_COLUMNS =
  'id, status, type, asset, amount, created, ref_id, fee, total, network, destination, tx_hash, tx_index, updated, ' +
  'direction, balance_asset, profile, identity, account, group, memo, notional, secondary_status, details';
type Declare = (cmd: Command) => Command;
const COMMANDS: [
  name: string,
  declare: Declare,
  parse: (raw: RawFlags) => { view?: TableView },
  column: string,
  all: string,
  argv?: string[],
][] = [
  ['transfers list', declareTransfersList, (raw) => parseTransfersListOptions(raw, NOW), 'tx_hash', TRANSFER_COLUMNS],
  ['transfers watch', declareTransfersWatch, (raw) => parseTransfersWatchOptions(['t1'], raw), 'fee', TRANSFER_COLUMNS],
  [
    'conversions list',
    declareConversionsList,
    (raw) => parseConversionListOptions(raw, NOW),
    'from',
    'id, status, from, to, amount, created, ref_id, profile, updated',
  ],
  [
    'addresses list',
    declareAddressesList,
    (raw) => parseAddressesListOptions(raw, NOW),
    'address',
    'id, network, address, conversion, ref_id, created',
  ],
  [
    'destinations list',
    declareDestinationList,
    (raw) => parseDestinationListOptions(raw, NOW),
    'nickname',
    'nickname, network, address, bookmarked, status, identity, id, created',
  ],
  [
    'deposit-instructions list',
    declareInstructionsList,
    (raw) => parseInstructionsListOptions(raw, NOW),
    'memo_id',
    'id, status, memo_id, network, profile, ref_id, created',
  ],
  [
    'profiles list',
    declareProfilesList,
    (raw) => parseProfilesListOptions(raw, NOW),
    'nickname',
    'id, nickname, type, description',
  ],
  ['balances', declareBalances, (raw) => parseBalancesOptions([], raw), 'available', 'asset, available, trading'],
  [
    'balances --all-profiles',
    declareBalances,
    (raw) => parseBalancesOptions([], raw),
    'profile',
    'profile, nickname, asset, available, trading',
    ['--all-profiles'],
  ],
  [
    'limits',
    declareLimits,
    (raw) => parseLimitsOptions(raw),
    'remaining',
    'rule, period, limit, used, remaining, asset, types',
  ],
  [
    'markets',
    declareMarkets,
    (raw) => parseMarketsOptions(raw),
    'min_amount',
    'market, base, quote, tick, min_amount, buy, sell',
  ],
  [
    'trades',
    (cmd) => TRADES_FLAG_TABLE.declare(tableOptions(cmd)),
    (raw) => parseTradesOptions('BTCUSD', raw),
    'price',
    'executed, price, amount, match',
  ],
  [
    'prices',
    declarePrices,
    (raw) => parsePricesOptions('BTCUSD', raw, NOW),
    'average_price',
    'timestamp, average_price',
  ],
];

describe.each(COMMANDS)('%s', (_name, declare, parseRaw, column, all, before = []) => {
  const parse = (argv: string[]) => parseRaw(parseArgv(declare, [...before, ...argv]));

  it('takes --columns by name or field, in any case, and --wide; neither leaves the view unset', () => {
    expect(parse([]).view).toBeUndefined();
    expect(parse(['--columns', column.toUpperCase()]).view).toEqual({ names: [column.toUpperCase()] });
    expect(parse(['--wide']).view).toEqual({ wide: true });
  });

  it('refuses an unknown column, listing the valid ones; a column named twice; and --columns with --wide', () => {
    expect(usageMessage(() => parse(['--columns', 'nope']))).toBe(
      `--columns: "nope" is not a column of this table (${all})`,
    );
    expect(usageMessage(() => parse(['--columns', `${column},${column}`]))).toBe(`--columns: ${column} is named twice`);
    expect(usageMessage(() => parse(['--columns', column, '--wide']))).toBe(
      '--columns and --wide: give one (--wide is every column)',
    );
  });
});
