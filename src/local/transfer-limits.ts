// Transfer limits of the local service. A rule limits the transfers of some types: each single transfer (period 0), or
// their sum over a rolling period counted in whole minutes of the service clock; in USD notional (what a transfer was
// worth when it was made) or in one asset (then only transfers of that asset count). What a transfer counts is the total
// it moved; a FAILED one (refunded) stops counting. The rules cover the whole ledger: every profile the service holds.
// Usage is kept per transfer type, asset and minute (transfer_usage), so a check reads a period's minutes at most, never
// every transfer; it is worked out from the transfers again after an import or a migration.
import { randomUUID } from './lazy-crypto.js';
import {
  ASSETS,
  type Decimal,
  dec,
  fmt,
  isAmountString,
  problems,
  TRANSFER_LIMIT_TYPES,
  type Transfer,
  type TransferLimit,
} from '../contract/index.js';
import { durationText } from '../render/time.js';
import type { Core } from './core.js';
import type { LimitRuleRow, TransferRow, UsageRow } from './store.js';

const MINUTE_MS = 60_000;
/** The longest period a rule may measure: 31 days. */
const PERIOD_MAX_SECONDS = 31 * 86_400;

/** A rule as the control API shows and takes it. */
export interface LimitRule {
  id: string;
  limit_id: string | null;
  transfer_types: string[];
  period_seconds: number;
  limit: string;
  limit_asset: string;
}

function ruleOf(row: LimitRuleRow): LimitRule {
  return {
    id: row.id,
    limit_id: row.limit_id,
    transfer_types: row.transfer_types.split(' '),
    period_seconds: row.period_seconds,
    limit: row.amount,
    limit_asset: row.limit_asset,
  };
}

export function limitRules(core: Core): LimitRule[] {
  return core.store.limitRules().map(ruleOf);
}

const rulesFor = (core: Core, type: string) => limitRules(core).filter((r) => r.transfer_types.includes(type));

/** What a transfer counts against a rule: its USD notional, its total in the rule's asset, or nothing. */
function counted(rule: LimitRule, total: { asset: string; total: Decimal; usd: Decimal }): Decimal | undefined {
  if (rule.limit_asset === 'USD') return total.usd;
  return total.asset === rule.limit_asset ? total.total : undefined;
}

/** How much of a period rule the transfers of the last period used (minutes from the current one back). */
function used(core: Core, rule: LimitRule): Decimal {
  const from = Math.floor(core.clock.now() / MINUTE_MS) - rule.period_seconds / 60 + 1;
  const asset = rule.limit_asset === 'USD' ? undefined : rule.limit_asset;
  let total = dec(0);
  for (const type of rule.transfer_types)
    for (const u of core.store.usageSince(type, from, asset)) total = total.plus(asset ? u.total : u.usd);
  return total;
}

/** What is left of a period rule now (never below 0). */
function remaining(core: Core, rule: LimitRule): Decimal {
  const left = dec(rule.limit).minus(used(core, rule));
  return left.isNegative() ? dec(0) : left;
}

/** GET /v2/transfer/limits/utilizations: every limit on a transfer type, with what is left of it now. */
export function limitUtilizations(core: Core, type: string): TransferLimit[] {
  return rulesFor(core, type).map((rule) => ({
    ...(rule.limit_id ? { id: rule.limit_id } : {}),
    rule_id: rule.id,
    transfer_types: [...rule.transfer_types].sort(),
    period_seconds: String(rule.period_seconds),
    limit: rule.limit,
    remaining: rule.period_seconds === 0 ? rule.limit : fmt(remaining(core, rule)),
    limit_asset: rule.limit_asset,
  }));
}

/** Refuses a transfer over a limit on each transfer, or over what is left of a period's: the OpenAPI's 400. */
export function checkTransferLimits(
  core: Core,
  transfer: { type: string; asset: string; total: Decimal; usd: Decimal },
): void {
  for (const rule of rulesFor(core, transfer.type)) {
    const amount = counted(rule, transfer);
    if (!amount) continue;
    const left = rule.period_seconds === 0 ? dec(rule.limit) : remaining(core, rule);
    if (amount.lte(left)) continue;
    const what = rule.limit_asset === 'USD' ? 'USD notional' : rule.limit_asset;
    const noun = transfer.type.endsWith('_WITHDRAWAL') ? 'withdrawal' : 'transfer';
    const scope =
      rule.period_seconds === 0
        ? `the limit of ${rule.limit} ${rule.limit_asset} on each transfer`
        : `the ${fmt(left)} ${rule.limit_asset} left of the limit of ${rule.limit} ${rule.limit_asset} per ${durationText(rule.period_seconds)}`;
    throw problems.aboveMaximum(`${noun} of ${fmt(amount)} ${what} exceeds ${scope} (transfer limit rule ${rule.id})`, {
      limit: rule.limit,
      amount: fmt(amount),
      remaining: fmt(left),
      limit_asset: rule.limit_asset,
      rule_id: rule.id,
      period_seconds: String(rule.period_seconds),
    });
  }
}

/** Adds (sign 1) or takes back (sign -1) what a transfer counts to its minute. */
function addUsage(core: Core, transfer: Transfer, createdMs: number, sign: 1 | -1): void {
  const minute = Math.floor(createdMs / MINUTE_MS);
  const had = core.store.usage(transfer.type, transfer.asset, minute);
  const usd = isAmountString(transfer.notional_value) ? transfer.notional_value : '0';
  core.store.setUsage({
    type: transfer.type,
    asset: transfer.asset,
    minute,
    total: fmt(dec(had?.total ?? '0').plus(dec(transfer.total).times(sign))),
    usd: fmt(dec(had?.usd ?? '0').plus(dec(usd).times(sign))),
  });
}

