// coinop approve's run with fakes of its ports: a Display that keeps what it wrote, the fixture's service (the batch
// is staged against it as withdraw batch stages it), a confirmer that answers as told and keeps what it showed, the
// fixed clock, and a configuration directory of the test's own (the approver key is made there). Sends nothing.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { approvalFileName } from '../../src/cli/approval-content.js';
import { CoinopError } from '../../src/cli/errors.js';
import { approve } from '../../src/commands/approve/run.js';
import { sharedLocalFixture, moneyPorts, NOW } from './ports.js';

const ADDRESS = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
const OPTIONS = { showKey: false, skipInvalid: false, allowRepeat: false, yes: true };

const local = sharedLocalFixture();
let batch: string;
beforeAll(async () => {
  batch = join(local.dataDir, 'payouts.csv');
  writeFileSync(
    batch,
    `destination_address,asset,crypto_network,amount\n${ADDRESS},BTC,BITCOIN,0.01\n${ADDRESS},BTC,BITCOIN,0.02\n`,
  );
});

describe('approve run', () => {
  it('--show-key: makes the key once and prints it, with how to list it in a policy', async () => {
    const ports = moneyPorts(local);
    await approve(ports, { ...OPTIONS, showKey: true }, 'alice');
    const shown = JSON.parse(ports.display.stdout) as { key: string; key_id: string; private_key_file: string };
    expect(existsSync(shown.private_key_file)).toBe(true);
    expect(ports.display.stderr).toContain('made a new approver key');
    expect(ports.display.stderr).toContain(`- name: alice\n        key: ${shown.key}`);
    const again = moneyPorts(local);
    await approve(again, { ...OPTIONS, showKey: true });
    expect((JSON.parse(again.display.stdout) as { key_id: string }).key_id).toBe(shown.key_id);
    expect(again.display.stderr).not.toContain('made a new approver key');
  });

  it('signs a batch: shows its rows and totals, writes the approval next to the file, and tells the policy', async () => {
    const ports = moneyPorts(local);
    const from = local.policy.events.length;
    await approve(ports, { ...OPTIONS, file: batch });
    const signed = JSON.parse(ports.display.stdout) as Record<string, unknown>;
    expect(signed).toMatchObject({
      file: batch,
      kind: 'batch',
      rows: 2,
      approved_at: new Date(NOW).toISOString(),
      totals: [{ asset: 'BTC', network: 'BITCOIN', sum: '0.03', rows: 2 }],
    });
    const target = approvalFileName(batch, String(signed.key_id));
    expect(signed.approval_file).toBe(target);
    expect(readFileSync(target, 'utf8')).toContain(String(signed.content_sha256));
    expect(ports.confirmer.shown[0].title).toBe(`Approve 2 withdrawals of ${batch}`);
    expect(local.policy.events.slice(from).map((e) => e.type)).toEqual(['approval-signed']);
  });

  it('the operator says no: nothing is written', async () => {
    const other = join(local.dataDir, 'other.csv');
    writeFileSync(other, `destination_address,asset,crypto_network,amount\n${ADDRESS},BTC,BITCOIN,0.5\n`);
    const ports = moneyPorts(local, {}, 'no');
    const from = local.policy.events.length;
    const e = await approve(ports, { ...OPTIONS, file: other }).catch((error: unknown) => error);
    expect(e instanceof CoinopError && e.category).toBe('cancelled');
    expect(ports.display.stdout).toBe('');
    expect(local.policy.events.length).toBe(from);
    expect(readdirSync(local.dataDir).filter((f) => f.startsWith('other.csv.approval-'))).toEqual([]);
    expect(ports.confirmer.shown).toHaveLength(1);
  });
});
