// Validation against the contract: JSON Schema checks plus the cross-field rules of spec/SERVICE.md, reported as
// issues that name the field and the rule. The CLI checks input with it before sending; the local service
// checks every request with it.
import { createRequire } from 'node:module';
import type { Ajv as AjvClass, ErrorObject, ValidateFunction } from 'ajv';
import type { TSchema } from '@sinclair/typebox';
import { ADDRESS_RULES, type AddressCheck, addressReason } from './addresses.js';
import { ASSETS, CRYPTO_ASSETS, MARKET_INFO } from './catalogue.js';
import { CRYPTO_NETWORKS, type CryptoNetwork, MARKETS } from './enums.js';
import { decimalPlaces, dec, isAmountString } from './money.js';
import { precompiledValidator } from './precompiled.js';
import { didYouMean, oneOfRule } from './suggest.js';
import { MAILING_ADDRESS_PATTERN, NAME_PATTERN } from './schemas.js';

// ajv and ajv-formats are CommonJS; loaded on first use so that commands which validate nothing never pay for them.
const require = createRequire(import.meta.url);

export interface Issue {
  /** The field as the user knows it: "amount", "metadata.note", "created_at.lt". */
  field: string;
  /** The rule it breaks, in words: "must be a positive decimal such as 0.05". */
  rule: string;
}

export function formatIssue(issue: Issue): string {
  return issue.field ? `${issue.field}: ${issue.rule}` : issue.rule;
}

export function formatIssues(issues: Issue[]): string {
  return issues.map(formatIssue).join('; ');
}

let ajv: AjvClass | undefined;
const compiled = new WeakMap<object, ValidateFunction>();

function compile(schema: TSchema): ValidateFunction {
  const fn = compiled.get(schema);
  if (!fn) {
    // Built code carries every operation's validators ready made (scripts/build.mjs).
    const ready = precompiledValidator(JSON.stringify(schema));
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

function fieldOf(error: ErrorObject): string {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'additionalProperties')
    path.push(String((error.params as { additionalProperty: string }).additionalProperty));
  if (error.keyword === 'required') path.push(String((error.params as { missingProperty: string }).missingProperty));
  return path.join('.');
}

/** The value at a JSON Pointer (an error's instancePath) of `root`, or undefined. */
function valueAt(root: unknown, pointer: string): unknown {
  let at = root;
  for (const key of pointer.split('/').slice(1)) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return at;
}

function ruleOf(error: ErrorObject, value: unknown): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return 'is not a known field';
    case 'required':
      return 'is required';
    case 'pattern':
      if (p.pattern === '^[0-9]*\\.?[0-9]+$')
        return 'must be a plain decimal number such as 0.05 (digits and one point, no sign or exponent)';
      if (p.pattern === '^[0-9]*\\.?[0-9]{1,2}$')
        return 'must be a plain decimal number with at most 2 decimals such as 10.00';
      if (p.pattern === NAME_PATTERN) return 'must be capital letters, digits and _ only (such as BTC or BITCOIN_CASH)';
      if (String(p.pattern).startsWith(MAILING_ADDRESS_PATTERN.slice(0, -2)))
        return "must hold only letters A-Z, digits, spaces and / ? : ( ) . , & ' + -";
      if (p.pattern === '^[A-Z0-9]{2,20}$') return 'must be a market symbol in capitals such as BTCUSD';
      return `must match ${String(p.pattern)}`;
    case 'enum': {
      const values = (p.allowedValues as string[]) ?? [];
      const typed = valueAt(value, error.instancePath);
      return typeof typed === 'string' ? oneOfRule(typed, values) : `must be one of ${values.join(', ')}`;
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
      return error.message ?? `breaks the rule ${error.keyword}`;
  }
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
    const issue = { field: fieldOf(e), rule: ruleOf(e, value) };
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
 * integers become numbers, true and false become booleans, array fields always become arrays. Values that cannot be converted are left as they
 * are so that schema validation names them.
 */
export function coerceQuery(
  schema: TSchema,
  raw: Record<string, unknown>,
): { value: Record<string, unknown>; issues: Issue[] } {
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
    else if (type === 'boolean' && (v === 'true' || v === 'false')) value[k] = v === 'true';
    else value[k] = v;
  }
  return { value, issues };
}

