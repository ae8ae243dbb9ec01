// coinop api: a raw authenticated request with the context's token, retries and --debug; the answer as sent.
import type { Ports } from '../../cli/ports.js';
import { problemError, usageError } from '../../cli/errors.js';
import { operations } from '../../contract/index.js';
import { parseJsonText, readTextFile } from '../../cli/files.js';
import type { RawFlags } from '../../cli/options.js';
import { problemOf } from '../../client/service-client.js';
import { parseApiOptions } from './options.js';
import { gateFor, refusedBeforeSending } from '../../cli/gate.js';
import {
  auditedWriteAt,
  climbsAboveRoot,
  moneyOperationAt,
  type MoneyOperationId,
  unjudgedMoneyAt,
} from '../../gate/money.js';
import { type MoneyRequest, wasRecorded } from '../../gate/gate.js';
import { refuseUnlessAllowed } from '../../cli/policy-enforce.js';
import { CoinopError } from '../../errors.js';

async function readInput(ctx: Pick<Ports, 'display'>, file: string): Promise<unknown> {
  let text: string;
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const c of ctx.display.io.stdin) chunks.push(Buffer.from(c as Buffer));
    text = Buffer.concat(chunks).toString('utf8');
  } else text = readTextFile('--input', file);
  // The parser's message quotes the text: a wrong file may hold anything, so only the rule is said.
  return parseJsonText('--input', file === '-' ? 'standard input' : file, text, 'the request body must be JSON');
}

/** What api takes: the service (a money-moving request through the gate, confirmed in production), the output. */
export type ApiDeps = Pick<Ports, 'display' | 'service' | 'confirmer' | 'audit' | 'clock' | 'interrupt' | 'policy'>;

export async function api(ctx: ApiDeps, methodArg: string, pathArg: string, raw: RawFlags): Promise<void> {
  const o = parseApiOptions(methodArg, pathArg, raw);
  const { method, path, fields } = o;
  if (climbsAboveRoot(path))
    throw usageError(`PATH: ${path} climbs above the API's root with .. segments (give the path as it is meant)`);
  // A request that moves money (or says where it may go) goes through the gate, as the commands' do.
  const money = moneyOperationAt(method, path);
  let body: unknown;
  try {
    body = o.input ? await readInput(ctx, o.input) : undefined;
    if (!o.sendsQuery && Object.keys(fields).length) {
      if (body !== undefined && (typeof body !== 'object' || Array.isArray(body) || body === null))
        throw usageError('--field: cannot be added to a body that is not a JSON object');
      body = { ...((body as object) ?? {}), ...fields };
    }
    if (money && (body === undefined || typeof body !== 'object' || body === null || Array.isArray(body)))
      throw usageError(`--input: ${path} moves money: its body must be a JSON object (-f key=value, or --input FILE)`);
  } catch (e) {
    // A money-moving request refused for its body is in the audit trail too.
    if (money) await refusedBeforeSending(ctx, { operation: money, body: {}, command: 'api' }, () => raise(e));
    throw e;
  }
  const query = o.sendsQuery ? flatten(fields) : undefined;
  if (money) return sendThroughGate(ctx, { operation: money, body, yes: o.yes, path });
  const unjudged = unjudgedMoneyAt(method, path);
  if (unjudged) return refuseUnjudged(ctx, { method, path, body, what: unjudged });
  const conn = await ctx.service.connect();
  // The answer is JSON (or the service's text) whatever the format: never paged, so no display.output() here.
  const outFormat = ctx.display.format();
  const send = async (query?: Record<string, unknown>) => {
    const res = await conn.client.raw(method, path, body, query);
    if (o.include)
      ctx.display.io.err(
        `HTTP ${res.status} ${res.statusText}\n${Object.entries(res.headers)
          .map(([k, v]) => `${k}: ${String(v)}`)
          .join('\n')}\n\n`,
      );
    if (res.status < 200 || res.status >= 300) {
      // The answer is data too: print it, then fail with the problem's category.
      if (res.text)
        ctx.display.io.out(res.json !== undefined ? `${JSON.stringify(res.json, null, 2)}\n` : `${res.text}\n`);
      throw problemError(problemOf(res));
    }
    return res;
  };
  // A write the audit trail records though no policy judges it (a conversion's cancel): its attempt, then its outcome.
  const audited = auditedWriteAt(method, path);
  if (audited) {
    const attempt = await ctx.audit.attempt(
      { kind: audited, ref_id: null, what: { method, path, command: 'api' } },
      conn,
    );
    try {
      const res = await send(query);
      const answer = (res.json ?? {}) as Record<string, unknown>;
      await attempt.done({
        result: 'sent',
        ...(typeof answer.id === 'string' ? { transfer_id: answer.id } : {}),
        ...(typeof answer.status === 'string' ? { status: answer.status } : {}),
      });
      if (res.json !== undefined) ctx.display.io.out(`${JSON.stringify(res.json, null, 2)}\n`);
      return;
    } catch (e) {
      await attempt.failed(e);
      throw e;
    }
  }
  if (!o.paginate) {
    const res = await send(query);
    if (res.json !== undefined)
      ctx.display.io.out(`${JSON.stringify(res.json, null, outFormat === 'ndjson' ? 0 : 2)}\n`);
    else if (res.text) ctx.display.io.out(res.text + (res.text.endsWith('\n') ? '' : '\n'));
    return;
  }
  const format = outFormat === 'table' ? 'json' : outFormat;
  async function* items(): AsyncGenerator<Record<string, unknown>> {
    let cursor: string | undefined;
    const seen = new Set<string>();
    for (;;) {
      const res = await send({ ...(query ?? {}), ...(cursor ? { page_cursor: cursor } : {}) });
      const data = (res.json ?? {}) as { items?: unknown[]; prices?: unknown[]; next_page_cursor?: string };
      for (const it of data.items ?? data.prices ?? []) yield it as Record<string, unknown>;
      cursor = data.next_page_cursor || undefined;
      if (!cursor || seen.has(cursor)) return;
      seen.add(cursor);
    }
  }
  const { Output } = await import('../../render/output.js');
  await new Output(ctx.display.io, format, () => ctx.clock.now()).list(items(), []);
}

