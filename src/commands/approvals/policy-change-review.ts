// coinop approvals show|approve for a held change of the gateway's policy: the new text, its SHA-256 and the version
// it replaces are shown; approving signs the statement only after this machine has hashed the text it was shown and
// found the content the gateway asks to be signed is exactly that text replacing exactly that version.
import { createHash } from 'node:crypto';
import { CoinopError } from '../../cli/errors.js';
import type { HeldRequest } from '../../client/gateway-calls.js';
import { type ApprovalContent, contentFromLines } from '../../policy/approvals.js';
import type { Ports } from '../../cli/ports.js';

type ApprovalsDeps = Pick<Ports, 'display'>;

interface ChangeRequest {
  policy: string;
  sha256: string;
  file: string;
  replaces_version: number;
  replaces_sha256: string;
}

const changeOf = (held: HeldRequest): ChangeRequest => held.request as unknown as ChangeRequest;

const indented = (text: string) =>
  `${text
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n')}\n`;

/** The change's fields, for show and approve. */
function rowsOf(held: HeldRequest): [string, string][] {
  const c = changeOf(held);
  return [
    ['proposed by', held.initiator],
    ['replaces', `version ${c.replaces_version} (sha256 ${c.replaces_sha256})`],
    ['new policy', `${c.file} (sha256 ${c.sha256})`],
    ['approvals', `${held.approvals.length} of ${held.approvals_required}`],
  ];
}

export function showPolicyChange(ctx: ApprovalsDeps, held: HeldRequest): void {
  const out = ctx.display.output();
  if (!out.forPeople) return out.one(held);
  out.one({ ...held, ...Object.fromEntries(rowsOf(held)) }, [
    { key: 'pending_id', kind: 'id' },
    { key: 'status', kind: 'status' },
    ...rowsOf(held).map(([label]) => ({ key: label })),
    { key: 'expires_at', kind: 'time' },
  ]);
  ctx.display.io.out(`the new policy, as it would be in force:\n${indented(changeOf(held).policy)}`);
}

/** The content the gateway asks to be signed, checked against the text it shows: the same SHA-256, the same base. */
export function checkedPolicyContent(held: HeldRequest): ApprovalContent {
  const stated = contentFromLines(held.content);
  const c = changeOf(held);
  if (stated?.kind !== 'policy' || typeof c.policy !== 'string')
    throw new CoinopError('integrity', `the gateway's statement of ${held.pending_id} cannot be read`);
  const mine = createHash('sha256').update(c.policy).digest('hex');
  if (stated.digest !== mine || stated.replaces !== `${c.replaces_version} sha256:${c.replaces_sha256}`)
    throw new CoinopError(
      'integrity',
      `the gateway asks to sign policy ${stated.digest.slice(0, 12)}… (replacing ${stated.replaces ?? '?'}) for a text whose sha256 is ${mine.slice(0, 12)}… replacing version ${c.replaces_version}: nothing was signed`,
    );
  return stated;
}

/**
 * What the approver of a policy change is asked (in place of a withdrawal's figures, and no amount to type): the whole
 * new text is shown first.
 */
export function policyChangeConfirmation(ctx: ApprovalsDeps, held: HeldRequest, id: string, keyId: string) {
  ctx.display.io.err(`the new policy, as it would be in force:\n${indented(changeOf(held).policy)}`);
  return {
    title: `Approve ${held.initiator}'s new version of the gateway's policy, held as ${id}`,
    typed: [],
    rows: [...rowsOf(held), ['your key', keyId]] as [string, string | undefined][],
  };
}
