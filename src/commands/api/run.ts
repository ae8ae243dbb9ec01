// coinop api: a raw authenticated request with the profile's token, retries and --debug; the answer as sent.
import { readFileSync } from 'node:fs';
import type { CliContext } from '../../cli/context.js';
import { usageError } from '../../cli/errors.js';
import { problemError } from '../../cli/errors.js';
import { problemOf } from '../../client/api.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

function setPath(obj: Record<string, unknown>, key: string, value: string): void {
  const parts = key.split('.');
  let o = obj;
  // Objects without a prototype, so "constructor" or "__proto__" is a field like any other, sent as written.
  for (const p of parts.slice(0, -1)) {
    if (!Object.hasOwn(o, p) || typeof o[p] !== 'object' || o[p] === null) o[p] = Object.create(null);
    o = o[p] as Record<string, unknown>;
  }
  const last = parts[parts.length - 1];
  // A key given twice becomes a list, as query parameters do.
  if (Object.hasOwn(o, last)) o[last] = Array.isArray(o[last]) ? [...(o[last] as unknown[]), value] : [o[last], value];
  else o[last] = value;
}

async function readInput(ctx: CliContext, file: string): Promise<unknown> {
  let text: string;
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const c of ctx.io.stdin) chunks.push(Buffer.from(c as Buffer));
    text = Buffer.concat(chunks).toString('utf8');
  } else {
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw usageError(`--input: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw usageError(`--input: not valid JSON (${(e as Error).message})`);
  }
}

export async function api(ctx: CliContext, methodArg: string, pathArg: string, o: { field?: string[]; input?: string; paginate?: boolean; include?: boolean }): Promise<void> {
  const method = methodArg.toUpperCase();
  if (!METHODS.includes(method)) throw usageError(`METHOD: must be one of ${METHODS.join(', ')}`);
  if (/^[a-z]+:\/\//i.test(pathArg)) throw usageError('PATH: give a path such as /v2/transfer/transfers, not a URL (set COINOP_BASE_URL for another server)');
  let path = pathArg.startsWith('/') ? pathArg : `/${pathArg}`;
  if (!/^\/(v2|_local|oauth2)(\/|$)/.test(path)) path = `/v2${path}`;
  if (/\s/.test(path)) throw usageError('PATH: must not contain spaces');
  const fields: Record<string, unknown> = Object.create(null);
  for (const f of o.field ?? []) {
    const i = f.indexOf('=');
    if (i <= 0) throw usageError(`--field: "${f}" must be key=value`);
    setPath(fields, f.slice(0, i), f.slice(i + 1));
  }
  if (o.paginate && method !== 'GET') throw usageError('--paginate: only with GET');
  if (o.input && method === 'GET') throw usageError('--input: a GET request has no body');
  const sendsQuery = method === 'GET' || method === 'DELETE';
  let body: unknown = o.input ? await readInput(ctx, o.input) : undefined;
  if (!sendsQuery && Object.keys(fields).length) {
    if (body !== undefined && (typeof body !== 'object' || Array.isArray(body) || body === null)) throw usageError('--field: cannot be added to a body that is not a JSON object');
    body = { ...((body as object) ?? {}), ...fields };
  }
  const query = sendsQuery ? flatten(fields) : undefined;
  const conn = await ctx.connect();
  const out = ctx.output();
  const send = async (q?: Record<string, unknown>) => {
    const res = await conn.client.raw(method, path, body, q);
    if (o.include) ctx.io.err(`HTTP ${res.status} ${res.statusText}\n${Object.entries(res.headers).map(([k, v]) => `${k}: ${String(v)}`).join('\n')}\n\n`);
    if (res.status < 200 || res.status >= 300) {
      // The answer is data too: print it, then fail with the problem's category.
      if (res.text) ctx.io.out(res.json !== undefined ? JSON.stringify(res.json, null, 2) + '\n' : res.text + '\n');
      throw problemError(problemOf(res));
    }
    return res;
  };
  if (!o.paginate) {
    const res = await send(query);
    if (res.json !== undefined) ctx.io.out(JSON.stringify(res.json, null, out.format === 'ndjson' ? 0 : 2) + '\n');
    else if (res.text) ctx.io.out(res.text + (res.text.endsWith('\n') ? '' : '\n'));
    return;
  }
  const format = out.format === 'table' ? 'json' : out.format;
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
  await new Output(ctx.io, format, ctx.now).list(items(), []);
}

function flatten(o: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(o)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) Object.assign(out, flatten(v as Record<string, unknown>, key));
    else out[key] = v;
  }
  return out;
}
