// Turns batch records into withdrawal requests and checks each against the contract, naming row, field and rule.
import { boundedMemo } from './memo.js';
import {
  ADDRESS_RULES,
  ASSETS,
  type AddressCheck,
  addressIssues,
  dec,
  didYouMean,
  isAmountString,
  operations,
  requestIssues,
  METADATA_MAX_LENGTH,
  type CreateCryptoWithdrawalRequest,
  type Decimal,
  type Issue,
} from '../contract/index.js';
import { type CataloguePolicy, ENFORCE, sortUnlisted } from '../client/catalogue-policy.js';
import { findProfile, namesByLookup, type ProfileMatch } from '../client/profile-match.js';
import type { Profile } from '../contract/schemas.js';
import type { RawRecord } from './reader.js';

/** The withdrawal fields of spec/SERVICE.md 2.3 a batch column may name (metadata goes in `meta.KEY` columns). */
export const COLUMNS = [
  'profile_id',
  'destination_address',
  'asset',
  'crypto_network',
  'amount',
  'total',
  'ref_id',
  'identity_id',
  'account_id',
  'balance_asset',
  'fee_id',
  'memo',
] as const;
/**
 * The Travel Rule's beneficiary in columns (CSV has no objects): a person's two names, or an institution's name. They
 * make the request's `beneficiary`; a JSON record may give the object itself instead, never both.
 */
export const BENEFICIARY_COLUMNS = {
  'beneficiary.first_name': ['person_details', 'first_name'],
  'beneficiary.last_name': ['person_details', 'last_name'],
  'beneficiary.institution': ['institution_details', 'name'],
} as const;
const COLUMN_SET = new Set<string>([...COLUMNS, ...Object.keys(BENEFICIARY_COLUMNS)]);
/** Fields a JSON record may carry besides the columns: the objects a CSV cell cannot hold. */
const JSON_ONLY = new Set(['metadata', 'beneficiary']);

export interface RowIssue extends Issue {
  /** 0 for the header or the file as a whole. */
  row: number;
  line?: number;
}

export function formatRowIssue(issue: RowIssue): string {
  const where =
    issue.row === 0
      ? issue.line
        ? `line ${issue.line}`
        : 'file'
      : `row ${issue.row}${issue.line && issue.line !== issue.row ? ` (line ${issue.line})` : ''}`;
  return `${where}: ${issue.field ? `${issue.field}: ` : ''}${issue.rule}`;
}

/** A valid row, ready to send. Its body carries the ref_id once it is known (a derived one after the whole file is read). */
export interface BatchRow {
  row: number;
  line: number;
  body: CreateCryptoWithdrawalRequest;
  /** The ref_id is derived from the row's content, not given. */
  derived: boolean;
}

export interface ColumnMap {
  /** Per cell: the field it fills, `meta.KEY` for metadata, or null for a column to ignore (already reported). */
  targets: (string | null)[];
  issues: RowIssue[];
  /** Required fields the header lacks: rows are not blamed for them again. */
  missing: Set<string>;
}

/**
 * Why a column or key is none of a batch's: a field of a fiat withdrawal is named as such (a batch's rows are crypto
 * withdrawals, journaled, judged and reported as those; a fiat withdrawal is sent on its own with withdraw fiat).
 */
function notAField(name: string): string {
  if (name === 'fiat_account_id')
    return 'is a fiat withdrawal field: fiat withdrawals are not batch rows (a batch pays crypto withdrawals); send each with coinop withdraw fiat --fiat-account-id';
  return `is not a withdrawal field${didYouMean(name, COLUMNS)}`;
}

/** Checks a CSV header: every column a known field or `meta.KEY`, no column twice, the required fields present. */
export function mapHeader(header: string[], line: number, hasDefaultProfile: boolean): ColumnMap {
  const issues: RowIssue[] = [];
  const targets: (string | null)[] = [];
  const seen = new Set<string>();
  header.forEach((raw, index) => {
    // Column names in any case ("Asset", "CRYPTO_NETWORK"); a metadata key keeps its own.
    const name = columnName(raw.trim());
    let target: string | null = name;
    if (!name) {
      issues.push({ row: 0, line, field: `column ${index + 1}`, rule: 'has no name in the header' });
      target = null;
    } else if (name.startsWith('meta.')) {
      const key = name.slice(5);
      const rule = !key
        ? 'needs a metadata key after "meta."'
        : key.length > METADATA_MAX_LENGTH
          ? `metadata keys are at most ${METADATA_MAX_LENGTH} characters`
          : undefined;
      if (rule) {
        issues.push({ row: 0, line, field: name, rule });
        target = null;
      }
    } else if (!COLUMN_SET.has(name)) {
      issues.push({
        row: 0,
        line,
        field: name,
        rule: `${notAField(name)}; columns are ${COLUMNS.join(', ')}, ${Object.keys(BENEFICIARY_COLUMNS).join(', ')} and meta.KEY`,
      });
      target = null;
    }
    if (target !== null) {
      if (seen.has(target)) {
        issues.push({ row: 0, line, field: name, rule: 'appears twice in the header' });
        target = null;
      } else seen.add(target);
    }
    targets.push(target);
  });
  const missing = new Set<string>();
  const required = ['destination_address', 'asset', 'crypto_network', ...(hasDefaultProfile ? [] : ['profile_id'])];
  for (const f of required) {
    if (!seen.has(f)) {
      missing.add(f);
      issues.push({
        row: 0,
        line,
        field: f,
        rule: f === 'profile_id' ? 'column is required (or give --profile-id)' : 'column is required',
      });
    }
  }
  if (!seen.has('amount') && !seen.has('total')) {
    missing.add('amount');
    issues.push({ row: 0, line, field: 'amount', rule: 'an amount or a total column is required' });
  }
  return { targets, issues, missing };
}

