// The Travel Rule's commands, their runs with fakes of their ports (test/commands/ports.ts) against a local service in
// this process: vasps list (every format, search, every page) and get (by id, by the picker on a terminal);
// deposits update and reject of a deposit held for its originator (confirmed with the amount, audited before and
// after, refused by the service when it needs nothing); withdraw with the beneficiary's flags, asked for on a
// terminal when the book says a VASP holds the destination, held by the service when nobody says; destinations put
// with the Travel Rule's flags and the VASP picked on a terminal.
import { describe, expect, it } from 'vitest';
import { Prompter } from '../../src/cli/prompt.js';
import type { Choice } from '../../src/cli/prompt.js';
import { put } from '../../src/commands/destinations/run.js';
import { parseDestinationPutOptions } from '../../src/commands/destinations/options.js';
import {
  parseDepositRejectOptions,
  parseDepositUpdateOptions,
  parseVaspListOptions,
} from '../../src/commands/travel-rule/options.js';
import { getVasp, listVasps, rejectDeposit, updateDeposit } from '../../src/commands/travel-rule/run.js';
import { withdraw } from '../../src/commands/withdraw/run.js';
import { parseWithdrawOptions } from '../../src/commands/withdraw/options.js';
import type { Display } from '../../src/cli/ports.js';
import { auditSince, moneyPortsOf, readPorts, sharedLocalFixture } from './ports.js';

const local = sharedLocalFixture();
const deps = moneyPortsOf(local);
const OKX = '8e4b1c2d-9a3f-4e6b-b1d7-2c5a8f0e3b94';
const IDENTITY = '54385e67-d7ef-40d1-b488-ceda6dd9b264';

/** A Prompter on a terminal whose answers are scripted: each question takes the next answer (a search, its term). */
class ScriptedPrompter extends Prompter {
  readonly asked: string[] = [];
  constructor(
    display: Display,
    private readonly answers: string[],
  ) {
    super(display.io);
  }
  override get allowed(): boolean {
    return true;
  }
  private next(message: string): string {
    this.asked.push(message);
    const a = this.answers.shift();
    if (a === undefined) throw new Error(`no scripted answer for: ${message}`);
    return a;
  }
  override async text(message: string): Promise<string> {
    return this.next(message);
  }
  override async select<T extends string>(message: string, choices: (Choice<T> | T)[]): Promise<T> {
    const a = this.next(message);
    const values = choices.map((c) => (typeof c === 'string' ? c : c.value));
    if (!values.includes(a as T)) throw new Error(`${a} is not a choice of ${values.join(', ')}`);
    return a as T;
  }
  /** The answer is the term typed; the first choice the source gives for it is taken. */
  override async search<T extends string>(message: string, source: (t: string | undefined) => Promise<Choice<T>[]>) {
    const [first] = await source(this.next(message));
    if (!first) throw new Error('the search found nothing');
    return first.value;
  }
}

