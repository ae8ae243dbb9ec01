// Validation against the contract: JSON Schema checks plus the cross-field rules of SERVICE.md, reported as
// issues that name the field and the rule. The CLI checks input with it before sending; the local service
// checks every request with it.
import { createRequire } from 'node:module';
import type { Ajv as AjvClass, ErrorObject, ValidateFunction } from 'ajv';
import type { TSchema } from '@sinclair/typebox';
import { ASSETS, isValidAddress } from './catalogue.js';
import type { CryptoNetwork } from './enums.js';
import { decimalPlaces, dec, isAmountString } from './money.js';
import { PRECOMPILED } from './precompiled.js';

// ajv and ajv-formats are CommonJS; loaded on first use so that commands which validate nothing never pay for them.
const require = createRequire(import.meta.url);

export interface Issue {
  /** The field as the user knows it: "amount", "metadata.note", "created_at.lt". */
  field: string;
  /** The rule it breaks, in words: "must be a positive decimal such as 0.05". */
  rule: string;
}

export function formatIssue(i: Issue): string {
  return i.field ? `${i.field}: ${i.rule}` : i.rule;
}

export function formatIssues(issues: Issue[]): string {
  return issues.map(formatIssue).join('; ');
}

let ajv: AjvClass | undefined;
const compiled = new WeakMap<object, ValidateFunction>();

function compile(schema: TSchema): ValidateFunction {
  let fn = compiled.get(schema);
  if (!fn) {
    // Built code carries every operation's validators ready made (scripts/build.mjs).
    const ready = PRECOMPILED?.[JSON.stringify(schema)];
    if (ready) {
      compiled.set(schema, ready);
      return ready;
    }
    if (!ajv) {
      const Ajv = require('ajv').Ajv as typeof AjvClass;
      const addFormats = require('ajv-formats').default as (a: AjvClass, f: string[]) => void;
      // The schemas are ours (TypeBox), so checking them against the JSON Schema meta-schema only costs start-up time.
      ajv = new Ajv({ allErrors: true, strict: false, validateFormats: true, validateSchema: false });
      addFormats(ajv, ['date-time']);
    }
    const made = ajv.compile(schema);
    compiled.set(schema, made);
    return made;
  }
  return fn;
}

function fieldOf(e: ErrorObject): string {
  const path = e.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (e.keyword === 'additionalProperties') path.push(String((e.params as { additionalProperty: string }).additionalProperty));
  if (e.keyword === 'required') path.push(String((e.params as { missingProperty: string }).missingProperty));
  return path.join('.');
}

