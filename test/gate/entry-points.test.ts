// One table, every entry point: the same money-moving request through withdraw, withdraw batch, transfer internal,
// coinop api and the MCP tools gets the same verdict and leaves the same audit entry (the entry point named in
// `what.command`, the rest equal). In this process against a local service.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/embedded/demo.js';
import { BTC_ADDRESS, sandbox, type Sandbox } from '../cli/helpers.js';
import { inProcess } from '../mcp/support.js';
import { auditEntries, type Entry } from './support.js';
import { transferFlags } from '../support/command-lines.js';
import { apiFields, apiWithdrawal, FIAT_ACCOUNT_CREATE } from '../support/command-lines.js';

let sb: Sandbox;
/** A saved fiat account of the sandbox's service, for the fiat withdrawals. */
let fiatAccount = '';
beforeAll(async () => {
  sb = await sandbox();
  const made = await sb.runIn([...FIAT_ACCOUNT_CREATE, '-o', 'json']);
  fiatAccount = JSON.parse(made.stdout).id;
});
afterAll(async () => sb?.close());

const entries = (): Entry[] => auditEntries(sb.env.COINOP_DATA_DIR);

function policy(text: string | undefined): void {
  const path = join(sb.env.COINOP_CONFIG_DIR, 'policies', 'local.yaml');
  rmSync(path, { force: true });
  if (text === undefined) return;
  mkdirSync(join(sb.env.COINOP_CONFIG_DIR, 'policies'), { recursive: true });
  writeFileSync(path, text);
}

/** What an entry point answered: refused (and why, in the category) or sent. */
interface Verdict {
  verdict: 'sent' | 'refused';
  category?: string;
}

type Way = (w: { amount: string; ref: string; asset?: string }) => Promise<Verdict>;

