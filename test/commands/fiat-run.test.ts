import { describe, expect, it } from 'vitest';
import { create, get, list, remove, update } from '../../src/commands/fiat-accounts/run.js';
import {
  parseFiatAccountCreateOptions,
  parseFiatAccountListOptions,
  parseFiatAccountUpdateOptions,
} from '../../src/commands/fiat-accounts/options.js';
import { withdrawFiat } from '../../src/commands/withdraw/fiat/run.js';
import { type FiatWithdrawOptions, parseFiatWithdrawOptions } from '../../src/commands/withdraw/fiat/options.js';
import { DEMO } from '../../src/embedded/demo.js';
import { auditSince, sharedLocalFixture, moneyPortsOf, NOW, readPorts, usdOf, writeContextPolicy } from './ports.js';

const local = sharedLocalFixture();
let accountId: string;

const deps = moneyPortsOf(local);

const WIRE_FLAGS = {
  network: 'WIRE',
  ownerName: 'Acme Treasury Inc',
  accountNumber: '12345678',
  routingNumber: '021000021',
  bankName: 'Customers Bank',
};

const fiat = (refId: string, more: Partial<FiatWithdrawOptions> = {}): FiatWithdrawOptions => ({
  ...parseFiatWithdrawOptions({ asset: 'USD', waitTimeout: '30' }),
  fiatAccountId: accountId,
  amount: '1250.50',
  refId,
  ...more,
});

/** Writes the context's policy file; undefined removes it. */
const writePolicy = (text: string | undefined) => writeContextPolicy(local, text);

/** The fiat withdrawals the service holds. */
async function fiatWithdrawals(): Promise<{ ref_id?: string; status: string }[]> {
  const conn = await local.connector().connect();
  const { data } = await conn.client.call('listTransfers', { query: { type: ['WIRE_WITHDRAWAL'] } });
  return data.items ?? [];
}

describe('fiat-accounts run', () => {
  it('create: through the gate (attempt and outcome audited), the account on stdout', async () => {
    const d = deps({ format: 'json' });
    const from = local.audit().entries().length;
    await create(d, parseFiatAccountCreateOptions({ ...WIRE_FLAGS, refId: 'acme-ops', meta: ['desk=ops'] }));
    const made = JSON.parse(d.display.stdout);
    expect(made).toMatchObject({
      ref_id: 'acme-ops',
      status: 'APPROVED',
      metadata: { desk: 'ops' },
      fiat_account_owner: { institution_details: { name: 'Acme Treasury Inc' } },
      fiat_network_instructions: {
        wire: {
          account_number: '12345678',
          routing_details: { routing_number_type: 'ABA', routing_number: '021000021', bank_name: 'Customers Bank' },
        },
      },
    });
    accountId = made.id;
    expect(auditSince(local, from)).toEqual([
      ['fiat_account', 'attempt', 'acme-ops'],
      ['fiat_account', 'sent', 'acme-ops'],
    ]);
    expect(local.audit().entries().at(-1)?.what).toMatchObject({ network: 'wire', account_number: '…5678' });
  });

  it('create: a missing value and nobody to ask is a usage error naming the flag; nothing sent', async () => {
    const d = deps();
    await expect(create(d, parseFiatAccountCreateOptions({ ...WIRE_FLAGS, bankName: undefined }))).rejects.toThrow(
      'missing --bank-name',
    );
    expect(d.service.connections).toEqual([]);
    expect(() => parseFiatAccountCreateOptions({ ...WIRE_FLAGS, firstName: 'Jane', lastName: 'Doe' })).toThrow(
      /--owner-name: an institution or a person owns the account, not both/,
    );
  });

  it('list: a table, CSV, JSON and NDJSON, abbreviated as the service lists them', async () => {
    const table = readPorts(local, { format: 'table' });
    await list(table, parseFiatAccountListOptions({}, NOW));
    expect(table.display.stdout).toMatch(/ID\s+STATUS\s+NETWORK\s+ACCOUNT/);
    expect(table.display.stdout).toContain('XXXX5678');
    const csv = readPorts(local, { format: 'csv' });
    await list(csv, parseFiatAccountListOptions({ refId: ['acme-ops'] }, NOW));
    expect(csv.display.stdout.split(/\r?\n/)[0]).toBe('id,status,fiat_network,account,owner,ref_id,created_at');
    expect(csv.display.stdout).toContain(`${accountId},APPROVED,WIRE,XXXX5678,,acme-ops,`);
    const json = readPorts(local, { format: 'json' });
    await list(json, parseFiatAccountListOptions({}, NOW));
    expect(JSON.parse(json.display.stdout)[0]).toMatchObject({ id: accountId });
    const ndjson = readPorts(local, { format: 'ndjson' });
    await list(ndjson, parseFiatAccountListOptions({}, NOW));
    expect(JSON.parse(ndjson.display.stdout.trim().split('\n')[0])).toMatchObject({ id: accountId });
  });

  it('get shows the account in full; update changes the owner and says the service reviews it', async () => {
    const g = readPorts(local, { format: 'table' });
    await get(g, accountId);
    expect(g.display.stdout).toMatch(/owner\s+Acme Treasury Inc/);
    expect(g.display.stdout).toContain('12345678');
    const d = deps({ format: 'json' });
    await update(d, parseFiatAccountUpdateOptions(accountId, { ownerName: 'Acme Holdings Inc' }));
    expect(JSON.parse(d.display.stdout).fiat_account_owner.institution_details.name).toBe('Acme Holdings Inc');
    expect(() => parseFiatAccountUpdateOptions(accountId, {})).toThrow('nothing to update');
  });
});

