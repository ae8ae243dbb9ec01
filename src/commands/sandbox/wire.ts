// The wire instructions of a sandbox deposit, field by field: the request field each flag gives, the sandbox's value
// for a required field nobody gave, and the prompt a person answers on a terminal. The hosted OpenAPI requires
// account_number, fiat_account_owner_address (with country) and routing_details (routing_number_type ABA or SWIFT,
// routing_number, bank_name, bank_address with country); the rest are optional parts a flag or the file may add.

import { BANK_EXAMPLES } from '../../cli/bank-rules.js';

/** A field of the deposit request given by a flag (its path under the request body). */
export interface WireField {
  /** The request field: "fiat_network_instructions.wire.account_number". */
  path: string;
  flag: string;
  /** The flag's attribute in commander's options ("accountNumber"). */
  key: string;
  /** What the flag's help says. */
  help: string;
  /**
   * A required field's value when neither a flag, the file nor the operator gives one: a simulated wire needs an
   * account and a bank, and in the sandbox any well-formed one will do. The routing number's depends on its type.
   */
  fallback?: string | ((routingType: string) => string);
  /** Asked on a terminal when neither a flag nor the file gives it (the fallback offered as the answer). */
  ask?: string;
}

const WIRE = 'fiat_network_instructions.wire';
const OWNER_ADDRESS = `${WIRE}.fiat_account_owner_address`;
const ROUTING = `${WIRE}.routing_details`;
const BANK_ADDRESS = `${ROUTING}.bank_address`;

export const ROUTING_NUMBER_TYPES = ['ABA', 'SWIFT'] as const;

/** The sandbox's sending bank: JPMorgan Chase's published ABA routing number and BIC, valid in form. */
const SANDBOX_BANK = { ...BANK_EXAMPLES, name: 'JPMorgan Chase Bank', country: 'USA' } as const;

/** A mailing address's parts, each by its own flag: `prefix` owner or bank. */
function addressFields(base: string, prefix: 'owner' | 'bank', whose: string): WireField[] {
  const key = (part: string) => `${prefix}${part[0].toUpperCase()}${part.slice(1)}`;
  return [
    {
      path: `${base}.country`,
      flag: `--${prefix}-country`,
      key: key('country'),
      help: `${whose} address: country (default ${SANDBOX_BANK.country})`,
      fallback: SANDBOX_BANK.country,
    },
    { path: `${base}.address1`, flag: `--${prefix}-address`, key: key('address'), help: `${whose} address: line 1` },
    { path: `${base}.address2`, flag: `--${prefix}-address2`, key: key('address2'), help: `${whose} address: line 2` },
    { path: `${base}.city`, flag: `--${prefix}-city`, key: key('city'), help: `${whose} address: city` },
    {
      path: `${base}.province`,
      flag: `--${prefix}-province`,
      key: key('province'),
      help: `${whose} address: province or state`,
    },
    {
      path: `${base}.zip_code`,
      flag: `--${prefix}-zip`,
      key: key('zip'),
      help: `${whose} address: zip or postal code`,
    },
  ];
}

/** Every field a flag gives, in the order of the help. */
export const WIRE_FIELDS: readonly WireField[] = [
  {
    path: `${WIRE}.account_number`,
    flag: '--account-number',
    key: 'accountNumber',
    help: 'the sending bank account number (default 000123456789)',
    fallback: BANK_EXAMPLES.account,
    ask: 'Sending account number',
  },
  ...addressFields(OWNER_ADDRESS, 'owner', "the account owner's"),
  {
    path: `${ROUTING}.routing_number_type`,
    flag: '--routing-type',
    key: 'routingType',
    help: 'the routing number type: ABA or SWIFT (default ABA)',
    fallback: 'ABA',
  },
  {
    path: `${ROUTING}.routing_number`,
    flag: '--routing-number',
    key: 'routingNumber',
    help: `the sending bank's routing number: 9 digits for ABA, a BIC for SWIFT (default ${SANDBOX_BANK.aba}, or ${SANDBOX_BANK.swift})`,
    fallback: (type) => (type === 'SWIFT' ? SANDBOX_BANK.swift : SANDBOX_BANK.aba),
    ask: 'Routing number',
  },
  {
    path: `${ROUTING}.bank_name`,
    flag: '--bank-name',
    key: 'bankName',
    help: `the sending bank's name (default ${SANDBOX_BANK.name})`,
    fallback: SANDBOX_BANK.name,
    ask: 'Bank name',
  },
  ...addressFields(BANK_ADDRESS, 'bank', "the bank's"),
  {
    path: 'fiat_account_owner.institution_details.name',
    flag: '--institution',
    key: 'institution',
    help: 'the account owner, an institution: its name',
  },
  {
    path: 'fiat_account_owner.person_details.first_name',
    flag: '--owner-first-name',
    key: 'ownerFirstName',
    help: 'the account owner, a person: first name (with --owner-last-name)',
  },
  {
    path: 'fiat_account_owner.person_details.last_name',
    flag: '--owner-last-name',
    key: 'ownerLastName',
    help: 'the account owner, a person: last name',
  },
];

export const ROUTING_TYPE_FIELD = WIRE_FIELDS.find((f) => f.key === 'routingType')!;

/** The value at a dotted path of a JSON object, if it is there. */
export function valueAt(object: unknown, path: string): unknown {
  let v = object;
  for (const k of path.split('.')) {
    if (!v || typeof v !== 'object' || Array.isArray(v) || !Object.hasOwn(v, k)) return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/** Sets the value at a dotted path, making the objects on the way (an object of the file is copied first). */
export function setAt(object: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let at = object;
  for (const k of keys.slice(0, -1)) {
    const next = at[k];
    at[k] = next && typeof next === 'object' && !Array.isArray(next) ? { ...(next as object) } : {};
    at = at[k] as Record<string, unknown>;
  }
  at[keys[keys.length - 1]] = value;
}

export { routingNumberRule } from '../../cli/bank-rules.js';
