// Four-eyes approvals. What is approved is a run's canonical content: each withdrawal request as it will be sent
// (after staging: defaults filled in, ref_ids derived; canonical JSON with sorted keys and amounts written plainly;
// a fee quote's id left out, since a quote lasts a minute), in order, hashed with SHA-256; the totals per asset and
// network; the service profile, the environment and the API address. An approval is a plain-text file, fit for
// email or a pull request, that states that content and carries the approver's public key and Ed25519 signature
// over the statement. Any change to a row, an amount or a destination changes the content's hash: every signature
// over the old content stops counting.
import { createHash, type Hash } from 'node:crypto';
import { dec, type Decimal, fmt } from '../contract/index.js';
import { canonicalJson, normalAmount } from '../batch/ref-ids.js';
import { parsePublicKey, signText, verifyText, type ApproverKey } from './keys.js';
import type { Approver } from './policy.js';

export const APPROVAL_HEADER = 'coinop approval 1';

/** Where a run goes: what an approval is bound to besides its rows. */
export interface ApprovalScope {
  /** policy: a new version of a gateway's policy (its content's digest is the SHA-256 of the policy's text). */
  kind: 'batch' | 'withdrawal' | 'policy';
  environment: string;
  /** The API address (normalised, as the context resolves it). */
  service: string;
  /** The default service profile of the rows ("-" when none). */
  profileId: string;
  /**
   * A repeat run (withdraw batch --allow-repeat, approve --allow-repeat): rows another batch paid are paid again,
   * under ref_ids salted by repeatSalt of this content. Stated as `repeat: true`; an approval of the first payment
   * never counts for a repeat, nor the other way round.
   */
  repeat?: boolean;
  /** A policy change: the version it replaces, `VERSION sha256:HEX` (an approval never applies over another one). */
  replaces?: string;
}

export interface ContentTotal {
  asset: string;
  network: string;
  rows: number;
  /** The sum of the rows' amounts (or totals, for rows given by total). */
  sum: string;
}

export interface ApprovalContent extends ApprovalScope {
  rows: number;
  totals: ContentTotal[];
  /** Hex SHA-256 of the canonical rows. */
  digest: string;
  /**
   * A batch's service profiles given by nickname or id prefix (trimmed, lower case) and the ids they named: the rows
   * (and so the digest) hold the ids. Stated in an approval after the content (signed, not compared: the digest is),
   * so that a name that names another profile at run time is said to be the reason an approval does not count.
   */
  profileNames?: Record<string, string>;
}

/** A request as approved: canonical JSON, amounts as numbers mean them, without the fee quote's id. */
export function canonicalRow(body: Record<string, unknown>): string {
  const norm = (v: unknown) => (typeof v === 'string' ? normalAmount(v) : v);
  return canonicalJson({ ...body, fee_id: undefined, amount: norm(body.amount), total: norm(body.total) });
}

/** Builds the content of a run one row at a time (a batch of any size in constant memory). */
export class ContentBuilder {
  private readonly hash: Hash = createHash('sha256');
  private rows = 0;
  private readonly totals = new Map<string, { asset: string; network: string; rows: number; sum: Decimal }>();

  constructor(private readonly scope: ApprovalScope) {}

  add(body: Record<string, unknown>): void {
    this.hash.update(`${canonicalRow(body)}\n`);
    this.rows++;
    // A conversion's asset is what it takes: its source_asset.
    const asset = String(body.asset ?? body.source_asset ?? '');
    const network = String(body.crypto_network ?? '-');
    const key = `${asset}\u0000${network}`;
    let t = this.totals.get(key);
    if (!t) this.totals.set(key, (t = { asset, network, rows: 0, sum: dec(0) }));
    t.rows++;
    const v = body.amount ?? body.total;
    if (typeof v === 'string') t.sum = t.sum.plus(dec(v));
  }

  finish(): ApprovalContent {
    const totals = [...this.totals.values()]
      .sort((a, b) => a.asset.localeCompare(b.asset) || a.network.localeCompare(b.network))
      .map((t) => ({ asset: t.asset, network: t.network, rows: t.rows, sum: fmt(t.sum) }));
    return { ...this.scope, rows: this.rows, totals, digest: this.hash.digest('hex') };
  }
}

/** The sum per asset of a content's totals (the approval threshold is per asset). */
export function sumsByAsset(content: Pick<ApprovalContent, 'totals'>): Map<string, Decimal> {
  const m = new Map<string, Decimal>();
  for (const t of content.totals) m.set(t.asset, (m.get(t.asset) ?? dec(0)).plus(dec(t.sum)));
  return m;
}

const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;