/** What the MCP server's tool does with the arguments: sent, or refused with the error's category. */
async function mcpVerdict(tool: string, args: Record<string, unknown>): Promise<Verdict> {
  const s = await inProcess(sb.env, { allowWrites: true, allowProduction: false });
  try {
    const r = await s.call(tool, args);
    if (!r.isError) return { verdict: 'sent' };
    const text = (r.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
    return { verdict: 'refused', category: JSON.parse(text.split('\n').at(-1) ?? '{}').error?.category };
  } finally {
    await s.close();
  }
}

const exitVerdict = (code: number): Verdict =>
  code === 0
    ? { verdict: 'sent' }
    : { verdict: 'refused', category: code === 8 ? 'policy' : code === 2 ? 'usage' : `exit ${code}` };

/** A withdrawal of BTC to BTC_ADDRESS from the default service profile, through each entry point. */
const WITHDRAWAL_WAYS: Record<string, Way> = {
  withdraw: async ({ amount, ref }) =>
    exitVerdict((await sb.runIn(['withdraw', ...transferFlags('BTC', amount), '--ref-id', ref, '--yes'])).code),
  api: async ({ amount, ref }) => exitVerdict((await sb.runIn(apiWithdrawal(amount, ref))).code),
  // A one-row batch: its entries are the batch's own kinds (batch, batch_row), compared by result below.
  'withdraw batch': async ({ amount, ref }) => {
    const file = join(sb.dir, `${ref}.csv`);
    writeFileSync(
      file,
      `destination_address,asset,crypto_network,amount,ref_id\n${BTC_ADDRESS},BTC,BITCOIN,${amount},${ref}\n`,
    );
    return exitVerdict((await sb.runIn(['withdraw', 'batch', file, '--yes'])).code);
  },
  'mcp withdraw': async ({ amount, ref }) =>
    mcpVerdict('withdraw', {
      asset: 'BTC',
      crypto_network: 'BITCOIN',
      destination_address: BTC_ADDRESS,
      amount,
      ref_id: ref,
      confirm: true,
    }),
};

/** An internal transfer from the default profile to the empty one, through each entry point. */
const INTERNAL_WAYS: Record<string, Way> = {
  'transfer internal': async ({ amount, ref, asset = 'USD' }) =>
    exitVerdict(
      (
        await sb.runIn([
          'transfer',
          'internal',
          '--to-profile-id',
          DEMO.emptyProfileId,
          '--asset',
          asset,
          '--amount',
          amount,
          '--ref-id',
          ref,
          '--yes',
        ])
      ).code,
    ),
  api: async ({ amount, ref, asset = 'USD' }) =>
    exitVerdict(
      (
        await sb.runIn([
          'api',
          'POST',
          '/v2/transfer/internal',
          '-f',
          `from_profile_id=${DEMO.profileId}`,
          '-f',
          `to_profile_id=${DEMO.emptyProfileId}`,
          '-f',
          `asset=${asset}`,
          '-f',
          `amount=${amount}`,
          '-f',
          `ref_id=${ref}`,
        ])
      ).code,
    ),
  'mcp internal_transfer': async ({ amount, ref, asset = 'USD' }) =>
    mcpVerdict('internal_transfer', {
      to_profile_id: DEMO.emptyProfileId,
      asset,
      amount,
      ref_id: ref,
      confirm: true,
    }),
};

/** A fiat withdrawal of USD from the default profile to the saved fiat account, through each entry point. */
const FIAT_WAYS: Record<string, Way> = {
  'withdraw fiat': async ({ amount, ref }) => {
    const line = ['withdraw', 'fiat', '--fiat-account-id', fiatAccount, '--amount', amount, '--ref-id', ref, '--yes'];
    return exitVerdict((await sb.runIn(line)).code);
  },
  api: async ({ amount, ref }) => {
    const body = { profile_id: DEMO.profileId, fiat_account_id: fiatAccount, asset: 'USD', amount, ref_id: ref };
    return exitVerdict((await sb.runIn(['api', 'POST', '/v2/transfer/fiat-withdrawals', ...apiFields(body)])).code);
  },
  'mcp fiat_withdrawal': async ({ amount, ref }) =>
    mcpVerdict('fiat_withdrawal', { fiat_account_id: fiatAccount, asset: 'USD', amount, ref_id: ref, confirm: true }),
};

/** A conversion of PYUSD back to USD in the default profile, through each entry point. */
const CONVERSION_WAYS: Record<string, Way> = {
  convert: async ({ amount, ref }) =>
    exitVerdict((await sb.runIn(['convert', '--from', 'PYUSD', '--amount', amount, '--ref-id', ref, '--yes'])).code),
  api: async ({ amount, ref }) =>
    exitVerdict(
      (
        await sb.runIn([
          'api',
          'POST',
          '/v2/conversion/stablecoins',
          '-f',
          `profile_id=${DEMO.profileId}`,
          '-f',
          'source_asset=PYUSD',
          '-f',
          'target_asset=USD',
          '-f',
          `amount=${amount}`,
          '-f',
          `ref_id=${ref}`,
        ])
      ).code,
    ),
  'mcp conversion': async ({ amount, ref }) =>
    mcpVerdict('conversion', { source_asset: 'PYUSD', target_asset: 'USD', amount, ref_id: ref, confirm: true }),
};

/** The request's own entries of one run (not the MCP server's mcp_call, not quotes), less what names the run. */
function comparable(list: Entry[], kind: string): unknown[] {
  return list
    .filter((e) => e.kind === kind)
    .map((entry) => {
      const { command: _c, ...what } = entry.what;
      const { error, ...outcome } = entry.outcome;
      return {
        kind: entry.kind,
        what: { ...what, fee: undefined, total: what.amount === undefined ? what.total : undefined },
        outcome: { ...outcome, transfer_id: undefined, ...(error ? { error: error.category } : {}) },
      };
    });
}

const CASES: {
  name: string;
  /** The policy file; a function for one that names the fiat account (made when the tests start). */
  policy?: string | (() => string);
  kind: string;
  ways: Record<string, Way>;
  amount: string;
  asset?: string;
  expect: Verdict;
}[] = [
  { name: 'no policy: sent', kind: 'withdrawal', ways: WITHDRAWAL_WAYS, amount: '0.0001', expect: { verdict: 'sent' } },
  {
    name: 'an asset the policy does not allow',
    policy: 'assets: [ETH]\n',
    kind: 'withdrawal',
    ways: WITHDRAWAL_WAYS,
    amount: '0.0001',
    expect: { verdict: 'refused', category: 'policy' },
  },
  {
    name: 'over the most per withdrawal',
    policy: 'max_per_withdrawal:\n  BTC: 0.00005\n',
    kind: 'withdrawal',
    ways: WITHDRAWAL_WAYS,
    amount: '0.0001',
    expect: { verdict: 'refused', category: 'policy' },
  },
  {
    name: 'a destination the policy does not list',
    policy: 'destinations: [treasury]\n',
    kind: 'withdrawal',
    ways: WITHDRAWAL_WAYS,
    amount: '0.0001',
    expect: { verdict: 'refused', category: 'policy' },
  },
  {
    name: 'more than the balance',
    kind: 'withdrawal',
    ways: WITHDRAWAL_WAYS,
    amount: '900000',
    expect: { verdict: 'refused', category: 'usage' },
  },
  {
    name: 'internal transfer: allowed',
    kind: 'internal_transfer',
    ways: INTERNAL_WAYS,
    amount: '1',
    expect: { verdict: 'sent' },
  },
  {
    name: 'internal transfer: an asset the policy does not allow',
    policy: 'assets: [BTC]\n',
    kind: 'internal_transfer',
    ways: INTERNAL_WAYS,
    amount: '1',
    expect: { verdict: 'refused', category: 'policy' },
  },
  {
    name: 'fiat withdrawal: allowed',
    kind: 'fiat_withdrawal',
    ways: FIAT_WAYS,
    amount: '10.5',
    expect: { verdict: 'sent' },
  },
  {
    name: 'fiat withdrawal: a fiat account the destinations do not list',
    policy: 'destinations: [another-account]\n',
    kind: 'fiat_withdrawal',
    ways: FIAT_WAYS,
    amount: '10.5',
    expect: { verdict: 'refused', category: 'policy' },
  },
  {
    name: 'fiat withdrawal: to a fiat account the destinations list',
    policy: () => `destinations: [${fiatAccount}]\nassets: [USD]\n`,
    kind: 'fiat_withdrawal',
    ways: FIAT_WAYS,
    amount: '10.5',
    expect: { verdict: 'sent' },
  },
  {
    name: 'fiat withdrawal: over the most per withdrawal',
    policy: 'max_per_withdrawal:\n  USD: 10\n',
    kind: 'fiat_withdrawal',
    ways: FIAT_WAYS,
    amount: '10.5',
    expect: { verdict: 'refused', category: 'policy' },
  },
  {
    name: 'fiat withdrawal: over the rolling 24 hours',
    policy: 'max_per_24h:\n  USD: 40\n',
    kind: 'fiat_withdrawal',
    ways: FIAT_WAYS,
    amount: '10.5',
    expect: { verdict: 'refused', category: 'policy' },
  },
  {
    name: 'fiat withdrawal: outside the hours',
    // A window of one hour that starts two hours from now (UTC): now is outside it.
    policy: () => {
      const at = (h: number) => `${String(h % 24).padStart(2, '0')}:00`;
      const start = new Date().getUTCHours() + 2;
      return `hours: "${at(start)}-${at(start + 1)} UTC"\n`;
    },
    kind: 'fiat_withdrawal',
    ways: FIAT_WAYS,
    amount: '10.5',
    expect: { verdict: 'refused', category: 'policy' },
  },
  {
    name: 'fiat withdrawal: more than the balance',
    kind: 'fiat_withdrawal',
    ways: FIAT_WAYS,
    amount: '900000000',
    expect: { verdict: 'refused', category: 'usage' },
  },
  {
    name: 'conversion: allowed',
    kind: 'conversion',
    ways: CONVERSION_WAYS,
    amount: '10.5',
    expect: { verdict: 'sent' },
  },
  {
    name: 'conversion: a target asset the policy does not allow',
    policy: 'assets: [PYUSD]\n',
    kind: 'conversion',
    ways: CONVERSION_WAYS,
    amount: '10.5',
    expect: { verdict: 'refused', category: 'policy' },
  },
  {
    name: 'conversion: over the most per transfer',
    policy: 'max_per_withdrawal:\n  PYUSD: 10\n',
    kind: 'conversion',
    ways: CONVERSION_WAYS,
    amount: '10.5',
    expect: { verdict: 'refused', category: 'policy' },
  },
  {
    // The allowed case converted 3 x 10.5 PYUSD: one more is over 40 in the rolling 24 hours.
    name: "conversion: over the rolling 24 hours (the day's conversions count)",
    policy: 'max_per_24h:\n  PYUSD: 40\n',
    kind: 'conversion',
    ways: CONVERSION_WAYS,
    amount: '10.5',
    expect: { verdict: 'refused', category: 'policy' },
  },
  {
    name: 'conversion: within the rolling 24 hours',
    policy: 'max_per_24h:\n  PYUSD: 100\n',
    kind: 'conversion',
    ways: CONVERSION_WAYS,
    amount: '1',
    expect: { verdict: 'sent' },
  },
  {
    name: 'conversion: outside the hours',
    policy: () => {
      const at = (h: number) => `${String(h % 24).padStart(2, '0')}:00`;
      const start = new Date().getUTCHours() + 2;
      return `hours: "${at(start)}-${at(start + 1)} UTC"\n`;
    },
    kind: 'conversion',
    ways: CONVERSION_WAYS,
    amount: '10.5',
    expect: { verdict: 'refused', category: 'policy' },
  },
  {
    name: 'conversion: more than the balance',
    kind: 'conversion',
    ways: CONVERSION_WAYS,
    amount: '900000000',
    expect: { verdict: 'refused', category: 'usage' },
  },
];

describe('the same request through every entry point: the same verdict, the same audit entries', () => {
  for (const c of CASES)
    it(c.name, async () => {
      policy(typeof c.policy === 'function' ? c.policy() : c.policy);
      const seen: Record<string, { verdict: Verdict; entries: unknown[] }> = {};
      let n = 0;
      for (const [way, run] of Object.entries(c.ways)) {
        const before = entries().length;
        const verdict = await run({
          amount: c.amount,
          ref: `table-${c.name.replace(/\W+/g, '-')}-${n++}`,
          asset: c.asset,
        });
        const written = entries().slice(before);
        if (way === 'withdraw batch') {
          // The same verdict; the batch's own entries (batch, batch_row) say the same result.
          expect(verdict, way).toEqual(c.expect);
          const results = written
            .filter((e) => e.kind === 'batch' || e.kind === 'batch_row')
            .map((e) => e.outcome.result);
          expect(results, way).toContain(c.expect.verdict === 'sent' ? 'sent' : 'refused');
          continue;
        }
        seen[way] = { verdict, entries: comparable(written, c.kind) };
      }
      const [first, ...rest] = Object.entries(seen);
      expect(first[1].verdict, first[0]).toEqual(c.expect);
      expect(first[1].entries.length, `${first[0]} left no entry`).toBeGreaterThan(0);
      for (const [way, s] of rest) {
        expect(s.verdict, way).toEqual(first[1].verdict);
        expect(s.entries, `${way} against ${first[0]}`).toEqual(first[1].entries);
      }
      policy(undefined);
    });
});
