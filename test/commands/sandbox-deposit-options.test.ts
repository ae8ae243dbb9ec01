// coinop sandbox deposit: a real argv, parsed by the command's declared flags, to typed options (the contract checks the request the run builds), the flag of
// each field of the wire instructions, the routing number's rule, and the rule the amount prompt applies.
import { describe, expect, it } from 'vitest';
import {
  depositAmountRule,
  parseSandboxDepositOptions,
  type SandboxDepositOptions,
} from '../../src/commands/sandbox/options.js';
import { routingNumberRule, WIRE_FIELDS } from '../../src/commands/sandbox/wire.js';
import { OPENAPI } from '../support/openapi.js';
import { declareSandboxDeposit } from '../../src/commands/sandbox/flags.js';
import { parseArgv } from '../support/argv.js';
import { usageMessage } from './support.js';

const NONE: SandboxDepositOptions = { amount: undefined, asset: 'USD', memoId: undefined, file: undefined, wire: {} };

describe('parseSandboxDepositOptions', () => {
  const parse = (argv: string[]) => parseSandboxDepositOptions(parseArgv(declareSandboxDeposit, argv));

  it('the defaults: no wire flag given (the run fills the file, the answers and the sandbox values in)', () => {
    expect(parse([])).toEqual(NONE);
  });

  it('every flag, each by its field; the routing type upper-cased, empty values left out', () => {
    const argv = ['--amount', '1000.00', '--memo-id', 'M-1', '--file', 'wire.json'];
    const value = (key: string) =>
      ({ routingType: 'swift', ownerCity: '', accountNumber: '12345678' })[key] ?? `v ${key}`;
    for (const f of WIRE_FIELDS) if (f.key !== 'institution') argv.push(f.flag, value(f.key));
    const o = parse(argv);
    expect(o).toMatchObject({ amount: '1000.00', asset: 'USD', memoId: 'M-1', file: 'wire.json' });
    expect(o.wire.routingType).toBe('SWIFT');
    expect(o.wire.ownerCity).toBeUndefined();
    expect(o.wire.bankZip).toBe('v bankZip');
    expect(o.wire.accountNumber).toBe('12345678');
    expect(Object.keys(o.wire)).toHaveLength(WIRE_FIELDS.length - 2);
  });

  it.each([
    [['--routing-type', 'IBAN'], '--routing-type: must be one of ABA, SWIFT'],
    // The numbers by the rules their prompts keep, before anything is asked (issue 29).
    [
      ['--account-number', 'coinop sandbox deposit --amount 10 | tee log'],
      '--account-number: must be letters and digits (dashes between them), at most 34 (such as 000123456789)',
    ],
    [['--routing-number', '12'], '--routing-number: must be 9 digits for ABA (such as 021000021)'],
    [
      ['--routing-type', 'SWIFT', '--routing-number', '021000021'],
      '--routing-number: must be a BIC of 8 or 11 capitals and digits for SWIFT (such as CHASUS33)',
    ],
    [
      ['--institution', 'ACME', '--owner-first-name', 'Ada'],
      '--institution and --owner-first-name/--owner-last-name: give one owner, an institution or a person',
    ],
  ])('%o: %s', (argv, message) => {
    expect(usageMessage(() => parse(argv))).toBe(message);
  });

  it('--instructions instead of --memo-id', () => {
    expect(parse(['--instructions', 'i-1'])).toEqual({ ...NONE, instructions: 'i-1' });
  });

  it.each([
    [
      ['--memo-id', 'M', '--instructions', 'i-1'],
      '--memo-id and --instructions: give one (--instructions takes the memo id from them)',
    ],
    [['--instructions', 'x'.repeat(129)], '--instructions: must be at most 128 characters'],
    [['--instructions', ''], '--instructions: must not be empty'],
  ])('%j is refused', (argv, message) => {
    expect(usageMessage(() => parse(argv))).toBe(message);
  });

  it('takes flag values of the declared types only, the defaulted ones always given', () => {
    const DEFAULTS = { asset: 'USD' };
    expect(() => parseSandboxDepositOptions({ ...DEFAULTS, amount: 10 })).toThrow(/internal: the flag value amount/);
    expect(() => parseSandboxDepositOptions({})).toThrow(/internal: the flag value asset/);
  });
});

