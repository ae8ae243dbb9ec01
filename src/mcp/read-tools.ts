// The tools that only read: balances, service profiles, limits, transfers, deposit addresses, the address book, fiat
// accounts, the VASP directory, stablecoin conversions, fee quotes, historical prices and the market snapshots. Each is an operation of the contract: its input is the
// operation's params and query (the tool's schema made from them), its output the operation's response.
import {
  appliedTransferTest,
  operations,
  type OperationId,
  type PriceIncrement,
  splitTransferQuery,
  type TransferLimitType,
} from '../contract/index.js';
import * as S from '../contract/schemas.js';
import { type CallParts, checkRequest } from '../client/service-client.js';
import { fetchMarkets, mergeMarkets } from '../client/market-list.js';
import { latestRangeBegin } from '../client/prices.js';
import { addressCheckFor } from '../config/environments.js';
import { usageError } from '../errors.js';
import { bestFirst } from '../market-data/book.js';
import { newestFirst } from '../market-data/trades.js';
import { canonicalRequest } from '../send/withdrawal.js';
import { asObject, extended, fieldsOf, objectOf, plain } from './schema.js';
import type { Call, McpConnection, Tool } from './tool.js';

export const PROFILE_ID_TEXT =
  "The service profile; by default the coinop context's own (see the coinop://context resource).";

/** The service profile a call names, or the coinop context's: a usage error when neither says. */
export function profileIdOf(given: unknown, call: Call, field = 'profile_id'): string {
  const id = typeof given === 'string' ? given : call.deps.context.profileId;
  if (!id)
    throw usageError(
      `missing ${field}: the coinop context ${call.deps.context.name} names no service profile`,
      `give ${field}, or save one with coinop login --profile-id`,
    );
  return id;
}

/** A tool that reads: its answer is what `read` returns from the connection. */
function readTool(
  tool: Omit<Tool, 'run'> & { read(args: Record<string, unknown>, conn: McpConnection, call: Call): Promise<unknown> },
): Tool {
  const { read, ...rest } = tool;
  return {
    ...rest,
    run: async (args, call) => ({
      structured: (await read(args, await call.conn(), call)) as Record<string, unknown>,
      outcome: 'read',
    }),
  };
}

/** The answer of one operation. */
async function answer<K extends OperationId>(conn: McpConnection, id: K, parts: CallParts<K>) {
  return (await conn.client.call(id, parts)).data;
}

const market = fieldsOf(S.MarketSymbolParams, { describe: { market: 'A market symbol such as BTCUSD.' } });

const balances = readTool({
  name: 'balances',
  title: 'Balances of a service profile',
  description:
    'What a service profile holds of each asset: `available` is what a withdrawal or transfer may take now (a pending withdrawal is already held), `trading` what open orders hold. Without `assets`, every asset.',
  input: objectOf(
    {
      ...fieldsOf(S.ProfileParams, { optional: ['profile_id'], describe: { profile_id: PROFILE_ID_TEXT } }),
      ...fieldsOf(S.ListProfileBalancesQuery),
    },
    true,
  ),
  output: extended(S.ListProfileBalancesResponse, { profile_id: plain.string('The service profile read.') }),
  async read({ profile_id, ...query }, conn, call) {
    const id = profileIdOf(profile_id, call);
    return { profile_id: id, ...(await answer(conn, 'listProfileBalances', { params: { profile_id: id }, query })) };
  },
});

const profilesList = readTool({
  name: 'profiles_list',
  title: 'Service profiles',
  description:
    'The service profiles of the customer (the service keeps balances in profiles), a page at a time (`limit`, `page_cursor` from `next_page_cursor`).',
  input: objectOf(fieldsOf(S.ListProfilesQuery), true),
  output: asObject(S.ListProfilesResponse),
  read: (query, conn) => answer(conn, 'listProfiles', { query }),
});

const profileGet = readTool({
  name: 'profile_get',
  title: 'One service profile',
  description: "A service profile by id (by default the coinop context's own).",
  input: objectOf(
    {
      ...fieldsOf(S.ProfileParams, { optional: ['profile_id'], describe: { profile_id: PROFILE_ID_TEXT } }),
      ...fieldsOf(S.GetProfileQuery),
    },
    true,
  ),
  output: asObject(S.Profile),
  read: ({ profile_id, ...query }, conn, call) =>
    answer(conn, 'getProfile', { params: { profile_id: profileIdOf(profile_id, call) }, query }),
});