// ---- Cross-field rules of spec/SERVICE.md -------------------------------------------------------------------------

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

// ---- The catalogue's rules: the local service's reference data (src/contract/catalogue.ts) --------------------------------

/**
 * Where a request goes beyond the catalogue: a name it does not list (an asset, a network, a market) or a rule it
 * derives from one (an asset's networks, decimals, balance assets). The local service, whose catalogue it is, refuses
 * it (`rule`); the CLI, talking to another service, sends the request and says `note` (that service decides).
 */
export interface CatalogueIssue extends Issue {
  /** The name the rule is about: a service that lists it itself (GET /markets) has it, whatever the catalogue says. */
  value: string;
  /** The same as a note: "OPTIMISM is not a network in coinop's catalogue". */
  note: string;
  /** A name the catalogue does not list (said whatever else is wrong), not a rule it derives from one it lists. */
  unknownName?: boolean;
}

const unlisted = (field: string, value: string, rule: string, what: string): CatalogueIssue => ({
  field,
  value,
  rule,
  note: `${value} is not ${what} in coinop's catalogue`,
  unknownName: true,
});

/** A crypto network of the catalogue. */
export function networkIssues(field: string, network: unknown): CatalogueIssue[] {
  if (typeof network !== 'string' || ADDRESS_RULES[network as CryptoNetwork]) return [];
  return [unlisted(field, network, oneOfRule(network, CRYPTO_NETWORKS), 'a network')];
}

/** A market of the catalogue. */
export function marketIssues(field: string, market: unknown): CatalogueIssue[] {
  if (typeof market !== 'string' || MARKET_INFO[market as keyof typeof MARKET_INFO]) return [];
  return [unlisted(field, market, oneOfRule(market, MARKETS), 'a market')];
}

/** An asset of the catalogue (crypto or fiat): balances are kept, and moved between profiles, in these. */
export function assetIssues(field: string, asset: unknown): CatalogueIssue[] {
  if (typeof asset !== 'string' || ASSETS[asset]) return [];
  const hint = didYouMean(asset, Object.keys(ASSETS));
  const rule = `${asset} is not an asset of this service${hint || ` (${Object.keys(ASSETS).join(', ')})`}`;
  return [unlisted(field, asset, rule, 'an asset')];
}

/** At most the asset's decimals, by the catalogue (for an asset it lists). */
export function decimalsIssues(field: string, asset: unknown, amount: unknown): CatalogueIssue[] {
  const info = typeof asset === 'string' ? ASSETS[asset] : undefined;
  if (!info || !isAmountString(amount) || decimalPlaces(amount) <= info.decimals) return [];
  return [
    {
      field,
      value: asset as string,
      rule: `has more than the ${info.decimals} decimals ${asset as string} allows`,
      note: `${asset as string} has ${info.decimals} decimals in coinop's catalogue`,
    },
  ];
}

/** A crypto asset of the catalogue, withdrawable on the network, the amount within its decimals (withdrawals, quotes). */
export function withdrawalTargetIssues(body: {
  asset?: unknown;
  crypto_network?: unknown;
  amount?: unknown;
  total?: unknown;
}): CatalogueIssue[] {
  const asset = typeof body.asset === 'string' ? body.asset : undefined;
  const info = asset ? ASSETS[asset] : undefined;
  const issues = networkIssues('crypto_network', body.crypto_network);
  if (asset && (!info || info.fiat)) {
    issues.push(
      unlisted(
        'asset',
        asset,
        `${asset} is not a crypto asset this service withdraws${didYouMean(asset, CRYPTO_ASSETS) || ` (${CRYPTO_ASSETS.join(', ')})`}`,
        'a crypto asset',
      ),
    );
    return issues;
  }
  const network = body.crypto_network;
  if (info && !issues.length && typeof network === 'string' && !info.networks[network as CryptoNetwork]) {
    issues.push({
      field: 'crypto_network',
      value: network,
      rule: `${asset} cannot be withdrawn on ${network} (use ${Object.keys(info.networks).join(', ')})`,
      note: `coinop's catalogue has no ${asset} on ${network}`,
    });
  }
  for (const field of ['amount', 'total'] as const) issues.push(...decimalsIssues(field, asset, body[field]));
  return issues;
}