/** A withdrawal field's column (or JSON key) in any case, as the field is spelled; `meta.KEY` keeps its key's case. */
function columnName(name: string): string {
  const lower = name.toLowerCase();
  if (COLUMN_SET.has(lower) || JSON_ONLY.has(lower)) return lower;
  return lower.startsWith('meta.') ? `meta.${name.slice(5)}` : name;
}

/** The fields that name the catalogue's assets and networks, taken in any case and sent in capitals (their spelling). */
const NAME_FIELDS = ['asset', 'crypto_network', 'balance_asset'] as const;

function canonicalNames(body: Record<string, unknown>): void {
  for (const k of NAME_FIELDS) {
    const v = body[k];
    if (typeof v === 'string') body[k] = v.trim().toUpperCase();
  }
}

/** Builds the request body from a CSV record: empty cells are absent fields. */
function bodyFromCells(cells: string[], map: ColumnMap): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  let metadata: Record<string, string> | undefined;
  for (let i = 0; i < cells.length; i++) {
    const t = map.targets[i];
    const v = cells[i];
    if (t === null || v === '') continue;
    if (t.startsWith('meta.')) (metadata ??= {})[t.slice(5)] = v;
    else body[t] = v;
  }
  if (metadata) body.metadata = metadata;
  return body;
}

/** columnName of the keys met lately (bounded). */
const knownColumnName = boundedMemo(columnName);

/** A metadata key given as meta.KEY and inside metadata too: one would be dropped without a word. */
function metadataTwice(metadata: Record<string, unknown> | undefined, key: string, at: RowIssue, issues: RowIssue[]) {
  if (metadata && Object.hasOwn(metadata, key))
    issues.push({ ...at, field: `meta.${key}`, rule: 'is given twice in the row (as meta.KEY and in metadata)' });
}

/** Builds the request body from a JSON record: `meta.KEY` keys join `metadata`; null is an absent field. */
function bodyFromJson(
  value: unknown,
  row: number,
  line: number,
  issues: RowIssue[],
): Record<string, unknown> | undefined {
  const at = { row, line, field: '', rule: '' };
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    issues.push({ ...at, rule: 'must be a JSON object of withdrawal fields' });
    return undefined;
  }
  const body: Record<string, unknown> = {};
  let metadata: Record<string, unknown> | undefined;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const v = record[key];
    if (v === null) continue;
    const k = knownColumnName(key);
    if (k.startsWith('meta.') && k.length > 5) {
      metadataTwice(metadata, k.slice(5), at, issues);
      (metadata ??= {})[k.slice(5)] = v;
    } else if (k === 'metadata' && v && typeof v === 'object' && !Array.isArray(v)) {
      for (const m of Object.keys(v)) metadataTwice(metadata, m, at, issues);
      metadata = { ...(metadata ?? {}), ...(v as Record<string, unknown>) };
    } else if (COLUMN_SET.has(k) || JSON_ONLY.has(k)) {
      body[k] = v;
    } else {
      issues.push({ ...at, field: k, rule: notAField(k) });
    }
  }
  if (metadata) body.metadata = metadata;
  return body;
}

export interface ValidateOptions {
  /** Profile for rows that do not name one. */
  defaultProfileId?: string;
  /**
   * How the catalogue's rules count (src/client/catalogue-policy.ts): against the local service a row beyond the
   * catalogue is invalid, against another one it is sent and noted once per name (the limits are left to it).
   * Unset: as against the local service.
   */
  catalogue?: CataloguePolicy;
  /** The ref_id a row without one is checked with (its length counts against the service's limit). */
  deriveRefId: (row: number) => string;
  /** Whether a testnet destination is taken (unset: it is, as by the local service and the sandbox). */
  addresses?: AddressCheck;
}