const limits = readTool({
  name: 'limits',
  title: 'Transfer limits',
  description:
    'The limits on a transfer type (CRYPTO_WITHDRAWAL by default): each limit per transfer or per period, with what `remaining` of it.',
  input: objectOf(
    fieldsOf(S.ListTransferLimitsQuery, {
      optional: ['transfer_type'],
      describe: { transfer_type: 'The transfer type the limits apply to; CRYPTO_WITHDRAWAL by default.' },
    }),
    true,
  ),
  output: asObject(S.ListTransferLimitsResponse),
  read: ({ transfer_type }, conn) =>
    answer(conn, 'listTransferLimits', {
      query: { transfer_type: (transfer_type as TransferLimitType | undefined) ?? 'CRYPTO_WITHDRAWAL' },
    }),
});

const transfersList = readTool({
  name: 'transfers_list',
  title: 'Transfers',
  description:
    "Transfers (withdrawals, deposits, internal transfers...), newest first by default, filtered by any of the API's filters; a page at a time (`limit`, `page_cursor` from `next_page_cursor`). `ref_ids` finds what a ref_id sent. The service takes ids, ref_ids, profile_ids, identity_ids, account_ids and type each with the created_at/updated_at filters only: given with other filters, one goes to the service and the rest are applied to its page, which may then hold fewer than `limit` (page on with `next_page_cursor`).",
  input: objectOf(fieldsOf(S.ListTransfersQuery), true),
  output: asObject(S.ListTransfersResponse),
  read: async (asked, conn) => {
    const { query, applied } = splitTransferQuery(asked);
    const page = await answer(conn, 'listTransfers', { query });
    if (!applied) return page;
    const keep = appliedTransferTest(applied);
    return { ...page, items: (page.items ?? []).filter((t) => keep(t)) };
  },
});

const transferGet = readTool({
  name: 'transfer_get',
  title: 'One transfer',
  description: 'A transfer by id, with its status (PENDING, COMPLETED or FAILED).',
  input: objectOf(fieldsOf(S.IdParams, { describe: { id: 'The transfer id.' } }), true),
  output: asObject(S.Transfer),
  read: ({ id }, conn) => answer(conn, 'getTransfer', { params: { id: String(id) } }),
});

const eventsList = readTool({
  name: 'events_list',
  title: 'The event feed',
  description:
    "The service's events, oldest first by default: every state change of a transfer (its status, its object as it was then) and every deposit address created, filtered by `type` and the created_at filters; a page at a time (`limit`, `page_cursor` from `next_page_cursor`). To follow what changed since a moment, give created_at.gt.",
  input: objectOf(fieldsOf(S.ListEventsQuery), true),
  output: asObject(S.ListEventsResponse),
  read: (query, conn) => answer(conn, 'listEvents', { query }),
});

const eventGet = readTool({
  name: 'event_get',
  title: 'One event',
  description: 'An event of the feed by id.',
  input: objectOf(
    { ...fieldsOf(S.IdParams, { describe: { id: 'The event id.' } }), ...fieldsOf(S.GetEventQuery) },
    true,
  ),
  output: asObject(S.Event),
  read: ({ id, ...query }, conn) => answer(conn, 'getEvent', { params: { id: String(id) }, query }),
});

const depositAddressesList = readTool({
  name: 'deposit_addresses_list',
  title: 'Deposit addresses',
  description: "Crypto deposit addresses, filtered by any of the API's filters; a page at a time.",
  input: objectOf(fieldsOf(S.ListDepositAddressesQuery), true),
  output: asObject(S.ListDepositAddressesResponse),
  read: (query, conn) => answer(conn, 'listDepositAddresses', { query }),
});

const destinationsList = readTool({
  name: 'destinations_list',
  title: 'The address book',
  description:
    'The address book of destination addresses (nickname, network, address, status: only APPROVED ones can be paid); a page at a time.',
  input: objectOf(fieldsOf(S.ListCryptoDestinationAddressesQuery), true),
  output: asObject(S.ListCryptoDestinationAddressesResponse),
  read: (query, conn) => answer(conn, 'listCryptoDestinationAddresses', { query }),
});

const fiatAccountsList = readTool({
  name: 'fiat_accounts_list',
  title: 'Fiat accounts',
  description:
    'The saved fiat accounts fiat withdrawals go to (id, status: only APPROVED ones can be paid, network, the last four digits of the account number); a page at a time.',
  input: objectOf(fieldsOf(S.ListFiatAccountsQuery), true),
  output: asObject(S.ListFiatAccountsResponse),
  read: (query, conn) => answer(conn, 'listFiatAccounts', { query }),
});

const vaspsList = readTool({
  name: 'vasps_list',
  title: 'VASPs (Travel Rule)',
  description:
    "The Travel Rule's directory of VASPs (exchanges, custodians) by name: `search` is a case-insensitive prefix of the name. A destination address custodied by a VASP names one by its id (travelrule_metadata.vasp.id); a page at a time.",
  input: objectOf(fieldsOf(S.ListVaspsQuery), true),
  output: asObject(S.ListVaspsResponse),
  read: (query, conn) => answer(conn, 'listVasps', { query }),
});

