// A command's flags, declared once in a typed table: from it come the commander options (declare), the typed values
// of a parse (read: each flag's value typed by its kind, so nothing reads a flag back by a string key), the request
// field each flag gives (fields: the flag names of messages about the request) and the flags' names and lists.
import { LIST_ORDERS } from '../contract/enums.js';
import { type Command, Option } from 'commander';
import { choiceFlag, collect, parseTime, type RawFlags, repeat } from './options.js';

interface SpecBase {
  /** commander's flags: "--amount <amount>", "-y, --yes". The table's key is the flag's attribute ("amount", "yes"). */
  flag: string;
  /** What the flag's help says. */
  help: string;
  /** The request field the flag gives ("destination_address" for --address), for messages about the request. */
  field?: string;
  /** Shown nowhere (help, man, completion): a spelling kept working. */
  hidden?: boolean;
  /**
   * The values completion offers, for a flag whose command checks its value itself (other spellings, lists): a
   * choice flag offers its choices.
   */
  values?: readonly string[];
}

/** A flag taking a value: string, or undefined when not given. */
export interface TextSpec extends SpecBase {
  kind: 'text';
}
/** A flag taking a value, with a default: always a string. */
export interface DefaultSpec extends SpecBase {
  kind: 'default';
  default: string;
}
/** A switch: true when given, else false. */
export interface SwitchSpec extends SpecBase {
  kind: 'switch';
}
/** A repeatable flag: its values in order, or undefined when not given; `split` takes comma-separated values too. */
export interface ListSpec extends SpecBase {
  kind: 'list';
  split?: boolean;
}
/** A switch declared with its --no- form (`noHelp` its help): true, false, or undefined when neither was given. */
export interface ToggleSpec extends SpecBase {
  kind: 'toggle';
  noHelp: string;
}
/**
 * A flag whose value is one of `choices`, in any case (choiceOption): the canonical spelling, or undefined.
 * `exact`: only the spelling given in `choices`, commander's own check and message.
 */
export interface ChoiceSpec extends SpecBase {
  kind: 'choice';
  choices: readonly string[];
  exact?: boolean;
  /** The value when not given (then always one of `choices`). */
  default?: string;
}

export type FlagSpec = TextSpec | DefaultSpec | SwitchSpec | ListSpec | ToggleSpec | ChoiceSpec;
export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

/** The value of a flag of `S`'s kind, as read. */
export type FlagValue<S extends FlagSpec> = S extends { kind: 'text' }
  ? string | undefined
  : S extends { kind: 'default' }
    ? string
    : S extends { kind: 'switch' }
      ? boolean
      : S extends { kind: 'list' }
        ? string[] | undefined
        : S extends { kind: 'toggle' }
          ? boolean | undefined
          : S extends { kind: 'choice'; choices: readonly (infer C)[]; default: string }
            ? C
            : S extends { kind: 'choice'; choices: readonly (infer C)[] }
              ? C | undefined
              : never;

/** The typed values of a table's flags, by key. */
export type FlagValues<T extends FlagSpecs> = { -readonly [K in keyof T]: FlagValue<T[K]> };

export interface FlagTable<T extends FlagSpecs> {
  readonly specs: T;
  /** The keys, in the table's order. */
  readonly keys: (keyof T & string)[];
  /** Adds the table's options to `cmd` (or those of `keys`), in the table's order (its help's order). */
  declare(cmd: Command, keys?: readonly (keyof T & string)[]): Command;
  /** The flags' values as commander gives them to an action (or opts()), typed by each flag's kind. */
  read(raw: RawFlags): FlagValues<T>;
  /** The flag that gives each request field (for messages about the request). */
  readonly fields: Record<string, string>;
  /** The long flag of a key: "--fee-id" for feeId. */
  flag(key: keyof T & string): string;
  /** The keys of the flags with a value (a default counts; a switch only when on), in the table's order. */
  given(raw: RawFlags, keys?: readonly (keyof T & string)[]): (keyof T & string)[];
  /**
   * The flags as commander would give them for `values` (the flags set in code, not typed), the defaults of the others
   * filled in: what read() and a command's options parser take.
   */
  raw(values: Partial<FlagValues<T>>): RawFlags;
  /** Every spelling (short and long) of the flags that take a value ("-o", "--output"), in the table's order. */
  valueSpellings(): string[];
}

