// Four-eyes approvals end to end: approvers on machines of their own (a config and data directory each, so a key
// each) sign with coinop approve, the sender's policy names two of their keys. Each way around it is tried: no
// approval, one, the same key twice, a key the policy does not list, a batch edited after approval, a saved
// withdrawal edited after approval. And a batch's --resume is checked against the policy of the moment.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BTC_ADDRESS, ETH_ADDRESS, sandbox, type Run, type Sandbox } from './helpers.js';
import { twoKeyApprovalsPolicy } from '../support/approvals.js';

let sb: Sandbox;
/** Each person's machine: configuration and data directories of their own. */
const machine = (name: string) => ({
  COINOP_CONFIG_DIR: join(sb.dir, `config-${name}`),
  COINOP_DATA_DIR: join(sb.dir, `data-${name}`),
});
const keys: Record<string, { key: string; key_id: string }> = {};

beforeAll(async () => {
  sb = await sandbox();
  for (const who of ['alice', 'bob', 'mallory']) {
    const r = await sb.run(['approve', '--show-key'], { env: machine(who) });
    expect(r.code, r.stderr).toBe(0);
    keys[who] = JSON.parse(r.stdout);
  }
  const dir = join(sb.env.COINOP_CONFIG_DIR, 'policies');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'local.yaml'), twoKeyApprovalsPolicy(keys));
});
afterAll(async () => sb?.close());

const lastError = (r: Run) => JSON.parse(r.stderr.trim().split('\n').at(-1)!).error;
async function withdrawalsSent(): Promise<number> {
  return (await sb.sent()).filter((e) => e.method === 'POST' && e.url.startsWith('/v2/transfer/crypto-withdrawals'))
    .length;
}
async function approve(who: string, file: string): Promise<string> {
  const r = await sb.run(['approve', file, '--yes', '-o', 'json'], { env: machine(who) });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).approval_file as string;
}

