// Policy files: YAML and JSON read into the policy coinop works with, and every kind of mistake named with its
// file, line, field and rule (a typo in a rule's name, a bad value, a time zone, a key, YAML itself).
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadPolicyFile, parsePolicy, PolicyFileError } from '../../src/policy/load.js';
import { describePolicy, policyJson } from '../../src/policy/policy.js';
import { starterPolicy } from '../../src/commands/policy/starter.js';
import { ETH_ADDRESS as ETH } from '../support/addresses.js';

const keyText = () => {
  const { publicKey } = generateKeyPairSync('ed25519');
  return `ed25519:${Buffer.from(publicKey.export({ format: 'jwk' }).x as string, 'base64url').toString('base64')}`;
};
const ALICE = keyText();
const BOB = keyText();

/** The problems a text has: [line, field, rule] each. */
function problems(text: string): [number | undefined, string, string][] {
  try {
    parsePolicy(text, 'p.yaml');
  } catch (e) {
    if (e instanceof PolicyFileError) return e.issues.map((i) => [i.line, i.field, i.rule]);
    throw e;
  }
  throw new Error('the policy loaded');
}

const FULL = `# a team's policy
version: 1
destinations: [treasury, 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2]
networks: [BITCOIN, ETHEREUM]
assets: [BTC, ETH]
max_per_withdrawal:
  BTC: 0.50
  "*": 100
max_per_24h:
  BTC: "2"
hours: ["09:00-12:00 Europe/Zurich", "13:00-18:00 Europe/Zurich"]
approvals:
  required: 2
  keys:
    - name: alice
      key: ${ALICE}
    - ${BOB}
  above: { BTC: 1 }
`;