/** A new transfer counts against the limits on its type. */
export function recordUsage(core: Core, transfer: Transfer, createdMs: number): void {
  addUsage(core, transfer, createdMs, 1);
}

/** A transfer that FAILED (and was refunded) stops counting. */
export function releaseUsage(core: Core, row: TransferRow): void {
  addUsage(core, JSON.parse(row.body) as Transfer, row.created_ms, -1);
}

/** Works the usage out again from every transfer that did not fail (after an import or a migration). */
export function rebuildUsage(core: Core): void {
  const { store } = core;
  store.immediate(() => {
    store.clearUsage();
    const sums = new Map<string, UsageRow>();
    for (const row of store.eachTransfer()) {
      if (row.status === 'FAILED') continue;
      const t = JSON.parse(row.body) as Transfer;
      const minute = Math.floor(row.created_ms / MINUTE_MS);
      const key = `${t.type} ${t.asset} ${minute}`;
      const u = sums.get(key) ?? { type: t.type, asset: t.asset, minute, total: '0', usd: '0' };
      u.total = fmt(dec(u.total).plus(t.total));
      u.usd = fmt(dec(u.usd).plus(isAmountString(t.notional_value) ? t.notional_value : '0'));
      sums.set(key, u);
    }
    for (const u of sums.values()) store.setUsage(u);
  });
}

/** What is wrong with a rule given to the control API (or imported), as [field, rule]; undefined when it is good. */
function ruleIssue(raw: unknown, where: string): [string, string] | undefined {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return [where, 'must be an object'];
  const r = raw as Record<string, unknown>;
  const known = ['id', 'limit_id', 'transfer_types', 'period_seconds', 'limit', 'limit_asset'];
  const unknown = Object.keys(r).find((k) => !known.includes(k));
  if (unknown) return [`${where}.${unknown}`, 'is not a known field'];
  if (r.id !== undefined && (typeof r.id !== 'string' || !/^[\w.:-]{1,64}$/.test(r.id)))
    return [`${where}.id`, 'must be 1 to 64 letters, digits, _ . : or -'];
  const types = r.transfer_types;
  if (
    !Array.isArray(types) ||
    !types.length ||
    !types.every((t) => (TRANSFER_LIMIT_TYPES as readonly unknown[]).includes(t))
  )
    return [`${where}.transfer_types`, `must be a non-empty list of ${TRANSFER_LIMIT_TYPES.join(', ')}`];
  const p = r.period_seconds;
  if (typeof p !== 'number' || !Number.isInteger(p) || p < 0 || p % 60 !== 0 || p > PERIOD_MAX_SECONDS)
    return [
      `${where}.period_seconds`,
      `must be 0 (each transfer) or whole minutes of seconds up to ${PERIOD_MAX_SECONDS}`,
    ];
  if (!isAmountString(r.limit) || r.limit.length > 40)
    return [`${where}.limit`, 'must be a decimal string such as 1000'];
  if (typeof r.limit_asset !== 'string' || (r.limit_asset !== 'USD' && !ASSETS[r.limit_asset]))
    return [`${where}.limit_asset`, `must be USD or an asset (${Object.keys(ASSETS).join(', ')})`];
  return undefined;
}

/** PUT /_local/limits {rules}: replaces every rule; a period rule gets the id of its limit. */
export function setLimitRules(core: Core, body: unknown): LimitRule[] {
  const bad = ([field, rule]: [string, string]): never => {
    throw problems.badRequest(`${field}: ${rule}`, { issues: [{ field, rule }] });
  };
  const b = body as { rules?: unknown } | null;
  if (!b || typeof b !== 'object' || Array.isArray(b) || Object.keys(b).some((k) => k !== 'rules'))
    bad(['', 'the body must be {"rules": [...]}']);
  if (!Array.isArray(b!.rules)) bad(['rules', 'must be a list']);
  const rules = b!.rules as Record<string, unknown>[];
  rules.forEach((rule, index) => {
    const issue = ruleIssue(rule, `rules[${index}]`);
    if (issue) bad(issue);
  });
  const rows: LimitRuleRow[] = rules.map((r) => ({
    id: (r.id as string | undefined) ?? randomUUID(),
    limit_id: (r.period_seconds as number) > 0 ? ((r.limit_id as string | undefined) ?? randomUUID()) : null,
    transfer_types: [...new Set(r.transfer_types as string[])].sort().join(' '),
    period_seconds: r.period_seconds as number,
    amount: fmt(dec(r.limit as string)),
    limit_asset: r.limit_asset as string,
  }));
  const ids = rows.map((r) => r.id);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice !== undefined) bad([`rules[${ids.lastIndexOf(twice)}].id`, `${twice} is given twice`]);
  core.store.replaceLimitRules(rows);
  return limitRules(core);
}

/** The stored rules (after an import) checked as the control API checks them; an Error naming the bad one otherwise. */
export function checkStoredLimitRules(core: Core): void {
  core.store.limitRules().forEach((row, index) => {
    const issue = ruleIssue(ruleOf(row), `tables.transfer_limit_rules[${index}]`);
    if (issue) throw new Error(`${issue[0]}: ${issue[1]}`);
  });
}

/** The rules of the demo data, with fresh limit ids. */
export function demoLimitRuleRows(
  rules: readonly (Omit<LimitRule, 'limit_id' | 'transfer_types'> & { transfer_types: readonly string[] })[],
): LimitRuleRow[] {
  return rules.map((r) => ({
    id: r.id,
    limit_id: r.period_seconds > 0 ? randomUUID() : null,
    transfer_types: [...r.transfer_types].sort().join(' '),
    period_seconds: r.period_seconds,
    amount: r.limit,
    limit_asset: r.limit_asset,
  }));
}