describe('the wire instructions', () => {
  /** The schema at a path of the OpenAPI's request, through its $refs. */
  function schemaAt(path: string): Record<string, unknown> | undefined {
    const resolve = (o: any): any =>
      o?.$ref
        ? resolve(
            o.$ref
              .slice(2)
              .split('/')
              .reduce((a: any, k: string) => a[k], OPENAPI),
          )
        : o;
    let s = resolve(OPENAPI.components.schemas.InitiateSandboxFiatDepositRequest);
    for (const k of path.split('.')) s = resolve(s?.properties?.[k]);
    return s;
  }

  it("a flag for every field of the OpenAPI's wire, its owner's address, routing details and the account owner", () => {
    const wire = schemaAt('fiat_network_instructions.wire')!;
    const paths = new Set(WIRE_FIELDS.map((f) => f.path));
    for (const k of Object.keys(wire.properties as object)) {
      if (k === 'intermediary_routing_details') continue; // in --file only
      const at = `fiat_network_instructions.wire.${k}`;
      const props = schemaAt(at)?.properties as Record<string, unknown> | undefined;
      const leaves = props
        ? Object.keys(props).flatMap((key) => {
            const inner = schemaAt(`${at}.${key}`)?.properties as object | undefined;
            return inner ? Object.keys(inner).map((q) => `${at}.${key}.${q}`) : [`${at}.${key}`];
          })
        : [at];
      for (const leaf of leaves) expect(paths.has(leaf), leaf).toBe(true);
    }
    for (const owner of ['person_details.first_name', 'person_details.last_name', 'institution_details.name'])
      expect(paths.has(`fiat_account_owner.${owner}`), owner).toBe(true);
  });

  it('every required field of the OpenAPI has a sandbox value', () => {
    const required = [
      'fiat_network_instructions.wire.account_number',
      'fiat_network_instructions.wire.fiat_account_owner_address.country',
      'fiat_network_instructions.wire.routing_details.routing_number_type',
      'fiat_network_instructions.wire.routing_details.routing_number',
      'fiat_network_instructions.wire.routing_details.bank_name',
      'fiat_network_instructions.wire.routing_details.bank_address.country',
    ];
    expect(WIRE_FIELDS.filter((f) => f.fallback).map((f) => f.path)).toEqual(required);
    // The sandbox's routing number fits its type.
    const routing = WIRE_FIELDS.find((f) => f.key === 'routingNumber')!.fallback as (t: string) => string;
    for (const type of ['ABA', 'SWIFT']) expect(routingNumberRule(type, routing(type))).toBeUndefined();
  });

  it.each([
    ['ABA', '021000021', undefined],
    ['ABA', '123456789', undefined],
    ['ABA', '02100002', 'must be 9 digits for ABA (such as 021000021)'],
    ['ABA', 'CHASUS33', 'must be 9 digits for ABA (such as 021000021)'],
    ['SWIFT', 'CHASUS33', undefined],
    ['SWIFT', 'CHASUS33XXX', undefined],
    ['SWIFT', '021000021', 'must be a BIC of 8 or 11 capitals and digits for SWIFT (such as CHASUS33)'],
    ['SWIFT', 'chasus33', 'must be a BIC of 8 or 11 capitals and digits for SWIFT (such as CHASUS33)'],
  ])('%s %s: %s', (type, number, rule) => {
    expect(routingNumberRule(type, number)).toBe(rule);
  });
});

describe('the amount prompt', () => {
  it.each([
    ['1000.00', true],
    ['10', true],
    ['.5', true],
    ['0.01', true],
    ['1.234', 'such as 1000.00'],
    ['0', 'such as 1000.00'],
    ['0.00', 'such as 1000.00'],
    ['-1', 'such as 1000.00'],
    ['1e3', 'such as 1000.00'],
    ['10.', 'such as 1000.00'],
  ] as const)('%s: %s', (typed, answer) => {
    expect(depositAmountRule(typed)).toBe(answer);
  });
});