describe('withdraw fiat run', () => {
  it('confirmed: the amount typed in production terms, sent once, debited, audited as a fiat withdrawal', async () => {
    const d = deps({ format: 'json' });
    const [before, from] = [await usdOf(local, DEMO.profileId), local.audit().entries().length];
    await withdrawFiat(d, fiat('fw-sent'));
    expect(d.confirmer.shown.map((c) => [c.title, c.question, c.typed])).toEqual([
      [
        'Withdraw 1250.50 USD to a fiat account',
        'Send this fiat withdrawal?',
        [{ label: 'the amount (USD)', value: '1250.50' }],
      ],
    ]);
    const rows = Object.fromEntries(d.confirmer.shown[0].rows);
    expect(rows.to).toBe(`fiat account ${accountId}: WIRE 12345678 (Acme Holdings Inc), APPROVED`);
    expect(rows.balance).toMatch(/USD available, .* USD after/);
    expect(JSON.parse(d.display.stdout)).toMatchObject({
      ref_id: 'fw-sent',
      type: 'WIRE_WITHDRAWAL',
      fiat_account_id: accountId,
      status: 'PENDING',
    });
    expect(Number(before) - Number(await usdOf(local, DEMO.profileId))).toBeCloseTo(1250.5, 2);
    expect(auditSince(local, from)).toEqual([
      ['fiat_withdrawal', 'attempt', 'fw-sent'],
      ['fiat_withdrawal', 'sent', 'fw-sent'],
    ]);
  });

  it('the same ref_id again: said to be sent before, no money moved', async () => {
    const d = deps({ tty: true });
    const before = await usdOf(local, DEMO.profileId);
    await withdrawFiat(d, fiat('fw-sent'));
    expect(d.display.stderr).toMatch(/^already submitted: ref_id fw-sent was sent before; no money moved this time/m);
    expect(await usdOf(local, DEMO.profileId)).toBe(before);
  });

  it("the policy's destinations name fiat accounts by id; its maxima count fiat withdrawals: refused, exit 8, audited", async () => {
    writePolicy('destinations: [some-other-account]\n');
    try {
      const d = deps({ format: 'json' });
      const from = local.audit().entries().length;
      const refused = withdrawFiat(d, fiat('fw-elsewhere'));
      await expect(refused).rejects.toMatchObject({ category: 'policy' });
      await expect(refused).rejects.toThrow(`fiat account ${accountId} is not among the policy's destinations`);
      expect(d.confirmer.shown).toEqual([]);
      expect(auditSince(local, from)).toEqual([['fiat_withdrawal', 'refused', 'fw-elsewhere']]);
      writePolicy(`destinations: [${accountId}]\nmax_per_withdrawal:\n  USD: 1000\n`);
      await expect(withdrawFiat(deps(), fiat('fw-too-big'))).rejects.toThrow(
        /rule max_per_withdrawal: 1250\.50 USD is over the most one withdrawal may send, 1000 USD/,
      );
      // 1250.50 sent today already: 900 more is over 2000 in 24 hours.
      writePolicy(`destinations: [${accountId}]\nmax_per_24h:\n  USD: 2000\n`);
      await expect(withdrawFiat(deps(), fiat('fw-over-day', { amount: '900' }))).rejects.toThrow(
        /rule max_per_24h: USD: 1250\.5 sent since .* \+ 900 in this run = 2150\.5, over the 24-hour limit of 2000 USD/,
      );
      await withdrawFiat(deps({ format: 'json' }), fiat('fw-within', { amount: '700' }));
      expect((await fiatWithdrawals()).map((t) => t.ref_id).sort()).toEqual(['fw-sent', 'fw-within']);
    } finally {
      writePolicy(undefined);
    }
  });

  it('more than the profile has: refused before sending by the funds preflight, never confirmed', async () => {
    const d = deps({ format: 'json' });
    const from = local.audit().entries().length;
    await expect(withdrawFiat(d, fiat('fw-poor', { profileId: DEMO.emptyProfileId, amount: '5.00' }))).rejects.toThrow(
      /insufficient funds: the amount 5 USD is more than the available 0 USD/,
    );
    expect(d.confirmer.shown).toEqual([]);
    expect(auditSince(local, from)).toEqual([['fiat_withdrawal', 'refused', 'fw-poor']]);
  });

  it("over a transfer limit on the account's kind of withdrawal: refused by the limits preflight, never confirmed", async () => {
    const limits = `${local.svc.baseUrl}/_local/limits`;
    const put = (body: unknown) =>
      fetch(limits, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const before = (await (await fetch(limits)).json()) as { rules: Record<string, unknown>[] };
    const wire = {
      id: 'wire-each',
      transfer_types: ['WIRE_WITHDRAWAL'],
      period_seconds: 0,
      limit: '100',
      limit_asset: 'USD',
    };
    expect((await put({ rules: [wire] })).status).toBe(200);
    try {
      const d = deps({ format: 'json' });
      const from = local.audit().entries().length;
      await expect(withdrawFiat(d, fiat('fw-over-limit', { amount: '250' }))).rejects.toThrow(/wire-each/);
      expect(d.confirmer.shown).toEqual([]);
      expect(auditSince(local, from)).toEqual([['fiat_withdrawal', 'refused', 'fw-over-limit']]);
    } finally {
      const restored = await put({
        rules: before.rules.map(({ id, transfer_types, period_seconds, limit, limit_asset }) => ({
          id,
          transfer_types,
          period_seconds,
          limit,
          limit_asset,
        })),
      });
      expect(restored.status).toBe(200);
    }
  });

  it('declined at the confirmation: cancelled, nothing sent', async () => {
    const d = deps({ tty: true }, 'no');
    await expect(withdrawFiat(d, fiat('fw-declined'))).rejects.toThrow('cancelled: nothing was sent');
    expect((await fiatWithdrawals()).some((t) => t.ref_id === 'fw-declined')).toBe(false);
  });

  it('--wait follows it to COMPLETED on the service clock', async () => {
    local.svc.config.withdrawalSettleSeconds = 0;
    try {
      const d = deps({ tty: true });
      await withdrawFiat(d, fiat('fw-wait', { amount: '10', wait: true }));
      expect(d.display.stdout).toMatch(/status\s+COMPLETED/);
    } finally {
      local.svc.config.withdrawalSettleSeconds = 30;
    }
  });

  it('bad input is a usage error naming the flag, before anything is asked or sent', () => {
    expect(() => parseFiatWithdrawOptions({ asset: 'EUR', waitTimeout: '30' })).toThrow(/--asset: must be USD/);
    expect(() => parseFiatWithdrawOptions({ asset: 'USD', amount: '1', total: '1', waitTimeout: '30' })).toThrow(
      '--amount and --total: give exactly one, not both',
    );
    expect(() => parseFiatWithdrawOptions({ asset: 'USD', amount: '1e3', waitTimeout: '30' })).toThrow(/--amount/);
  });

  it('delete: asked first, then gone; a withdrawal to it is refused by the service (404)', async () => {
    const d = deps({ format: 'json' });
    await remove(d, { id: accountId, yes: false });
    expect(d.confirmer.shown.map((c) => c.title)).toEqual(['Delete a fiat account']);
    expect(JSON.parse(d.display.stdout)).toEqual({ id: accountId, deleted: true });
    await expect(withdrawFiat(deps(), fiat('fw-deleted'))).rejects.toThrow(/fiat account not found/);
  });
});