describe('four-eyes approvals of a batch', () => {
  const file = () => join(sb.dir, 'payouts.csv');
  const CSV = [
    'destination_address,asset,crypto_network,amount,meta.invoice',
    `${BTC_ADDRESS},BTC,BITCOIN,0.05,INV-1`,
    `${ETH_ADDRESS},ETH,BASE,0.25,INV-2`,
    `${BTC_ADDRESS},BTC,BITCOIN,0.1,INV-3`,
    '',
  ].join('\n');
  const send = (extra: string[] = []) => sb.run(['withdraw', 'batch', file(), '--yes', '-o', 'json', ...extra]);

  it('refuses without approvals, with one, with the same key twice, and with a key the policy does not list', async () => {
    writeFileSync(file(), CSV);
    await sb.sent();
    const none = await send();
    expect(none.code).toBe(8);
    expect(lastError(none).message).toMatch(
      /^refused by policy: rule approvals: needs 2 approvals by distinct keys of the policy over exactly this content \(sha256 [0-9a-f]{12}…\), has 0/,
    );
    const a = await approve('alice', file());
    expect(a).toBe(`${file()}.approval-${keys.alice.key_id}.txt`);
    expect(readFileSync(a, 'utf8')).toMatch(/\ncoinop approval 1\nkind: batch\nenvironment: local\n/);
    const one = await send();
    expect(one.code).toBe(8);
    expect(lastError(one).message).toMatch(/has 1;? /);
    // Alice's approval a second time, under another name: the same key counts once.
    const copy = join(sb.dir, 'forwarded.txt');
    copyFileSync(a, copy);
    const m = await approve('mallory', file());
    const twice = await send(['--approvals', copy]);
    expect(twice.code).toBe(8);
    const lines = twice.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const said = lines.slice(0, -1).map((l) => l.message as string);
    expect(said[0]).toMatch(/has 1$/);
    // Files found next to the batch come in the order of their key ids, after those given.
    expect(said.slice(1).sort()).toEqual(
      [
        `${m}: not counted: key ${keys.mallory.key_id} is not an approver in the policy`,
        `${a}: not counted: the same key as ${copy}: counted once`,
      ].sort(),
    );
    expect(await withdrawalsSent()).toBe(0);
  });

  it('a row changed after approval voids every approval; put back, the batch goes', async () => {
    await approve('bob', file());
    writeFileSync(file(), CSV.replace('0.25,INV-2', '2.5,INV-2'));
    await sb.sent();
    const edited = await send();
    expect(edited.code).toBe(8);
    const messages = edited.stderr
      .trim()
      .split('\n')
      .slice(0, -1)
      .map((l) => JSON.parse(l).message as string);
    expect(messages.filter((x) => x.includes('approves other rows'))).toHaveLength(2);
    expect(messages.some((x) => x.includes(`approval-${keys.bob.key_id}.txt: not counted: approves other rows`))).toBe(
      true,
    );
    expect(await withdrawalsSent()).toBe(0);
    // The dry run says the same, and so does a table.
    const dry = await sb.run(['withdraw', 'batch', file(), '--dry-run', '-o', 'table']);
    expect(dry.code).toBe(8);
    expect(dry.stderr).toMatch(/ {2}approvals +fail {2}0 of 2 approvals/);
    writeFileSync(file(), CSV);
    const ok = await send();
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).map((r: { result: string }) => r.result)).toEqual(['created', 'created', 'created']);
    expect(await withdrawalsSent()).toBe(3);
  });

  it('the audit trail holds the refusals (with their rules), the approvals signed and the keys that let the run go', async () => {
    const list = await sb.run(['audit', 'list', '--all', '-o', 'json']);
    expect(list.code, list.stderr).toBe(0);
    const entries = JSON.parse(list.stdout) as {
      kind: string;
      who: { approver_keys?: string[] };
      what: Record<string, unknown>;
      outcome: { result: string };
    }[];
    const refusals = entries.filter((e) => e.kind === 'policy_refusal');
    // No approval, one, the same key twice, and the edited batch: four refusals by the approvals rule (dry runs none).
    expect(refusals.length).toBe(4);
    for (const r of refusals) {
      expect(r.outcome.result).toBe('refused');
      expect(r.what.rules).toEqual(['approvals']);
      expect(r.what.command).toBe('withdraw batch');
    }
    // The run that went: the two approvers' keys, in an approval entry of the sender's log.
    const went = entries.filter((e) => e.kind === 'approval' && e.what.command === 'withdraw batch');
    expect(went).toHaveLength(1);
    expect([...(went[0].who.approver_keys ?? [])].sort()).toEqual([keys.alice.key_id, keys.bob.key_id].sort());
    // Each approver's own log has the approval they signed.
    const alice = await sb.run(['audit', 'list', '--kind', 'approval', '-o', 'json'], { env: machine('alice') });
    const signed = JSON.parse(alice.stdout) as { who: { approver_keys?: string[] }; what: { file?: string } }[];
    expect(signed.length).toBeGreaterThan(0);
    expect(signed[0].who.approver_keys).toEqual([keys.alice.key_id]);
    expect(signed[0].what.file).toBe(file());
    // And the sender's log is whole.
    expect((await sb.run(['audit', 'verify'])).code).toBe(0);
  });
});

