// coinop sandbox deposit: a simulated wire deposit with complete wire instructions (src/commands/sandbox/wire.ts), each
// field from its flag, else the --file, else the operator's answer on a terminal, else the sandbox's value for a
// required field; never in production. A bad field is named by its flag (and the file when it came from there).
import {
  formatIssue,
  operations,
  requestIssues,
  type InitiateSandboxFiatDepositRequest,
} from '../../contract/index.js';
import type { Ports } from '../../cli/ports.js';
import { CoinopError, usageError } from '../../cli/errors.js';
import { parseJsonText, readTextFile } from '../../cli/files.js';
import { need } from '../../cli/prompt.js';
import { accountNumberRule, asPromptRule } from '../../cli/bank-rules.js';
import type { FlagNames } from '../../client/service-client.js';
import { gateFor, refusedBeforeSending } from '../../cli/gate.js';
import type { MoneyRequest } from '../../gate/gate.js';
import { NetworkError } from '../../client/transport.js';
import { DEMO } from '../../embedded/demo.js';
import { askMemo, instructionsMemo } from './memo.js';
import { depositAmountRule, type SandboxDepositOptions } from './options.js';
import {
  ROUTING_NUMBER_TYPES,
  ROUTING_TYPE_FIELD,
  routingNumberRule,
  setAt,
  valueAt,
  WIRE_FIELDS,
  type WireField,
} from './wire.js';

const FLAGS: FlagNames = {
  amount: '--amount',
  asset: '--asset',
  memo_id: '--memo-id',
  ...Object.fromEntries(WIRE_FIELDS.map((f) => [f.path, f.flag])),
};
const BY_PATH = new Map(WIRE_FIELDS.map((f) => [f.path, f]));
const CHECK = 'check the balance / transfers before trying again';
/** Address parts the OpenAPI's pattern refuses empty (its own example sends "address2": ""): left out when empty. */
const OPTIONAL_PARTS = WIRE_FIELDS.filter((f) => !f.fallback && f.path.startsWith('fiat_network_instructions.'));

/** What --file holds: a whole request, the instructions ({"wire": ...}) or the wire object, as a whole request. */
interface DepositFile {
  path: string;
  request: Record<string, unknown>;
  /** The part of a request path the file leaves out ("fiat_network_instructions.wire." for a wire object). */
  prefix: string;
}

/** The --file's JSON object; its content is never quoted back in an error. */
function readFile(path: string): DepositFile {
  const v = parseJsonText(
    '--file',
    path,
    readTextFile('--file', path),
    'it must hold the wire instructions as a JSON object',
  );
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw usageError(`--file: ${path} must hold a JSON object`);
  const o = v as Record<string, unknown>;
  if (Object.hasOwn(o, 'fiat_network_instructions')) return { path, request: o, prefix: '' };
  if (Object.hasOwn(o, 'wire'))
    return { path, request: { fiat_network_instructions: o }, prefix: 'fiat_network_instructions.' };
  return { path, request: { fiat_network_instructions: { wire: o } }, prefix: 'fiat_network_instructions.wire.' };
}

/** Where each field of the request came from, to name it in an error. */
type Sources = Map<string, 'flag' | 'file' | 'asked' | 'sandbox'>;

/** What sandbox deposit takes: where it is shown, the service, questions, and what the gate needs. */
export type SandboxDepositDeps = Pick<
  Ports,
  'display' | 'service' | 'prompter' | 'audit' | 'clock' | 'interrupt' | 'policy'
>;