/**
 * The destination address is one of the network's: its format and, where it has one, its checksum; a testnet address
 * only where `check` takes one (see AddressCheck).
 */
export function addressIssues(network: unknown, address: unknown, check: AddressCheck = {}): Issue[] {
  if (typeof network !== 'string' || typeof address !== 'string') return [];
  const reason = addressReason(network, address, check);
  return reason ? [{ field: 'destination_address', rule: reason }] : [];
}

/** Exactly one of increment and max_data_points on historical prices. */
export function priceQueryIssues(query: {
  increment?: unknown;
  max_data_points?: unknown;
  'range.begin'?: unknown;
  'range.end'?: unknown;
}): Issue[] {
  const issues: Issue[] = [];
  if (query.increment !== undefined && query.max_data_points !== undefined) {
    issues.push({ field: 'increment', rule: 'must not be combined with max_data_points (give exactly one)' });
  } else if (query.increment === undefined && query.max_data_points === undefined) {
    issues.push({ field: 'increment', rule: 'give exactly one of increment and max_data_points' });
  }
  const b = typeof query['range.begin'] === 'string' ? Date.parse(query['range.begin']) : NaN;
  const e = typeof query['range.end'] === 'string' ? Date.parse(query['range.end']) : NaN;
  if (!Number.isNaN(b) && !Number.isNaN(e) && b > e)
    issues.push({ field: 'range.begin', rule: 'must not be after range.end' });
  return issues;
}

/**
 * A destination address of the book is named by its id, or by crypto_network and address (never both); a new one's
 * address matches its network; a VASP is a known id or a custom name with its website; a beneficiary is one party.
 */
export function destinationAddressIssues(body: {
  id?: unknown;
  crypto_network?: unknown;
  address?: unknown;
  travelrule_metadata?: {
    vasp?: { id?: unknown; custom_vasp_name?: unknown; custom_vasp_website?: unknown };
    beneficiary?: Record<string, unknown>;
  };
}): Issue[] {
  const issues: Issue[] = [];
  if (body.id !== undefined) {
    for (const field of ['crypto_network', 'address'] as const)
      if (body[field] !== undefined)
        issues.push({ field, rule: 'give either id or crypto_network and address, not both' });
  } else {
    for (const field of ['crypto_network', 'address'] as const)
      if (body[field] === undefined) issues.push({ field, rule: 'is required (or give the id of an address)' });
    if (!issues.length)
      issues.push(...addressIssues(body.crypto_network, body.address).map((i) => ({ ...i, field: 'address' })));
  }
  const vasp = body.travelrule_metadata?.vasp;
  if (vasp) {
    const custom = vasp.custom_vasp_name !== undefined || vasp.custom_vasp_website !== undefined;
    if ((vasp.id !== undefined) === custom)
      issues.push({
        field: 'travelrule_metadata.vasp',
        rule: 'give exactly one of id and custom_vasp_name with custom_vasp_website',
      });
    else if (custom && (vasp.custom_vasp_name === undefined || vasp.custom_vasp_website === undefined))
      issues.push({ field: 'travelrule_metadata.vasp', rule: 'custom_vasp_name and custom_vasp_website go together' });
  }
  const beneficiary = body.travelrule_metadata?.beneficiary;
  if (beneficiary) {
    const parties = ['person_details', 'institution_details'].filter((k) => beneficiary[k] !== undefined).length;
    if (parties + (beneficiary.self === true ? 1 : 0) !== 1)
      issues.push({
        field: 'travelrule_metadata.beneficiary',
        rule: 'give exactly one of person_details, institution_details and self: true',
      });
  }
  return issues;
}