/** The values a spec declares for completion, by the commander option made from it. */
const OFFERED = new WeakMap<Option, readonly string[]>();

/** The values completion offers for an option: its choices, or the `values` its spec declares. */
export function offeredValues(option: Option): readonly string[] | undefined {
  return option.argChoices ?? OFFERED.get(option);
}

/**
 * The long flag of a spec's flags ("-o, --output <format>" gives "--output"), as commander's Option reads it: tables
 * defined at start (the global and list flags) name their flags without making an Option each (commander parses
 * them again when a command declares them). test/cli/flags.test.ts holds it to commander for every flag of the tree.
 */
export function longFlag(flags: string): string | undefined {
  return /(?:^|[ |,])(--[^ |,]+)/.exec(flags)?.[1];
}

/** The commander options of one spec (two for a toggle: --x and --no-x). */
function optionsOf(key: string, spec: FlagSpec): Option[] {
  const o = new Option(spec.flag, spec.help);
  if (spec.hidden) o.hideHelp();
  if (spec.values) OFFERED.set(o, spec.values);
  const out = [o];
  switch (spec.kind) {
    case 'default':
      o.default(spec.default);
      break;
    case 'list':
      o.argParser(spec.split ? collect : repeat);
      break;
    case 'choice': {
      const name = o.long ?? o.short ?? spec.flag;
      o.choices(spec.choices);
      if (spec.default !== undefined) o.default(spec.default);
      if (!spec.exact) o.argParser((v: string) => choiceFlag(name, v, spec.choices)!);
      break;
    }
    case 'toggle': {
      const no = new Option(`--no-${o.long!.slice(2)}`, spec.noHelp);
      if (spec.hidden) no.hideHelp();
      out.push(no);
      break;
    }
  }
  if (o.attributeName() !== key) throw new Error(`internal: flag ${spec.flag} is declared under the key ${key}`);
  return out;
}

/** The value of `key` checked against its kind: another type is a bug of the declarations, not bad input. */
function checkedValue(key: string, spec: FlagSpec, raw: RawFlags): unknown {
  const v = raw[key];
  const wrong = (want: string) => new Error(`internal: the flag value ${key} is not ${want}`);
  switch (spec.kind) {
    case 'switch':
      if (v !== undefined && typeof v !== 'boolean') throw wrong('a switch');
      return v === true;
    case 'toggle':
      if (v !== undefined && typeof v !== 'boolean') throw wrong('a switch');
      return v;
    case 'list':
      if (v !== undefined && !(Array.isArray(v) && v.every((s) => typeof s === 'string'))) throw wrong('a list');
      return v;
    case 'default':
      if (typeof v !== 'string') throw wrong('given (its declaration has a default)');
      return v;
    case 'choice':
      if (spec.default !== undefined && typeof v !== 'string') throw wrong('given (its declaration has a default)');
      if (v !== undefined && typeof v !== 'string') throw wrong('a string');
      return v;
    default:
      if (v !== undefined && typeof v !== 'string') throw wrong('a string');
      return v;
  }
}