/** A record made into a request body, not checked yet (RowValidator.build); no body when it could not be one. */
export interface BuiltRecord {
  body?: Record<string, unknown>;
  issues: RowIssue[];
}

/** A record checked: the row ready to send, or its issues with what it gave of the fields a report shows. */
export interface CheckedRecord {
  row?: BatchRow;
  issues: RowIssue[];
  given?: GivenFields;
}

/** The most distinct profile names a file's rows give that are kept to be shown (an approval states them). */
const NAMES_KEPT = 100;

/**
 * Validates records one by one, remembering only what spans rows (ref_ids seen), so a file of any length is
 * checked with bounded memory.
 */
export class RowValidator {
  private refIds = new Map<string, number>();
  /** The profile a nickname or id prefix names, once the service's list is known. */
  private profileOf?: (given: string) => ProfileMatch;
  /** Each nickname or id prefix the rows gave (trimmed, in lower case) and the id of the profile it names. */
  readonly profileNames = new Map<string, string>();
  map: ColumnMap | undefined;

  constructor(private readonly opts: ValidateOptions) {}

  header(header: string[], line: number): RowIssue[] {
    this.map = mapHeader(header, line, !!this.opts.defaultProfileId);
    return this.map.issues;
  }

  /** The service's profiles: from now on a row's profile_id by nickname or id prefix is the id it names. */
  knowProfiles(profiles: readonly Profile[]): void {
    this.profileOf = boundedMemo((given) => findProfile(profiles, given));
  }

  /** Whether the record names its profile by nickname or id prefix, and the service's list is not known yet. */
  awaitsProfiles(built: BuiltRecord): boolean {
    const given = built.body?.profile_id;
    return !this.profileOf && typeof given === 'string' && namesByLookup(given);
  }

  /**
   * The row ready to send, or its issues (every one, not just the first) with what it gave of the fields a report
   * shows (so a skipped row keeps its ref_id, asset and amount).
   */
  check(rec: RawRecord): CheckedRecord {
    return this.checkBuilt(rec, this.build(rec));
  }

  /** The record as a request body (the default profile filled in), not checked yet; or why it is none. */
  build(rec: RawRecord): BuiltRecord {
    const { row, line } = rec;
    const issues: RowIssue[] = [];
    if (rec.error) return { issues: [{ row, line, field: rec.field ?? '', rule: rec.error }] };
    let body: Record<string, unknown> | undefined;
    if (rec.cells) {
      if (!this.map) throw new Error('CSV record before its header');
      body = bodyFromCells(rec.cells, this.map);
    } else body = bodyFromJson(rec.value, row, line, issues);
    if (!body) return { issues };
    foldBeneficiary(body, row, line, issues);
    canonicalNames(body);
    if (body.profile_id === undefined && this.opts.defaultProfileId) body.profile_id = this.opts.defaultProfileId;
    return { body, issues };
  }

  /** A built record checked: the row ready to send, or its issues (check's answer). */
  checkBuilt(rec: RawRecord, built: BuiltRecord): CheckedRecord {
    const { row, line } = rec;
    const { body, issues } = built;
    if (!body) return { issues };
    const unnamed = this.resolveProfile(body);
    if (unnamed) issues.push({ row, line, field: 'profile_id', rule: unnamed });
    const derived = body.ref_id === undefined;
    if (derived) body.ref_id = this.opts.deriveRefId(row);
    const missing = this.map?.missing;
    let headerless = false;
    const checked = requestIssues(operations.createCryptoWithdrawal, { body }, 'apart');
    const catalogue = this.opts.catalogue ?? ENFORCE;
    const refused = [...checked.issues, ...sortUnlisted(catalogue, checked.unlisted, (f) => f)];
    for (const i of refused) {
      if ((i.field === 'amount' || i.field === 'total') && typeof body[i.field] === 'number') {
        i.rule = `must be a string such as "${String(body[i.field])}" (JSON numbers lose precision)`;
      }
      // A column missing from the header was reported once; do not repeat it on every row.
      if (
        missing &&
        (missing.has(i.field) || (i.field === 'amount' && missing.has('amount'))) &&
        /required|exactly one/.test(i.rule)
      ) {
        headerless = true;
        continue;
      }
      issues.push({ row, line, ...i });
    }
    const fieldsWithIssues = new Set(issues.map((i) => i.field));
    // The address against its network's format whenever the network is one the catalogue knows, even when the row is
    // wrong otherwise (an asset that does not move on that network): every problem of the row is told at once.
    if (!fieldsWithIssues.has('destination_address') && knownNetwork(body.crypto_network)) {
      for (const i of addressIssues(body.crypto_network, body.destination_address, this.opts.addresses))
        issues.push({ row, line, ...i });
    }
    if (catalogue.authoritative) issues.push(...limitIssues(body, row, line, fieldsWithIssues));
    if (!derived && typeof body.ref_id === 'string') {
      const first = this.refIds.get(body.ref_id);
      if (first !== undefined)
        issues.push({
          row,
          line,
          field: 'ref_id',
          rule: `repeats the ref_id of row ${first} (each withdrawal needs its own)`,
        });
      else this.refIds.set(body.ref_id, row);
    }
    // Still not a row to send: without the column it lacks a required field (it was taken as valid, and a dry
    // run then sorted totals by an asset that was not there).
    if (issues.length || headerless) return { issues, given: givenFields(body, derived) };
    return { row: { row, line, body: body as unknown as CreateCryptoWithdrawalRequest, derived }, issues };
  }