/** The statement lines of a content, in order: the part of an approval that must equal the run's. */
export function contentLines(content: ApprovalContent): string[] {
  return [
    APPROVAL_HEADER,
    `kind: ${content.kind}`,
    ...(content.repeat ? ['repeat: true'] : []),
    `environment: ${content.environment}`,
    `service: ${content.service}`,
    `profile_id: ${content.profileId}`,
    ...(content.replaces ? [`replaces: ${content.replaces}`] : []),
    `rows: ${content.rows}`,
    ...content.totals.map((t) => `total: ${t.asset} ${t.network} ${t.sum} (${plural(t.rows, 'row')})`),
    `content: sha256:${content.digest}`,
  ];
}

/** A content read back from its statement lines (contentLines of it gives the same lines), or undefined. */
export function contentFromLines(lines: readonly string[]): ApprovalContent | undefined {
  const field = (name: string) => lines.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
  const kind = field('kind');
  const digest = field('content')?.replace(/^sha256:/, '');
  if (lines[0] !== APPROVAL_HEADER || (kind !== 'batch' && kind !== 'withdrawal' && kind !== 'policy') || !digest)
    return undefined;
  const totals: ContentTotal[] = [];
  for (const l of lines.filter((x) => x.startsWith('total: '))) {
    const m = /^total: (\S+) (\S+) (\S+) \((\d+) rows?\)$/.exec(l);
    if (!m) return undefined;
    totals.push({ asset: m[1], network: m[2], sum: m[3], rows: Number(m[4]) });
  }
  const c: ApprovalContent = {
    kind,
    ...(field('repeat') === 'true' ? { repeat: true } : {}),
    environment: field('environment') ?? '',
    service: field('service') ?? '',
    profileId: field('profile_id') ?? '',
    ...(field('replaces') !== undefined ? { replaces: field('replaces') } : {}),
    rows: Number(field('rows')),
    totals,
    digest,
  };
  return contentLines(c).join('\n') === lines.join('\n') ? c : undefined;
}

/**
 * The salt of a repeat run's repeated rows (their ref_ids end -<first 8 hex>): from the statement of its content, so
 * the dry run, each approver and the run work out the same ref_ids offline, and the same repeat approved twice pays
 * once (its salted ref_ids are paid: the service answers "already submitted").
 */
export function repeatSalt(content: ApprovalContent): string {
  return createHash('sha256')
    .update(`coinop repeat salt\n${contentLines({ ...content, repeat: true }).join('\n')}\n`)
    .digest('hex')
    .slice(0, 16);
}

/** A signed approval file's text: comments for the reader, the statement, the approver's key and signature. */
export function approvalText(content: ApprovalContent, key: ApproverKey, file: string, at: string): string {
  const names = content.profileNames && Object.keys(content.profileNames).length ? content.profileNames : undefined;
  const signed = [
    ...contentLines(content),
    ...(names ? [`profile_names: ${JSON.stringify(names)}`] : []),
    `file: ${file}`,
    `approved_at: ${at}`,
    `approver: ${key.publicKey.text}`,
  ];
  const signature = signText(key.privateKey, `${signed.join('\n')}\n`);
  const head =
    content.kind === 'policy'
      ? [
          `# coinop approval of ${file}: a new version of the gateway's policy, by key ${key.publicKey.id}.`,
          '# It approves exactly the policy text whose SHA-256 is stated below, replacing the version named: any change voids it.',
        ]
      : [
          `# coinop approval of ${file}: ${plural(content.rows, 'withdrawal')} in ${content.environment}, by key ${key.publicKey.id}.`,
          '# It approves exactly the rows stated below (their SHA-256): a changed row, amount or destination voids it.',
        ];
  return [
    ...head,
    '# Pass it to whoever sends them: coinop finds it next to the file, or takes it with --approvals.',
    ...signed,
    `signature: ${signature}`,
    '',
  ].join('\n');
}

export interface ParsedApproval {
  path: string;
  /** Why it is no approval at all (not one, or cut short). */
  error?: string;
  /** The statement as signed (every line up to the signature). */
  signed?: string;
  fields: Record<string, string>;
  totals: string[];
  signature?: string;
}

/** Reads an approval's text; what it is, or why it is none. Line ends, blank lines and comments do not count. */
export function parseApproval(path: string, text: string): ParsedApproval {
  const lines = text
    .split('\n')
    .map((l) => l.replace(/\s+$/, ''))
    .filter((l) => l !== '' && !l.startsWith('#'));
  const out: ParsedApproval = { path, fields: {}, totals: [] };
  if (lines[0] !== APPROVAL_HEADER)
    return { ...out, error: `not a coinop approval (its first line is not "${APPROVAL_HEADER}")` };
  const signed: string[] = [];
  for (const line of lines) {
    const m = /^([a-z_]+): ?(.*)$/.exec(line);
    if (line === APPROVAL_HEADER) signed.push(line);
    else if (!m) return { ...out, error: `not a coinop approval: a line reads "${line.slice(0, 60)}"` };
    else if (m[1] === 'signature') {
      out.signature = m[2];
      break;
    } else {
      signed.push(line);
      if (m[1] === 'total') out.totals.push(m[2]);
      else out.fields[m[1]] = m[2];
    }
  }
  if (!out.signature) return { ...out, error: 'cut short: it has no signature line' };
  return { ...out, signed: `${signed.join('\n')}\n` };
}