describe('policy files', () => {
  it('reads every rule from YAML; amounts written as numbers are taken as written, never as floats', () => {
    const { policy, sha256, file } = parsePolicy(FULL, 'team.yaml');
    expect(file).toBe('team.yaml');
    expect(sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(policyJson(policy)).toEqual({
      destinations: ['treasury', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'],
      verified_only: null,
      networks: ['BITCOIN', 'ETHEREUM'],
      assets: ['BTC', 'ETH'],
      max_per_withdrawal: { BTC: '0.50', '*': '100' },
      max_per_24h: { BTC: '2' },
      hours: ['09:00-12:00 Europe/Zurich', '13:00-18:00 Europe/Zurich'],
      approvals: {
        required: 2,
        keys: [
          { name: 'alice', key: ALICE, key_id: expect.stringMatching(/^[0-9a-f]{16}$/) },
          { name: null, key: BOB, key_id: expect.stringMatching(/^[0-9a-f]{16}$/) },
        ],
        above: { BTC: '1' },
        environments: ['production'],
      },
      policy_changes: null,
    });
    expect(describePolicy(policy).find(([r]) => r === 'approvals')![1]).toMatch(
      /^2 of alice \([0-9a-f]{16}\), [0-9a-f]{16}, in production, when a run's total is above 1 BTC$/,
    );
  });

  it('reads the same policy from JSON, and an empty mapping is a policy with no rules', () => {
    const json = JSON.stringify({ version: 1, destinations: 'bookmarked_only', max_per_24h: { ETH: '5' } });
    expect(policyJson(parsePolicy(json, 'p.json').policy)).toMatchObject({
      destinations: 'bookmarked_only',
      max_per_24h: { ETH: '5' },
      hours: null,
      approvals: null,
    });
    expect(policyJson(parsePolicy('version: 1\n', 'p.yaml').policy)).toEqual({
      destinations: null,
      verified_only: null,
      networks: null,
      assets: null,
      max_per_withdrawal: null,
      max_per_24h: null,
      hours: null,
      approvals: null,
      policy_changes: null,
    });
  });

  it('an unquoted EVM address or a nickname of digits is a destination as written, not a YAML number', () => {
    const yaml = 'destinations:\n  - 0xF0Aa84466e353E5390be37FE2934301c07c19a55\n  - 0042\n  - [1, 2]\n';
    expect(problems(yaml)).toEqual([
      [
        4,
        'destinations.2',
        'must be a nickname, an address, or a pin: {nickname: NAME, address: ADDRESS, network: NETWORK}',
      ],
    ]);
    expect(policyJson(parsePolicy(yaml.replace('  - [1, 2]\n', ''), 'p.yaml').policy).destinations).toEqual([
      '0xF0Aa84466e353E5390be37FE2934301c07c19a55',
      '0042',
    ]);
  });

  it('a typo in a rule name is named with its line and the rules there are', () => {
    const text = 'version: 1\nassets: [BTC]\nmax_per_withdrawl:\n  BTC: 1\n';
    expect(problems(text)).toEqual([
      [
        3,
        'max_per_withdrawl',
        'is not a known field (the rules are version, destinations, verified_only, networks, assets, max_per_withdrawal, max_per_24h, hours, approvals, policy_changes)',
      ],
    ]);
    try {
      parsePolicy(text, '/etc/team.yaml');
    } catch (e) {
      expect((e as Error).message).toBe(
        '/etc/team.yaml:3: max_per_withdrawl: is not a known field (the rules are version, destinations, verified_only, networks, assets, max_per_withdrawal, max_per_24h, hours, approvals, policy_changes)',
      );
    }
  });

  it('a bad value is named with its line, field and rule', () => {
    expect(problems('max_per_withdrawal:\n  BTC: 0.5\n  ETH: 1e3\n')).toEqual([
      [
        3,
        'max_per_withdrawal.ETH',
        'must be a plain decimal number such as 0.05 (digits and one point, no sign or exponent)',
      ],
    ]);
    expect(problems('max_per_24h:\n  btc: 1\n')).toEqual([
      [2, 'max_per_24h.btc', 'must be an asset name in capitals such as BTC, or * for any other asset'],
    ]);
    expect(problems('networks: [BITCOIN, ethereum]\n')).toEqual([
      [1, 'networks.1', 'must be capital letters, digits and _ only (such as BTC or BITCOIN_CASH)'],
    ]);
    expect(problems('version: 2\n')).toEqual([[1, 'version', 'must be 1 (the only version so far)']]);
    expect(problems('assets: [BTC]\nverified_only: yes please\n')).toEqual([[2, 'verified_only', 'must be a boolean']]);
    expect(parsePolicy('verified_only: true\n', 'p.yaml').policy.verifiedOnly).toBe(true);
    expect(parsePolicy('verified_only: false\n', 'p.yaml').policy.verifiedOnly).toBeUndefined();
    expect(problems('destinations: bookmarked\n')).toEqual([
      [
        1,
        'destinations',
        'must be bookmarked_only, or a list of nicknames of the address book, addresses and pins ({nickname:, address:, network:})',
      ],
    ]);
  });

  it("the starter file's pinned destinations load once uncommented", () => {
    const text = starterPolicy('p');
    const start = text.indexOf('# destinations:\n#   - cold-storage');
    const block = text.slice(start, text.indexOf('\n\n', start)).replace(/^# ?/gm, '');
    expect(policyJson(parsePolicy(block, 'p.yaml').policy).destinations).toEqual([
      'cold-storage',
      { nickname: 'treasury', address: 'bc1qaf3e3jk48cp6fzyyyssgxzshvqnsg8z356z7xm', network: 'BITCOIN' },
    ]);
  });

  it('a pinned destination: a nickname with its address and network, each checked; listed once', () => {
    const yaml = `destinations:\n  - cold\n  - nickname: treasury\n    address: ${ETH}\n    network: ETHEREUM\n`;
    const { policy } = parsePolicy(yaml, 'p.yaml');
    expect(policy.pins).toEqual(new Map([['treasury', { address: ETH, network: 'ETHEREUM' }]]));
    // An unquoted EVM address is a hexadecimal number to YAML: taken as written here too.
    expect(policyJson(policy).destinations).toEqual([
      'cold',
      { nickname: 'treasury', address: ETH, network: 'ETHEREUM' },
    ]);
    expect(describePolicy(policy)[0]).toEqual(['destinations', `cold, treasury (pinned to ${ETH} on ETHEREUM)`]);
    expect(problems('destinations:\n  - {nickname: t, address: 1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2}\n')).toEqual([
      [2, 'destinations.0.network', 'is required'],
    ]);
    expect(problems('destinations:\n  - {nickname: t, address: nope, network: BITCOIN}\n')).toEqual([
      [2, 'destinations.0.address', expect.stringMatching(/^is not a BITCOIN address: wrong length/)],
    ]);
    expect(problems('destinations:\n  - {nickname: t, address: nope, network: MOON}\n')).toEqual([
      [2, 'destinations.0.network', expect.stringMatching(/^must be one of BITCOIN, /)],
    ]);
    expect(problems(`${yaml}  - treasury\n`)).toEqual([
      [6, 'destinations.2', 'treasury is pinned at entry 1: list a pinned nickname once'],
    ]);
  });

  it('hours: the window, the clock and the time zone are checked', () => {
    expect(problems('hours: 9-17\n')).toEqual([
      [1, 'hours', 'must be a window such as "09:00-18:00 Europe/Zurich" (HH:MM-HH:MM and a time zone)'],
    ]);
    expect(problems('hours:\n  - "09:00-18:00 UTC"\n  - "09:00-18:00 Europe/Zurch"\n')).toEqual([
      [
        3,
        'hours.1',
        '"09:00-18:00 Europe/Zurch": Europe/Zurch is not a time zone (give an IANA name such as Europe/Zurich)',
      ],
    ]);
    expect(problems('hours: "09:00-25:00 UTC"\n')[0][2]).toMatch(/hours run from 00:00 to 24:00/);
    expect(problems('hours: "09:00-09:00 UTC"\n')[0][2]).toMatch(/starts and ends at the same time/);
  });

  it('approvals: keys must be Ed25519 public keys, each once, and enough of them for the count', () => {
    expect(problems(`approvals:\n  required: 1\n  keys:\n    - name: alice\n      key: ssh-ed25519 AAAA\n`)).toEqual([
      [5, 'approvals.keys.0.key', 'must be a public key written ed25519:BASE64 (coinop approve --show-key prints one)'],
    ]);
    expect(problems(`approvals:\n  required: 3\n  keys: [${ALICE}, ${BOB}]\n`)).toEqual([
      [2, 'approvals.required', '3 approvals cannot come from 2 keys (list more keys, or require fewer)'],
    ]);
    expect(problems(`approvals:\n  required: 1\n  keys:\n    - ${ALICE}\n    - ${ALICE}\n`)).toEqual([
      [5, 'approvals.keys.1', 'the same key as entry 0 (each approver once)'],
    ]);
    expect(problems(`approvals:\n  required: 1\n  keys:\n    - nmae: alice\n      key: ${ALICE}\n`)).toEqual([
      [4, 'approvals.keys.0.nmae', 'is not a known field'],
    ]);
    expect(problems(`approvals:\n  keys: [${ALICE}]\n`)).toEqual([[1, 'approvals.required', 'is required']]);
    expect(problems(`approvals:\n  required: 1\n  keys: [${ALICE}]\n  environments: [prod]\n`)).toEqual([
      [4, 'approvals.environments.0', 'must be one of local, sandbox, production, custom'],
    ]);
  });

  it("policy_changes: a gateway's new version needs approvals by its own keys, else the approvals' keys", () => {
    const own = parsePolicy(
      `policy_changes:\n  required: 1\n  keys:\n    - name: carol\n      key: ${BOB}\n`,
      'p.yaml',
    );
    expect(policyJson(own.policy).policy_changes).toEqual({
      required: 1,
      keys: [{ name: 'carol', key: BOB, key_id: expect.stringMatching(/^[0-9a-f]{16}$/) }],
    });
    expect(describePolicy(own.policy).find(([r]) => r === 'policy_changes')![1]).toMatch(
      /^at a gateway, a new version needs 1 of carol \([0-9a-f]{16}\)$/,
    );
    const borrowed = parsePolicy(
      `approvals:\n  required: 1\n  keys: [${ALICE}, ${BOB}]\npolicy_changes:\n  required: 2\n`,
      'p.yaml',
    );
    expect(borrowed.policy.policyChanges?.keys.map((k) => k.key)).toEqual([ALICE, BOB]);
    expect(problems('policy_changes:\n  required: 1\n')).toEqual([
      [
        1,
        'policy_changes.keys',
        'is needed: list the keys whose approvals count (or give approvals: keys for it to use)',
      ],
    ]);
    expect(problems(`approvals:\n  required: 1\n  keys: [${ALICE}]\npolicy_changes:\n  required: 2\n`)).toEqual([
      [
        5,
        'policy_changes.required',
        '2 approvals cannot come from 1 key (the approvals: keys) (list more keys, or require fewer)',
      ],
    ]);
    expect(problems('policy_changes:\n  required: 1\n  keys: [ed25519:nope]\n')).toEqual([
      [3, 'policy_changes.keys.0', 'must be an Ed25519 public key: 32 bytes in base64 after ed25519:'],
    ]);
    expect(problems(`policy_changes:\n  required: 0\n  keys: [${ALICE}]\n`)).toEqual([
      [2, 'policy_changes.required', expect.stringMatching(/>= 1|at least|greater/)],
    ]);
  });

  it('YAML itself: a syntax error, a repeated key, an empty file or a list are named with their line', () => {
    expect(problems('assets: [BTC\nnetworks: [BITCOIN]\n')[0]).toEqual([
      2,
      '',
      expect.stringMatching(/^not valid YAML or JSON: /),
    ]);
    expect(problems('assets: [BTC]\nassets: [ETH]\n')).toEqual([
      [2, '', 'not valid YAML or JSON: Map keys must be unique'],
    ]);
    expect(problems('')).toEqual([
      [undefined, '', 'is empty: a policy is a mapping of rules (coinop policy init writes a starter file)'],
    ]);
    expect(problems('- BTC\n')).toEqual([
      [1, '', 'must be a mapping of rules (destinations:, assets:, max_per_withdrawal: ...)'],
    ]);
    expect(problems('{"assets": ["BTC"], "hours": 9}')).toEqual([
      [1, 'hours', 'must be a window such as "09:00-18:00 Europe/Zurich", or a list of them'],
    ]);
  });

  it('a file that cannot be read is a PolicyFileError naming it', () => {
    expect(() => loadPolicyFile('/nonexistent/policy.yaml')).toThrow('/nonexistent/policy.yaml: no such file');
  });
});