const raise = (error: unknown): never => {
  throw error;
};

function flatten(options: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(options)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) Object.assign(out, flatten(v as Record<string, unknown>, key));
    else out[key] = v;
  }
  return out;
}

/**
 * A money-moving request (a withdrawal, a fiat withdrawal, an internal transfer, a stablecoin conversion, a sandbox
 * deposit, an address book write, a fiat account, a deposit address): its body checked against the contract and its address against the network, the policy's verdict, in
 * production the confirmation (--yes, or the amount typed on a terminal), then the gate sends it once and records it.
 */
async function sendThroughGate(
  ctx: ApiDeps,
  call: { operation: MoneyOperationId; body: unknown; yes: boolean; path: string },
): Promise<void> {
  const request: MoneyRequest = {
    operation: call.operation,
    body: call.body as Record<string, unknown>,
    command: 'api',
  };
  ctx.interrupt.say('stopped: nothing was sent');
  const conn = await ctx.service.connect();
  const gate = gateFor(ctx, conn, 'api');
  const p = await gate.prepare(request);
  const environment = conn.context.environment;
  let sent: Awaited<ReturnType<typeof gate.send>>;
  try {
    refuseUnlessAllowed(ctx, await gate.judge(p, { dryRun: false }));
    if (environment === 'production') {
      const amount =
        typeof p.body.amount === 'string' ? p.body.amount : typeof p.body.total === 'string' ? p.body.total : undefined;
      await ctx.confirmer.confirm({
        title: `coinop api ${operations[call.operation].method} ${operations[call.operation].path}`,
        rows: Object.entries(p.what).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
        environment,
        yes: call.yes,
        question: 'Send this request?',
        ...(amount
          ? {
              typed: [
                { label: `the amount${typeof p.body.asset === 'string' ? ` (${p.body.asset})` : ''}`, value: amount },
              ],
            }
          : {}),
      });
    }
    sent = await gate.send(p, () => {
      ctx.interrupt.say(
        `interrupted: ${call.path} was being sent and may have gone through${p.refId ? `: check with coinop transfers get --ref-id ${p.refId}` : ''}`,
      );
    });
  } catch (e) {
    if (e instanceof CoinopError && e.problem) ctx.display.io.out(`${JSON.stringify(e.problem, null, 2)}\n`);
    if (wasRecorded(e)) throw e;
    return gate.refuse(p, e);
  }
  if (sent.alreadySubmitted && !sent.submittedByThisCall)
    ctx.display.io.err(
      `already submitted: ref_id ${p.refId} was sent before; no money moved this time. The existing one:\n`,
    );
  ctx.display.io.out(`${JSON.stringify(sent.data, null, ctx.display.format() === 'ndjson' ? 0 : 2)}\n`);
}

/**
 * A request that moves money in a way the gate has no model of (a transfer to another customer, a settlement, a
 * trade...): no policy, approval or cap could judge it, so it is refused (exit 8) and the refusal recorded.
 */
async function refuseUnjudged(
  ctx: Pick<Ports, 'audit'>,
  request: { method: string; path: string; body: unknown; what: string },
): Promise<never> {
  const b = (
    request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? request.body : {}
  ) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const e = new CoinopError(
    'policy',
    `${request.method} ${request.path} is ${request.what}: coinop's gate cannot check it against the policy, its approvals and caps, so coinop api does not send it; nothing was sent`,
    { hint: 'coinop sends only the money-moving requests it can judge (withdraw, transfer internal, ...)' },
  );
  await ctx.audit.note({
    kind: 'policy_refusal',
    ref_id: str(b.ref_id) ?? null,
    what: {
      command: 'api',
      method: request.method,
      path: request.path,
      asset: str(b.asset),
      amount: str(b.amount),
      profile_id: str(b.profile_id),
    },
    outcome: { result: 'refused', error: { category: 'policy', message: e.message } },
  });
  throw e;
}
