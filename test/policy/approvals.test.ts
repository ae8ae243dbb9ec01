// Approvals: the content a run is approved for (what changes it and what does not), approval files signed with a
// real Ed25519 key and read back (also after an email client's line ends), and every way one does not count.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type ApprovalContent,
  type ApprovalScope,
  approvalText,
  ContentBuilder,
  parseApproval,
  verifyApprovals,
} from '../../src/policy/approvals.js';
import { approverKey, KeyFileError } from '../../src/policy/keys.js';
import type { Approver } from '../../src/policy/policy.js';

const dir = mkdtempSync(join(tmpdir(), 'coinop-approvals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SCOPE: ApprovalScope = {
  kind: 'batch',
  environment: 'production',
  service: 'https://api.example/v2',
  profileId: 'p-1',
};
const ROWS = [
  {
    profile_id: 'p-1',
    asset: 'BTC',
    crypto_network: 'BITCOIN',
    destination_address: 'a1',
    amount: '0.10',
    ref_id: 'r1',
  },
  { profile_id: 'p-1', asset: 'ETH', crypto_network: 'BASE', destination_address: 'a2', total: '2', ref_id: 'r2' },
];
function content(rows: Record<string, unknown>[], scope = SCOPE): ApprovalContent {
  const b = new ContentBuilder(scope);
  for (const r of rows) b.add(r);
  return b.finish();
}
const alice = approverKey(join(dir, 'alice'));
const bob = approverKey(join(dir, 'bob'));
const mallory = approverKey(join(dir, 'mallory'));
const asApprover = (k: typeof alice, name?: string): Approver => ({ name, key: k.publicKey.text, id: k.publicKey.id });
const TEAM = [asApprover(alice, 'alice'), asApprover(bob, 'bob')];
const signed = (k: typeof alice, c = content(ROWS), path = 'a.txt') =>
  parseApproval(path, approvalText(c, k, 'payouts.csv', '2026-11-23T10:00:00.000Z'));

describe('the content approved', () => {
  it('is the same for the same requests however they are written, and a fee quote id is no part of it', () => {
    const c = content(ROWS);
    expect(c).toMatchObject({
      rows: 2,
      totals: [
        { asset: 'BTC', network: 'BITCOIN', rows: 1, sum: '0.1' },
        { asset: 'ETH', network: 'BASE', rows: 1, sum: '2' },
      ],
    });
    const reordered = ROWS.map((r) => Object.fromEntries(Object.entries(r).reverse()));
    expect(content(reordered).digest).toBe(c.digest);
    expect(content([{ ...ROWS[0], amount: '0.1', fee_id: 'q-1' }, ROWS[1]]).digest).toBe(c.digest);
  });

  it('changes with any amount, destination, row, order or ref_id', () => {
    const c = content(ROWS).digest;
    for (const rows of [
      [{ ...ROWS[0], amount: '0.11' }, ROWS[1]],
      [{ ...ROWS[0], destination_address: 'a3' }, ROWS[1]],
      [ROWS[1], ROWS[0]],
      [ROWS[0]],
      [ROWS[0], ROWS[1], ROWS[1]],
      [{ ...ROWS[0], ref_id: 'r9' }, ROWS[1]],
      [{ ...ROWS[0], metadata: { invoice: '1' } }, ROWS[1]],
    ])
      expect(content(rows).digest).not.toBe(c);
  });
});

describe('approval files', () => {
  it('are plain text that verifies, after CRLF line ends and stray blank lines too', () => {
    const text = approvalText(content(ROWS), alice, 'payouts.csv', '2026-11-23T10:00:00.000Z');
    expect(text).toMatch(/^# coinop approval of payouts.csv: 2 withdrawals in production/);
    expect(text).toContain(`approver: ${alice.publicKey.text}\nsignature: `);
    const mangled = `\r\n${text.replace(/\n/g, '  \r\n').replace('rows: 2', '\r\nrows: 2')}`;
    const [r] = verifyApprovals([parseApproval('a.txt', mangled)], content(ROWS), TEAM);
    expect(r).toEqual({
      file: 'a.txt',
      status: 'valid',
      key_id: alice.publicKey.id,
      key: alice.publicKey.text,
      approver: 'alice',
      approved_at: '2026-11-23T10:00:00.000Z',
    });
  });

  it('do not count for other content, another service, a key the policy does not list, or an edited statement', () => {
    const changed = content([{ ...ROWS[0], amount: '1.10' }, ROWS[1]]);
    const verdicts = verifyApprovals(
      [
        signed(alice),
        signed(mallory, content(ROWS), 'm.txt'),
        signed(bob, content(ROWS, { ...SCOPE, service: 'https://elsewhere/v2' }), 'b.txt'),
      ],
      changed,
      TEAM,
    );
    expect(verdicts.map((v) => [v.file, v.status, v.reason])).toEqual([
      [
        'a.txt',
        'invalid',
        expect.stringMatching(
          /^approves other rows \(content [0-9a-f]{12}…, this run's is [0-9a-f]{12}…\): a row, an amount or a destination changed since it was signed$/,
        ),
      ],
      ['m.txt', 'invalid', `key ${mallory.publicKey.id} is not an approver in the policy`],
      [
        'b.txt',
        'invalid',
        'approves a run in production at https://elsewhere/v2, not in production at https://api.example/v2',
      ],
    ]);
    // Editing the statement to match the new content breaks the signature.
    const text = approvalText(content(ROWS), alice, 'payouts.csv', '2026-11-23T10:00:00.000Z')
      .replace(/content: sha256:[0-9a-f]+/, `content: sha256:${changed.digest}`)
      .replace('BTC BITCOIN 0.1 ', 'BTC BITCOIN 1.1 ');
    expect(verifyApprovals([parseApproval('e.txt', text)], changed, TEAM)[0]).toMatchObject({
      status: 'invalid',
      reason: 'the signature does not verify: the file was changed after it was signed',
    });
  });

  it('an approval made with another default service profile says so', () => {
    const other = content(ROWS, { ...SCOPE, profileId: 'p-2' });
    expect(verifyApprovals([signed(alice, other)], content(ROWS), TEAM)[0].reason).toBe(
      "approves rows whose default service profile is p-2, and this run's is p-1 (approve with the same --profile-id)",
    );
  });

  it('the same key twice counts once', () => {
    const verdicts = verifyApprovals([signed(alice), signed(alice, content(ROWS), 'copy.txt')], content(ROWS), TEAM);
    expect(verdicts.map((v) => [v.status, v.reason])).toEqual([
      ['valid', undefined],
      ['duplicate', 'the same key as a.txt: counted once'],
    ]);
  });

  it('a file that is no approval, or one cut short, is named as such', () => {
    expect(parseApproval('x.txt', 'hello\n').error).toBe(
      'not a coinop approval (its first line is not "coinop approval 1")',
    );
    const text = approvalText(content(ROWS), alice, 'payouts.csv', '2026-11-23T10:00:00.000Z');
    expect(parseApproval('x.txt', text.slice(0, text.indexOf('signature:'))).error).toBe(
      'cut short: it has no signature line',
    );
    expect(verifyApprovals([parseApproval('x.txt', 'hello')], content(ROWS), TEAM)[0]).toMatchObject({
      status: 'invalid',
      reason: expect.stringMatching(/^not a coinop approval/),
    });
  });
});

describe("the approver's key", () => {
  it('is made on first use, 0600 in a 0700 folder, and the same key after', () => {
    const d = join(dir, 'fresh');
    const first = approverKey(d);
    expect(first.created).toBe(true);
    expect(statSync(first.path).mode & 0o777).toBe(0o600);
    expect(statSync(d).mode & 0o777).toBe(0o700);
    const again = approverKey(d);
    expect(again.created).toBe(false);
    expect(again.publicKey.text).toBe(first.publicKey.text);
    expect(first.publicKey.text).toMatch(/^ed25519:[A-Za-z0-9+/]{43}=$/);
    expect(readFileSync(first.path, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  });

  it('a damaged key file is named with the way out, never replaced', () => {
    const d = join(dir, 'damaged');
    approverKey(d);
    writeFileSync(join(d, 'approval-key.pem'), 'not a key');
    expect(() => approverKey(d)).toThrow(KeyFileError);
    expect(() => approverKey(d)).toThrow(/approval-key.pem: is not an Ed25519 private key in PEM .*move it aside/);
    expect(readFileSync(join(d, 'approval-key.pem'), 'utf8')).toBe('not a key');
  });
});
