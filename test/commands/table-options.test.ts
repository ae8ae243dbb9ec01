// --columns and --wide on every command that prints a table: raw flags to the view each parse function returns, and
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
import type { RawFlags } from '../../src/cli/options.js';
import type { TableView } from '../../src/render/table.js';
import { usageMessage } from './support.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');

/** Each table command's parse function, a column of its table, and the columns its error lists. */
const TRANSFER_COLUMNS =
  'id, status, type, asset, amount, created, ref_id, fee, total, network, destination, tx_hash, tx_index, updated, ' +
  'direction, balance_asset, profile, identity, account, group, memo, notional, secondary_status, details';
const COMMANDS: [name: string, parse: (raw: RawFlags) => { view?: TableView }, column: string, all: string][] = [
  ['transfers list', (raw) => parseTransfersListOptions(raw, NOW), 'tx_hash', TRANSFER_COLUMNS],
  [
    'transfers watch',
    (raw) => parseTransfersWatchOptions(['t1'], { waitTimeout: '600', ...raw }),
    'fee',
    TRANSFER_COLUMNS,
  ],
  [
    'addresses list',
    (raw) => parseAddressesListOptions(raw, NOW),
    'address',
    'id, network, address, conversion, ref_id, created',
  ],
  [
    'destinations list',
    (raw) => parseDestinationListOptions(raw, NOW),
    'nickname',
    'nickname, network, address, bookmarked, status, identity, id, created',
  ],
  [
    'deposit-instructions list',
    (raw) => parseInstructionsListOptions(raw, NOW),
    'memo_id',
    'id, status, memo_id, network, profile, ref_id, created',
  ],
  ['profiles list', (raw) => parseProfilesListOptions(raw, NOW), 'nickname', 'id, nickname, type, description'],
  ['balances', (raw) => parseBalancesOptions([], raw), 'available', 'asset, available, trading'],
  [
    'balances --all-profiles',
    (raw) => parseBalancesOptions([], { allProfiles: true, ...raw }),
    'profile',
    'profile, nickname, asset, available, trading',
  ],
  [
    'limits',
    (raw) => parseLimitsOptions({ type: 'CRYPTO_WITHDRAWAL', ...raw }),
    'remaining',
    'rule, period, limit, used, remaining, asset, types',
  ],
  ['markets', (raw) => parseMarketsOptions(raw), 'min_amount', 'market, base, quote, tick, min_amount, buy, sell'],
  ['trades', (raw) => parseTradesOptions('BTCUSD', raw), 'price', 'executed, price, amount, match'],
  ['prices', (raw) => parsePricesOptions('BTCUSD', raw, NOW), 'average_price', 'timestamp, average_price'],
];

describe.each(COMMANDS)('%s', (_name, parse, column, all) => {
  it('takes --columns by name or field, in any case, and --wide; neither leaves the view unset', () => {
    expect(parse({}).view).toBeUndefined();
    expect(parse({ columns: [column.toUpperCase()] }).view).toEqual({ names: [column.toUpperCase()] });
    expect(parse({ wide: true }).view).toEqual({ wide: true });
  });

  it('refuses an unknown column, listing the valid ones; a column named twice; and --columns with --wide', () => {
    expect(usageMessage(() => parse({ columns: ['nope'] }))).toBe(
      `--columns: "nope" is not a column of this table (${all})`,
    );
    expect(usageMessage(() => parse({ columns: [column, column] }))).toBe(`--columns: ${column} is named twice`);
    expect(usageMessage(() => parse({ columns: [column], wide: true }))).toBe(
      '--columns and --wide: give one (--wide is every column)',
    );
  });
});
