// What approve signs and what withdraw and withdraw batch check, worked out the same way on both sides: the run's
// scope (environment, API address, default service profile), its content (a batch's staged rows, or one withdrawal's
// request), the approval files given or found next to the file (FILE.approval-<key id>.txt), and a single
// withdrawal's request saved by `withdraw --dry-run --save FILE` (or a fiat withdrawal's, by `withdraw fiat`).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import {
  canonicalAddress,
  type CreateCryptoWithdrawalRequest,
  type CreateFiatWithdrawalRequest,
} from '../contract/index.js';
import type { ResolvedContext } from '../config/context.js';
import { CoinopError, usageError } from './errors.js';
import { writeFileAtomic } from '../config/lock.js';
import type { Stage } from '../batch/stage.js';
import {
  type ApprovalContent,
  type ApprovalScope,
  ContentBuilder,
  type ParsedApproval,
  parseApproval,
} from '../policy/approvals.js';

/**
 * Where a run goes, as the approval states it: the context's environment and API address, its default service profile.
 */
export function approvalScope(
  context: ResolvedContext,
  kind: ApprovalScope['kind'],
  defaultProfileId: string | undefined,
): ApprovalScope {
  return { kind, environment: context.environment, service: context.baseUrl, profileId: defaultProfileId ?? '-' };
}

/** The approval a key writes for a file: next to it, FILE.approval-<key id>.txt. */
export const approvalFileName = (file: string, keyId: string): string => `${file}.approval-${keyId}.txt`;

/**
 * A batch's content: its staged rows (valid rows, defaults filled in, profiles given by nickname or id prefix as the
 * ids they name, ref_ids derived), in file order; with the names the rows gave and the ids they named, to say so when
 * a name names another profile at run time.
 */
export function batchContent(
  scope: ApprovalScope,
  stage: Stage,
  profileNames: Record<string, string> = {},
): ApprovalContent {
  const b = new ContentBuilder(scope);
  for (const s of stage.valid()) b.add({ ...JSON.parse(s.body), ref_id: s.ref_id });
  const content = b.finish();
  return Object.keys(profileNames).length ? { ...content, profileNames } : content;
}

/**
 * One withdrawal's content: its request as it will be sent, the destination in its one spelling (a saved request
 * written by hand, or by an older coinop, approves what withdraw --request sends).
 */
export function withdrawalContent(
  scope: ApprovalScope,
  body: CreateCryptoWithdrawalRequest | CreateFiatWithdrawalRequest,
): ApprovalContent {
  const b = new ContentBuilder(scope);
  const { crypto_network: network, destination_address: address } = body as Partial<CreateCryptoWithdrawalRequest>;
  const one = typeof network === 'string' && typeof address === 'string';
  const sent: Record<string, unknown> = { ...body };
  if (one) sent.destination_address = canonicalAddress(network, address);
  b.add(sent);
  return b.finish();
}

function readApproval(path: string, flag: boolean): ParsedApproval {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (flag)
      throw usageError(`--approvals: ${path}: ${code === 'ENOENT' ? 'no such file' : `cannot be read (${code})`}`);
    return { path, fields: {}, totals: [], error: `cannot be read (${code})` };
  }
  return parseApproval(path, text);
}

/** The approvals given with --approvals, and those found next to `file` (not for standard input), each once. */
export function approvalFiles(file: string | undefined, given: string[] | undefined): ParsedApproval[] {
  const paths = new Map<string, boolean>();
  for (const g of given ?? []) paths.set(g, true);
  if (file !== undefined && file !== '-') {
    const dir = dirname(file);
    const prefix = `${basename(file)}.approval-`;
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      /* no folder to look in: nothing found */
    }
    for (const n of names.filter((n) => n.startsWith(prefix) && n.endsWith('.txt')).sort()) {
      const p = join(dir, n);
      if (![...paths.keys()].some((k) => resolve(k) === resolve(p))) paths.set(p, false);
    }
  }
  return [...paths].map(([p, flag]) => readApproval(p, flag));
}

