// A team's policy as coinop works with it, once its file has loaded (load.ts): every rule optional, an absent one
// allows everything it would govern. The names of the rules are the file's keys, and the names verdicts and
// refusals use.
import type { HoursWindow } from './hours.js';

export const RULES = [
  'destinations',
  'verified_only',
  'networks',
  'assets',
  'max_per_withdrawal',
  'max_per_24h',
  'hours',
  'approvals',
] as const;
export type RuleName = (typeof RULES)[number];

/** An approver: a public key the policy lists, and the name the team gave it. */
export interface Approver {
  name?: string;
  /** ed25519:BASE64 of the 32-byte public key. */
  key: string;
  /** The key's fingerprint: the first 16 hex digits of the SHA-256 of its 32 bytes. */
  id: string;
}

export interface ApprovalRule {
  required: number;
  keys: Approver[];
  /** Per asset ("*": any other), the total of a run above which approvals are needed; absent: always needed. */
  above?: Map<string, string>;
  /** The environments where the rule applies (production unless the file says). */
  environments: string[];
}

/** At a gateway: how many approvals a new version of the policy needs, and whose keys count. */
export interface PolicyChangeRule {
  required: number;
  keys: Approver[];
}

/** A nickname the policy pins to one address on one network. */
export interface Pin {
  address: string;
  network: string;
}

export interface Policy {
  /**
   * "bookmarked_only", or nicknames of the service's address book and addresses, in the file's order (a pinned
   * nickname is listed too, its address in `pins`).
   */
  destinations?: 'bookmarked_only' | string[];
  /** Nickname -> the one address it allows, whatever the address book says. */
  pins?: Map<string, Pin>;
  /** A crypto withdrawal's address must be verified by the service as the customer's own (an APPROVED verification). */
  verifiedOnly?: boolean;
  networks?: string[];
  assets?: string[];
  /** Per asset ("*": any other asset), the most one withdrawal may send. */
  maxPerWithdrawal?: Map<string, string>;
  /** Per asset ("*": any other asset), the most the withdrawals of any 24 hours may send. */
  maxPer24h?: Map<string, string>;
  hours?: HoursWindow[];
  approvals?: ApprovalRule;
  policyChanges?: PolicyChangeRule;
}

export interface LoadedPolicy {
  file: string;
  /** The SHA-256 of the file's bytes: which version of the policy decided. */
  sha256: string;
  policy: Policy;
}

/** A per-asset limit: the asset's own, else the "*" entry, else none. */
export function limitFor(map: Map<string, string> | undefined, asset: string): string | undefined {
  return map?.get(asset) ?? map?.get('*');
}

const plain = (m: Map<string, string> | undefined) => (m ? Object.fromEntries(m) : null);

/** The policy as JSON (coinop policy show -o json): the file's own names, null for a rule it does not set. */
export function policyJson(policy: Policy): Record<string, unknown> {
  return {
    destinations: Array.isArray(policy.destinations)
      ? policy.destinations.map((destination) => {
          const pin = policy.pins?.get(destination);
          return pin ? { nickname: destination, address: pin.address, network: pin.network } : destination;
        })
      : (policy.destinations ?? null),
    verified_only: policy.verifiedOnly ? true : null,
    networks: policy.networks ?? null,
    assets: policy.assets ?? null,
    max_per_withdrawal: plain(policy.maxPerWithdrawal),
    max_per_24h: plain(policy.maxPer24h),
    hours: policy.hours?.map((w) => w.text) ?? null,
    approvals: policy.approvals
      ? {
          required: policy.approvals.required,
          keys: policy.approvals.keys.map((k) => ({ name: k.name ?? null, key: k.key, key_id: k.id })),
          above: plain(policy.approvals.above),
          environments: policy.approvals.environments,
        }
      : null,
    policy_changes: policy.policyChanges
      ? {
          required: policy.policyChanges.required,
          keys: policy.policyChanges.keys.map((k) => ({ name: k.name ?? null, key: k.key, key_id: k.id })),
        }
      : null,
  };
}

const amounts = (m: Map<string, string> | undefined) =>
  m && [...m].map(([asset, v]) => `${v} ${asset === '*' ? '(any other asset)' : asset}`).join(', ');

/** Each rule in words, for a person (coinop policy show): [rule, what it says]; "any" where the policy is silent. */
export function describePolicy(policy: Policy): [string, string][] {
  const a = policy.approvals;
  const approvers = a?.keys.map((k) => (k.name ? `${k.name} (${k.id})` : k.id)).join(', ');
  return [
    [
      'destinations',
      policy.destinations === 'bookmarked_only'
        ? 'bookmarked addresses of the address book only'
        : policy.destinations
          ? policy.destinations
              .map((destination) => {
                const pin = policy.pins?.get(destination);
                return pin ? `${destination} (pinned to ${pin.address} on ${pin.network})` : destination;
              })
              .join(', ')
          : 'any',
    ],
    [
      'verified_only',
      policy.verifiedOnly
        ? "addresses the service verified as the customer's own only (coinop addresses verify)"
        : 'any address',
    ],
    ['networks', policy.networks?.join(', ') ?? 'any'],
    ['assets', policy.assets?.join(', ') ?? 'any'],
    ['max_per_withdrawal', amounts(policy.maxPerWithdrawal) ?? 'no limit'],
    ['max_per_24h', amounts(policy.maxPer24h) ?? 'no limit'],
    ['hours', policy.hours?.map((w) => w.text).join(', ') ?? 'any time'],
    [
      'approvals',
      a
        ? `${a.required} of ${approvers}, in ${a.environments.join(', ')}, ${a.above ? `when a run's total is above ${amounts(a.above)}` : 'for every run'}`
        : 'none needed',
    ],
    ...(policy.policyChanges
      ? [
          [
            'policy_changes',
            `at a gateway, a new version needs ${policy.policyChanges.required} of ${policy.policyChanges.keys.map((k) => (k.name ? `${k.name} (${k.id})` : k.id)).join(', ')}`,
          ] as [string, string],
        ]
      : []),
  ];
}