const vaspGet = readTool({
  name: 'vasp_get',
  title: 'One VASP (Travel Rule)',
  description: 'A VASP of the directory by its id.',
  input: objectOf(fieldsOf(S.IdParams, { describe: { id: 'The VASP id.' } }), true),
  output: asObject(S.GetVaspResponse),
  read: ({ id }, conn) => answer(conn, 'getVasp', { params: { id: String(id) } }),
});

const conversionsList = readTool({
  name: 'conversions_list',
  title: 'Stablecoin conversions',
  description:
    'Stablecoin conversions (USD to USDP or PYUSD and back, one to one), newest first: id, status (CREATED, then SETTLED; CANCELLED; FAILED), source_asset, target_asset, amount, ref_id; a page at a time. Filter by profile_id, ref_id, created_at.begin/.end and updated_at.begin/.end (inclusive).',
  input: objectOf(fieldsOf(S.ListStablecoinConversionsQuery), true),
  output: asObject(S.ListStablecoinConversionsResponse),
  read: (query, conn) => answer(conn, 'listStablecoinConversions', { query }),
});

const conversionGet = readTool({
  name: 'conversion_get',
  title: 'One stablecoin conversion',
  description: 'A stablecoin conversion by id, with its status now (settled_at or cancelled_at once it ended so).',
  input: objectOf(fieldsOf(S.IdParams, { describe: { id: 'The conversion id.' } }), true),
  output: asObject(S.StablecoinConversion),
  read: ({ id }, conn) => answer(conn, 'getStablecoinConversion', { params: { id: String(id) } }),
});

const verificationsList = readTool({
  name: 'verifications_list',
  title: 'Address verifications',
  description:
    "The service's address verifications (proofs that a destination address is the customer's own): id, network, address, status (PENDING until signed, APPROVED once proven, EXPIRED), the message to sign; filtered by status, network, address; a page at a time. A policy with verified_only sends only to APPROVED ones.",
  input: objectOf(fieldsOf(S.ListVerificationsQuery), true),
  output: asObject(S.ListVerificationsResponse),
  read: (query, conn) => answer(conn, 'listVerifications', { query }),
});

const verificationGet = readTool({
  name: 'verification_get',
  title: 'One address verification',
  description:
    "One address verification by its id, with the message its address's key must sign (signature_verification.message) and its status.",
  input: objectOf(fieldsOf(S.IdParams, { describe: { id: 'The verification id.' } }), true),
  output: asObject(S.AddressVerification),
  read: ({ id }, conn) => answer(conn, 'getVerification', { params: { id: id as string } }),
});

const statementsList = readTool({
  name: 'statements_list',
  title: 'Statements',
  description:
    "The service's monthly statements (USDG rewards): the period, the status (GENERATED, then PAID), what is owed and what was paid (statement_balances), newest period first; a page at a time.",
  input: objectOf(fieldsOf(S.ListStatementsQuery), true),
  output: asObject(S.ListStatementsResponse),
  read: (query, conn) => answer(conn, 'listStatements', { query }),
});

const statementPaymentsList = readTool({
  name: 'statement_payments_list',
  title: 'Payments of statements',
  description:
    "The payments that settle statements (a statement's next_payment_ref_id is its payment's ref_id): amount, asset, status (PENDING, COMPLETED, FAILED); ref_ids or payment_ids go with no other filter.",
  input: objectOf(fieldsOf(S.ListPaymentsQuery), true),
  output: asObject(S.ListPaymentsResponse),
  read: (query, conn) => answer(conn, 'listPayments', { query }),
});

const feeQuote = readTool({
  name: 'fee_quote',
  title: 'Guaranteed withdrawal fee',
  description:
    'A guaranteed fee for a withdrawal (give exactly one of `amount` and `total`): its `id` may be passed as `fee_id` to the withdraw tool until `expires_at`. Moves no money.',
  input: objectOf(fieldsOf(S.CreateCryptoWithdrawalFeeRequest), true),
  output: asObject(S.CryptoWithdrawalFee),
  async read(body, conn, call) {
    checkRequest(operations.createCryptoWithdrawalFee, { body }, undefined, call.catalogue);
    // Quoted for the destination in its one spelling, as the withdraw tool sends it (its fee id fits that request).
    const sent = canonicalRequest(
      { ...body, crypto_network: String(body.crypto_network), destination_address: String(body.destination_address) },
      addressCheckFor(call.deps.context.environment),
    );
    return answer(conn, 'createCryptoWithdrawalFee', { body: sent });
  },
});

