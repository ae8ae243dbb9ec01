// Parsing of flag values shared by commands: raw flag readers, repeatable lists, key=value pairs, JSON objects,
// markets, durations, times, counts, amounts and rates. One helper per rule, so a rule is written once and its message
// is the same everywhere.
import { Argument, Option } from 'commander';
import { canonicalChoice } from '../contract/enums.js';
import { isAmountString } from '../contract/money.js';
import { oneOfRule } from '../contract/suggest.js';
import { MARKET_SYMBOL_PATTERN, NAME_PATTERN } from '../contract/schemas.js';
import { isoSeconds } from '../client/prices.js';
import { usageError } from './errors.js';
import type { DefaultSpec } from './flags.js';

/** commander argParser for a repeatable flag that also takes comma-separated values. */
export function collect(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  ];
}

/** commander argParser for a repeatable flag kept verbatim (values may contain commas). */
export function repeat(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** key=value pairs (--meta, -f); the first "=" splits, so values may contain "=". */
export function keyValues(flag: string, pairs: string[] | undefined): Record<string, string> | undefined {
  if (!pairs?.length) return undefined;
  // No prototype: "constructor" is an ordinary key, not one "given twice".
  const out: Record<string, string> = Object.create(null);
  for (const p of pairs) {
    const i = p.indexOf('=');
    if (i <= 0) throw usageError(`${flag}: "${p}" must be key=value`);
    const k = p.slice(0, i);
    if (k === '__proto__') throw usageError(`${flag}: "__proto__" cannot be a key`);
    if (Object.hasOwn(out, k)) throw usageError(`${flag}: key "${k}" is given twice`);
    out[k] = p.slice(i + 1);
  }
  return out;
}

/**
 * A flag whose value is one of `choices`, in any case (src/contract/enums.ts canonicalChoice): the list's own spelling, or
 * a usage error that lists them. Every closed choice of the command line goes through here (or choiceOption).
 */
export function choiceFlag<T extends string>(
  flag: string,
  value: string | undefined,
  choices: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  const c = canonicalChoice(choices, value);
  if (c === undefined) throw usageError(`${flag}: ${oneOfRule(value, choices)}`);
  return c;
}

/** A repeatable flag whose values are each one of `choices` (choiceFlag for each). */
export function choiceList<T extends string>(
  flag: string,
  values: string[] | undefined,
  choices: readonly T[],
): T[] | undefined {
  return values?.map((x) => choiceFlag(flag, x, choices)!);
}

/**
 * A commander option with a closed set of values, taken in any case: help and completion list the choices, and the
 * action gets the canonical spelling (a value outside them is choiceFlag's usage error, named by the long flag).
 */
export function choiceOption(flags: string, description: string, choices: readonly string[]): Option {
  const o = new Option(flags, description).choices(choices);
  const name = o.long ?? o.short ?? flags;
  return o.argParser((v: string) => choiceFlag(name, v, choices)!);
}

/** A commander argument with a closed set of values, taken in any case (choiceOption's rule). */
export function choiceArgument(name: string, description: string, choices: readonly string[]): Argument {
  const a = new Argument(name, description).choices(choices);
  return a.argParser((v: string) => choiceFlag(a.name().toUpperCase(), v, choices)!);
}

const NAME = new RegExp(NAME_PATTERN);

/** Where the markets are listed, the hint of every message about a market that is not one. */
export const SEE_MARKETS = 'coinop markets lists them';

/**
 * A market argument or flag value, upper-cased, by its shape (a symbol such as BTCUSD); `what` names it in the message
 * (MARKET, --channel). Whether the service has it is checked once the service is known (src/cli/market-check.ts).
 */
export function marketFlag(what: string, value: string): string {
  const m = value.trim().toUpperCase();
  if (!NAME.test(m) || m.length > 40)
    throw usageError(
      `${what}: "${value}" is not a market symbol (capital letters and digits, such as BTCUSD)`,
      SEE_MARKETS,
    );
  return m;
}

/**
 * A name of the service's reference data (an asset or a network), in any case, by its shape: letters, digits and _,
 * kept in capitals (the names' one spelling). Whether the service has it is the catalogue's to say once the service
 * is known (the run's request check).
 */
export function nameFlag(flag: string, value: string | undefined): string | undefined {
  // An empty value is a value not given: asked for on a terminal.
  if (value === undefined || value.trim() === '') return value;
  const name = value.trim().toUpperCase();
  if (!NAME.test(name) || name.length > 40)
    throw usageError(`${flag}: "${value}" must be letters, digits and _ only (such as BTC or BITCOIN_CASH)`);
  return name;
}

/** A repeatable nameFlag (--network of a list). */
export const nameList = (flag: string, v: string[] | undefined) => v?.map((x) => nameFlag(flag, x)!);

const DAY_MS = 86_400_000;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: DAY_MS, w: 7 * DAY_MS, y: 365 * DAY_MS } as const;
export type DurationUnit = keyof typeof UNIT_MS;

