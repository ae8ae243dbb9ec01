// coinop approve: work out the content of a batch file (staged exactly as withdraw batch stages it) or of a saved
// withdrawal, show it, and sign it with this machine's approver key; the approval goes next to the file. Sends
// nothing.
import { join } from 'node:path';
import type { Ports } from '../../cli/ports.js';
import { CoinopError, usageError } from '../../cli/errors.js';
import { writeFileAtomic } from '../../config/lock.js';
import { type ApprovalContent, approvalText, repeatSalt } from '../../policy/approvals.js';
import { type ApproverKey, approverKey, KeyFileError } from '../../policy/keys.js';
import { loadPolicyFile } from '../../policy/load.js';
import { policyLocation } from '../../policy/location.js';
import { keyValueLines } from '../../render/key-value.js';
import { palette } from '../../render/style.js';
import { readBatch } from '../../cli/batch-input.js';
import {
  approvalFileName,
  approvalScope,
  batchContent,
  savedRequestIn,
  withdrawalContent,
} from '../../cli/approval-content.js';
import type { ApproveOptions } from './options.js';
import { batchPreview, previewRows, requestFields } from './preview.js';
import type { StagedRow } from '../../batch/stage.js';
import { bookNicknames, type RowDestination } from '../../cli/book-nicknames.js';
import { commandProfile, knownProfile, profileLabel } from '../../cli/service-profiles.js';

function key(ctx: Pick<Ports, 'display' | 'policy'>): ApproverKey {
  try {
    const k = approverKey(ctx.policy.configDir(), (line) => ctx.display.io.err(`${line}\n`));
    if (k.created) ctx.display.io.err(`made a new approver key: ${k.path} (0600; keep it, and never send it)\n`);
    return k;
  } catch (e) {
    if (e instanceof KeyFileError) throw new CoinopError('file', e.message);
    throw e;
  }
}

/** What approve signs, and what it shows of it before asking: a batch's rows as a table, a saved request's fields. */
interface Signed {
  content: ApprovalContent;
  table?: string[];
  fields?: [string, string][];
  /** The default service profile as shown: "payroll (e950ba30)" when its nickname is known. */
  profile?: string;
}

/** The content of the file: a saved withdrawal as it states its scope, or a batch as this context stages it. */
async function contentOf(ctx: ApproveDeps, options: ApproveOptions, file: string): Promise<Signed> {
  const saved = savedRequestIn(file);
  if (saved && options.allowRepeat)
    throw usageError('--allow-repeat: approves a batch run again, not a saved withdrawal');
  if (saved) {
    const content = withdrawalContent(
      { kind: 'withdrawal', environment: saved.environment, service: saved.service, profileId: saved.profile_id },
      saved.request,
    );
    return { content, fields: [['kind', saved.kind.replace('_', ' ')], ...requestFields(saved.request)] };
  }
  return batchSigned(ctx, options, file);
}

/**
 * A batch's content as withdraw batch stages it in this context (--profile-id and the rows' profile_id by nickname or
 * id prefix resolved the same way, from the service's list), and its rows as a table: a profile by its nickname, a
 * destination with its nickname in the address book (read only when the table is shown, not with --yes).
 */
async function batchSigned(ctx: ApproveDeps, options: ApproveOptions, file: string): Promise<Signed> {
  // As withdraw batch takes it: an unknown or ambiguous --profile-id is refused before the file is read.
  const given = options.profileId !== undefined ? await commandProfile(ctx, options.profileId, undefined) : undefined;
  const defaultProfileId = given?.id ?? ctx.service.context().profileId;
  const input = await readBatch(ctx, file, {
    format: options.format,
    defaultProfileId,
    skipInvalid: options.skipInvalid,
    dir: join(ctx.service.dataDir(), 'batches'),
  });
  try {
    const scope = approvalScope(ctx.service.context(), 'batch', defaultProfileId);
    const { scan, stage } = input;
    const content = batchContent(options.allowRepeat ? { ...scope, repeat: true } : scope, stage, scan.profileNames);
    const known = [...(scan.profiles ?? []), ...(given ? [given] : [])];
    const profile = (id: string) => profileLabel(knownProfile(id, known));
    const shown = previewRows(stage);
    const nickname = options.yes
      ? () => undefined
      : await bookNicknames(await ctx.service.connect(), shown.rows.map(paid));
    const table = batchPreview(shown, ctx.display.io.width, {
      defaultProfileId,
      profile,
      nickname: (row) => nickname(paid(row)),
    });
    return { content, table, profile: defaultProfileId && profile(defaultProfileId) };
  } finally {
    input.stage.remove();
  }
}

/** Where a staged row pays: its network, address and identity. */
function paid(row: StagedRow): RowDestination {
  const { identity_id: identityId } = JSON.parse(row.body) as { identity_id?: string };
  return { network: row.crypto_network ?? '', address: row.destination_address ?? '', identityId };
}

