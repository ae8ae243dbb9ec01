// What coinop sends, held to the hosted service's OpenAPI (the project's copy in spec/) by an independent validator
// (openapi-backend, test/support/openapi.ts): every command line of the table below runs against the local service
// behind a recording proxy, in each output mode, and every request it sent (method, path, query and body) must be
// valid by the description. Zero violations.
//
// Adding a command or a flag: add a line to LINES that uses it (or, for a command that sends nothing to the API, an
// entry in SENDS_NOTHING; for a flag that changes nothing sent, an entry in NOT_SENT). The coverage test below names
// each command and flag no line uses.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPath, operations } from '../../src/contract/index.js';
import { createContext } from '../../src/cli/invocation.js';
import { makeProgram } from '../../src/commands/program.js';
import { DEMO } from '../../src/embedded/demo.js';
import { startLocalService, type LocalService } from '../../src/local/service.js';
import { operationOf, requestViolations } from '../support/openapi.js';
import { recordingProxy, type RecordingProxy } from '../support/recording-proxy.js';
import { baseEnv, BTC_ADDRESS, ETH_ADDRESS, runInProcess } from './helpers.js';
import { FIVE_OLDEST, internalTransfer } from '../support/command-lines.js';
import { postFiatAccount, postRecipientProfile, postVerification, RECIPIENT_PROFILE } from '../support/requests.js';
import { addressOfKey, signProof } from '../../src/contract/ownership-proof.js';
import { adminToken, demoToken } from '../support/tokens.js';

type Format = 'json' | 'ndjson' | 'csv' | 'table';
const EVERY_FORMAT: Format[] = ['json', 'ndjson', 'csv', 'table'];

interface Line {
  /** The command line without -o; a function when it needs something only a run can give (a fee id, a cursor). */
  args: string[] | ((n: number) => Promise<string[]>);
  /** The output modes it runs in (default: all four). A write runs in two, so each mode's request is seen once. */
  formats?: Format[];
  /** Extra environment (COINOP_TOKEN for auth status). */
  env?: Record<string, string>;
  /** Standard input. */
  input?: string;
  /** The exit code it ends with (default 0). */
  code?: number;
  /** It may send nothing over HTTP (the stream, once its token is cached). */
  mayBeSilent?: boolean;
}

/** Commands that send no request to the API, and why. */
const SENDS_NOTHING: Record<string, string> = {
  'policy show': "reads the context's policy file",
  'policy check': 'reads a policy file',
  'policy init': 'writes a policy file',
  approve: 'signs a file with the approver key',
  logout: 'removes saved credentials',
  'context list': "coinop's own contexts",
  'context use': "coinop's own contexts",
  'context show': "coinop's own contexts",
  'context rename': "coinop's own contexts",
  'context delete': "coinop's own contexts",
  'context set-profile-id': "coinop's own contexts (the id is not checked with the service)",
  'profile list': 'the old name of context list',
  'profile use': 'the old name of context use',
  'profile show': 'the old name of context show',
  'profile rename': 'the old name of context rename',
  'profile delete': 'the old name of context delete',
  'profile set-profile-id': 'the old name of context set-profile-id',
  'config list': "coinop's own configuration",
  'config get': "coinop's own configuration",
  'config set': "coinop's own configuration",
  'config unset': "coinop's own configuration",
  doctor: 'probes the addresses (any answer will do) and asks for a token; no API operation',
  __man: 'prints the man page',
  'local start': 'starts a service',
  'local deposit': "the local service's control API, which the hosted OpenAPI does not describe",
  completion: 'prints a script',
  mcp: 'a server on stdio: what its tools send is held to the OpenAPI by test/mcp/openapi.test.ts',
  'gateway init': "works on the gateway's own store",
  'gateway start': 'starts a server: what it forwards is tested in test/gateway',
  'gateway operators add': "works on the gateway's own store",
  'gateway operators list': "works on the gateway's own store",
  'gateway operators disable': "works on the gateway's own store",
  'gateway operators enable': "works on the gateway's own store",
  'gateway policy show': "works on the gateway's own store",
  'gateway policy set': "works on the gateway's own store, or (--gateway) its own API /_gateway/policy (test/gateway)",
  'gateway policy history': "works on the gateway's own store",
  'approvals list': "a gateway's own API (/_gateway), which the hosted OpenAPI does not describe (test/gateway)",
  'approvals show': "a gateway's own API (/_gateway), which the hosted OpenAPI does not describe (test/gateway)",
  'approvals approve': "a gateway's own API (/_gateway), which the hosted OpenAPI does not describe (test/gateway)",
  'approvals reject': "a gateway's own API (/_gateway), which the hosted OpenAPI does not describe (test/gateway)",
  __complete: "lists coinop's own contexts for the completion scripts",
  'audit list': 'reads the local audit log',
  'audit verify': 'reads the local audit log',
  'audit export': 'reads the local audit log',
  'audit path': 'prints where the audit log is',
  'close verify': 'checks a close bundle on this machine, with no network (test/cli/close-verify.test.ts)',
};

/** Operations of the contract that the local service serves and no command sends, and why. */
const SERVED_ONLY: string[] = [
  // GET /v2/all-markets/prices: the local service answers it; no command asks for every market's price at once.
  'listPrices',
];

/** Options that change nothing a command sends, by command ('*': every command), and why. */
const NOT_SENT: Record<string, string[]> = {
  // Global: where output goes and how it looks (a table's columns, the pager), which profile (every line runs as the
  // one profile).
  '*': [
    ...[
      '--help',
      '--context',
      '--profile',
      '-o',
      '--output',
      '--json',
      '--no-input',
      '--no-color',
      '--debug',
      '-V',
      '--version',
    ],
    ...['--no-pager', '--columns', '--wide'],
  ],
  // The stream sends no HTTP request but its token's; its options shape what it writes.
  stream: ['--channel', '--book', '--interval', '--depth', '--duration', '--count', '-c'],
  // A journal's own handling: a resumed run sends the rows' requests the other lines send. --wait-approval: at a coinop
  // gateway, the batch held as one is followed through the gateway's own /_gateway API (test/gateway), nothing else.
  'withdraw batch': ['--resume', '--retry-failed', '--wait-approval'],
  // Waiting at a coinop gateway for its approvers: reads the gateway's own /_gateway API (test/gateway), nothing else.
  // Approval files are read on this machine: the request sent is the same with them (before withdraw: first match).
  // --save writes the dry run's request to a file (sent with --request by the line that uses it).
  'withdraw fiat': ['--wait-approval', '--approvals', '--save'],
  convert: ['--wait-approval', '--approvals'],
  withdraw: ['--wait-approval'],
  // When watching or forwarding ends and where events go: the feed is read the same way.
  'events watch': ['--count'],
  // Where the intents are read from (the batch journals' folder; --gateway: a coinop gateway's chain, through its own
  // /_gateway API, test/gateway/reconcile.test.ts): nothing sent to the service depends on it.
  reconcile: ['--journals', '--gateway'],
  'events listen': ['--count', '--forward-to', '--concurrency', '--timeout', '--print-secret'],
  // Whether a production profile becomes the active one: coinop's own configuration.
  login: ['--activate'],
};