export async function deposit(ctx: SandboxDepositDeps, options: SandboxDepositOptions): Promise<void> {
  const context = ctx.service.context();
  if (context.environment === 'production') {
    throw new CoinopError('usage', `sandbox deposit: refused against production (context "${context.name}")`, {
      hint: 'use a sandbox or local context: --context sandbox',
    });
  }
  const file = options.file ? readFile(options.file) : undefined;
  // Instructions that do not exist are refused before a person answers any question; without a terminal nothing is
  // asked, and they are looked up once the request passed its checks (nothing is looked up for one refused anyway).
  let memo =
    options.instructions !== undefined && ctx.prompter.allowed
      ? await instructionsMemo(ctx, options.instructions)
      : undefined;
  const sources: Sources = new Map();
  const body = await gather(ctx, options, file, sources, context.environment === 'local' ? DEMO.memoId : undefined);
  await refusedBeforeSending(ctx, depositRequest(body), () => check(body, file, sources));
  // Checked with the instructions id standing in for their memo id.
  if (options.instructions !== undefined) memo ??= await instructionsMemo(ctx, options.instructions);
  if (memo !== undefined) body.memo_id = memo;
  await send(ctx, body);
  const out = ctx.display.output();
  if (out.format === 'table')
    ctx.display.io.out(
      `${out.p.green('✓')} deposit of ${body.amount} ${body.asset} initiated for memo ${body.memo_id}\n`,
    );
  else out.one({ initiated: true, amount: body.amount, asset: body.asset, memo_id: body.memo_id });
}

/** The request: the file's, each flag in place of its field, the operator's answers, then the sandbox's values. */
async function gather(
  ctx: Pick<Ports, 'service' | 'prompter'>,
  options: SandboxDepositOptions,
  file: DepositFile | undefined,
  sources: Sources,
  memoDefault: string | undefined,
): Promise<InitiateSandboxFiatDepositRequest> {
  const body: Record<string, unknown> = JSON.parse(JSON.stringify(file?.request ?? {}));
  const pr = ctx.prompter;
  const fileAmount = typeof body.amount === 'string' ? body.amount : undefined;
  const fileMemo = typeof body.memo_id === 'string' ? body.memo_id : undefined;
  for (const [k, v] of [
    ['amount', fileAmount],
    ['memo_id', fileMemo],
  ] as const)
    if (v !== undefined) sources.set(k, 'file');
  body.amount = await need(pr, '--amount', options.amount ?? fileAmount, () =>
    pr.text('Amount (USD, at most 2 decimals)', { validate: depositAmountRule }),
  );
  body.memo_id =
    options.instructions ??
    (await need(pr, '--memo-id', options.memoId ?? fileMemo ?? (pr.allowed ? undefined : memoDefault), () =>
      askMemo(ctx, memoDefault),
    ));
  if (options.amount !== undefined) sources.set('amount', 'flag');
  if (options.memoId !== undefined) sources.set('memo_id', 'flag');
  body.asset = options.asset;
  for (const f of WIRE_FIELDS) {
    const flag = options.wire[f.key];
    if (flag !== undefined) {
      setAt(body, f.path, flag);
      sources.set(f.path, 'flag');
    } else if (valueAt(body, f.path) !== undefined) sources.set(f.path, 'file');
  }
  for (const f of OPTIONAL_PARTS) if (valueAt(body, f.path) === '') dropAt(body, f.path);
  // A person is asked for the sending account and bank (the file, when given, says them).
  if (!file && pr.allowed) await ask(ctx, body, sources);
  const type = String(valueAt(body, ROUTING_TYPE_FIELD.path) ?? 'ABA');
  for (const f of WIRE_FIELDS) {
    if (!f.fallback || valueAt(body, f.path) !== undefined) continue;
    setAt(body, f.path, typeof f.fallback === 'function' ? f.fallback(type) : f.fallback);
    sources.set(f.path, 'sandbox');
  }
  return body as unknown as InitiateSandboxFiatDepositRequest;
}