  /**
   * A profile_id by nickname or id prefix made the id it names (when the service's list is known); why it names none
   * (unknown, or two profiles), as the row's rule.
   */
  private resolveProfile(body: Record<string, unknown>): string | undefined {
    const given = body.profile_id;
    if (!this.profileOf || typeof given !== 'string' || !namesByLookup(given)) return undefined;
    const found = this.profileOf(given);
    if ('problem' in found) return `${found.problem}; ${found.hint}`;
    body.profile_id = found.profile.id;
    if (this.profileNames.size < NAMES_KEPT) this.profileNames.set(given.trim().toLowerCase(), found.profile.id);
    return undefined;
  }
}

/**
 * The beneficiary columns made into the request's `beneficiary` (each name trimmed, spaces single, as the gate spells
 * it): a person needs both names, a person and an institution do not go together, nor the columns and the object.
 */
function foldBeneficiary(body: Record<string, unknown>, row: number, line: number, issues: RowIssue[]): void {
  const given = (Object.keys(BENEFICIARY_COLUMNS) as (keyof typeof BENEFICIARY_COLUMNS)[]).filter(
    (k) => body[k] !== undefined,
  );
  if (!given.length) return;
  const bad = (field: string, rule: string): void => void issues.push({ row, line, field, rule });
  const parts: Record<string, Record<string, string>> = {};
  for (const k of given) {
    const v = body[k];
    delete body[k];
    if (typeof v !== 'string' || !v.trim()) {
      bad(k, 'must be a name (text)');
      continue;
    }
    const [party, name] = BENEFICIARY_COLUMNS[k];
    (parts[party] ??= {})[name] = v.trim().replace(/\s+/g, ' ');
  }
  if (body.beneficiary !== undefined)
    return bad('beneficiary', 'give the beneficiary object or the beneficiary.* columns, not both');
  if (parts.person_details && parts.institution_details)
    return bad('beneficiary.institution', 'a person or an institution, not both (beneficiary.first_name, last_name)');
  const person = parts.person_details;
  if (person && (person.first_name === undefined || person.last_name === undefined))
    return bad(
      person.first_name === undefined ? 'beneficiary.first_name' : 'beneficiary.last_name',
      'a person needs both names (beneficiary.first_name and beneficiary.last_name)',
    );
  if (Object.keys(parts).length) body.beneficiary = parts;
}

const knownNetwork = (n: unknown) => typeof n === 'string' && Object.hasOwn(ADDRESS_RULES, n);
/** What an invalid row gave of the fields a report shows, as written (text only). */
export interface GivenFields {
  ref_id?: string;
  asset?: string;
  crypto_network?: string;
  destination_address?: string;
  amount?: string;
  total?: string;
}

function givenFields(body: Record<string, unknown>, derived: boolean): GivenFields {
  const given: Record<string, string> = {};
  for (const k of ['ref_id', 'asset', 'crypto_network', 'destination_address', 'amount', 'total'] as const) {
    const v = body[k];
    if ((typeof v === 'string' || typeof v === 'number') && !(k === 'ref_id' && derived)) given[k] = String(v);
  }
  return given;
}

const limits = new Map<string, { min: Decimal; max: Decimal }>();

/**
 * The asset's smallest and largest withdrawal in the catalogue, checked on `amount` (the local service checks the
 * same; another service has its own limits).
 */
function limitIssues(body: Record<string, unknown>, row: number, line: number, already: Set<string>): RowIssue[] {
  const asset = typeof body.asset === 'string' ? body.asset : '';
  const info = ASSETS[asset];
  const amount = body.amount;
  if (!info || info.fiat || already.has('amount') || !isAmountString(amount)) return [];
  let l = limits.get(asset);
  if (!l) limits.set(asset, (l = { min: dec(info.minWithdrawal), max: dec(info.maxWithdrawal) }));
  const a = dec(amount);
  if (a.gt(0) && a.lt(l.min))
    return [{ row, line, field: 'amount', rule: `is below the smallest ${asset} withdrawal of ${info.minWithdrawal}` }];
  if (a.gt(l.max))
    return [{ row, line, field: 'amount', rule: `is above the largest ${asset} withdrawal of ${info.maxWithdrawal}` }];
  return [];
}