function ruleOf(e: ErrorObject, schemaAtPath: Record<string, unknown> | undefined): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'additionalProperties':
      return 'is not a known field';
    case 'required':
      return 'is required';
    case 'pattern':
      if (p.pattern === '^[0-9]*\\.?[0-9]+$') return 'must be a plain decimal number such as 0.05 (digits and one point, no sign or exponent)';
      if (p.pattern === '^[0-9]*\\.?[0-9]{1,2}$') return 'must be a plain decimal number with at most 2 decimals such as 10.00';
      return `must match ${String(p.pattern)}`;
    case 'enum': {
      const values = (p.allowedValues as string[]) ?? [];
      return `must be one of ${values.join(', ')}`;
    }
    case 'type':
      return `must be ${p.type === 'integer' ? 'a whole number' : `a${/^[aeiou]/.test(String(p.type)) ? 'n' : ''} ${String(p.type)}`}`;
    case 'format':
      return p.format === 'date-time'
        ? 'must be an RFC 3339 date-time such as 2026-01-02T15:04:05Z'
        : `must be a valid ${String(p.format)}`;
    case 'maxItems':
      return `must have at most ${String(p.limit)} entries`;
    case 'minItems':
      return `must have at least ${String(p.limit)} entries`;
    case 'maxProperties':
      return `must have at most ${String(p.limit)} pairs`;
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters`;
    case 'minLength':
      return Number(p.limit) <= 1 ? 'must not be empty' : `must be at least ${String(p.limit)} characters`;
    case 'minimum':
      return `must be at least ${String(p.limit)}`;
    case 'maximum':
      return `must be at most ${String(p.limit)}`;
    default:
      return e.message ?? `breaks the rule ${e.keyword}`;
  }
  void schemaAtPath;
}

/** Checks a value against a contract schema; returns every issue (empty when valid). */
export function schemaIssues(schema: TSchema, value: unknown): Issue[] {
  const fn = compile(schema);
  if (fn(value)) return [];
  const seen = new Set<string>();
  const issues: Issue[] = [];
  for (const e of fn.errors ?? []) {
    // Metadata key lengths are reported by propertyNames as two errors; one is enough.
    if (e.keyword === 'propertyNames') continue;
    const issue = { field: fieldOf(e), rule: ruleOf(e, undefined) };
    const key = (e as { propertyName?: string }).propertyName;
    if (key !== undefined) issue.rule = `key "${key.length > 24 ? `${key.slice(0, 24)}…` : key}" ${issue.rule}`;
    if (e.instancePath === '' && e.keyword === 'type') issue.rule = 'the body must be a JSON object';
    const text = formatIssue(issue);
    if (!seen.has(text)) {
      seen.add(text);
      issues.push(issue);
    }
  }
  return issues;
}

/**
 * Turns a parsed query string (values are strings or arrays of strings) into the types the schema declares:
 * integers become numbers, array fields always become arrays. Values that cannot be converted are left as they
 * are so that schema validation names them.
 */
export function coerceQuery(schema: TSchema, raw: Record<string, unknown>): { value: Record<string, unknown>; issues: Issue[] } {
  const props = (schema as unknown as { properties: Record<string, { type?: string }> }).properties ?? {};
  // Without a prototype: a `__proto__` parameter is a key like any other (and an unknown one), never a prototype.
  const value: Record<string, unknown> = Object.create(null);
  const issues: Issue[] = [];
  for (const [k, v] of Object.entries(raw)) {
    const type = props[k]?.type;
    if (type === 'array') {
      value[k] = Array.isArray(v) ? v : [v];
      continue;
    }
    if (Array.isArray(v)) {
      if (type) issues.push({ field: k, rule: 'must be given once' });
      value[k] = v;
      continue;
    }
    if (type === 'integer' && typeof v === 'string' && /^-?\d{1,15}$/.test(v)) value[k] = Number(v);
    else value[k] = v;
  }
  return { value, issues };
}

// ---- Cross-field rules of SERVICE.md ------------------------------------------------------------------------------

/** Exactly one of amount and total, each greater than zero (withdrawals and fee quotes). */
export function amountOrTotalIssues(body: { amount?: unknown; total?: unknown }): Issue[] {
  const hasAmount = body.amount !== undefined;
  const hasTotal = body.total !== undefined;
  if (hasAmount && hasTotal) return [{ field: 'amount', rule: 'give exactly one of amount and total, not both' }];
  if (!hasAmount && !hasTotal) return [{ field: 'amount', rule: 'give exactly one of amount and total' }];
  const field = hasAmount ? 'amount' : 'total';
  const v = body[field];
  if (isAmountString(v) && dec(v).lte(0)) return [{ field, rule: 'must be greater than 0' }];
  return [];
}

/** Asset known and withdrawable on the network, amount within the asset's precision, address well formed. */
export function withdrawalTargetIssues(body: { asset?: unknown; crypto_network?: unknown; amount?: unknown; total?: unknown; destination_address?: unknown }): Issue[] {
  const issues: Issue[] = [];
  const asset = typeof body.asset === 'string' ? body.asset : undefined;
  const info = asset ? ASSETS[asset] : undefined;
  if (asset && (!info || info.fiat)) {
    issues.push({ field: 'asset', rule: `is not a crypto asset this service withdraws (${Object.keys(ASSETS).filter((a) => !ASSETS[a].fiat).join(', ')})` });
    return issues;
  }
  const network = typeof body.crypto_network === 'string' ? (body.crypto_network as CryptoNetwork) : undefined;
  if (info && network && !info.networks[network]) {
    issues.push({ field: 'crypto_network', rule: `${asset} cannot be withdrawn on ${network} (use ${Object.keys(info.networks).join(', ')})` });
  }
  for (const field of ['amount', 'total'] as const) {
    const v = body[field];
    if (info && isAmountString(v) && decimalPlaces(v) > info.decimals) {
      issues.push({ field, rule: `has more than the ${info.decimals} decimals ${asset} allows` });
    }
  }
  return issues;
}

/** The destination address matches the network's format. */
export function addressIssues(network: unknown, address: unknown): Issue[] {
  if (typeof network !== 'string' || typeof address !== 'string') return [];
  if (!isValidAddress(network as CryptoNetwork, address)) {
    return [{ field: 'destination_address', rule: `is not a valid ${network} address` }];
  }
  return [];
}

/** Exactly one of increment and max_data_points on historical prices. */
export function priceQueryIssues(q: { increment?: unknown; max_data_points?: unknown; 'range.begin'?: unknown; 'range.end'?: unknown }): Issue[] {
  const issues: Issue[] = [];
  if (q.increment !== undefined && q.max_data_points !== undefined) {
    issues.push({ field: 'increment', rule: 'must not be combined with max_data_points (give exactly one)' });
  } else if (q.increment === undefined && q.max_data_points === undefined) {
    issues.push({ field: 'increment', rule: 'give exactly one of increment and max_data_points' });
  }
  const b = typeof q['range.begin'] === 'string' ? Date.parse(q['range.begin']) : NaN;
  const e = typeof q['range.end'] === 'string' ? Date.parse(q['range.end']) : NaN;
  if (!Number.isNaN(b) && !Number.isNaN(e) && b > e) issues.push({ field: 'range.begin', rule: 'must not be after range.end' });
  return issues;
}