/** Says so when the context's own policy does not list this key (the sender's policy is the one that decides). */
function noteUnlisted(ctx: Pick<Ports, 'display' | 'service' | 'policy'>, key: ApproverKey): void {
  const loc = policyLocation(ctx.policy.configDir(), ctx.service.context().name);
  if (!loc.exists) return;
  try {
    const a = loadPolicyFile(loc.path).policy.approvals;
    if (a && !a.keys.some((x) => x.id === key.publicKey.id))
      ctx.display.io.err(`note: your key ${key.publicKey.id} is not among the approvers of ${loc.path}\n`);
  } catch {
    /* a policy that does not load blocks sending, not approving */
  }
}

/**
 * What approve takes: the approver key and the policy (the configuration directory, the signed approval's listeners),
 * the file read as a batch is (so the service's catalogue, its profiles and the audit trail), the confirmation, the
 * clock; `user` is the name the key is shown under (USER).
 */
export type ApproveDeps = Pick<
  Ports,
  'display' | 'service' | 'prompter' | 'confirmer' | 'audit' | 'clock' | 'interrupt' | 'policy'
>;

export async function approve(ctx: ApproveDeps, options: ApproveOptions, user?: string): Promise<void> {
  const k = key(ctx);
  const out = ctx.display.output();
  if (options.showKey) {
    out.one({ key: k.publicKey.text, key_id: k.publicKey.id, private_key_file: k.path });
    ctx.display.io.err(
      `list it in the policy of each context you approve for (coinop policy show):\n  approvals:\n    keys:\n      - name: ${user || 'YOUR-NAME'}\n        key: ${k.publicKey.text}\n`,
    );
    return;
  }
  const file = options.file!;
  const { content, table, fields, profile } = await contentOf(ctx, options, file);
  const s = (n: number) => (n === 1 ? '' : 's');
  // A repeat's rows paid again go under ref_ids ending -<salt>: the approver sees which, offline.
  const salt = content.repeat ? repeatSalt(content).slice(0, 8) : undefined;
  await ctx.confirmer.confirm({
    title: `Approve ${content.rows} withdrawal${s(content.rows)} of ${file}`,
    environment: content.environment,
    yes: options.yes,
    question: 'Sign this approval with your key?',
    typed: [{ label: 'the number of rows', value: String(content.rows) }],
    table,
    rows: [
      ['environment', `${content.environment} (${content.service})`],
      ['context', ctx.service.context().name],
      ['profile_id', profile ?? content.profileId],
      ...(fields ?? []),
      ['rows', String(content.rows)],
      [
        'repeat',
        salt
          ? `yes: rows another batch paid are paid again (withdraw batch --allow-repeat), under ref_ids ending -${salt}`
          : undefined,
      ],
      ...content.totals.map(
        (t) => [`${t.asset} ${t.network}`, `${t.sum} (${t.rows} row${s(t.rows)})`] as [string, string],
      ),
      ['content', `sha256 ${content.digest}`],
      ['your key', k.publicKey.id],
    ],
  });
  const at = new Date(ctx.clock.now()).toISOString();
  const target = approvalFileName(file, k.publicKey.id);
  try {
    writeFileAtomic(target, approvalText(content, k, file, at));
  } catch (e) {
    throw new CoinopError('file', `${target}: cannot be written (${(e as NodeJS.ErrnoException).code ?? e})`);
  }
  ctx.policy.event({
    type: 'approval-signed',
    file,
    approval_file: target,
    key_id: k.publicKey.id,
    key: k.publicKey.text,
    approved_at: at,
    content,
  });
  noteUnlisted(ctx, k);
  if (out.forPeople) {
    ctx.display.io.err(`${palette(ctx.display.io.colourErr).green('✓')} approved: ${target}\n`);
    const totals = content.totals.map((t) => `${t.sum} ${t.asset} on ${t.network} (${t.rows} row${s(t.rows)})`);
    const rows: [string, string][] = [
      ['approval', target],
      [
        'approves',
        `${file}: ${content.rows} withdrawal${s(content.rows)}${content.repeat ? ' (a repeat: --allow-repeat)' : ''}, ${totals.join(', ')}`,
      ],
      ['in', `${content.environment} (${content.service}), profile_id ${profile ?? content.profileId}`],
      ['content', `sha256 ${content.digest}`],
      ...(salt ? [['repeat', `rows paid again go under ref_ids ending -${salt}`] as [string, string]] : []),
      ['key', `${k.publicKey.text} (${k.publicKey.id})`],
    ];
    for (const line of keyValueLines(rows, palette(ctx.display.io.colour))) ctx.display.io.out(`${line}\n`);
    return;
  }
  out.one({
    approval_file: target,
    file,
    key_id: k.publicKey.id,
    key: k.publicKey.text,
    approved_at: at,
    kind: content.kind,
    ...(salt ? { repeat: true, repeat_salt: salt } : {}),
    environment: content.environment,
    service: content.service,
    profile_id: content.profileId,
    rows: content.rows,
    totals: content.totals,
    content_sha256: content.digest,
  });
}
