// Reading a policy file: YAML or JSON (the yaml package reads both, and knows the line of every value), checked
// against the schema (schema.ts) and then the rules a schema cannot state. Every problem names the file, the line,
// the field and the rule; a file with a problem never loads (no rules is never the fallback).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import { addressIssues, CRYPTO_NETWORKS, type Issue, NAME_PATTERN, schemaIssues } from '../contract/index.js';
import { ENVIRONMENTS } from '../config/environments.js';
import { parseWindow, type HoursWindow } from './hours.js';
import { parsePublicKey } from './keys.js';
import type { Approver, LoadedPolicy, Pin, Policy } from './policy.js';
import { POLICY_FIELDS, PolicyFile } from './schema.js';

export interface PolicyIssue extends Issue {
  line?: number;
}

/** A policy file that does not load: every problem, the first in the message (`FILE:LINE: field: rule`). */
export class PolicyFileError extends Error {
  constructor(
    readonly file: string,
    readonly issues: PolicyIssue[],
  ) {
    super(formatPolicyIssue(file, issues[0]));
  }
}

export const formatPolicyIssue = (file: string, i: PolicyIssue): string =>
  `${file}${i.line ? `:${i.line}` : ''}: ${i.field ? `${i.field}: ` : ''}${i.rule}`;

/** Unions, whose branches each report: one message for the field, unless a branch's own field is named deeper. */
const UNIONS: [RegExp, string][] = [
  [/^version$/, 'must be 1 (the only version so far)'],
  [
    /^destinations$/,
    'must be bookmarked_only, or a list of nicknames of the address book, addresses and pins ({nickname:, address:, network:})',
  ],
  [
    /^destinations\.\d+$/,
    'must be a nickname, an address, or a pin: {nickname: NAME, address: ADDRESS, network: NETWORK}',
  ],
  [/^hours$/, 'must be a window such as "09:00-18:00 Europe/Zurich", or a list of them'],
  [/^approvals\.keys\.\d+$/, 'must be a public key (ed25519:...), or an entry with name: and key:'],
  [/^policy_changes\.keys\.\d+$/, 'must be a public key (ed25519:...), or an entry with name: and key:'],
  [/^approvals\.environments\.\d+$/, `must be one of ${ENVIRONMENTS.join(', ')}`],
];

function unionOf(field: string): { path: string; rule: string } | undefined {
  const parts = field.split('.');
  for (let n = parts.length; n > 0; n--) {
    const path = parts.slice(0, n).join('.');
    const u = UNIONS.find(([re]) => re.test(path));
    if (u) return { path, rule: u[1] };
  }
  return undefined;
}

function collapseUnions(issues: Issue[]): Issue[] {
  const out: Issue[] = [];
  const said = new Set<string>();
  for (const i of issues) {
    const u = unionOf(i.field);
    if (!u) out.push(i);
    else if (i.field !== u.path) out.push(i);
    else if (!issues.some((j) => j.field.startsWith(`${u.path}.`)) && !said.has(u.path)) {
      said.add(u.path);
      out.push({ field: u.path, rule: u.rule });
    }
  }
  return out.map((i) =>
    i.rule === 'is not a known field' && !i.field.includes('.')
      ? { ...i, rule: `is not a known field (the rules are ${POLICY_FIELDS.join(', ')})` }
      : i,
  );
}

/** The line of a field ("approvals.keys.1"): its key's line in a mapping, its item's in a list; else its parent's. */
function lineOf(doc: Document, lc: LineCounter, field: string): number | undefined {
  let node: unknown = doc.contents;
  let offset: number | undefined;
  for (const part of field ? field.split('.') : []) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === part);
      if (!pair) break;
      offset = (pair.key as { range?: [number, number, number] }).range?.[0] ?? offset;
      node = pair.value;
    } else if (isSeq(node) && /^\d+$/.test(part)) {
      const item = node.items[Number(part)] as { range?: [number, number, number] } | undefined;
      if (!item) break;
      offset = item.range?.[0] ?? offset;
      node = item;
    } else break;
  }
  offset ??= (doc.contents as { range?: [number, number, number] } | null)?.range?.[0];
  return offset === undefined ? undefined : lc.linePos(offset).line;
}