export type ApprovalStatus = 'valid' | 'invalid' | 'duplicate';

/** One approval's verdict: what the audit trail records of it. */
export interface ApprovalResult {
  file: string;
  status: ApprovalStatus;
  /** The approver's key fingerprint, and its name in the policy. */
  key_id?: string;
  key?: string;
  approver?: string;
  approved_at?: string;
  reason?: string;
}

const short = (hex: string | undefined) => (hex ? `${hex.replace(/^sha256:/, '').slice(0, 12)}…` : '(none)');

/** Why an approval's statement is not about this content, or undefined when it is exactly about it. */
function contentMismatch(approval: ParsedApproval, content: ApprovalContent): string | undefined {
  const want = contentLines(content);
  const have = approval.signed!.split('\n').filter((l) => want.some((w) => w.split(':')[0] === l.split(':')[0]));
  const repeatSame =
    (approval.fields.repeat === 'true') === !!content.repeat && (approval.fields.repeat ?? 'true') === 'true';
  if (have.join('\n') === want.join('\n') && repeatSame) return undefined;
  const f = approval.fields;
  if (f.environment !== content.environment || f.service !== content.service)
    return `approves a run in ${f.environment} at ${f.service}, not in ${content.environment} at ${content.service}`;
  if (f.kind !== content.kind) return `approves a ${f.kind}, not a ${content.kind}`;
  if (content.repeat && f.repeat !== 'true')
    return 'approves the first payment of these rows, and this run pays rows again (--allow-repeat): a repeat needs approvals of its own (coinop approve FILE --allow-repeat)';
  if (!content.repeat && f.repeat !== undefined)
    return 'approves a repeat (--allow-repeat), and this run is not one (approve it without --allow-repeat)';
  if (f.profile_id !== content.profileId)
    return `approves rows whose default service profile is ${f.profile_id}, and this run's is ${content.profileId} (approve with the same --profile-id)`;
  const renamed = profileNameMoved(f.profile_names, content.profileNames);
  if (renamed) return renamed;
  return `approves other rows (content ${short(f.content)}, this run's is ${short(content.digest)}): a row, an amount or a destination changed since it was signed`;
}

/** Why an approval does not count when a profile name of its rows names another profile now, or undefined. */
function profileNameMoved(stated: string | undefined, now: Record<string, string> | undefined): string | undefined {
  let then: unknown;
  try {
    then = JSON.parse(stated ?? '{}');
  } catch {
    return undefined;
  }
  if (!then || typeof then !== 'object' || !now) return undefined;
  for (const [name, id] of Object.entries(then as Record<string, unknown>)) {
    if (now[name] !== undefined && now[name] !== id)
      return `approves rows whose profile_id "${name}" named the service profile ${String(id)}, and it names ${now[name]} now: the rows would be paid from another profile (approve the file again, or give the profile's id in the file)`;
  }
  return undefined;
}

/** Checks one approval against the run's content and the policy's approvers. */
function checkOne(approval: ParsedApproval, content: ApprovalContent, approvers: Approver[]): ApprovalResult {
  const base: ApprovalResult = { file: approval.path, status: 'invalid' };
  if (approval.error) return { ...base, reason: approval.error };
  const key = parsePublicKey(approval.fields.approver ?? '');
  if ('rule' in key) return { ...base, reason: `its approver line ${key.rule.replace(/^must be/, 'is not')}` };
  const who: ApprovalResult = { ...base, key_id: key.id, key: key.text, approved_at: approval.fields.approved_at };
  if (!verifyText(key.key, approval.signed!, approval.signature!))
    return { ...who, reason: 'the signature does not verify: the file was changed after it was signed' };
  const listed = approvers.find((k) => k.id === key.id);
  if (!listed) return { ...who, reason: `key ${key.id} is not an approver in the policy` };
  const named = { ...who, approver: listed.name };
  const mismatch = contentMismatch(approval, content);
  if (mismatch) return { ...named, reason: mismatch };
  return { ...named, status: 'valid' };
}

/** Every approval's verdict; a key that approved twice counts once (the second is a duplicate). */
export function verifyApprovals(
  files: ParsedApproval[],
  content: ApprovalContent,
  approvers: Approver[],
): ApprovalResult[] {
  const counted = new Map<string, string>();
  return files.map((approval) => {
    const r = checkOne(approval, content, approvers);
    if (r.status !== 'valid') return r;
    const first = counted.get(r.key_id!);
    if (first) return { ...r, status: 'duplicate', reason: `the same key as ${first}: counted once` };
    counted.set(r.key_id!, approval.path);
    return r;
  });
}
