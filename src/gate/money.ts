// Which requests the gate stands in front of: every operation that moves money or changes where money may go, found
// by its operation id or by the method and path a raw request (coinop api) names. For each: how the audit trail
// names it, and what the policy judges of it.
import { type BodyOf, type OperationId, operations } from '../contract/index.js';
import { bookWriteWhat } from './address-book.js';
import type { AuditKind, AuditWhat } from '../audit/entry.js';
import { withdrawalRequest } from '../policy/check.js';
import type { PolicyRequest } from '../policy/evaluate.js';

/**
 * The operations that move money (withdrawals, fiat withdrawals, internal transfers, stablecoin conversions, sandbox
 * deposits) or say where it may go (the address book, deposit addresses, fiat accounts).
 */
export const MONEY_OPERATIONS = [
  'createCryptoWithdrawal',
  'createFiatWithdrawal',
  'createFiatAccount',
  'createInternalTransfer',
  'initiateSandboxFiatDeposit',
  'putCryptoDestinationAddress',
  'createDepositAddress',
  'createStablecoinConversion',
] as const satisfies readonly OperationId[];
export type MoneyOperationId = (typeof MONEY_OPERATIONS)[number];

/**
 * The request body of a money operation, as the contract types it (once checked against its schema); a field of
 * another operation's body reads as unknown, so code for any operation reads it as it would any object.
 */
export type MoneyBody<Op extends MoneyOperationId = MoneyOperationId> = BodyOf<Op> & Record<string, unknown>;

/** A money operation with its checked body. */
export interface MoneyCall<Op extends MoneyOperationId = MoneyOperationId> {
  operation: Op;
  body: MoneyBody<Op>;
}

/** Whether the call is `op`'s: then its body is `op`'s request (the operation id says which body a checked call has). */
export const isCall = <K extends MoneyOperationId, C extends { operation: MoneyOperationId }>(
  call: C,
  op: K,
): call is C & MoneyCall<K> => call.operation === op;

export const isMoneyOperation = (id: string): id is MoneyOperationId =>
  (MONEY_OPERATIONS as readonly string[]).includes(id);

/** How the audit trail names each kind of request. */
export const AUDIT_KIND: Record<MoneyOperationId, AuditKind> = {
  createCryptoWithdrawal: 'withdrawal',
  createFiatWithdrawal: 'fiat_withdrawal',
  createFiatAccount: 'fiat_account',
  createInternalTransfer: 'internal_transfer',
  initiateSandboxFiatDeposit: 'sandbox_deposit',
  putCryptoDestinationAddress: 'address_book',
  createDepositAddress: 'deposit_address',
  createStablecoinConversion: 'conversion',
};

/** Each operation's method and the pattern of its path, made once (a gateway matches every request against them). */
let routes: { method: string; pattern: RegExp; id: OperationId }[] | undefined;

/** The operation a method and path name ("/v2/..." with or without a trailing slash, any query), if any. */
export function operationAt(method: string, path: string): OperationId | undefined {
  const bare = path.split('?')[0].replace(/\/+$/, '');
  routes ??= Object.values(operations).map((op) => ({
    method: op.method,
    pattern: new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+').replace(/\//g, '\\/')}$`),
    id: op.id as OperationId,
  }));
  const wanted = method.toUpperCase();
  for (const route of routes) if (route.method === wanted && route.pattern.test(bare)) return route.id;
  return undefined;
}

/**
 * A money-moving operation a raw request names, tolerant of how a path may be spelled: percent-encoded letters,
 * doubled slashes, dot segments and case are undone before the operations are matched, so no spelling slips by.
 */
export function moneyOperationAt(method: string, path: string): MoneyOperationId | undefined {
  const id = operationAt(method, normalPath(path));
  return id && isMoneyOperation(id) ? id : undefined;
}

/**
 * Whether a raw request's `..` segments climb above its root: under an API address with a path of its own (a proxy's
 * https://host/paxos) they would reach past it, where no operation can be told by its path.
 */