/** A scalar YAML read as a number, as it was written (a plain scalar keeps its source text). */
function asWritten(node: unknown): void {
  if (isScalar(node) && typeof node.value === 'number') node.value = node.source ?? String(node.value);
}

/**
 * Values that YAML would read as numbers are taken as written: amounts ("0.50", never through a float), and
 * destinations (an EVM address such as 0xF0aa... is a hexadecimal number to YAML, a nickname may be digits).
 */
function valuesAsWritten(doc: Document): void {
  for (const path of [['max_per_withdrawal'], ['max_per_24h'], ['approvals', 'above']]) {
    const map = doc.getIn(path, true);
    if (isMap(map)) for (const pair of map.items) asWritten(pair.value);
  }
  const destinations = doc.get('destinations', true);
  if (isSeq(destinations))
    for (const item of destinations.items) {
      asWritten(item);
      if (isMap(item)) for (const pair of item.items) asWritten(pair.value);
    }
}

/** Parses and checks a policy's text; `file` names it in messages. */
export function parsePolicy(text: string, file: string): LoadedPolicy {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  const fail = (issues: PolicyIssue[]): never => {
    throw new PolicyFileError(file, issues);
  };
  if (doc.errors.length)
    fail(
      doc.errors.map((e) => ({
        field: '',
        rule: `not valid YAML or JSON: ${e.message}`,
        line: lc.linePos(e.pos[0]).line,
      })),
    );
  if (!isMap(doc.contents))
    fail([
      {
        field: '',
        rule: doc.contents
          ? 'must be a mapping of rules (destinations:, assets:, max_per_withdrawal: ...)'
          : 'is empty: a policy is a mapping of rules (coinop policy init writes a starter file)',
        line: doc.contents ? lineOf(doc, lc, '') : undefined,
      },
    ]);
  valuesAsWritten(doc);
  const raw = doc.toJS() as unknown;
  const withLines = (issues: Issue[]) => issues.map((i) => ({ ...i, line: lineOf(doc, lc, i.field) }));
  const schema = collapseUnions(schemaIssues(PolicyFile, raw));
  if (schema.length) fail(withLines(schema));
  const { policy, issues } = checkRules(raw as PolicyFile);
  if (issues.length) fail(withLines(issues));
  return { file, sha256: createHash('sha256').update(text).digest('hex'), policy };
}

