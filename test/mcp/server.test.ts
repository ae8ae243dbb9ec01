// coinop's MCP server in process: the SDK's client over the SDK's in-memory transport, against a real local service.
// The tools and their schemas (made from the contract's), reads, the gated tools' previews, each gate refusing a send
// on its own, sends through them, a retry with the same ref_id making one transfer, schema refusals, tool errors
// with the CLI's categories, resources, and the policy and audit ports.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec, fmt } from '../../src/contract/money.js';
import * as S from '../../src/contract/schemas.js';
import { DEMO } from '../../src/embedded/demo.js';
import { auditLogPath } from '../../src/audit/log.js';
import { BTC_ADDRESS, ETH_ADDRESS, type Sandbox, sandbox } from '../cli/helpers.js';
import { answerOf, CLIENT, errorOf, inProcess, texts, BTC, withdrawalPosts } from './support.js';
import { resourceText } from '../support/mcp.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => {
  await sb?.close();
});

/** The demo profile's balances as the control API sees them. */
const demoBalances = async (): Promise<Record<string, string>> => {
  const { items } = (await sb.control('GET', '/_local/profiles')) as {
    items: { id: string; balances: Record<string, string> }[];
  };
  return items.find((p) => p.id === DEMO.profileId)!.balances;
};

describe('the tools', () => {
  it("lists every tool with the contract's schemas; the gated ones are the writes", async () => {
    const s = await inProcess(sb.env, { allowWrites: false, allowProduction: false });
    try {
      const { tools } = await s.client.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toEqual(
        expect.arrayContaining([
          'balances',
          'profiles_list',
          'limits',
          'transfers_list',
          'transfer_get',
          'deposit_addresses_list',
          'deposit_address_create',
          'destinations_list',
          'fiat_accounts_list',
          'fiat_withdrawal',
          'vasps_list',
          'vasp_get',
          'deposit_update',
          'deposit_reject',
          'conversions_list',
          'conversion_get',
          'conversion',
          'verifications_list',
          'verification_get',
          'statements_list',
          'statement_payments_list',
          'address_verification_create',
          'fee_quote',
          'prices',
          'ticker',
          'order_book',
          'recent_trades',
          'batch_dry_run',
          'withdraw',
          'internal_transfer',
          'paxos_transfer',
        ]),
      );
      for (const t of tools) {
        expect(t.inputSchema.type, t.name).toBe('object');
        expect(t.outputSchema?.type, t.name).toBe('object');
      }
      const gated = tools.filter((t) => !t.annotations?.readOnlyHint).map((t) => t.name);
      expect(gated.sort()).toEqual([
        'address_verification_create',
        'conversion',
        'deposit_address_create',
        'deposit_reject',
        'deposit_update',
        'fiat_withdrawal',
        'internal_transfer',
        'paxos_transfer',
        'withdraw',
        'withdraw_batch',
      ]);
      // The withdrawal's input is the contract's request (profile_id filled in by the server) and the tool's switches.
      const w = tools.find((t) => t.name === 'withdraw')!;
      const contract = S.CreateCryptoWithdrawalRequest as unknown as {
        properties: Record<string, unknown>;
        required: string[];
      };
      expect(Object.keys(w.inputSchema.properties!).sort()).toEqual(
        [...Object.keys(contract.properties), 'confirm', 'quote'].sort(),
      );
      expect((w.inputSchema.properties!.amount as { pattern: string }).pattern).toBe(
        (contract.properties.amount as { pattern: string }).pattern,
      );
      expect(w.inputSchema.required).toEqual(contract.required.filter((k) => k !== 'profile_id'));
      expect((w.inputSchema as { additionalProperties?: boolean }).additionalProperties).toBe(false);
      // A list's output is the contract's response.
      const list = tools.find((t) => t.name === 'transfers_list')!;
      expect(list.outputSchema).toEqual(JSON.parse(JSON.stringify(S.ListTransfersResponse)));
    } finally {
      await s.close();
    }
  });

  it('reads balances, transfers, limits and market data as the service answers them', async () => {
    const s = await inProcess(sb.env, { allowWrites: false, allowProduction: false });
    try {
      const b = answerOf(await s.call('balances', { assets: ['BTC', 'ETH'] }));
      expect(b.profile_id).toBe(DEMO.profileId);
      const own = await demoBalances();
      expect(b.items.map((i: { asset: string; available: string }) => [i.asset, i.available]).sort()).toEqual([
        ['BTC', own.BTC],
        ['ETH', own.ETH],
      ]);
      const other = answerOf(await s.call('balances', { profile_id: DEMO.emptyProfileId, assets: ['USD'] }));
      expect(other.items).toEqual([{ asset: 'USD', available: '0', trading: '0' }]);
      const limits = answerOf(await s.call('limits'));
      expect(limits.items.map((l: { transfer_types: string[] }) => l.transfer_types)).toContainEqual([
        'CRYPTO_WITHDRAWAL',
      ]);
      const book = answerOf(await s.call('order_book', { market: 'BTCUSD', depth: 3 }));
      expect(book.bids.length).toBeLessThanOrEqual(3);
      expect(book.bid_levels).toBeGreaterThanOrEqual(book.bids.length);
      if (book.bids.length > 1) expect(Number(book.bids[0].price)).toBeGreaterThan(Number(book.bids[1].price));
      const trades = answerOf(await s.call('recent_trades', { market: 'BTCUSD', limit: 2 }));
      expect(trades.items.length).toBeLessThanOrEqual(2);
      const prices = answerOf(await s.call('prices', { market: 'BTCUSD', 'pagination.limit': 3 }));
      // The latest page (not the oldest prices): its last point is the current mid, within the last hour.
      expect(prices.items).toHaveLength(3);
      expect(Date.now() - Date.parse(prices.items[2].timestamp)).toBeLessThan(3_600_000);
      // The event feed: a deposit address created here is an event of it.
      const created = await sb.runIn(['addresses', 'create', '--network', 'ETHEREUM', '--ref-id', 'mcp-event-1']);
      expect(created.code, created.stderr).toBe(0);
      const events = answerOf(await s.call('events_list', { order: 'DESC', limit: 20 }));
      const ev = events.events.find((e: { object?: { ref_id?: string } }) => e.object?.ref_id === 'mcp-event-1');
      expect(ev).toBeDefined();
      expect(answerOf(await s.call('event_get', { id: ev.id }))).toMatchObject({ id: ev.id, type: ev.type });
      const quote = answerOf(await s.call('fee_quote', { ...BTC, amount: '0.01' }));
      expect(quote).toMatchObject({ fee: '0.00002', asset: 'BTC', crypto_network: 'BITCOIN' });
      // Nothing in any of those moved money.
      expect(await withdrawalPosts(sb)).toEqual([]);
    } finally {
      await s.close();
    }
  });
});