const prices = readTool({
  name: 'prices',
  title: 'Historical prices',
  description:
    "A market's historical average prices, oldest first. Give `increment` (ONE_HOUR by default) or `max_data_points`, not both; without `range.begin` the answer is the latest page (`pagination.limit` steps back from `range.end` or now).",
  input: objectOf(
    {
      ...fieldsOf(S.MarketParams, { describe: { market: 'A market symbol such as BTCUSD.' } }),
      ...fieldsOf(S.ListHistoricalPricesQuery),
    },
    true,
  ),
  output: asObject(S.ListHistoricalPricesResponse),
  read({ market: m, ...q }, conn, call) {
    const increment = (q.increment ?? (q.max_data_points === undefined ? 'ONE_HOUR' : undefined)) as
      | PriceIncrement
      | undefined;
    const end =
      typeof q['range.end'] === 'string' && !Number.isNaN(Date.parse(q['range.end']))
        ? Date.parse(q['range.end'])
        : call.deps.now();
    const query = {
      ...q,
      ...(increment ? { increment } : {}),
      // Any value given is the client's to check (a bad one is refused with the field named).
      'range.begin':
        (q['range.begin'] as string | undefined) ??
        latestRangeBegin(increment, q['pagination.limit'] as number | undefined, end),
    };
    return answer(conn, 'listHistoricalPrices', { params: { market: String(m) }, query });
  },
});

const ticker = readTool({
  name: 'ticker',
  title: 'Ticker',
  description:
    "A market's best bid and ask, last trade, and the last day's and today's open, high, low and volume. Public market data.",
  input: objectOf(market, true),
  output: asObject(S.Ticker),
  read: ({ market: m }, conn) => answer(conn, 'getTicker', { params: { market: String(m) } }),
});

const orderBook = readTool({
  name: 'order_book',
  title: 'Order book snapshot',
  description:
    "A market's order book: bids and asks best first, cut to `depth` levels each (10 by default), with how many levels each side has. Public market data.",
  input: objectOf(
    { ...market, depth: { schema: plain.integer('Levels of each side to return; 10 by default.', 1, 1000) } },
    true,
  ),
  output: extended(S.OrderBookResponse, {
    bid_levels: plain.integer('Levels of bids the service sent.', 0, Number.MAX_SAFE_INTEGER),
    ask_levels: plain.integer('Levels of asks the service sent.', 0, Number.MAX_SAFE_INTEGER),
  }),
  async read({ market: m, depth }, conn) {
    const data = await answer(conn, 'getOrderBook', { params: { market: String(m) } });
    const bids = bestFirst(data.bids, true);
    const asks = bestFirst(data.asks, false);
    const d = (depth as number | undefined) ?? 10;
    return {
      market: data.market ?? m,
      bids: bids.slice(0, d),
      asks: asks.slice(0, d),
      bid_levels: bids.length,
      ask_levels: asks.length,
    };
  },
});

const recentTrades = readTool({
  name: 'recent_trades',
  title: 'Recent trades',
  description: "A market's recent trades, newest first (`limit`, 20 by default). Public market data.",
  input: objectOf(
    { ...market, limit: { schema: plain.integer('How many trades, newest first; 20 by default.', 1, 2000) } },
    true,
  ),
  output: extended(S.ListRecentExecutionsResponse, {
    total: plain.integer('Recent trades the service sent.', 0, Number.MAX_SAFE_INTEGER),
  }),
  async read({ market: m, limit }, conn) {
    const data = await answer(conn, 'listRecentExecutions', { params: { market: String(m) } });
    const all = newestFirst(data.items);
    return { items: all.slice(0, (limit as number | undefined) ?? 20), total: all.length };
  },
});

const markets = readTool({
  name: 'markets',
  title: 'Markets',
  description:
    "The markets: the service's list, with coinop's catalogue for any it leaves out (base and quote asset, tick, smallest amount, buy and sell status). Public market data.",
  input: objectOf({}, true),
  output: asObject(S.ListMarketsResponse),
  read: async (_args, conn) => ({ markets: mergeMarkets(await fetchMarkets(conn.client)) }),
});

export const READ_TOOLS: Tool[] = [
  balances,
  profilesList,
  profileGet,
  limits,
  transfersList,
  transferGet,
  eventsList,
  eventGet,
  depositAddressesList,
  destinationsList,
  fiatAccountsList,
  vaspsList,
  vaspGet,
  conversionsList,
  conversionGet,
  verificationsList,
  verificationGet,
  statementsList,
  statementPaymentsList,
  feeQuote,
  prices,
  ticker,
  orderBook,
  recentTrades,
  markets,
];