/** Reads and checks a policy file. A file that cannot be read is a PolicyFileError too (it names the reason). */
export function loadPolicyFile(file: string): LoadedPolicy {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new PolicyFileError(file, [
      { field: '', rule: code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? String(e)})` },
    ]);
  }
  return parsePolicy(text, file);
}

const NAME = new RegExp(NAME_PATTERN);

/** A map of asset -> amount, its asset names checked ("*": any other asset). */
function amountMap(
  field: string,
  amounts: Record<string, string> | undefined,
  issues: Issue[],
): Map<string, string> | undefined {
  if (!amounts) return undefined;
  for (const k of Object.keys(amounts))
    if (k !== '*' && (!NAME.test(k) || k.length > 40))
      issues.push({
        field: `${field}.${k}`,
        rule: 'must be an asset name in capitals such as BTC, or * for any other asset',
      });
  return new Map(Object.entries(amounts));
}

function hoursOf(hours: string | string[] | undefined, issues: Issue[]): HoursWindow[] | undefined {
  if (hours === undefined) return undefined;
  const list = typeof hours === 'string' ? [hours] : hours;
  return list.flatMap((text, index) => {
    const w = parseWindow(text);
    if ('rule' in w) {
      issues.push({ field: typeof hours === 'string' ? 'hours' : `hours.${index}`, rule: w.rule });
      return [];
    }
    return [w];
  });
}

type KeyEntries = NonNullable<PolicyFile['approvals']>['keys'];

function approversOf(entries: KeyEntries, issues: Issue[], under = 'approvals'): Approver[] {
  const seen = new Map<string, number>();
  return entries.flatMap((entry, index) => {
    const { name, key } = typeof entry === 'string' ? { name: undefined, key: entry } : entry;
    const field = typeof entry === 'string' ? `${under}.keys.${index}` : `${under}.keys.${index}.key`;
    const parsed = parsePublicKey(key);
    if ('rule' in parsed) {
      issues.push({ field, rule: parsed.rule });
      return [];
    }
    const first = seen.get(parsed.id);
    if (first !== undefined) issues.push({ field, rule: `the same key as entry ${first} (each approver once)` });
    seen.set(parsed.id, index);
    return [{ name, key: parsed.text, id: parsed.id }];
  });
}

/** The destinations: nicknames and addresses as listed, each pin's nickname among them and its address checked. */
function destinationsOf(
  destinations: PolicyFile['destinations'],
  issues: Issue[],
): Pick<Policy, 'destinations' | 'pins'> {
  if (destinations === undefined || typeof destinations === 'string') return { destinations: destinations };
  const pins = new Map<string, Pin>();
  const pinnedAt = new Map<string, number>();
  destinations.forEach((entry, index) => {
    if (typeof entry !== 'string' && !pinnedAt.has(entry.nickname)) pinnedAt.set(entry.nickname, index);
  });
  const names = destinations.map((entry, index) => {
    const name = typeof entry === 'string' ? entry : entry.nickname;
    const at = pinnedAt.get(name);
    if (at !== undefined && at !== index)
      issues.push({
        field: `destinations.${index}`,
        rule: `${name} is pinned at entry ${at}: list a pinned nickname once`,
      });
    if (typeof entry === 'string') return name;
    if (!(CRYPTO_NETWORKS as readonly string[]).includes(entry.network))
      issues.push({ field: `destinations.${index}.network`, rule: `must be one of ${CRYPTO_NETWORKS.join(', ')}` });
    else
      for (const a of addressIssues(entry.network, entry.address))
        issues.push({ field: `destinations.${index}.address`, rule: `is not a ${entry.network} address: ${a.rule}` });
    pins.set(name, { address: entry.address, network: entry.network });
    return name;
  });
  return { destinations: names, ...(pins.size ? { pins } : {}) };
}

/** The rules a schema cannot state, and the policy as coinop works with it. */
function checkRules(raw: PolicyFile): { policy: Policy; issues: Issue[] } {
  const issues: Issue[] = [];
  const policy: Policy = {
    ...destinationsOf(raw.destinations, issues),
    ...(raw.verified_only ? { verifiedOnly: true } : {}),
    networks: raw.networks,
    assets: raw.assets,
    maxPerWithdrawal: amountMap('max_per_withdrawal', raw.max_per_withdrawal, issues),
    maxPer24h: amountMap('max_per_24h', raw.max_per_24h, issues),
    hours: hoursOf(raw.hours, issues),
  };
  const a = raw.approvals;
  if (a) {
    const keys = approversOf(a.keys, issues);
    if (a.required > a.keys.length)
      issues.push({
        field: 'approvals.required',
        rule: `${a.required} approvals cannot come from ${a.keys.length} key${a.keys.length === 1 ? '' : 's'} (list more keys, or require fewer)`,
      });
    policy.approvals = {
      required: a.required,
      keys,
      above: amountMap('approvals.above', a.above, issues),
      environments: a.environments ?? ['production'],
    };
  }
  const changes = policyChangesOf(raw, issues);
  if (changes) policy.policyChanges = changes;
  return { policy, issues };
}

/** policy_changes: its own keys, else the approvals' keys; as many keys as it requires. */
function policyChangesOf(raw: PolicyFile, issues: Issue[]): Policy['policyChanges'] {
  const c = raw.policy_changes;
  if (!c) return undefined;
  const own = c.keys !== undefined;
  const entries = c.keys ?? raw.approvals?.keys;
  if (!entries) {
    issues.push({
      field: 'policy_changes.keys',
      rule: 'is needed: list the keys whose approvals count (or give approvals: keys for it to use)',
    });
    return undefined;
  }
  const keys = own ? approversOf(entries, issues, 'policy_changes') : approversOf(entries, []);
  if (c.required > entries.length)
    issues.push({
      field: 'policy_changes.required',
      rule: `${c.required} approvals cannot come from ${entries.length} key${entries.length === 1 ? '' : 's'}${own ? '' : ' (the approvals: keys)'} (list more keys, or require fewer)`,
    });
  return { required: c.required, keys };
}