describe('withdraw, through the gates', () => {
  it('previews by default: the request, the fee, the balance after, the gates; nothing is sent', async () => {
    const s = await inProcess(sb.env, { allowWrites: true, allowProduction: false });
    try {
      await sb.sent();
      const p = answerOf(await s.call('withdraw', { ...BTC, amount: '0.25' }));
      expect(p).toMatchObject({ status: 'preview', sent: false, ref_id_generated: true, environment: 'local' });
      expect(p.ref_id).toMatch(/^coinop-[0-9a-f-]{36}$/);
      expect(p.request).toEqual({
        method: 'POST',
        path: '/v2/transfer/crypto-withdrawals',
        body: { ...BTC, amount: '0.25', profile_id: DEMO.profileId, ref_id: p.ref_id },
      });
      expect(p.figures).toEqual({ amount: '0.25', fee: '0.00002', total: '0.25002' });
      const before = p.balance.available;
      expect(p.balance.after).toBe(String(Number(before) - 0.25002).replace(/(\.\d{8})\d+$/, '$1'));
      expect(p.gates).toMatchObject({ confirm: false, allow_writes: true, open: true, policy: 'none' });
      expect(p.next_step).toContain(`ref_id "${p.ref_id}" and confirm: true`);
      expect(await withdrawalPosts(sb)).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('refuses to send without --allow-writes, and says so in the preview; nothing is sent', async () => {
    const s = await inProcess(sb.env, { allowWrites: false, allowProduction: false });
    try {
      await sb.sent();
      const p = answerOf(await s.call('withdraw', { ...BTC, amount: '0.01' }));
      expect(p.gates).toMatchObject({ allow_writes: false, open: false });
      expect(p.next_step).toMatch(/would be refused: this MCP server was started without --allow-writes/);
      const r = await s.call('withdraw', { ...BTC, amount: '0.01', ref_id: p.ref_id, confirm: true });
      expect(errorOf(r)).toMatchObject({
        category: 'usage',
        message: 'refusing to send: this MCP server was started without --allow-writes; nothing was sent',
      });
      expect(texts(r)[0]).toMatch(/^error: refusing to send: .* \(hint: call withdraw without confirm for a preview;/);
      expect(await withdrawalPosts(sb)).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('sends with --allow-writes and confirm: true; a retry with the same ref_id makes no second transfer', async () => {
    const s = await inProcess(sb.env, { allowWrites: true, allowProduction: false });
    try {
      const preview = answerOf(await s.call('withdraw', { ...BTC, amount: '0.01', quote: true }));
      expect(preview.request.body.fee_id).toBe(preview.fee_quote.id);
      await sb.sent();
      const args = { ...BTC, amount: '0.01', ref_id: preview.ref_id, confirm: true };
      const sent = answerOf(await s.call('withdraw', args));
      expect(sent).toMatchObject({ status: 'sent', sent: true, ref_id: preview.ref_id, ref_id_generated: false });
      expect(sent.transfer).toMatchObject({
        type: 'CRYPTO_WITHDRAWAL',
        status: 'PENDING',
        amount: '0.01',
        ref_id: preview.ref_id,
      });
      // What the transfer took, as the service charged it.
      expect(sent.figures).toEqual({ amount: '0.01', fee: sent.transfer.fee, total: sent.transfer.total });
      expect(sent.balance.after).toBe(fmt(dec(sent.balance.available).minus(sent.transfer.total)));
      const again = answerOf(await s.call('withdraw', args));
      expect(again).toMatchObject({ status: 'already_submitted', sent: false });
      expect(again.transfer.id).toBe(sent.transfer.id);
      expect(again.next_step).toMatch(/nothing was sent this time/);
      const posts = await withdrawalPosts(sb);
      expect(posts.map((p) => p.status)).toEqual([200, 409]);
      const held = answerOf(await s.call('transfers_list', { ref_ids: [preview.ref_id] }));
      expect(held.items.map((t: { id: string }) => t.id)).toEqual([sent.transfer.id]);
      // ref_ids goes with the time filters only (the OpenAPI): the ref_ids are sent, the rest applied to the page.
      await sb.sent();
      const both = { ref_ids: [preview.ref_id], type: ['PLATFORM_TRANSFER_DEBIT', 'CRYPTO_WITHDRAWAL'] };
      const kept = answerOf(await s.call('transfers_list', { ...both, statuses: ['PENDING', 'COMPLETED'] }));
      expect(kept.items.map((t: { id: string }) => t.id)).toEqual([sent.transfer.id]);
      const none = answerOf(await s.call('transfers_list', { ...both, statuses: ['FAILED'] }));
      expect(none.items).toEqual([]);
      const urls = (await sb.sent()).map((e) => decodeURIComponent(e.url)).filter((u) => u.includes('/transfers?'));
      expect(urls).toEqual([1, 2].map(() => `/v2/transfer/transfers?ref_ids=${preview.ref_id}`));
    } finally {
      await s.close();
    }
  });

  it('reads the VASP directory; answers for a held deposit: a preview, refused without --allow-writes, sent and audited', async () => {
    const held = (await sb.control('POST', '/_local/crypto-deposits', {
      ref_id: 'demo-btc',
      amount: '0.3',
      needs_info: true,
    })) as { id: string };
    const args = {
      id: held.id,
      identity_id: 'ident-1',
      originator_address_info: { individual_info: { first_name: 'Ada', last_name: 'Lovelace' } },
    };
    const closed = await inProcess(sb.env, { allowWrites: false, allowProduction: false });
    try {
      const vasps = answerOf(await closed.call('vasps_list', { search: 'ok' }));
      expect(vasps.items).toEqual([{ id: '8e4b1c2d-9a3f-4e6b-b1d7-2c5a8f0e3b94', name: 'OKX' }]);
      await sb.sent();
      const preview = answerOf(await closed.call('deposit_update', args));
      expect(preview).toMatchObject({ status: 'preview', sent: false, gates: { open: false, policy: 'none' } });
      expect(preview.deposit.secondary_status.name).toBe('TRAVEL_RULE_INFO_REQUESTED');
      expect(preview.request.path).toBe(`/v2/transfer/crypto-deposits/${held.id}/update`);
      expect(errorOf(await closed.call('deposit_update', { ...args, confirm: true }))).toMatchObject({
        category: 'usage',
        message: 'refusing to send: this MCP server was started without --allow-writes; nothing was sent',
      });
      expect((await sb.sent()).filter((e) => e.method === 'POST' && e.url.includes('crypto-deposits/'))).toEqual([]);
    } finally {
      await closed.close();
    }
    const log = auditLogPath(sb.env.COINOP_DATA_DIR);
    const before = readFileSync(log, 'utf8').split('\n').filter(Boolean).length;
    const open = await inProcess(sb.env, { allowWrites: true, allowProduction: false });
    try {
      const sent = answerOf(await open.call('deposit_update', { ...args, confirm: true }));
      expect(sent).toMatchObject({ status: 'sent', sent: true, deposit: { id: held.id, status: 'PENDING' } });
      expect(sent.deposit.secondary_status).toBeUndefined();
      const again = await open.call('deposit_reject', { id: held.id, identity_id: 'ident-1', confirm: true });
      expect(errorOf(again).message).toMatch(/does not need info/);
      const entries = readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .slice(before)
        .map((l) => JSON.parse(l));
      expect(
        entries.filter((e) => e.kind === 'deposit_travel_rule').map((e) => [e.what.action, e.outcome.result]),
      ).toEqual([
        ['update', 'attempt'],
        ['update', 'sent'],
        ['reject', 'attempt'],
        ['reject', 'refused'],
      ]);
    } finally {
      await open.close();
    }
  });

  it('refuses, before sending, an amount plus fee over the balance (as coinop withdraw does)', async () => {
    const s = await inProcess(sb.env, { allowWrites: true, allowProduction: false });
    try {
      await sb.sent();
      const r = await s.call('withdraw', { ...BTC, amount: '99', profile_id: DEMO.emptyProfileId, confirm: true });
      expect(errorOf(r)).toMatchObject({ category: 'usage' });
      expect(errorOf(r).message).toMatch(/^insufficient funds: the amount 99 BTC is more than the available 0 BTC/);
      expect(await withdrawalPosts(sb)).toEqual([]);
    } finally {
      await s.close();
    }
  });
});

describe('arguments and errors', () => {
  it('refuses bad arguments by schema, naming the field and the rule, before anything is sent', async () => {
    const s = await inProcess(sb.env, { allowWrites: true, allowProduction: false });
    try {
      await sb.sent();
      const cases: [Record<string, unknown>, string][] = [
        [{ ...BTC, amount: 0.01, confirm: true }, 'amount: must be a string'],
        [{ ...BTC, amount: '1e-2', confirm: true }, 'amount: must be a plain decimal number such as 0.05'],
        [{ ...BTC, amount: '0.01', confirm: 'yes' }, 'confirm: must be a boolean'],
        [{ ...BTC, amount: '0.01', to: 'treasury', confirm: true }, 'to: is not a known field'],
        [{ asset: 'BTC', amount: '0.01', confirm: true }, 'destination_address: is required'],
        [{ ...BTC, confirm: true }, 'amount: give exactly one of amount and total'],
        [
          { ...BTC, destination_address: `${BTC_ADDRESS.slice(0, -1)}3`, amount: '0.01', confirm: true },
          'destination_address: checksum does not match',
        ],
        [{ ...BTC, asset: 'DOGE', amount: '0.01', confirm: true }, 'crypto_network'],
      ];
      for (const [args, message] of cases) {
        const e = errorOf(await s.call('withdraw', args));
        expect(e.category, JSON.stringify(args)).toBe('usage');
        expect(e.message, JSON.stringify(args)).toContain(message);
      }
      const list = errorOf(await s.call('transfers_list', { limit: 5000 }));
      expect(list).toMatchObject({ category: 'usage', message: 'limit: must be at most 1000' });
      // Not even a token was asked for: nothing reached the service.
      expect(await sb.sent()).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it("answers the service's refusals and an unreachable service as tool errors in the CLI's categories", async () => {
    const s = await inProcess(sb.env, { allowWrites: false, allowProduction: false });
    try {
      const missing = errorOf(await s.call('transfer_get', { id: '00000000-0000-4000-8000-000000000000' }));
      expect(missing.category).toBe('api');
      expect(missing.problem).toMatchObject({ status: 404 });
      const gone = await inProcess(
        {
          ...sb.env,
          COINOP_BASE_URL: 'http://127.0.0.1:9',
          COINOP_AUTH_URL: 'http://127.0.0.1:9',
          COINOP_RETRY_BASE_MS: '1',
        },
        { allowWrites: false, allowProduction: false },
      );
      try {
        const e = errorOf(await gone.call('balances'));
        expect(e.category).toBe('network');
        // The server is still there: the next call answers too.
        expect(errorOf(await gone.call('ticker', { market: 'BTCUSD' })).category).toBe('network');
      } finally {
        await gone.close();
      }
    } finally {
      await s.close();
    }
  });
});

describe('internal transfers, deposit addresses, batches', () => {
  it('moves an asset between profiles once per ref_id, and creates a deposit address once per ref_id', async () => {
    const s = await inProcess(sb.env, { allowWrites: true, allowProduction: false });
    try {
      const args = { to_profile_id: DEMO.emptyProfileId, asset: 'USD', amount: '12.5', ref_id: 'mcp-internal-1' };
      const p = answerOf(await s.call('internal_transfer', args));
      expect(p).toMatchObject({ status: 'preview', balance: { asset: 'USD' } });
      expect(Number(p.balance.after)).toBe(Number(p.balance.available) - 12.5);
      const sent = answerOf(await s.call('internal_transfer', { ...args, confirm: true }));
      expect(sent.transfer).toMatchObject({ type: 'INTERNAL_TRANSFER_DEBIT', amount: '12.5' });
      expect(answerOf(await s.call('internal_transfer', { ...args, confirm: true })).status).toBe('already_submitted');
      const usd = answerOf(await s.call('balances', { profile_id: DEMO.emptyProfileId, assets: ['USD'] }));
      expect(usd.items[0].available).toBe('12.5');

      const a = answerOf(
        await s.call('deposit_address_create', { crypto_network: 'ETHEREUM', ref_id: 'mcp-addr-1', confirm: true }),
      );
      expect(a.deposit_address).toMatchObject({ crypto_network: 'ETHEREUM', ref_id: 'mcp-addr-1' });
      const b = answerOf(
        await s.call('deposit_address_create', { crypto_network: 'ETHEREUM', ref_id: 'mcp-addr-1', confirm: true }),
      );
      expect(b.status).toBe('already_submitted');
      expect(b.deposit_address.address).toBe(a.deposit_address.address);
    } finally {
      await s.close();
    }
  });

  it('converts USD to a stablecoin once per ref_id: the preview shows the source balance, reads list and get it', async () => {
    const s = await inProcess(sb.env, { allowWrites: true, allowProduction: false });
    try {
      const args = { source_asset: 'USD', target_asset: 'PYUSD', amount: '40.25', ref_id: 'mcp-conv-1' };
      const p = answerOf(await s.call('conversion', args));
      expect(p).toMatchObject({ status: 'preview', balance: { asset: 'USD' } });
      expect(fmt(dec(p.balance.available).minus(p.balance.after))).toBe('40.25');
      expect(answerOf(await s.call('conversions_list', { ref_id: 'mcp-conv-1' })).items).toEqual([]);
      const sent = answerOf(await s.call('conversion', { ...args, confirm: true }));
      expect(sent.conversion).toMatchObject({ status: 'CREATED', amount: '40.25', target_asset: 'PYUSD' });
      expect(answerOf(await s.call('conversion', { ...args, confirm: true })).status).toBe('already_submitted');
      const listed = answerOf(await s.call('conversions_list', { ref_id: 'mcp-conv-1' }));
      expect(listed.items.map((c: { id: string }) => c.id)).toEqual([sent.conversion.id]);
      const got = answerOf(await s.call('conversion_get', { id: sent.conversion.id }));
      expect(got).toMatchObject({ id: sent.conversion.id, ref_id: 'mcp-conv-1' });
      const bad = await s.call('conversion', { ...args, ref_id: 'mcp-conv-2', target_asset: 'BTC', confirm: true });
      expect(errorOf(bad)).toMatchObject({ category: 'usage' });
      expect(errorOf(bad).message).toMatch(/target_asset: a conversion is USD to USDP/);
    } finally {
      await s.close();
    }
  });

  it('dry-runs a batch given inline or as a file, as withdraw batch --dry-run does; nothing is sent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coinop-mcp-batch-'));
    const s = await inProcess(sb.env, { allowWrites: true, allowProduction: false });
    try {
      await sb.sent();
      const rows = [
        { ...BTC, amount: '0.01' },
        {
          asset: 'ETH',
          crypto_network: 'BASE',
          destination_address: ETH_ADDRESS,
          amount: '0.25',
          'meta.invoice': 'INV-2',
        },
      ];
      const r = answerOf(await s.call('batch_dry_run', { rows }));
      expect(r).toMatchObject({ rows: 2, valid: 2, quoted: 2, sendable: true, refused: [], shortfalls: [] });
      expect(r.totals).toEqual([
        { asset: 'BTC', crypto_network: 'BITCOIN', rows: 1, amount: '0.01', fee: '0.00002', total: '0.01002' },
        { asset: 'ETH', crypto_network: 'BASE', rows: 1, amount: '0.25', fee: '0.00001', total: '0.25001' },
      ]);
      const csv = join(dir, 'pay.csv');
      writeFileSync(
        csv,
        `destination_address,asset,crypto_network,amount\n${BTC_ADDRESS},BTC,BITCOIN,0.01\n${BTC_ADDRESS},BTC,BITCOIN,0.02\n`,
      );
      expect(answerOf(await s.call('batch_dry_run', { file: csv })).totals).toEqual([
        { asset: 'BTC', crypto_network: 'BITCOIN', rows: 2, amount: '0.03', fee: '0.00004', total: '0.03004' },
      ]);
      const bad = errorOf(
        await s.call('batch_dry_run', {
          rows: [
            { ...BTC, amount: '0.01' },
            { ...BTC, amount: 'lots' },
          ],
        }),
      );
      expect(bad).toMatchObject({ category: 'usage' });
      expect(bad.message).toMatch(/^1 of 2 rows are invalid: row 2: amount: must be a plain decimal number/);
      const skipped = answerOf(
        await s.call('batch_dry_run', {
          rows: [
            { ...BTC, amount: '0.01' },
            { ...BTC, amount: 'lots' },
          ],
          skip_invalid: true,
        }),
      );
      expect(skipped).toMatchObject({ valid: 1, invalid: 1, quoted: 1, sendable: false });
      expect(skipped.invalid_rows[0]).toMatchObject({ row: 2, field: 'amount' });
      expect(errorOf(await s.call('batch_dry_run', { rows, file: csv })).message).toBe(
        'give exactly one of rows and file',
      );
      // Only batch files, and none of coinop's configuration (its secrets): a tool reads nothing else into an answer.
      const txt = join(dir, 'notes.txt');
      writeFileSync(txt, 'hello\n');
      expect(errorOf(await s.call('batch_dry_run', { file: txt })).message).toBe(
        `file: ${txt}: must be a batch file named .csv, .jsonl, .ndjson or .json`,
      );
      const secret = join(sb.env.COINOP_CONFIG_DIR, 'secrets.json');
      mkdirSync(sb.env.COINOP_CONFIG_DIR, { recursive: true });
      writeFileSync(secret, '{"local": {"client_secret": "do-not-read"}}\n');
      const e = errorOf(await s.call('withdraw_batch', { file: secret }));
      expect(e.message).toBe(`file: ${secret}: is in coinop's configuration directory, not a batch file`);
      expect(JSON.stringify(e)).not.toContain('do-not-read');
      rmSync(secret);
      expect(await withdrawalPosts(sb)).toEqual([]);
    } finally {
      await s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('withdraw_batch, through the gates', () => {
  const rows = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ ...BTC, amount: `0.00${i + 1}`, 'meta.invoice': `MCP-${i + 1}` }));

  it("takes profile_id by nickname or id prefix as withdraw batch does; an unknown one is its row's problem", async () => {
    const s = await inProcess(sb.env, { allowWrites: false, allowProduction: false });
    try {
      const named = [
        { ...BTC, amount: '0.001', profile_id: 'Demo' },
        { ...BTC, amount: '0.002', profile_id: DEMO.profileId.slice(0, 8) },
      ];
      const p = answerOf(await s.call('batch_dry_run', { rows: named }));
      expect(p).toMatchObject({ valid: 2, quoted: 2, sendable: true });
      const e = errorOf(
        await s.call('batch_dry_run', { rows: [...named, { ...BTC, amount: '0.003', profile_id: 'emtpy' }] }),
      );
      expect(e.message).toContain(
        '1 of 3 rows are invalid: row 3: profile_id: no service profile of this context is "emtpy" (by nickname, id or id prefix); did you mean "empty"?',
      );
      expect(await withdrawalPosts(sb)).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('previews its dry run, refuses to send without --allow-writes, and sends nothing either way', async () => {
    const s = await inProcess(sb.env, { allowWrites: false, allowProduction: false });
    try {
      await sb.sent();
      const p = answerOf(await s.call('withdraw_batch', { rows: rows(2) }));
      expect(p).toMatchObject({ status: 'preview', sent: false, gates: { allow_writes: false, open: false } });
      expect(p.dry_run).toMatchObject({ rows: 2, valid: 2, quoted: 2, sendable: true });
      const e = errorOf(await s.call('withdraw_batch', { rows: rows(2), confirm: true }));
      expect(e.message).toMatch(/^refusing to send: this MCP server was started without --allow-writes/);
      expect(await withdrawalPosts(sb)).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('sends every row once as withdraw batch does; the same rows again send nothing; one row more sends only it', async () => {
    const s = await inProcess(sb.env, { allowWrites: true, allowProduction: false });
    try {
      await sb.sent();
      const first = answerOf(await s.call('withdraw_batch', { rows: rows(3), confirm: true }));
      expect(first).toMatchObject({ status: 'sent', sent: true, counts: { created: 3 } });
      expect(first.report.map((r: { row: number; result: string }) => [r.row, r.result])).toEqual([
        [1, 'created'],
        [2, 'created'],
        [3, 'created'],
      ]);
      expect((await withdrawalPosts(sb)).map((r) => r.status)).toEqual([200, 200, 200]);
      const again = answerOf(await s.call('withdraw_batch', { rows: rows(3), confirm: true }));
      expect(again).toMatchObject({ status: 'already_submitted', sent: false });
      expect(again.next_step).toMatch(/^Already sent: this batch ran before, and nothing was sent this time/);
      expect(await withdrawalPosts(sb)).toEqual([]);
      const more = answerOf(await s.call('withdraw_batch', { rows: rows(4), confirm: true }));
      expect(more.status).toBe('sent');
      // The three paid rows keep their ref_ids: the service answers them "already submitted"; the fourth is created.
      expect((await withdrawalPosts(sb)).filter((r) => r.status === 200)).toHaveLength(1);
      const refs = more.report.map((r: { ref_id: string }) => r.ref_id);
      expect(refs.slice(0, 3)).toEqual(first.report.map((r: { ref_id: string }) => r.ref_id));
      const held = answerOf(await s.call('transfers_list', { ref_ids: refs }));
      expect(held.items).toHaveLength(4);
      // The batch's own entries in the audit trail (the batch, each row) name the agent too.
      const rowsLogged = readFileSync(auditLogPath(sb.env.COINOP_DATA_DIR), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .filter((e) => e.kind === 'batch_row' && refs.includes(e.ref_id));
      expect(rowsLogged.length).toBeGreaterThanOrEqual(4);
      for (const e of rowsLogged) expect(e.who.agent).toBe('vitest-agent 1.2.3');
    } finally {
      await s.close();
    }
  });
});

describe('resources and ports', () => {
  it('reads the context and the catalogue as resources, with no secret; coinop://profile still answers', async () => {
    const s = await inProcess(sb.env, { allowWrites: false, allowProduction: false });
    try {
      const { resources } = await s.client.listResources();
      expect(resources.map((r) => r.uri).sort()).toEqual([
        'coinop://catalogue',
        'coinop://context',
        'coinop://policy',
        'coinop://profile',
      ]);
      const text = resourceText(await s.client.readResource({ uri: 'coinop://context' }));
      const old = resourceText(await s.client.readResource({ uri: 'coinop://profile' }));
      expect(JSON.parse(old)).toEqual(JSON.parse(text));
      expect(JSON.parse(text)).toMatchObject({
        context: 'local',
        profile: 'local',
        environment: 'local',
        service_profile_id: DEMO.profileId,
        writes: { allow_writes: false, allow_production: false, policy: 'see coinop://policy' },
        tools_that_move_money: [
          'withdraw',
          'internal_transfer',
          'paxos_transfer',
          'fiat_withdrawal',
          'conversion',
          'deposit_address_create',
          'address_verification_create',
          'withdraw_batch',
          'deposit_update',
          'deposit_reject',
        ],
      });
      expect(text).not.toContain(DEMO.clientSecret);
      const cat = JSON.parse(resourceText(await s.client.readResource({ uri: 'coinop://catalogue' })));
      expect(cat.assets.BTC).toMatchObject({ decimals: 8, networks: { BITCOIN: { fee: '0.00002' } } });
      expect(cat.networks).toContain('SOLANA');
      expect(cat.markets).toContainEqual(
        expect.objectContaining({ market: 'BTCUSD', base_asset: 'BTC', quote_asset: 'USD' }),
      );
    } finally {
      await s.close();
    }
  });

  it("every call goes to the audit trail with the MCP client's name, and a send as coinop withdraw records it", async () => {
    const log = auditLogPath(sb.env.COINOP_DATA_DIR);
    const before = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0;
    const s = await inProcess(sb.env, { allowWrites: true, allowProduction: false });
    try {
      await s.call('balances', { assets: ['BTC'] });
      await s.call('withdraw', { ...BTC, amount: '0.01', ref_id: 'mcp-audit-1' });
      await s.call('withdraw', { ...BTC, amount: '0.01', ref_id: 'mcp-audit-1', to: 'x', confirm: true });
      const ok = answerOf(await s.call('withdraw', { ...BTC, amount: '0.01', ref_id: 'mcp-audit-1', confirm: true }));
      const entries = readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .slice(before)
        .map((l) => JSON.parse(l));
      expect(entries.map((e) => [e.kind, e.outcome.result, e.what.tool ?? null])).toEqual([
        ['mcp_call', 'answered', 'balances'],
        ['quote', 'sent', null],
        ['mcp_call', 'answered', 'withdraw'],
        ['mcp_call', 'refused', 'withdraw'],
        ['withdrawal', 'attempt', null],
        ['withdrawal', 'sent', null],
        ['mcp_call', 'sent', 'withdraw'],
      ]);
      for (const e of entries)
        expect(e.who).toMatchObject({ agent: `${CLIENT.name} ${CLIENT.version}`, profile: 'local' });
      expect(entries[3].outcome.error).toMatchObject({ category: 'usage', message: 'to: is not a known field' });
      expect(entries[5]).toMatchObject({
        ref_id: 'mcp-audit-1',
        what: { asset: 'BTC', network: 'BITCOIN', amount: '0.01', destination: BTC_ADDRESS, fee: ok.transfer.fee },
        outcome: { transfer_id: ok.transfer.id, status: 'PENDING' },
      });
      expect(entries[6]).toMatchObject({
        ref_id: 'mcp-audit-1',
        what: { arguments: { amount: '0.01', confirm: true } },
        outcome: { transfer_id: ok.transfer.id },
      });
      // The chain is whole.
      const verify = await sb.runIn(['audit', 'verify']);
      expect(verify.code, verify.stderr).toBe(0);
    } finally {
      await s.close();
    }
  });

  it('an audit trail that cannot be written stops a send before anything is sent; reads go on', async () => {
    const data = join(sb.dir, 'data-broken-audit');
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, 'audit'), 'a file where the folder should be');
    const s = await inProcess({ ...sb.env, COINOP_DATA_DIR: data }, { allowWrites: true, allowProduction: false });
    try {
      await sb.sent();
      const e = errorOf(await s.call('withdraw', { ...BTC, amount: '0.01', confirm: true }));
      expect(e.category).toBe('file');
      expect(e.message).toMatch(/^the audit log .* cannot be written: .*; nothing was sent$/);
      expect(await withdrawalPosts(sb)).toEqual([]);
      expect(answerOf(await s.call('balances', { assets: ['BTC'] })).items).toHaveLength(1);
      expect(s.stderr).toMatch(/not recorded/);
    } finally {
      await s.close();
      rmSync(data, { recursive: true, force: true });
    }
  });
});

describe("the context's policy", () => {
  let own: Sandbox;
  beforeAll(async () => {
    own = await sandbox();
  });
  afterAll(async () => {
    await own?.close();
  });
  const posts = async () =>
    (await own.sent()).filter((e) => e.method === 'POST' && e.url.startsWith('/v2/transfer/crypto-withdrawals'));
  /** The policy file of the profile `local` in this sandbox's configuration. */
  const writePolicy = (text: string): string => {
    const dir = join(own.env.COINOP_CONFIG_DIR, 'policies');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'local.yaml'), text);
    return join(dir, 'local.yaml');
  };

  it('shows its verdict in previews, stops a confirmed send it refuses, and is read again at every call', async () => {
    const s = await inProcess(own.env, { allowWrites: true, allowProduction: false });
    try {
      const file = writePolicy('max_per_withdrawal:\n  BTC: 0.05\n');
      const policy = JSON.parse(resourceText(await s.client.readResource({ uri: 'coinop://policy' })));
      expect(policy).toMatchObject({ file, policy: { max_per_withdrawal: { BTC: '0.05' } } });
      await own.sent();
      const p = answerOf(await s.call('withdraw', { ...BTC, amount: '0.5', ref_id: 'mcp-policy-1' }));
      expect(p.policy).toMatchObject({
        allowed: false,
        reasons: ['max_per_withdrawal: 0.5 BTC is over the most one withdrawal may send, 0.05 BTC'],
      });
      expect(p.policy.detail).toMatchObject({ allowed: false, file });
      expect(p.gates).toMatchObject({ policy: 'refused', open: false });
      expect(p.next_step).toMatch(/A confirmed call would be refused: the context's policy refuses it/);
      const refused = errorOf(
        await s.call('withdraw', { ...BTC, amount: '0.5', ref_id: 'mcp-policy-1', confirm: true }),
      );
      expect(refused).toMatchObject({
        category: 'policy',
        message: `refused by policy: rule max_per_withdrawal: 0.5 BTC is over the most one withdrawal may send, 0.05 BTC (policy ${file}); nothing was sent`,
      });
      expect(await posts()).toEqual([]);
      const ok = answerOf(await s.call('withdraw', { ...BTC, amount: '0.02', confirm: true }));
      expect(ok).toMatchObject({ status: 'sent', policy: { allowed: true, reasons: [] } });
      // An edited policy counts from the next call.
      writePolicy('max_per_withdrawal:\n  BTC: 1\n');
      expect(answerOf(await s.call('withdraw', { ...BTC, amount: '0.5', confirm: true })).status).toBe('sent');
    } finally {
      await s.close();
      rmSync(join(own.env.COINOP_CONFIG_DIR, 'policies'), { recursive: true, force: true });
    }
  });

  it('holds batches and internal transfers to it too; a policy file that does not load refuses every write', async () => {
    const s = await inProcess(own.env, { allowWrites: true, allowProduction: false });
    try {
      writePolicy('assets: [BTC]\nmax_per_withdrawal:\n  BTC: 0.05\n');
      await own.sent();
      const rows = [
        { ...BTC, amount: '0.01' },
        { ...BTC, amount: '0.5' },
      ];
      const dry = answerOf(await s.call('withdraw_batch', { rows }));
      expect(dry.dry_run).toMatchObject({ sendable: false, policy: { allowed: false } });
      expect(dry.dry_run.policy.reasons).toEqual([
        'max_per_withdrawal: row 2: 0.5 BTC is over the most one withdrawal may send, 0.05 BTC',
      ]);
      expect(dry.gates).toMatchObject({ policy: 'refused', open: false });
      const batch = errorOf(await s.call('withdraw_batch', { rows, confirm: true }));
      expect(batch.category).toBe('policy');
      expect(await posts()).toEqual([]);
      const usd = { to_profile_id: DEMO.emptyProfileId, asset: 'USD', amount: '5' };
      expect(answerOf(await s.call('internal_transfer', usd)).policy.reasons).toEqual([
        'assets: USD is not an asset the policy allows',
      ]);
      expect(errorOf(await s.call('internal_transfer', { ...usd, confirm: true })).category).toBe('policy');
      writePolicy('max_per_withdrawl:\n  BTC: 1\n');
      const broken = errorOf(await s.call('withdraw', { ...BTC, amount: '0.01' }));
      expect(broken.category).toBe('policy');
      expect(broken.message).toMatch(
        /^refused by policy: the policy file does not load, so nothing that moves money runs: /,
      );
      // Reads go on.
      expect(answerOf(await s.call('balances', { assets: ['BTC'] })).items).toHaveLength(1);
      expect(await posts()).toEqual([]);
    } finally {
      await s.close();
      rmSync(join(own.env.COINOP_CONFIG_DIR, 'policies'), { recursive: true, force: true });
    }
  });
});