/** The requests a single withdrawal's dry run saves, by the kind its file names. */
interface SavedRequests {
  withdrawal: CreateCryptoWithdrawalRequest;
  fiat_withdrawal: CreateFiatWithdrawalRequest;
}
export type SavedKind = keyof SavedRequests;

/** The command that saves and sends each kind. */
const SAVED_BY: Record<SavedKind, string> = { withdrawal: 'withdraw', fiat_withdrawal: 'withdraw fiat' };

/** A single withdrawal's request saved for approval (withdraw --dry-run --save FILE, or withdraw fiat's). */
export interface SavedRequest<K extends SavedKind = SavedKind> {
  coinop_request: 1;
  kind: K;
  environment: string;
  service: string;
  profile_id: string;
  saved_at: string;
  request: SavedRequests[K];
}

/** Writes the request (without a fee quote's id, which would expire) to `path` for approval. */
export function saveRequest<K extends SavedKind>(
  path: string,
  scope: ApprovalScope,
  body: SavedRequests[K],
  at: string,
  kind: K = 'withdrawal' as K,
): void {
  const { fee_id: _, ...request } = body as SavedRequests[K] & { fee_id?: string };
  const saved: SavedRequest<K> = {
    coinop_request: 1,
    kind,
    environment: scope.environment,
    service: scope.service,
    profile_id: scope.profileId,
    saved_at: at,
    request: request as SavedRequests[K],
  };
  try {
    writeFileAtomic(path, `${JSON.stringify(saved, null, 2)}\n`);
  } catch (e) {
    throw new CoinopError('file', `--save: ${path}: cannot be written (${(e as NodeJS.ErrnoException).code ?? e})`);
  }
}

/** What to say after saving: how to have it approved and how to send it. */
export const savedNote = (path: string, kind: SavedKind): string =>
  `saved the request to ${path}: have it approved (coinop approve ${path}), then send it with coinop ${SAVED_BY[kind]} --request ${path}\n`;

/** A saved request in a file, or undefined when the file is something else (a batch file); small files only. */
export function savedRequestIn(path: string): SavedRequest | undefined {
  try {
    if (statSync(path).size > 1_000_000) return undefined;
    const v = JSON.parse(readFileSync(path, 'utf8')) as Partial<SavedRequest> | null;
    if (!v || typeof v !== 'object' || v.coinop_request !== 1) return undefined;
    if ((v.kind !== 'withdrawal' && v.kind !== 'fiat_withdrawal') || !v.request || typeof v.request !== 'object')
      throw usageError(`${path}: a saved request coinop cannot read (kind ${String(v.kind)})`);
    return v as SavedRequest;
  } catch (e) {
    if (e instanceof CoinopError) throw e;
    return undefined;
  }
}

/**
 * The saved request of --request FILE, of the kind the command sends (`kind`), which must be for this context's
 * environment and API address.
 */
export function readSavedRequest<K extends SavedKind>(
  context: ResolvedContext,
  path: string,
  kind: K = 'withdrawal' as K,
): SavedRequest<K> {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(path);
  } catch {
    throw new CoinopError('file', `--request: ${path}: no such file`);
  }
  if (!st.isFile()) throw new CoinopError('file', `--request: ${path}: is not a file`);
  const saved = savedRequestIn(path);
  if (!saved)
    throw usageError(
      `--request: ${path}: is not a withdrawal saved by coinop ${SAVED_BY[kind]} --dry-run --save`,
      'a batch file goes to coinop withdraw batch',
    );
  if (saved.kind !== kind)
    throw usageError(
      `--request: ${path} is a ${saved.kind.replace('_', ' ')} saved by coinop ${SAVED_BY[saved.kind]}, not by coinop ${SAVED_BY[kind]}`,
      `send it with coinop ${SAVED_BY[saved.kind]} --request ${path}`,
    );
  const scope = approvalScope(context, 'withdrawal', undefined);
  if (saved.environment !== scope.environment || saved.service !== scope.service)
    throw usageError(
      `--request: ${path} was saved for ${saved.environment} at ${saved.service}, and context ${context.name} is ${scope.environment} at ${scope.service}`,
      'send it with the context it was saved with (--context)',
    );
  return saved as SavedRequest<K>;
}