export function climbsAboveRoot(path: string): boolean {
  // As the URL parser reads dot segments (`%2e` is a dot, a backslash a slash), before it stops them at the root.
  let depth = 0;
  for (const seg of path.split(/[?#]/)[0].replace(/\\/g, '/').split('/')) {
    const s = seg.replace(/%2e/gi, '.');
    if (s === '..') depth--;
    else if (s !== '' && s !== '.') depth++;
    if (depth < 0) return true;
  }
  return false;
}

/** A raw request's path in one spelling (lower case, no dot segments, no doubled slashes), as it will be sent. */
function normalPath(path: string): string {
  // First the path as the URL parser sends it (the client's requests go by URL): a backslash is a slash, a fragment
  // is dropped, `%2e` is a dot, tabs and newlines are removed. A path that is not a URL is matched as written.
  let p: string;
  try {
    p = new URL(`http://coinop.invalid${path.startsWith('/') ? '' : '/'}${path}`).pathname;
  } catch {
    p = path.split(/[?#]/)[0];
  }
  try {
    p = decodeURIComponent(p);
  } catch {
    /* not valid percent-encoding: matched as written */
  }
  const parts: string[] = [];
  for (const seg of p.replace(/\\/g, '/').split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return `/${parts.join('/')}`.toLowerCase();
}

// A fiat account's update (PUT /v2/transfer/fiat-accounts/{id}) is no money operation: it changes the owner's details,
// addresses, bank names and metadata, never the account number or routing number, so it cannot send withdrawals to
// an account of another; the policy's destinations name fiat accounts by their ids, which the service gives.

/**
 * Operations of the hosted service (spec/upstream-v2.openapi.json) that move money or say where it may go and that
 * the gate has no model of: no policy rule, approval or cap can judge them, so `coinop api` does not send them.
 */
const UNJUDGED: readonly (readonly [method: string, path: RegExp, what: string])[] = [
  ['POST', /^\/v2\/transfer\/paxos$/, 'a transfer to another customer'],
  ['POST', /^\/v2\/orchestration\/(orchestrations|rules)$/, 'an orchestration (conversions and withdrawals)'],
  ['POST', /^\/v2\/settlement\/transactions$/, 'a settlement transaction'],
  ['PUT', /^\/v2\/settlement\/transactions\/[^/]+\/affirm$/, 'a settlement transaction'],
  ['POST', /^\/v2\/profiles\/[^/]+\/(orders|quote-executions)$/, 'a trade'],
  ['POST', /^\/v2\/issuer-quote\/[^/]+$/, 'an issuer quote execution'],
  // Not coinop sandbox deposit (POST /v2/sandbox/fiat-deposits, which the gate judges): the hosted sandbox's other
  // test deposit, into a profile, which coinop's contract does not have.
  ['POST', /^\/v2\/sandbox\/profiles\/[^/]+\/deposit$/, "a test deposit into a profile (the hosted sandbox's own)"],
];

/**
 * Why a request cannot be sent in this environment, if so: a sandbox deposit moves no real money and exists only in
 * the sandbox (and the local service); against production (a context, or a gateway's upstream) it is refused.
 */
export function environmentRefusal(op: MoneyOperationId, environment: string): string | undefined {
  if (op !== 'initiateSandboxFiatDeposit' || environment !== 'production') return undefined;
  return 'a sandbox deposit exists only in the sandbox and on the local service: refused against production, nothing was sent';
}

/**
 * Writes that move no money out and that no policy rule judges, but that the audit trail records wherever they are
 * sent from (a command, coinop api): a stablecoin conversion's cancel (its source comes back to the profile).
 */
const AUDITED_WRITES: Partial<Record<OperationId, AuditKind>> = { cancelStablecoinConversion: 'conversion_cancel' };

/** The audit kind of a raw request that is such a write, if it is one. */
export function auditedWriteAt(method: string, path: string): AuditKind | undefined {
  const id = operationAt(method, normalPath(path));
  return id ? AUDITED_WRITES[id] : undefined;
}

/** What a raw request would do that moves money beyond what the gate can judge (a conversion, a trade...), if anything. */
export function unjudgedMoneyAt(method: string, path: string): string | undefined {
  const m = method.toUpperCase();
  const p = normalPath(path).replace(/\/+$/, '');
  return UNJUDGED.find(([um, up]) => um === m && up.test(p))?.[2];
}

/** A field's value when it is a string. */
export const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** What a request asks for, as its audit entries name it (amounts as sent). */
export function requestWhat(op: MoneyOperationId, body: Record<string, unknown>): AuditWhat {
  const b = body;
  switch (op) {
    case 'createCryptoWithdrawal':
      return clean({
        asset: text(b.asset),
        network: text(b.crypto_network),
        amount: text(b.amount),
        total: text(b.total),
        fee_id: text(b.fee_id),
        destination: text(b.destination_address),
        profile_id: text(b.profile_id),
        balance_asset: text(b.balance_asset),
        beneficiary: beneficiaryName(b.beneficiary),
      });
    case 'createFiatWithdrawal':
      return clean({
        asset: text(b.asset),
        amount: text(b.amount),
        total: text(b.total),
        destination: text(b.fiat_account_id),
        profile_id: text(b.profile_id),
      });
    case 'createFiatAccount':
      return fiatAccountWhat(b);
    case 'createInternalTransfer':
      return clean({
        asset: text(b.asset),
        amount: text(b.amount),
        profile_id: text(b.from_profile_id),
        to_profile_id: text(b.to_profile_id),
      });
    case 'initiateSandboxFiatDeposit':
      return clean({ asset: text(b.asset), amount: text(b.amount), memo_id: text(b.memo_id) });
    case 'putCryptoDestinationAddress':
      return bookWriteWhat(b);
    case 'createDepositAddress':
      return clean({ network: text(b.crypto_network), profile_id: text(b.profile_id) });
    case 'createStablecoinConversion':
      return clean({
        asset: text(b.source_asset),
        target_asset: text(b.target_asset),
        amount: text(b.amount),
        profile_id: text(b.profile_id),
      });
  }
}

/**
 * A beneficiary (a withdrawal's, or a destination's) in words, as the audit trail and the commands name it: the
 * person's names, the institution's, or the identity itself.
 */
export function beneficiaryName(beneficiary: unknown): string | undefined {
  if (!beneficiary || typeof beneficiary !== 'object') return undefined;
  if ((beneficiary as { self?: unknown }).self === true) return 'the identity itself (self)';
  const b = beneficiary as Record<string, Record<string, unknown> | undefined>;
  const person = [text(b.person_details?.first_name), text(b.person_details?.last_name)].filter(Boolean).join(' ');
  return text(b.institution_details?.name) ?? (person || undefined);
}

/** A fiat account write as the audit trail names it: the network, the account number's last four, the owner. */
function fiatAccountWhat(body: Record<string, unknown>): AuditWhat {
  const instructions = (body.fiat_network_instructions ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const network = Object.keys(instructions)[0];
  const number = network ? text(instructions[network]?.account_number) : undefined;
  const owner = (body.fiat_account_owner ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const name =
    text(owner.institution_details?.name) ??
    [text(owner.person_details?.first_name), text(owner.person_details?.last_name)].filter(Boolean).join(' ');
  return clean({
    network,
    account_number: number ? `…${number.slice(-4)}` : undefined,
    owner: name || undefined,
    ref_id: text(body.ref_id),
  });
}

function clean(what: AuditWhat): AuditWhat {
  for (const k of Object.keys(what)) if (what[k] === undefined) delete what[k];
  return what;
}

/** The request as the policy sees it; none for what it has no rule on (a sandbox deposit, a deposit address). */
export function policyRequestOf(call: MoneyCall, row?: number): PolicyRequest | undefined {
  const at = row !== undefined ? { row } : {};
  if (isCall(call, 'createCryptoWithdrawal')) return withdrawalRequest(call.body, row);
  if (isCall(call, 'createFiatWithdrawal')) {
    const { body } = call;
    return {
      kind: 'fiat',
      ...at,
      ...(body.ref_id !== undefined ? { ref_id: body.ref_id } : {}),
      profile_id: body.profile_id,
      asset: body.asset,
      amount: (body.amount ?? body.total) as string,
      fiat_account_id: body.fiat_account_id,
    };
  }
  if (isCall(call, 'createStablecoinConversion')) {
    const { body } = call;
    return {
      kind: 'conversion',
      ...at,
      ...(body.ref_id !== undefined ? { ref_id: body.ref_id } : {}),
      profile_id: body.profile_id,
      asset: body.source_asset,
      target_asset: body.target_asset,
      amount: body.amount,
    };
  }
  if (isCall(call, 'createInternalTransfer')) {
    const { body } = call;
    return {
      kind: 'internal',
      ...at,
      ...(body.ref_id !== undefined ? { ref_id: body.ref_id } : {}),
      profile_id: body.from_profile_id,
      asset: body.asset,
      amount: body.amount,
    };
  }
  return undefined;
}