/** A command's flags from their table (`as const` keeps choices typed). */
export function defineFlags<const T extends FlagSpecs>(specs: T): FlagTable<T> {
  const entries = Object.entries(specs) as [keyof T & string, FlagSpec][];
  const fields: Record<string, string> = {};
  const longs = new Map<string, string>();
  for (const [key, spec] of entries) {
    const long = longFlag(spec.flag) ?? spec.flag;
    longs.set(key, long);
    if (spec.field !== undefined) fields[spec.field] = long;
  }
  return {
    specs,
    keys: entries.map(([k]) => k),
    fields,
    declare(cmd, keys) {
      for (const [key, spec] of entries)
        if (!keys || keys.includes(key)) for (const o of optionsOf(key, spec)) cmd.addOption(o);
      return cmd;
    },
    read(raw) {
      const out: Record<string, unknown> = {};
      for (const [key, spec] of entries) out[key] = checkedValue(key, spec, raw);
      return out as FlagValues<T>;
    },
    flag: (key) => longs.get(key)!,
    given(raw, keys = entries.map(([k]) => k)) {
      return keys.filter((k) => raw[k] !== undefined && raw[k] !== false);
    },
    raw(values) {
      const out: Record<string, unknown> = {};
      for (const [key, spec] of entries) {
        const given = (values as Record<string, unknown>)[key];
        if (given !== undefined) out[key] = given;
        else if ((spec.kind === 'default' || spec.kind === 'choice') && spec.default !== undefined)
          out[key] = spec.default;
      }
      return out;
    },
    valueSpellings() {
      const out: string[] = [];
      for (const [, spec] of entries) {
        const o = new Option(spec.flag);
        if (o.required || o.optional) for (const s of [o.short, o.long]) if (s) out.push(s);
      }
      return out;
    },
  };
}

const TIME_FILTER_OPS = [
  ['Before', 'before', 'lt'],
  ['Until', 'until', 'lte'],
  ['At', 'at', 'eq'],
  ['From', 'from', 'gte'],
  ['After', 'after', 'gt'],
] as const;
type TimeFilterKey<N extends string> = `${N}${(typeof TIME_FILTER_OPS)[number][0]}`;

/**
 * The five time filters of a timestamp field (--NAME-before ... --NAME-after, timeFilters reads them), each giving
 * the query key FIELD.OP; `help` says each one's help from its query key and operator ("lt" first).
 */
export function timeFilterSpecs<N extends string>(
  name: N,
  field: string,
  help: (key: string, op: string) => string,
): Record<TimeFilterKey<N>, TextSpec> {
  const out: Record<string, TextSpec> = {};
  for (const [suffix, word, op] of TIME_FILTER_OPS)
    out[`${name}${suffix}`] = {
      kind: 'text',
      flag: `--${name}-${word} <time>`,
      help: help(`${field}.${op}`, op),
      field: `${field}.${op}`,
    };
  return out as Record<TimeFilterKey<N>, TextSpec>;
}

/** A field's time filters from the values of its timeFilterSpecs (parseTime each), by query key; unset ones left out. */
export function timeFilters<N extends string>(
  values: { readonly [K in TimeFilterKey<N>]?: string | undefined },
  name: N,
  field: string,
  now: number,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [suffix, word, op] of TIME_FILTER_OPS) {
    const v = values[`${name}${suffix}` as TimeFilterKey<N>];
    if (v !== undefined) out[`${field}.${op}`] = parseTime(`--${name}-${word}`, v, now)!;
  }
  return out;
}

/**
 * A list's paging flags as the service's list operations take them: --limit (1 to 1000, default 100), --order and
 * --order-by (`orderBy`: the operation's sort keys).
 */
export function pageSpecs(orderBy: readonly string[]): { limit: TextSpec; order: ChoiceSpec; orderBy: ChoiceSpec } {
  return {
    limit: { kind: 'text', flag: '--limit <n>', help: 'items per page (1 to 1000, default 100)', field: 'limit' },
    order: { kind: 'choice', flag: '--order <order>', help: 'sort direction', choices: LIST_ORDERS, field: 'order' },
    orderBy: { kind: 'choice', flag: '--order-by <key>', help: 'sort key', choices: orderBy, field: 'order_by' },
  };
}

/** --ref-id of a write that moves money or makes a resource: one declaration for every command that sends one. */
export const REF_ID_SPEC: TextSpec = {
  kind: 'text',
  flag: '--ref-id <id>',
  help: 'client id for replay protection (default: generated and printed)',
  field: 'ref_id',
};