const control = async (path: string, body: unknown) => {
  const r = await fetch(`${local.svc.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await r.json()) as Record<string, unknown> & { id: string };
};
const heldDeposit = () =>
  control('/_local/crypto-deposits', { ref_id: 'demo-btc', amount: '0.25', needs_info: true }) as Promise<{
    id: string;
  }>;
const transfer = async (id: string) => {
  const conn = await local.connector().connect();
  return (await conn.client.call('getTransfer', { params: { id } })).data;
};

describe('vasps', () => {
  it('list: JSON, a table, a search by name, every page', async () => {
    const json = readPorts(local, { format: 'json' });
    await listVasps(json, parseVaspListOptions({}));
    const all = JSON.parse(json.display.stdout) as { id: string; name: string }[];
    expect(all.map((v) => v.name)).toContain('OKX');
    const table = readPorts(local, { format: 'table', tty: true });
    await listVasps(table, parseVaspListOptions({ search: 'ok' }));
    expect(table.display.stdout).toMatch(/OKX/);
    expect(table.display.stdout).not.toMatch(/Kraken/);
    const paged = readPorts(local, { format: 'ndjson' });
    await listVasps(paged, parseVaspListOptions({ limit: '3', all: true }));
    expect(paged.display.stdout.trim().split('\n')).toHaveLength(all.length);
  });

  it('list: a bad --limit is a usage error before anything is asked', () => {
    expect(() => parseVaspListOptions({ limit: '0' })).toThrow(/--limit/);
  });

  it('get: by id, or picked on a terminal by typing the start of its name; without either, a usage error', async () => {
    const byId = readPorts(local, { format: 'json' });
    await getVasp(byId, OKX);
    expect(JSON.parse(byId.display.stdout)).toEqual({ id: OKX, name: 'OKX' });
    const picked = readPorts(local, { format: 'json' });
    const pr = new ScriptedPrompter(picked.display, ['rob']);
    await getVasp({ ...picked, prompter: pr }, undefined);
    expect(JSON.parse(picked.display.stdout).name).toBe('Robinhood (US)');
    await expect(getVasp(readPorts(local), undefined)).rejects.toThrow(/missing ID/);
  });
});

describe('deposits update and reject', () => {
  it('update: confirmed with the amount, audited before and after, the deposit released', async () => {
    const d = await heldDeposit();
    const ports = deps({ format: 'json' });
    const from = local.audit().entries().length;
    await updateDeposit(
      ports,
      parseDepositUpdateOptions(d.id, {
        identityId: IDENTITY,
        originatorFirstName: 'Ada',
        originatorLastName: 'Lovelace',
      }),
    );
    const shown = ports.confirmer.shown[0];
    expect(shown.title).toBe('Release a held crypto deposit');
    expect(shown.typed).toEqual([{ label: 'the amount', value: '0.25' }]);
    expect(shown.rows).toContainEqual(['originator', 'Ada Lovelace']);
    const out = JSON.parse(ports.display.stdout);
    expect([out.id, out.status, out.secondary_status]).toEqual([d.id, 'PENDING', undefined]);
    expect(auditSince(local, from)).toEqual([
      ['deposit_travel_rule', 'attempt', null],
      ['deposit_travel_rule', 'sent', null],
    ]);
    expect(local.audit().entries().at(-1)?.what).toMatchObject({
      action: 'update',
      deposit_id: d.id,
      amount: '0.25',
      originator: 'Ada Lovelace',
      identity_id: IDENTITY,
    });
  });

  it('reject: the deposit ends FAILED with CUSTOMER_REJECTED; declined at the confirmation, nothing is sent', async () => {
    const d = await heldDeposit();
    const from = local.audit().entries().length;
    await expect(
      rejectDeposit(deps({}, 'no'), parseDepositRejectOptions(d.id, { identityId: IDENTITY })),
    ).rejects.toThrow(/cancelled/);
    expect(auditSince(local, from)).toEqual([]);
    expect((await transfer(d.id)).status).toBe('PENDING');
    const ports = deps({ format: 'json' });
    await rejectDeposit(ports, parseDepositRejectOptions(d.id, { identityId: IDENTITY, yes: true }));
    const t = await transfer(d.id);
    expect([t.status, (t.secondary_status as { name: string }).name]).toEqual(['FAILED', 'CUSTOMER_REJECTED']);
  });

  it('a deposit that needs nothing: the service refuses (409) and the audit trail says refused', async () => {
    const plain = await control('/_local/crypto-deposits', { ref_id: 'demo-btc', amount: '0.1' });
    const ports = deps({ format: 'json' });
    const from = local.audit().entries().length;
    await expect(rejectDeposit(ports, parseDepositRejectOptions(plain.id, { identityId: IDENTITY }))).rejects.toThrow(
      /does not need info/,
    );
    expect(ports.display.stderr).toMatch(/not a deposit held for its originator/);
    expect(auditSince(local, from).map(([, result]) => result)).toEqual(['attempt', 'refused']);
  });

  it('checks before connecting: a bad id, a half-named originator, a missing identity or originator off a terminal', async () => {
    expect(() => parseDepositRejectOptions('abc', {})).toThrow(/ID: must be a deposit's id \(a UUID\), not abc/);
    expect(() => parseDepositUpdateOptions(IDENTITY, { originatorFirstName: 'Ada' })).toThrow(
      /missing --originator-last-name/,
    );
    expect(() =>
      parseDepositUpdateOptions(IDENTITY, { originatorInstitution: 'X', originatorFirstName: 'Ada' }),
    ).toThrow(/--originator-institution: a person or an institution, not both/);
    await expect(rejectDeposit(deps(), parseDepositRejectOptions(IDENTITY, {}))).rejects.toThrow(
      /missing --identity-id/,
    );
    await expect(updateDeposit(deps(), parseDepositUpdateOptions(IDENTITY, { identityId: IDENTITY }))).rejects.toThrow(
      /missing --originator-first-name and --originator-last-name/,
    );
  });

  it('update on a terminal asks for the identity and who sent it', async () => {
    const d = await heldDeposit();
    const ports = deps({ format: 'json' });
    const pr = new ScriptedPrompter(ports.display, [IDENTITY, 'an institution', 'Acme Ltd']);
    await updateDeposit({ ...ports, prompter: pr }, parseDepositUpdateOptions(d.id, {}));
    expect(local.audit().entries().at(-1)?.what).toMatchObject({ originator: 'Acme Ltd', identity_id: IDENTITY });
    expect((await transfer(d.id)).secondary_status).toBeUndefined();
  });
});

describe('withdraw and the beneficiary', () => {
  const ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
  const flags = (refId: string, more: Record<string, unknown> = {}) =>
    parseWithdrawOptions({
      asset: 'BTC',
      network: 'BITCOIN',
      address: ADDRESS,
      amount: '0.001',
      refId,
      yes: true,
      waitTimeout: '30',
      ...more,
    });
  const markVasp = async () => {
    const ports = deps({ format: 'json' });
    await put(
      ports,
      parseDestinationPutOptions({ network: 'BITCOIN', address: ADDRESS, custodianType: 'VASP', vaspId: OKX }),
    );
    return JSON.parse(ports.display.stdout);
  };

  it('the name flags make the beneficiary; with --beneficiary, or half a person, they are usage errors', () => {
    expect(flags('b-1', { beneficiaryInstitution: 'Acme Ltd' }).beneficiary).toEqual({
      institution_details: { name: 'Acme Ltd' },
    });
    expect(flags('b-2', { beneficiaryFirstName: 'Ada', beneficiaryLastName: 'Lovelace' }).beneficiary).toEqual({
      person_details: { first_name: 'Ada', last_name: 'Lovelace' },
    });
    expect(() => flags('b-3', { beneficiaryFirstName: 'Ada' })).toThrow(/missing --beneficiary-last-name/);
    expect(() => flags('b-4', { beneficiary: '{}', beneficiaryInstitution: 'Acme' })).toThrow(/give one/);
  });

  it('to a VASP-held address without one, off a terminal: sent as it is, and said to be held', async () => {
    const saved = await markVasp();
    expect(saved.travelrule_metadata).toEqual({ custodian_type: 'VASP', vasp: { id: OKX, name: 'OKX' } });
    const ports = deps({ format: 'json' });
    await withdraw(ports, flags('tr-held'));
    const sent = JSON.parse(ports.display.stdout);
    expect(sent.secondary_status.name).toBe('TRAVEL_RULE_INFO_REQUESTED');
    expect(ports.display.stderr).toMatch(/holds transfer .* for Travel Rule information/);
  });

  it('on a terminal, the beneficiary is asked for, sent, audited, and the withdrawal is not held', async () => {
    await markVasp();
    const ports = deps({ format: 'json' });
    const pr = new ScriptedPrompter(ports.display, ['a person', 'Ada', 'Lovelace']);
    await withdraw({ ...ports, prompter: pr }, flags('tr-asked'));
    const sent = JSON.parse(ports.display.stdout);
    expect(sent.secondary_status).toBeUndefined();
    expect(ports.display.stderr).toMatch(/custodied by a VASP \(OKX\) and the address book has no beneficiary/);
    expect(local.audit().entries().at(-1)?.what).toMatchObject({ beneficiary: 'Ada Lovelace' });
  });

  it('with the beneficiary saved on the address, nothing is asked and nothing is held', async () => {
    const ports = deps({ format: 'json' });
    await put(
      ports,
      parseDestinationPutOptions({
        network: 'BITCOIN',
        address: ADDRESS,
        custodianType: 'VASP',
        vaspId: OKX,
        beneficiaryInstitution: 'Acme Ltd',
        transferPurpose: 'payroll',
      }),
    );
    const w = deps({ format: 'json' });
    const pr = new ScriptedPrompter(w.display, []);
    await withdraw({ ...w, prompter: pr }, flags('tr-saved'));
    expect(pr.asked).toEqual([]);
    expect(JSON.parse(w.display.stdout).secondary_status).toBeUndefined();
  });
});

describe('destinations put and the Travel Rule', () => {
  it('--custodian-type VASP without a VASP: picked from the directory on a terminal', async () => {
    const ports = deps({ format: 'json' });
    const pr = new ScriptedPrompter(ports.display, ['krak']);
    await put(
      { ...ports, prompter: pr },
      parseDestinationPutOptions({
        network: 'ETHEREUM',
        address: '0xF0Aa84466e353E5390be37FE2934301c07c19a55',
        custodianType: 'VASP',
        beneficiarySelf: true,
      }),
    );
    const saved = JSON.parse(ports.display.stdout);
    expect(saved.travelrule_metadata).toMatchObject({ custodian_type: 'VASP', beneficiary: { self: true } });
    expect(saved.travelrule_metadata.vasp.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('the flags are checked: one VASP, a custom one whole, none for a private wallet, not with --travel-rule', () => {
    const at = { network: 'BITCOIN', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' };
    expect(() => parseDestinationPutOptions({ ...at, vaspId: OKX, vaspName: 'X', vaspWebsite: 'x' })).toThrow(
      /give one/,
    );
    expect(() => parseDestinationPutOptions({ ...at, vaspName: 'X' })).toThrow(/missing --vasp-website/);
    expect(() => parseDestinationPutOptions({ ...at, custodianType: 'PRIVATE', vaspId: OKX })).toThrow(
      /only with --custodian-type VASP/,
    );
    expect(() =>
      parseDestinationPutOptions({ ...at, travelRule: '{"custodian_type":"PRIVATE"}', custodianType: 'VASP' }),
    ).toThrow(/--travel-rule and the Travel Rule flags/);
    expect(
      parseDestinationPutOptions({ ...at, vaspName: 'Other Ex', vaspWebsite: 'https://x.example' }).travelRule,
    ).toEqual({
      custodian_type: 'VASP',
      vasp: { custom_vasp_name: 'Other Ex', custom_vasp_website: 'https://x.example' },
    });
  });
});