/** The prompts: the account number, the routing number's type and number, the bank's name (the sandbox's offered). */
async function ask(
  ctx: Pick<Ports, 'service' | 'prompter'>,
  body: Record<string, unknown>,
  sources: Sources,
): Promise<void> {
  const pr = ctx.prompter;
  const field = (key: string) => WIRE_FIELDS.find((f) => f.key === key)!;
  const given = (f: WireField) => valueAt(body, f.path) !== undefined;
  const answer = async (
    field: WireField,
    message: string,
    offered: string,
    validate?: (v: string) => true | string,
  ) => {
    setAt(body, field.path, await pr.text(message, { default: offered, validate }));
    sources.set(field.path, 'asked');
  };
  const account = field('accountNumber');
  if (!given(account)) await answer(account, account.ask!, account.fallback as string, asPromptRule(accountNumberRule));
  const number = field('routingNumber');
  // The type is asked with the number; a number given alone keeps the sandbox's type (ABA).
  if (!given(ROUTING_TYPE_FIELD) && !given(number)) {
    setAt(body, ROUTING_TYPE_FIELD.path, await pr.select('Routing number type', [...ROUTING_NUMBER_TYPES], 'ABA'));
    sources.set(ROUTING_TYPE_FIELD.path, 'asked');
  }
  const type = String(valueAt(body, ROUTING_TYPE_FIELD.path) ?? 'ABA');
  const fallback = number.fallback as (t: string) => string;
  if (!given(number))
    await answer(number, `${number.ask} (${type})`, fallback(type), (v) => routingNumberRule(type, v) ?? true);
  const bank = field('bankName');
  if (!given(bank)) await answer(bank, bank.ask!, bank.fallback as string);
}

function dropAt(options: Record<string, unknown>, path: string): void {
  const keys = path.split('.');
  const parent = valueAt(options, keys.slice(0, -1).join('.'));
  if (parent && typeof parent === 'object') delete (parent as Record<string, unknown>)[keys[keys.length - 1]];
}

/** The whole request against the contract and the routing number against its type, each issue named by its flag. */
function check(body: InitiateSandboxFiatDepositRequest, file: DepositFile | undefined, sources: Sources): void {
  const { issues } = requestIssues(operations.initiateSandboxFiatDeposit, { body }, 'apart');
  const routing = BY_PATH.get('fiat_network_instructions.wire.routing_details.routing_number')!;
  const wire = body.fiat_network_instructions?.wire;
  const rule = issues.length
    ? undefined
    : routingNumberRule(wire?.routing_details?.routing_number_type, wire?.routing_details?.routing_number);
  if (rule) issues.push({ field: routing.path, rule });
  const account = issues.length ? undefined : accountNumberRule(wire?.account_number);
  if (account)
    issues.push({ field: BY_PATH.get('fiat_network_instructions.wire.account_number')!.path, rule: account });
  if (issues.length)
    throw usageError(issues.map((i) => formatIssue({ ...i, field: nameOf(i.field, file, sources) })).join('; '));
}

/**
 * A field of the request as the operator gave it: its flag (saying the file when the value came from it), or, for a
 * part only the file gives (intermediary_routing_details, an unknown key), the file and the part's path in it.
 */
function nameOf(path: string, file: DepositFile | undefined, sources: Sources): string {
  const flag = FLAGS[path];
  if (flag) return sources.get(path) === 'file' && file ? `${flag} (from ${file.path})` : flag;
  if (!file) return path || 'body';
  const inFile = path.startsWith(file.prefix) ? path.slice(file.prefix.length) : path;
  return inFile ? `--file ${file.path}: ${inFile}` : `--file ${file.path}`;
}

/** The deposit as it comes to the gate. */
const depositRequest = (body: InitiateSandboxFiatDepositRequest): MoneyRequest => ({
  operation: 'initiateSandboxFiatDeposit',
  body,
  command: 'sandbox deposit',
  flags: FLAGS,
});

/**
 * Sends the deposit once, through the gate: it has no ref_id, so once it has left it may have been credited, and is
 * never resent.
 */
async function send(ctx: SandboxDepositDeps, body: InitiateSandboxFiatDepositRequest): Promise<void> {
  const conn = await ctx.service.connect();
  const gate = gateFor(ctx, conn, 'sandbox deposit');
  const p = await gate.prepare(depositRequest(body));
  try {
    await gate.send(p, () => {
      ctx.interrupt.say(`interrupted: the deposit request may have reached the service and been credited: ${CHECK}`);
    });
  } catch (e) {
    if (e instanceof NetworkError && e.sent) {
      throw new CoinopError(
        'network',
        `the deposit request was sent but no answer came; it may have been credited: ${CHECK}`,
        {
          hint: 'a deposit has no ref_id, so it is never resent; see coinop transfers list --type WIRE_DEPOSIT --limit 5',
        },
      );
    }
    throw e;
  }
  ctx.interrupt.say(`interrupted: the deposit of ${body.amount} ${body.asset} was initiated`);
}