const W = ['--asset', 'BTC', '--network', 'BITCOIN', '--address', BTC_ADDRESS, '--amount', '0.001'];
const WRITE: Format[] = ['json', 'table'];

let svc: LocalService;
let proxy: RecordingProxy;
/** Where events listen forwards to: answers 200 to everything. */
let receiver: { url: string; server: Server };
let dir: string;
let env: Record<string, string>;
/** A transfer made before the table runs (for get and watch). */
let transferId: string;
/** Every command line the table ran, for the coverage test. */
const ran: string[][] = [];
const run = (args: string[], more: Record<string, string> = {}, input?: string) =>
  runInProcess(args, { ...env, ...more }, input);

/** A line's first value of a JSON answer (run piped, as JSON). */
async function fetched<T>(args: string[]): Promise<T> {
  const r = await run([...args, '-o', 'json']);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout) as T;
}

/** A fiat account made on the service straight (not through the proxy), for a line to work on. */
async function newFiatAccount(): Promise<string> {
  return postFiatAccount(svc.baseUrl, await adminToken(svc.authUrl, 'transfer:write_fiat_account'));
}
let fiatAccount: string | undefined;
/** The one fiat account the lines get, update and withdraw to. */
async function fiatAccountId(): Promise<string> {
  fiatAccount ??= await newFiatAccount();
  return fiatAccount;
}

let conversions = 0;
/** A conversion made on the service through coinop api (USD to USDP, CREATED until it settles). */
async function newConversion(): Promise<{ id: string }> {
  return fetched<{ id: string }>([
    'api',
    'POST',
    '/v2/conversion/stablecoins',
    ...['-f', `profile_id=${DEMO.profileId}`, '-f', 'source_asset=USD', '-f', 'target_asset=USDP', '-f', 'amount=2'],
    ...['-f', `ref_id=rq-new-conversion-${++conversions}`],
  ]);
}

/** Keys of addresses to verify: an EVM one and a SOLANA keypair, in files the lines sign with. */
const EVM_KEY = Uint8Array.from({ length: 32 }, (_, i) => i + 7);
const EVM_ADDRESS = addressOfKey('ETHEREUM', EVM_KEY);
const SOL_KEY = Uint8Array.from({ length: 32 }, (_, i) => i + 70);
const SOL_ADDRESS = addressOfKey('SOLANA', SOL_KEY);
const evmKeyFile = () => file('eth.key', Buffer.from(EVM_KEY).toString('hex'));
const solKeyFile = () => file('sol.json', JSON.stringify([...SOL_KEY, ...SOL_KEY]));
/** A PENDING verification of the EVM address, made on the service straight, for a line to submit to. */
async function pendingVerification(): Promise<{ id: string; message: string }> {
  const token = await adminToken(svc.authUrl, 'address_ownership:write_verification');
  return postVerification(svc.baseUrl, token, 'ETHEREUM', EVM_ADDRESS);
}

/** A page cursor of a list, from the raw API (coinop api prints the answer as sent). */
/** A crypto deposit held for its originator, made on the service's control API straight (not through the proxy). */
async function heldDeposit(): Promise<string> {
  const r = await fetch(`${svc.baseUrl}/_local/crypto-deposits`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ref_id: 'demo-btc', amount: '0.01', needs_info: true }),
  });
  return ((await r.json()) as { id: string }).id;
}

/** The Travel Rule's lines pay this address, which a VASP holds (BTC_ADDRESS stays unheld for the other lines). */
const TR_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const OKX = '8e4b1c2d-9a3f-4e6b-b1d7-2c5a8f0e3b94';

async function cursorOf(path: string): Promise<string> {
  const page = await fetched<{ next_page_cursor?: string }>(['api', 'GET', path, '-f', 'limit=1']);
  expect(page.next_page_cursor, path).toBeTruthy();
  return page.next_page_cursor!;
}

/** A configuration of its own, with a policy for the local profile (its approver key is this directory's). */
const POLICY_ENV: Record<string, string> = {};
const HOURS = 'hours: "00:00-24:00 UTC"';