/**
 * The one duration grammar: a number (decimals allowed) and a unit, ms, s, m, h, d, w or y (365 days): "90m", "1.5h",
 * "7d", "2w", "10y". `bareUnit`: the unit of a number written alone, where the flag allows one. Undefined when
 * `value` is no duration.
 */
export function durationMs(value: string, bareUnit?: DurationUnit): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d|w|y)?$/.exec(value.trim());
  const unit = (m?.[2] as DurationUnit | undefined) ?? bareUnit;
  return m && unit ? Number(m[1]) * UNIT_MS[unit] : undefined;
}

/** A duration flag: a positive duration (a bare number is seconds) of at most maxMs, in milliseconds. */
export function durationFlag(
  flag: string,
  value: string | undefined,
  maxMs: number,
  tooLong: string,
): number | undefined {
  if (value === undefined) return undefined;
  const ms = durationMs(value, 's');
  if (ms === undefined || ms <= 0) throw usageError(`${flag}: must be a positive time such as 30, 30s, 5m or 1h`);
  if (ms > maxMs) throw usageError(`${flag}: ${tooLong}`);
  return ms;
}

/**
 * --wait-timeout, of every command that follows transfers to their end (withdraw, transfer internal, withdraw batch,
 * transfers watch): how long to wait, 600 s unless given (waitTimeoutFlag reads it). The one declaration, as a flag
 * table's entry (src/cli/flags.ts).
 */
export function waitTimeoutSpec(description = 'give up waiting after this long (exit 10)') {
  return {
    kind: 'default',
    flag: '--wait-timeout <time>',
    help: `${description}: seconds, or such as 10m, 1h`,
    default: '600',
  } as const satisfies DefaultSpec;
}

/** --wait-timeout's value in seconds, at most `maxSeconds` (`flag`: the name it was given by). */
export function waitTimeoutFlag(value: string, maxSeconds: number, flag = '--wait-timeout'): number {
  return durationFlag(flag, value, maxSeconds * 1000, `must be at most ${maxSeconds / 3600} h`)! / 1000;
}

/** What a single money-moving command does around its request (withdraw fiat, convert), as its flags say. */
export interface SendSwitches {
  approvals?: string[];
  dryRun: boolean;
  yes: boolean;
  wait: boolean;
  waitApproval: boolean;
  /** Seconds to follow it with --wait (or a held request with --wait-approval), at most a day. */
  waitTimeout: number;
}

/** The switches as the flags give them, --wait-timeout read into seconds. */
export function sendSwitches(flags: Omit<SendSwitches, 'waitTimeout'> & { waitTimeout: string }): SendSwitches {
  const { approvals, dryRun, yes, wait, waitApproval } = flags;
  return { approvals, dryRun, yes, wait, waitApproval, waitTimeout: waitTimeoutFlag(flags.waitTimeout, 86_400) };
}

/** The latest time a Date can hold, in milliseconds either side of the epoch. */
const MAX_DATE_MS = 8.64e15;

/** The forms a time flag takes, as its help and its error say them. */
export const TIME_FORMS =
  'an RFC 3339 time (2026-01-02T15:04:05Z), a date (2026-01-02, midnight UTC), now, or a time back from now (90m, 24h, 7d, 2w, 1y; "7d ago" too)';

/** The time flags' forms in a flag's help. */
export const TIME_HELP = 'RFC 3339, a date (midnight UTC), now, or back from now such as 24h, 7d, 1y';