describe('four-eyes approvals of one withdrawal', () => {
  const W = ['withdraw', '--asset', 'BTC', '--network', 'BITCOIN', '--address', BTC_ADDRESS, '--amount', '0.2'];

  it('saved by --dry-run --save, approved, sent with --request; edited after approval, refused', async () => {
    const saved = join(sb.dir, 'payout-7.json');
    const dry = await sb.run([...W, '--ref-id', 'payout-7', '--dry-run', '--save', saved, '-o', 'json']);
    expect(dry.code).toBe(8);
    expect(dry.stderr).toContain(`saved the request to ${saved}: have it approved (coinop approve ${saved})`);
    expect(JSON.parse(readFileSync(saved, 'utf8'))).toMatchObject({
      coinop_request: 1,
      kind: 'withdrawal',
      environment: 'local',
      request: { ref_id: 'payout-7', amount: '0.2', destination_address: BTC_ADDRESS },
    });
    await approve('alice', saved);
    await approve('bob', saved);
    // The same withdrawal given by its flags and the approvals: the same content.
    const approvals = ['alice', 'bob'].map((w) => `${saved}.approval-${keys[w].key_id}.txt`);
    const byFlags = await sb.run([
      ...W,
      '--ref-id',
      'payout-7',
      '--dry-run',
      '-o',
      'json',
      '--approvals',
      approvals[0],
      '--approvals',
      approvals[1],
    ]);
    expect(byFlags.code, byFlags.stderr).toBe(0);
    // Edited after approval: refused, nothing sent.
    const text = readFileSync(saved, 'utf8');
    writeFileSync(saved, text.replace('"amount": "0.2"', '"amount": "2"'));
    await sb.sent();
    const edited = await sb.run(['withdraw', '--request', saved, '--yes', '-o', 'json']);
    expect(edited.code).toBe(8);
    expect(edited.stderr).toContain('not counted: approves other rows');
    expect(await withdrawalsSent()).toBe(0);
    writeFileSync(saved, text);
    const ok = await sb.run(['withdraw', '--request', saved, '--yes', '-o', 'json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ ref_id: 'payout-7', amount: '0.2', status: 'PENDING' });
    expect(await withdrawalsSent()).toBe(1);
  });

  it('a withdrawal under the threshold needs none; a saved request for another service is refused', async () => {
    const small = await sb.run([...W.slice(0, -1), '0.05', '--yes']);
    expect(small.code, small.stderr).toBe(0);
    const saved = join(sb.dir, 'elsewhere.json');
    writeFileSync(
      saved,
      JSON.stringify({
        coinop_request: 1,
        kind: 'withdrawal',
        environment: 'production',
        service: 'https://api.paxos.com/v2',
        profile_id: 'p',
        request: {},
      }),
    );
    const r = await sb.runIn(['withdraw', '--request', saved, '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`was saved for production at https://api.paxos.com/v2, and context local is local at`);
  });
});

describe('--resume checks the policy again', () => {
  it('rows left to send that the policy now refuses are not sent', async () => {
    const policy = join(sb.env.COINOP_CONFIG_DIR, 'policies', 'local.yaml');
    const before = readFileSync(policy, 'utf8');
    writeFileSync(policy, 'version: 1\n');
    // The second row is over the service's limit on each transfer (10,000 USD here): refused, left to retry.
    const { rules } = await sb.control('GET', '/_local/limits');
    const each = {
      id: 'each',
      transfer_types: ['CRYPTO_WITHDRAWAL'],
      period_seconds: 0,
      limit: '10000',
      limit_asset: 'USD',
    };
    await sb.control('PUT', '/_local/limits', { rules: [each] });
    const file = join(sb.dir, 'resume.csv');
    writeFileSync(
      file,
      `destination_address,asset,crypto_network,amount\n${BTC_ADDRESS},BTC,BITCOIN,0.01\n${BTC_ADDRESS},BTC,BITCOIN,1\n`,
    );
    // --allow-partial: coinop's own limits preflight would otherwise refuse the whole batch before its first row.
    const first = await sb.run(['withdraw', 'batch', file, '--yes', '--allow-partial', '-o', 'json']);
    expect(first.code, first.stderr).toBe(6);
    await sb.control('PUT', '/_local/limits', { rules });
    writeFileSync(policy, 'max_per_withdrawal:\n  BTC: 0.5\n');
    await sb.sent();
    const resumed = await sb.run(['withdraw', 'batch', file, '--resume', '--retry-failed', '--yes', '-o', 'json']);
    expect(resumed.code).toBe(8);
    expect(lastError(resumed).message).toMatch(
      /^refused by policy: rule max_per_withdrawal: row 2: 1 BTC is over the most one withdrawal may send, 0\.5 BTC/,
    );
    expect(await withdrawalsSent()).toBe(0);
    // The policy as it was: the resume goes.
    writeFileSync(policy, 'version: 1\n');
    const again = await sb.run(['withdraw', 'batch', file, '--resume', '--retry-failed', '--yes', '-o', 'json']);
    expect(again.code, again.stderr).toBe(0);
    expect(await withdrawalsSent()).toBe(1);
    writeFileSync(policy, before);
  });
});