/** Writes the policy of POLICY_ENV's profile (with an approvals rule its own key meets); returns that key's id. */
async function policyWith(rules: string[]): Promise<string> {
  const shown = await run(['approve', '--show-key', '-o', 'json'], POLICY_ENV);
  const { key, key_id } = JSON.parse(shown.stdout) as { key: string; key_id: string };
  const text = [
    ...rules.map((r) => r.replace('BTC_ADDRESS', BTC_ADDRESS)),
    `approvals: { required: 1, environments: [local], keys: ["${key}"] }`,
  ].join('\n');
  mkdirSync(join(POLICY_ENV.COINOP_CONFIG_DIR, 'policies'), { recursive: true });
  writeFileSync(join(POLICY_ENV.COINOP_CONFIG_DIR, 'policies', 'local.yaml'), `${text}\n`);
  return key_id;
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const LINES: Line[] = [
  // prices
  { args: ['prices', 'BTCUSD', '--increment', 'ONE_HOUR', '--limit', '3'] },
  { args: ['prices', 'ETHEUR', '--max-points', '5', '--from', '7d', '--to', 'now', '--offset', '1'] },
  { args: ['prices', 'BTCUSD', '--increment', 'ONE_DAY', '--from', '30d', '--limit', '10', '--all'] },
  // fee quote
  { args: ['fee', 'quote', '--asset', 'ETH', '--network', 'BASE', '--address', ETH_ADDRESS, '--amount', '0.5'] },
  { args: ['fee', 'quote', '--asset', 'BTC', '--network', 'BITCOIN', '--address', BTC_ADDRESS, '--total', '0.01'] },
  // withdraw, with every flag
  {
    formats: WRITE,
    args: async (n) => [
      'withdraw',
      ...['--asset', 'USDP', '--network', 'ETHEREUM', '--address', ETH_ADDRESS, '--total', '10'],
      ...['--balance-asset', 'USD', '--quote', '--profile-id', DEMO.profileId, '--ref-id', `rq-w-${n}`],
      ...['--identity-id', 'ident-1', '--account-id', 'acct-1', '--memo', 'invoice 7'],
      ...['--meta', 'invoice=7', '--meta', 'team=ops'],
      ...['--beneficiary', '{"person_details":{"first_name":"Ada","last_name":"Lovelace"}}'],
      ...['--yes', '--wait', '--wait-timeout', '30'],
    ],
  },
  {
    formats: WRITE,
    args: async () => {
      const fee = await fetched<{ id: string }>(['fee', 'quote', ...W]);
      return ['withdraw', ...W, '--fee-id', fee.id, '--yes'];
    },
  },
  { formats: WRITE, args: ['withdraw', ...W.slice(0, -2), '--total', '0.002', '--dry-run', '--quote'] },
  // The Travel Rule: the address book's custody details, the VASP directory, withdrawals with their beneficiary,
  // deposits held for their originator
  {
    formats: WRITE,
    args: [
      'destinations',
      'put',
      ...['--network', 'BITCOIN', '--address', TR_ADDRESS, '--custodian-type', 'VASP', '--vasp-id', OKX],
      ...['--beneficiary-first-name', 'Ada', '--beneficiary-last-name', 'Lovelace', '--transfer-purpose', 'payout'],
    ],
  },
  {
    formats: WRITE,
    args: [
      'destinations',
      'put',
      ...['--network', 'BITCOIN', '--address', TR_ADDRESS, '--vasp-name', 'Other Exchange'],
      ...['--vasp-website', 'https://other.example', '--beneficiary-institution', 'Acme Ltd'],
    ],
  },
  {
    formats: WRITE,
    args: [
      'destinations',
      'put',
      ...['--network', 'ETHEREUM', '--address', ETH_ADDRESS, '--custodian-type', 'PRIVATE', '--beneficiary-self'],
    ],
  },
  {
    formats: WRITE,
    args: async (n) => [
      'withdraw',
      ...['--asset', 'BTC', '--network', 'BITCOIN', '--address', TR_ADDRESS, '--amount', '0.001'],
      ...['--beneficiary-first-name', 'Ada', '--beneficiary-last-name', 'Lovelace', '--ref-id', `rq-tr-${n}`, '--yes'],
    ],
  },
  {
    formats: WRITE,
    args: ['withdraw', ...W, '--beneficiary-institution', 'Acme Ltd', '--yes'],
  },
  { args: ['vasps', 'list', '--search', 'o', '--id', OKX, '--limit', '5', '--order', 'DESC'] },
  { args: ['vasps', 'list', '--limit', '3', '--all'] },
  { args: async () => ['vasps', 'list', '--limit', '1', '--cursor', await cursorOf('/v2/travelrule/vasps')] },
  { args: ['vasps', 'get', OKX] },
  {
    formats: WRITE,
    args: async () => [
      'deposits',
      'update',
      await heldDeposit(),
      ...['--identity-id', 'ident-1', '--originator-first-name', 'Ada', '--originator-last-name', 'Lovelace', '--yes'],
    ],
  },
  {
    formats: WRITE,
    args: async () => [
      'deposits',
      'update',
      await heldDeposit(),
      ...['--identity-id', 'ident-1', '--originator-institution', 'Acme Ltd', '--yes'],
    ],
  },
  {
    formats: WRITE,
    args: async () => ['deposits', 'reject', await heldDeposit(), '--identity-id', 'ident-1', '--yes'],
  },
  // withdraw batch
  {
    formats: WRITE,
    args: async (n) => [
      'withdraw',
      'batch',
      file(
        `batch-${n}.csv`,
        [
          'destination_address,asset,crypto_network,amount,total,ref_id,identity_id,account_id,balance_asset,memo,meta.invoice,beneficiary.first_name,beneficiary.last_name,beneficiary.institution',
          `${BTC_ADDRESS},BTC,BITCOIN,0.001,,,ident-1,acct-1,,m,INV-1,Ada,Lovelace,`,
          `${ETH_ADDRESS},USDP,ETHEREUM,,5,rq-b-${n},,,USD,,INV-2,,,Acme Ltd`,
          `${ETH_ADDRESS},ETH,NOPE,1,,,,,,,INV-3,,,`,
        ].join('\n'),
      ),
      ...['--format', 'csv', '--profile-id', DEMO.profileId, '--yes', '--skip-invalid', '--allow-repeat'],
      ...[
        '--concurrency',
        '2',
        '--rate',
        '0',
        '--allow-partial',
        '--wait',
        '--wait-timeout',
        '30',
        '--journal',
        join(dir, `j-${n}`),
      ],
    ],
    // One row of three is invalid (skipped): some rows failed.
    code: 6,
  },
  {
    formats: WRITE,
    args: async (n) => [
      'withdraw',
      'batch',
      file(
        `batch-dry-${n}.jsonl`,
        `{"destination_address":"${BTC_ADDRESS}","asset":"BTC","crypto_network":"BITCOIN","amount":"0.001","metadata":{"k":"v"}}\n`,
      ),
      '--dry-run',
    ],
  },
  // deposit addresses
  {
    args: [
      'addresses',
      'list',
      ...[
        '--profile-id',
        DEMO.profileId,
        '--identity-id',
        'i',
        '--account-id',
        'a',
        '--id',
        'x',
        '--ref-id',
        'demo-btc',
      ],
      ...['--network', 'BITCOIN', '--network', 'ETHEREUM', '--created-before', 'now', '--created-until', 'now'],
      ...['--created-at', '2026-01-01T00:00:00Z', '--created-from', '30d', '--created-after', '31d'],
      ...['--limit', '5', '--order', 'ASC', '--order-by', 'CREATED_AT'],
    ],
  },
  { args: ['addresses', 'list', '--limit', '1', '--all'] },
  {
    args: async () => [
      'addresses',
      'list',
      '--limit',
      '1',
      '--cursor',
      await cursorOf('/v2/transfer/deposit-addresses'),
    ],
  },
  {
    formats: WRITE,
    args: async (n) => [
      'addresses',
      'create',
      ...['--network', 'SOLANA', '--profile-id', DEMO.profileId, '--identity-id', 'i', '--account-id', 'a'],
      ...['--ref-id', `rq-addr-${n}`, '--conversion', 'USD', '--meta', 'k=v'],
    ],
  },
  // sandbox deposits: the sandbox's values, every flag, a SWIFT bank and a person, a whole request in a file
  { formats: WRITE, args: ['sandbox', 'deposit', '--amount', '25.50'] },
  {
    formats: WRITE,
    args: [
      'sandbox',
      'deposit',
      ...['--amount', '25.50', '--asset', 'USD', '--memo-id', DEMO.memoId, '--account-number', '000123456789'],
      ...['--owner-country', 'USA', '--owner-address', '1 Main St', '--owner-address2', 'Suite 2'],
      ...['--owner-city', 'New York', '--owner-province', 'NY', '--owner-zip', '10001'],
      ...['--routing-type', 'ABA', '--routing-number', '021000021', '--bank-name', 'Test Bank'],
      ...['--bank-country', 'USA', '--bank-address', '270 Park Ave', '--bank-address2', 'Floor 1'],
      ...['--bank-city', 'New York', '--bank-province', 'NY', '--bank-zip', '10017', '--institution', 'ACME Inc'],
    ],
  },
  {
    formats: WRITE,
    args: [
      'sandbox',
      'deposit',
      ...['--amount', '1.00', '--routing-type', 'swift', '--owner-first-name', 'Ada', '--owner-last-name', 'Lovelace'],
    ],
  },
  {
    formats: WRITE,
    args: async (n) => [
      'sandbox',
      'deposit',
      '--file',
      file(
        `deposit-${n}.json`,
        JSON.stringify({
          amount: '10.00',
          asset: 'USD',
          memo_id: DEMO.memoId,
          fiat_network_instructions: {
            wire: {
              account_number: '12345678',
              // As the OpenAPI's own example: an empty address2, which its pattern refuses (left out).
              fiat_account_owner_address: { country: 'USA', address1: '456 Main Street, NY', address2: '' },
              routing_details: {
                routing_number_type: 'ABA',
                routing_number: '123456789',
                bank_name: 'Customers Bank',
                bank_address: { country: 'USA', city: 'New York' },
              },
              intermediary_routing_details: {
                routing_number_type: 'SWIFT',
                routing_number: 'CHASUS33',
                bank_name: 'Intermediary Bank',
                bank_address: { country: 'USA' },
              },
            },
          },
          fiat_account_owner: { institution_details: { name: 'SomeCorp, Inc.' } },
        }),
      ),
    ],
  },
  // transfers
  {
    args: [
      'transfers',
      'list',
      ...['--id', 'x', '--ref-id', 'r', '--profile-id', DEMO.profileId, '--identity-id', 'i', '--account-id', 'a'],
      ...['--type', 'CRYPTO_WITHDRAWAL', '--status', 'PENDING', '--secondary-status', 'TRAVEL_RULE_INFO_REQUESTED'],
      ...['--tx-hash', 'h', '--group-id', 'g', '--updated-before', 'now', '--updated-until', 'now'],
      ...['--updated-at', '2026-01-01T00:00:00Z', '--updated-from', '1d', '--updated-after', '2d'],
      ...['--limit', '5', '--order', 'DESC', '--order-by', 'UPDATED_AT'],
    ],
  },
  {
    args: [
      'transfers',
      'list',
      ...['--created-before', 'now', '--created-until', 'now', '--created-at', '2026-01-01T00:00:00Z'],
      ...[
        '--created-from',
        '1d',
        '--created-after',
        '2d',
        '--order-by',
        'CREATED_AT',
        '--type',
        'PAXOS_TRANSFER_DEBIT',
      ],
    ],
  },
  { args: ['transfers', 'list', '--limit', '2', '--all'] },
  // --from/--to are created_at.gte/lt; the rest are filtered by coinop and never sent.
  {
    args: [
      'transfers',
      'list',
      ...['--from', '7d', '--to', 'now', '--asset', 'BTC', '--network', 'BITCOIN', '--destination', 'x'],
      ...['--metadata', 'invoice=1'],
    ],
  },
  { args: async () => ['transfers', 'list', '--limit', '2', '--cursor', await cursorOf('/v2/transfer/transfers')] },
  { args: async () => ['transfers', 'get', transferId] },
  { args: ['transfers', 'get', '--ref-id', 'rq-setup'] },
  { args: async () => ['transfers', 'watch', transferId, '--wait-timeout', '30'] },
  // The flag's old name, still taken.
  { args: async () => ['transfers', 'watch', transferId, '--timeout', '30'] },
  // service profiles, balances, internal transfers
  {
    args: [
      'profiles',
      'list',
      ...['--id', DEMO.profileId, '--nickname', 'de', '--created-before', 'now', '--created-until', 'now'],
      ...['--created-at', '2026-01-01T00:00:00Z', '--created-from', '3650d', '--created-after', '3651d'],
      ...['--limit', '5', '--order', 'ASC', '--all'],
    ],
  },
  { args: async () => ['profiles', 'list', '--limit', '1', '--cursor', await cursorOf('/v2/profiles')] },
  { args: ['profiles', 'get', DEMO.profileId] },
  { args: ['profiles', 'get', 'default', '--include-deactivated'] },
  { formats: WRITE, args: async (n) => ['profiles', 'create', '--nickname', `rq-${n}`, '--description', 'requests'] },
  { args: ['balances'] },
  { args: ['balances', 'BTC', 'USD', '--profile-id', DEMO.profileId] },
  { args: ['balances', '--all-profiles', '--include-zero'] },
  {
    formats: WRITE,
    args: async (n) => [
      'transfer',
      'internal',
      ...['--from-profile-id', DEMO.profileId, '--to-profile-id', DEMO.emptyProfileId, '--asset', 'USD'],
      ...['--amount', '1.5', '--ref-id', `rq-int-${n}`, '--meta', 'k=v', '--recipient-meta', 'r=v'],
      ...['--yes', '--wait', '--wait-timeout', '30'],
    ],
  },
  // transfers to another customer of the service (every flag), to the recipient's profile
  {
    formats: WRITE,
    args: async (n) => [
      'transfer',
      'paxos',
      ...['--from-profile-id', DEMO.profileId, '--to-profile-id', RECIPIENT_PROFILE, '--asset', 'BTC'],
      ...['--amount', '0.05', '--ref-id', `rq-px-${n}`, '--meta', 'my_id=1', '--recipient-meta', 'your_id=2'],
      ...['--yes', '--wait', '--wait-timeout', '30'],
    ],
  },
  {
    formats: WRITE,
    args: ['transfer', 'paxos', '--to-profile-id', RECIPIENT_PROFILE, '--asset', 'USD', '--amount', '2', '--dry-run'],
  },
  // fiat accounts (every network, every flag, a whole request in a file) and fiat withdrawals to them
  {
    formats: WRITE,
    args: async (n) => [
      'fiat-accounts',
      'create',
      ...['--network', 'WIRE', '--owner-name', 'Acme Inc', '--account-number', '12345678', '--routing-type', 'SWIFT'],
      ...['--routing-number', 'CHASUS33', '--bank-name', 'Chase', '--bank-country', 'USA', '--owner-country', 'USA'],
      ...['--owner-address', '1 Main St', '--owner-city', 'New York', '--identity-id', 'i', '--account-id', 'a'],
      ...['--ref-id', `rq-fa-${n}`, '--meta', 'k=v'],
    ],
  },
  {
    formats: WRITE,
    args: [
      'fiat-accounts',
      'create',
      ...['--network', 'WIRE', '--first-name', 'Ada', '--last-name', 'Lovelace', '--account-number', '87654321'],
      ...['--routing-number', '021000021', '--bank-name', 'Customers Bank'],
    ],
  },
  {
    formats: WRITE,
    args: ['fiat-accounts', 'create', '--network', 'CUBIX', '--owner-name', 'Acme', '--cubix-account-id', 'c-1'],
  },
  {
    formats: WRITE,
    args: ['fiat-accounts', 'create', '--network', 'CBIT', '--owner-name', 'Acme', '--wallet-address', 'w-1'],
  },
  {
    formats: WRITE,
    args: ['fiat-accounts', 'create', '--network', 'RTP', '--owner-name', 'Acme', '--account-number', '1'],
    code: 2,
    mayBeSilent: true,
  },
  {
    formats: WRITE,
    args: [
      'fiat-accounts',
      'create',
      ...['--network', 'RTP', '--owner-name', 'Acme', '--account-number', '1', '--routing-number', '021000021'],
    ],
  },
  {
    formats: WRITE,
    args: ['fiat-accounts', 'create', '--network', 'SCB', '--owner-name', 'Acme', '--account-number', '2'],
  },
  {
    formats: WRITE,
    args: ['fiat-accounts', 'create', '--network', 'DBS_ACT', '--owner-name', 'Acme', '--account-number', '3'],
  },
  {
    formats: WRITE,
    args: async (n) => [
      'fiat-accounts',
      'create',
      '--file',
      file(
        `fiat-account-${n}.json`,
        JSON.stringify({
          ref_id: `rq-fa-file-${n}`,
          fiat_account_owner: { person_details: { first_name: 'Jane', last_name: 'Doe' } },
          fiat_network_instructions: {
            wire: {
              account_number: '12345678',
              fiat_account_owner_address: { country: 'USA', address1: '456 Main Street, NY' },
              routing_details: {
                routing_number_type: 'ABA',
                routing_number: '123456789',
                bank_name: 'Customers Bank',
                bank_address: { country: 'USA', city: 'New York' },
              },
            },
          },
          metadata: { k: 'v' },
        }),
      ),
    ],
  },
  {
    args: [
      'fiat-accounts',
      'list',
      ...['--id', 'x', '--ref-id', 'r', '--include-deleted', '--created-before', 'now', '--created-until', 'now'],
      ...['--created-at', '2026-01-01T00:00:00Z', '--created-from', '1d', '--created-after', '2d'],
      ...['--limit', '5', '--order', 'ASC'],
    ],
  },
  { args: ['fiat-accounts', 'list', '--limit', '1', '--all'] },
  {
    args: async () => [
      'fiat-accounts',
      'list',
      '--limit',
      '1',
      '--cursor',
      await cursorOf('/v2/transfer/fiat-accounts'),
    ],
  },
  { args: async () => ['fiat-accounts', 'get', await fiatAccountId()] },
  // address verifications: proven with a key file (EVM, SOLANA), submitted with a key or a signature, listed, got
  {
    formats: WRITE,
    args: async (n) => [
      'addresses',
      'verify',
      ...['--network', 'ETHEREUM', '--address', EVM_ADDRESS, '--key-file', evmKeyFile(), '--ref-id', `rq-av-${n}`],
    ],
  },
  {
    formats: WRITE,
    args: async () => [
      'addresses',
      'verify',
      '--network',
      'SOLANA',
      '--address',
      SOL_ADDRESS,
      '--key-file',
      solKeyFile(),
    ],
  },
  {
    formats: WRITE,
    args: async () => [
      'addresses',
      'verifications',
      'submit',
      (await pendingVerification()).id,
      '--key-file',
      evmKeyFile(),
    ],
  },
  {
    formats: WRITE,
    args: async () => {
      const v = await pendingVerification();
      return ['addresses', 'verifications', 'submit', v.id, '--signature', signProof('ETHEREUM', EVM_KEY, v.message)];
    },
  },
  {
    args: [
      'addresses',
      'verifications',
      'list',
      ...['--status', 'APPROVED', '--method', 'SIGNATURE', '--network', 'ETHEREUM', '--address', EVM_ADDRESS],
      ...['--created-before', 'now', '--created-until', 'now', '--created-at', '2026-01-01T00:00:00Z'],
      ...['--created-from', '3d', '--created-after', '4d', '--limit', '5'],
      ...['--order', 'ASC', '--order-by', 'CREATED_AT'],
    ],
  },
  { args: ['addresses', 'verifications', 'list', '--limit', '1', '--all'] },
  {
    args: async () => [
      'addresses',
      'verifications',
      'list',
      '--limit',
      '1',
      '--cursor',
      await cursorOf('/v2/addresses/verifications'),
    ],
  },
  { args: async () => ['addresses', 'verifications', 'get', (await pendingVerification()).id] },
  // statements and their payments (a fresh service has none yet: the cursor lines are answered 400, sent all the same)
  {
    args: [
      'statements',
      'list',
      ...['--customer-id', DEMO.customerId, '--status', 'PAID,GENERATED', '--id', 'x', '--ref-id', 'r'],
      ...['--limit', '5', '--order', 'ASC'],
    ],
  },
  { args: ['statements', 'list', '--limit', '1', '--all'] },
  { args: ['statements', 'list', '--cursor', 'not-a-cursor'], code: 1 },
  {
    args: [
      'statements',
      'payments',
      ...['--customer-id', DEMO.customerId, '--product', 'USDG_REWARDS', '--status', 'COMPLETED'],
      ...['--limit', '5', '--order', 'DESC'],
    ],
  },
  { args: ['statements', 'payments', '--id', 'p-1', '--all'] },
  { args: ['statements', 'payments', '--ref-id', 'r-1', '--cursor', 'not-a-cursor'], code: 1 },
  {
    formats: WRITE,
    args: async () => [
      'fiat-accounts',
      'update',
      await fiatAccountId(),
      ...['--owner-name', 'Acme Holdings Inc', '--bank-name', 'Customers Bank NA', '--meta', 'k=v'],
    ],
  },
  {
    formats: WRITE,
    args: async (n) => [
      'fiat-accounts',
      'update',
      await fiatAccountId(),
      '--file',
      file(`fiat-update-${n}.json`, JSON.stringify({ fiat_account_owner: { institution_details: { name: 'Acme' } } })),
    ],
  },
  {
    formats: WRITE,
    args: async () => ['fiat-accounts', 'update', await fiatAccountId(), '--first-name', 'Ada', '--last-name', 'L'],
    code: 1,
  },
  { formats: WRITE, args: async () => ['fiat-accounts', 'delete', await newFiatAccount(), '--yes'] },
  {
    formats: WRITE,
    args: async (n) => [
      'withdraw',
      'fiat',
      ...['--fiat-account-id', await fiatAccountId(), '--amount', '10.50', '--asset', 'USD', '--ref-id', `rq-fw-${n}`],
      ...['--profile-id', DEMO.profileId, '--identity-id', 'i', '--account-id', 'a', '--memo', 'invoice 7'],
      ...['--meta', 'k=v', '--yes', '--wait', '--wait-timeout', '30'],
    ],
  },
  {
    formats: WRITE,
    args: async (n) => [
      'withdraw',
      'fiat',
      '--fiat-account-id',
      await fiatAccountId(),
      '--total',
      '5',
      '--ref-id',
      `rq-fwt-${n}`,
      '--yes',
    ],
  },
  {
    formats: WRITE,
    args: async () => ['withdraw', 'fiat', '--fiat-account-id', await fiatAccountId(), '--amount', '1', '--dry-run'],
  },
  {
    formats: WRITE,
    args: internalTransfer('BTC', '0.1', '--dry-run'),
  },
  // stablecoin conversions: USD to a stablecoin and back, listed, got, cancelled
  {
    formats: WRITE,
    args: async (n) => [
      'convert',
      ...[
        '--amount',
        '25.50',
        '--from',
        'USD',
        '--to',
        'USDP',
        '--ref-id',
        `rq-conv-${n}`,
        '--profile-id',
        DEMO.profileId,
      ],
      ...['--recipient-profile-id', DEMO.emptyProfileId, '--identity-id', 'i', '--account-id', 'a', '--meta', 'k=v'],
      ...['--yes', '--wait', '--wait-timeout', '30'],
    ],
  },
  { formats: WRITE, args: ['convert', '--from', 'PYUSD', '--amount', '3', '--yes'] },
  { formats: WRITE, args: ['convert', '--to', 'PYUSD', '--amount', '1', '--dry-run'] },
  {
    args: [
      'conversions',
      'list',
      ...['--profile-id', DEMO.profileId, '--ref-id', 'r', '--created-from', '1d', '--created-until', 'now'],
      ...['--limit', '5', '--order', 'ASC'],
    ],
  },
  // A period with nothing in it: the event feed from its start (created_at.gte), the transfers of the period
  // (created_at.gte/lt, profile_ids), the conversions of each profile (created_at.begin/end, profile_id), exit 0.
  { args: ['reconcile', '--from', '2000-01-01', '--to', '2000-01-02', '--profile-id', DEMO.profileId] },
  // A statement: the balances now, then the transfers of the profile updated since the period began (paged), then the
  // balances again.
  { args: ['statement', '--profile-id', DEMO.profileId, '--month', '2026-10'] },
  { args: ['statement', '--from', '2026-11-01', '--to', '2026-11-02'] },
  // A close: every profile's statement (the profiles listed first) into a new folder; its audit extract is local.
  { args: async (nth) => ['close', '--month', '2026-10', '--out', join(dir, `close-${nth}`)] },
  {
    args: async (nth) => [
      'close',
      '--month',
      '2026-10',
      '--out',
      join(dir, `close-p-${nth}`),
      '--profile-id',
      DEMO.profileId,
    ],
  },
  { args: ['conversions', 'list', '--created-before', 'now'], code: 2, mayBeSilent: true },
  { args: ['conversions', 'list', '--created-at', 'now'], code: 2, mayBeSilent: true },
  { args: ['conversions', 'list', '--created-after', '1d'], code: 2, mayBeSilent: true },
  { args: ['conversions', 'list', '--limit', '1', '--all'] },
  {
    args: async () => ['conversions', 'list', '--limit', '1', '--cursor', await cursorOf('/v2/conversion/stablecoins')],
  },
  { args: async () => ['conversions', 'get', (await newConversion()).id] },
  { formats: WRITE, args: async () => ['conversions', 'cancel', (await newConversion()).id, '--yes'] },
  // raw requests
  { args: ['api', 'GET', '/transfer/transfers', '-f', 'limit=1', '-i'] },
  { args: ['api', 'GET', '/v2/profiles', '--paginate', '-f', 'limit=1'] },
  {
    formats: WRITE,
    args: async (n) => [
      'api',
      'POST',
      '/transfer/fees/crypto-withdrawal',
      '--input',
      file(
        `quote-${n}.json`,
        JSON.stringify({ asset: 'BTC', crypto_network: 'BITCOIN', destination_address: BTC_ADDRESS }),
      ),
      '-f',
      'amount=0.01',
    ],
  },
  // a raw request that moves money: through the gate (--yes matters in production only; sent the same here)
  {
    formats: WRITE,
    args: async (n) => [
      'api',
      'POST',
      '/transfer/crypto-withdrawals',
      '-f',
      'asset=BTC',
      '-f',
      'crypto_network=BITCOIN',
      '-f',
      `destination_address=${BTC_ADDRESS}`,
      '-f',
      `profile_id=${DEMO.profileId}`,
      '-f',
      'amount=0.0001',
      '-f',
      `ref_id=raw-${n}`,
      '--yes',
    ],
  },
  // authentication: a given token is proven by a cheap read
  { args: ['auth', 'status'], env: { COINOP_TOKEN: 'set-below' } },
  // the stream: only a token request goes over HTTP
  { formats: ['ndjson'], mayBeSilent: true, args: ['stream', 'heartbeat', '--count', '1'] },
  {
    formats: ['ndjson'],
    mayBeSilent: true,
    args: ['stream', 'book', 'BTCUSD', '--book', '--count', '1', '--interval', '100', '--depth', '2'],
  },
  { formats: ['ndjson'], mayBeSilent: true, args: ['stream', 'top', 'BTCUSD', '--count', '1'] },
  { formats: ['ndjson'], mayBeSilent: true, args: ['stream', 'trades', 'BTCUSD', '--count', '1', '--duration', '10s'] },
  {
    formats: ['ndjson'],
    mayBeSilent: true,
    args: ['stream', '--channel=heartbeat', '-c', 'market_data:ETHUSD', '--count', '2'],
  },
  // login proves credentials with a token request (last: it changes the active profile)
  {
    formats: ['json'],
    args: [
      'login',
      ...['--env', 'local', '--client-id', DEMO.adminClientId, '--client-secret-stdin', '--name', 'rq'],
      ...['--scopes', 'exchange:historical_prices', '--profile-id', DEMO.profileId],
    ],
    input: DEMO.clientSecret,
  },
  {
    formats: ['json'],
    args: async () => [
      'login',
      ...['--env', 'custom', '--base-url', `${proxy.url}/v2`, '--auth-url', `${proxy.url}/oauth2/token`],
      ...['--ws-url', svc.wsUrl, '--client-id', DEMO.adminClientId, '--name', 'rq-custom'],
    ],
    env: { COINOP_CLIENT_SECRET: DEMO.clientSecret },
  },
  // The address book, then a withdrawal to one of its nicknames
  {
    formats: WRITE,
    args: [
      'destinations',
      'put',
      ...['--network', 'ETHEREUM', '--address', ETH_ADDRESS, '--nickname', 'rq_book', '--bookmark'],
      ...['--travel-rule', '{"custodian_type":"PRIVATE"}'],
    ],
  },
  { formats: WRITE, args: ['destinations', 'put', '--network', 'BITCOIN', '--address', BTC_ADDRESS] },
  {
    formats: WRITE,
    args: async () => {
      const [entry] = await fetched<{ id: string }[]>(['destinations', 'list', '--nickname', 'rq_book']);
      return ['destinations', 'put', '--id', entry.id, '--no-bookmark', '--identity-id', 'ident-1'];
    },
  },
  {
    args: [
      'destinations',
      'list',
      ...['--nickname', 'rq_book', '--network', 'ETHEREUM', '--address', ETH_ADDRESS, '--id', 'a-1,a-2'],
      ...['--identity-id', 'ident-1', '--bookmarked', '--created-before', 'now', '--created-until', 'now'],
      ...['--created-from', '30d', '--created-after', '30d', ...FIVE_OLDEST],
    ],
  },
  { args: ['destinations', 'list', '--not-bookmarked', '--created-at', '2026-01-02T15:04:05Z', '--all'] },
  {
    args: async () => [
      'destinations',
      'list',
      '--limit',
      '1',
      '--cursor',
      await cursorOf('/v2/transfer/crypto-destination-addresses'),
    ],
  },
  {
    formats: WRITE,
    args: [
      'withdraw',
      '--to',
      'rq_book',
      '--asset',
      'ETH',
      '--amount',
      '0.001',
      '--profile-id',
      DEMO.profileId,
      '--yes',
    ],
  },
  // The policy's reads (the address book by nickname or bookmark, the withdrawals of the last 24 hours, the service's
  // clock), and withdrawals saved for approval, approved, and sent with their approvals.
  {
    formats: WRITE,
    env: POLICY_ENV,
    args: async (nth) => {
      const key = await policyWith(['destinations: [rq_book, BTC_ADDRESS]', 'max_per_24h: { BTC: 100 }', HOURS]);
      const saved = join(dir, `saved-${nth}.json`);
      await run(['withdraw', ...W, '--ref-id', `rq-saved-${nth}`, '--dry-run', '--save', saved], POLICY_ENV);
      await run(['approve', saved, '--yes'], POLICY_ENV);
      return ['withdraw', '--request', saved, '--approvals', `${saved}.approval-${key}.txt`, '--yes'];
    },
  },
  // A fiat withdrawal saved for approval, approved, and sent with its approval.
  {
    formats: WRITE,
    env: POLICY_ENV,
    args: async (nth) => {
      const key = await policyWith([HOURS]);
      const saved = join(dir, `fiat-saved-${nth}.json`);
      const account = ['--fiat-account-id', await fiatAccountId(), '--amount', '3', '--ref-id', `rq-fiat-saved-${nth}`];
      await run(['withdraw', 'fiat', ...account, '--dry-run', '--save', saved], POLICY_ENV);
      await run(['approve', saved, '--yes'], POLICY_ENV);
      return ['withdraw', 'fiat', '--request', saved, '--approvals', `${saved}.approval-${key}.txt`, '--yes'];
    },
  },
  {
    formats: WRITE,
    env: POLICY_ENV,
    args: async (nth) => {
      await policyWith(['destinations: bookmarked_only', HOURS]);
      return ['withdraw', ...W, '--dry-run', '--save', join(dir, `unsent-${nth}.json`)];
    },
    // BTC_ADDRESS is in the book but not bookmarked: refused by policy.
    code: 8,
  },
  {
    formats: WRITE,
    env: POLICY_ENV,
    args: async (nth) => {
      const key = await policyWith(['max_per_24h: { BTC: 100 }']);
      const batch = file(
        `approved-${nth}.csv`,
        `destination_address,asset,crypto_network,amount\n${BTC_ADDRESS},BTC,BITCOIN,0.001\n`,
      );
      await run(['approve', batch, '--yes'], POLICY_ENV);
      return ['withdraw', 'batch', batch, '--approvals', `${batch}.approval-${key}.txt`, '--dry-run'];
    },
  },
  // Transfer limits
  { args: ['limits'] },
  { args: ['limits', '--type', 'CRYPTO_WITHDRAWAL'] },
  // Fiat deposit instructions, and a sandbox deposit to them
  {
    formats: WRITE,
    args: (n) =>
      Promise.resolve([
        'deposit-instructions',
        'create',
        ...['--network', 'WIRE', '--routing-type', 'SWIFT', '--profile-id', DEMO.profileId],
        ...['--identity-id', 'ident-1', '--account-id', 'acct-1', '--ref-id', `rq-di-${n}`, '--meta', 'team=ops'],
      ]),
  },
  {
    args: [
      'deposit-instructions',
      'list',
      ...['--id', 'a-1', '--ref-id', 'rq-di-1', '--created-before', 'now', '--created-until', 'now'],
      ...['--created-from', '30d', '--created-after', '30d', '--limit', '5', '--order', 'ASC'],
    ],
  },
  { args: ['deposit-instructions', 'list', '--created-at', '2026-01-02T15:04:05Z', '--all'] },
  {
    args: async () => [
      'deposit-instructions',
      'list',
      '--limit',
      '1',
      '--cursor',
      await cursorOf('/v2/transfer/fiat-deposit-instructions'),
    ],
  },
  {
    args: async () => {
      const [first] = await fetched<{ id: string }[]>(['deposit-instructions', 'list', '--limit', '1']);
      return ['deposit-instructions', 'get', first.id];
    },
  },
  {
    formats: WRITE,
    args: async () => {
      const [first] = await fetched<{ id: string }[]>(['deposit-instructions', 'list', '--limit', '1']);
      return ['sandbox', 'deposit', '--amount', '10.00', '--instructions', first.id];
    },
  },
  // The event feed
  {
    args: [
      'events',
      'list',
      ...['--type', 'transfer.crypto_withdrawal.pending', '--created-before', 'now', '--created-until', 'now'],
      ...['--created-at', '2026-01-02T15:04:05Z', '--created-from', '30d', '--created-after', '31d'],
      ...['--limit', '5', '--order', 'DESC'],
    ],
  },
  { args: ['events', 'list', '--limit', '2', '--all'] },
  { args: async () => ['events', 'list', '--limit', '1', '--cursor', await cursorOf('/v2/events')] },
  {
    args: async () => {
      const [first] = await fetched<{ id: string }[]>(['events', 'list', '--limit', '1']);
      return ['events', 'get', first.id];
    },
  },
  { args: ['events', 'watch', '--since', '30d', '--count', '2'] },
  { args: ['events', 'watch', '--since', '30d', '--count', '1', '--type', 'deposit_address.created'] },
  {
    args: () =>
      Promise.resolve([
        'events',
        'listen',
        ...['--forward-to', receiver.url, '--since', '30d', '--count', '2', '--type', 'deposit_address.created'],
        ...['--concurrency', '2', '--timeout', '5s'],
      ]),
  },
  // Market data
  { args: ['markets', '--refresh'] },
  // The list kept a day: from the cache the --refresh line left.
  { args: ['markets'], mayBeSilent: true },
  { args: ['ticker', 'BTCUSD'] },
  { args: ['book', 'ETHUSD', '--depth', '5'] },
  { args: ['trades', 'BTCUSD', '--limit', '3'] },
];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'coinop-requests-'));
  // The local service as it starts by default (rate limits on), a withdrawal settling in a second for --wait.
  svc = await startLocalService({
    port: 0,
    memory: true,
    // A conversion stays CREATED 3 s: long enough for a line to cancel it, short enough for --wait.
    config: { withdrawalSettleSeconds: 1, conversionSettleSeconds: 3 },
  });
  proxy = await recordingProxy(svc.baseUrl);
  env = { ...baseEnv(dir), COINOP_BASE_URL: proxy.url, COINOP_AUTH_URL: proxy.url, COINOP_WS_URL: svc.wsUrl };
  Object.assign(POLICY_ENV, {
    COINOP_CONFIG_DIR: join(dir, 'policy-config'),
    COINOP_DATA_DIR: join(dir, 'policy-data'),
  });
  transferId = (await fetched<{ id: string }>(['withdraw', ...W, '--ref-id', 'rq-setup'])).id;
  await postRecipientProfile(svc.baseUrl);
  const server = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end()));
  await new Promise<void>((r) => server.listen({ host: '127.0.0.1', port: 0 }, () => r()));
  receiver = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/in` };
});
afterAll(async () => {
  receiver?.server.closeAllConnections();
  receiver?.server.close();
  await proxy?.close();
  await svc?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The commands of the program that run (those with an action), each with its own options (long and short). */
function commands(): { path: string; options: readonly { long?: string; short?: string }[] }[] {
  const program: Command = makeProgram(createContext({} as never, {}, '0.0.0'));
  const out: { path: string; options: readonly { long?: string; short?: string }[] }[] = [];
  const visit = (command: Command, path: string) => {
    if ((command as unknown as { _actionHandler?: unknown })._actionHandler)
      out.push({ path, options: command.options });
    for (const s of command.commands) visit(s, path ? `${path} ${s.name()}` : s.name());
  };
  visit(program, '');
  return out;
}

/** The command a command line runs: the longest path of the program its words begin with. */
function commandOf(args: string[], paths: string[]): string | undefined {
  const words = args.filter((a) => !a.startsWith('-'));
  return paths.filter((p) => p.split(' ').every((w, i) => words[i] === w)).sort((a, b) => b.length - a.length)[0];
}

describe('every request coinop sends is valid by the OpenAPI', () => {
  it('the validator refuses what the description does not allow (its own check)', () => {
    expect(requestViolations('GET', '/v2/transfer/transfers?bogus=1')).not.toEqual([]);
    expect(requestViolations('GET', '/v2/transfer/transfers?limit=ten')).not.toEqual([]);
    expect(
      requestViolations('POST', '/v2/sandbox/fiat-deposits', {
        amount: '25.50',
        asset: 'USD',
        memo_id: 'M',
        fiat_network_instructions: { wire: {} },
      }),
    ).not.toEqual([]);
    expect(requestViolations('GET', '/v2/v2/transfer/transfers')).not.toEqual([]);
  });

  // One test per line of the table (each within the usual hang guard, however long the table grows), then the whole.
  const seen = new Set<string>();
  const violations: string[] = [];
  let n = 0;
  const label = (line: (typeof LINES)[number], i: number) =>
    `${i + 1}: coinop ${typeof line.args === 'function' ? '(made at run time)' : line.args.join(' ')}`;
  it.each(LINES.map((line, i) => [label(line, i), line] as const))('%s', async (_, line) => {
    for (const format of line.formats ?? EVERY_FORMAT) {
      n++;
      const args = typeof line.args === 'function' ? await line.args(n) : line.args;
      ran.push(args);
      proxy.take();
      const more = { ...line.env };
      if (more.COINOP_TOKEN) more.COINOP_TOKEN = await tokenFor();
      const r = await run([...args, '-o', format], more, line.input);
      const where = `coinop ${args.join(' ')} -o ${format}`;
      expect(r.code, `${where}: ${r.stderr}`).toBe(line.code ?? 0);
      const sent = proxy.take();
      if (!line.mayBeSilent) expect(sent.length, `${where} sent nothing`).toBeGreaterThan(0);
      for (const q of sent) {
        violations.push(...requestViolations(q.method, q.url, q.body).map((v) => `${where}: ${v}`));
        const op = operationOf(q.method, q.url)?.operationId;
        if (op) seen.add(op);
      }
    }
  });

  it('no request of the table broke the description, and every operation of the contract was sent', () => {
    expect(violations).toEqual([]);
    // Every operation of coinop's contract was sent at least once (but those only the local service serves).
    const ours = Object.values(operations)
      .filter((op) => !SERVED_ONLY.includes(op.id))
      .map(
        (op) =>
          operationOf(op.method, buildPath(op, { market: 'BTCUSD', id: 'x', profile_id: 'x', asset: 'BTC' }))!
            .operationId,
      );
    expect(ours.filter((id) => id === undefined || !seen.has(id))).toEqual([]);
  });

  it('the table covers every command and every flag that changes what is sent', () => {
    const all = commands();
    const paths = all.map((c) => c.path);
    const used = new Map<string, Set<string>>();
    for (const args of ran) {
      const path = commandOf(args, paths);
      expect(path, args.join(' ')).toBeDefined();
      const flags = used.get(path!) ?? new Set<string>();
      for (const a of args) if (a.startsWith('-')) flags.add(a.split('=')[0]);
      used.set(path!, flags);
    }
    const missing: string[] = [];
    for (const c of all) {
      if (SENDS_NOTHING[c.path]) continue;
      const flags = used.get(c.path);
      if (!flags) {
        missing.push(`${c.path}: no line`);
        continue;
      }
      const group = Object.keys(NOT_SENT).find((g) => g !== '*' && (c.path === g || c.path.startsWith(`${g} `)));
      const exempt = new Set([...NOT_SENT['*'], ...(group ? NOT_SENT[group] : [])]);
      for (const o of c.options) {
        const names = [o.long, o.short].filter((x): x is string => !!x);
        if (names.some((x) => exempt.has(x) || flags.has(x))) continue;
        missing.push(`${c.path}: ${names.join(', ')}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

/** A token of the demo client, for the COINOP_TOKEN line (auth status proves it with a read). */
const tokenFor = (): Promise<string> => demoToken(svc.authUrl);