/** A calendar date that exists (2026-02-30 does not, though Date.parse takes it as March 2). */
const realDate = (ymd: string) => new Date(Date.parse(`${ymd}T00:00:00Z`) || 0).toISOString().startsWith(ymd);

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The one time grammar of the time flags (--from, --to, --created-*, --updated-*), named by `flag` in its error: an
 * RFC 3339 date-time as is, a date alone as its midnight UTC, "now", or a duration back from now ("90m", "24h",
 * "7d", "2w", "10y", "7d ago"). The result is RFC 3339.
 */
export function parseTime(flag: string, value: string | undefined, now: number): string | undefined {
  if (value === undefined) return undefined;
  const s = value.trim();
  if (s.toLowerCase() === 'now') return isoSeconds(now);
  if (DATE_ONLY.test(s) && realDate(s)) return `${s}T00:00:00Z`;
  if (RFC3339.test(s) && realDate(s.slice(0, 10)) && Number.isFinite(Date.parse(s))) return s;
  const back = durationMs(s.replace(/\s+ago$/i, ''));
  if (back !== undefined && Math.abs(now - back) <= MAX_DATE_MS) return isoSeconds(now - back);
  throw usageError(`${flag}: "${value}" is not a time; give ${TIME_FORMS}`);
}

/** The five filters of a timestamp field, by flag suffix and query operator: --created-before is created_at.lt. */
const TIME_FILTERS = [
  ['before', 'lt'],
  ['until', 'lte'],
  ['at', 'eq'],
  ['from', 'gte'],
  ['after', 'gt'],
] as const;

/** The flags of a field's time filters by query key ("created_at.lt": "--created-before"), for messages. */
export function timeFilterFlags(name: string, field: string): Record<string, string> {
  return Object.fromEntries(TIME_FILTERS.map(([flag, op]) => [`${field}.${op}`, `--${name}-${flag}`]));
}

/** A whole number flag within bounds (checked here, so the message names the flag). */
export function intFlag(flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim())) throw usageError(`${flag}: must be a whole number from ${min} to ${max}`);
  const n = Number(value);
  if (n < min || n > max) throw usageError(`${flag}: must be from ${min} to ${max}`);
  return n;
}

/** Flag values as commander hands them to an action (its option objects are untyped): read them with a flag table. */
export type RawFlags = Readonly<Record<string, unknown>>;

/** --amount and --total: one of them, never both (asked for on a terminal when neither is given). */
export function amountXorTotal(amount: string | undefined, total: string | undefined): void {
  if (amount !== undefined && total !== undefined) throw usageError('--amount and --total: give exactly one, not both');
}

/** Neither --amount nor --total was given, and nobody can be asked. */
export const amountOrTotalMissing = () => usageError('missing --amount or --total', 'give exactly one of them');

/** An amount flag: a plain decimal string (digits and one point, no sign or exponent), kept as the string it is. */
export function amountFlag(flag: string, value: string | undefined): string | undefined {
  if (value !== undefined && !isAmountString(value))
    throw usageError(
      `${flag}: must be a plain decimal number such as 0.05 (digits and one point, no sign or exponent)`,
    );
  return value;
}

/** A rate per second from 0 to `max` (`what` names what is counted); 0 is no limit (Infinity). */
export function rateFlag(flag: string, value: string, what: string, max: number): number {
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) > max)
    throw usageError(`${flag}: must be a number of ${what} per second from 0 (no limit) to ${max}`);
  return Number(value) === 0 ? Infinity : Number(value);
}

/** A flag whose value is a JSON object (--beneficiary, --travel-rule); `example` is shown when it does not parse. */
export function jsonObjectFlag(
  flag: string,
  value: string | undefined,
  example: string,
): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw usageError(`${flag}: must be a JSON object such as ${example}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw usageError(`${flag}: must be a JSON object`);
  return parsed as Record<string, unknown>;
}

/** A market named on the command line, upper-cased: a symbol of capitals and digits such as BTCUSD. */
export function marketArg(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const m = value.trim().toUpperCase();
  if (!new RegExp(MARKET_SYMBOL_PATTERN).test(m))
    throw usageError(`${name}: "${value}" is not a market symbol (letters and digits such as BTCUSD)`, SEE_MARKETS);
  return m;
}
