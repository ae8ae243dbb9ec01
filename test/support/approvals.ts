// The approvals policy the approval tests run under: two of alice's and bob's keys above 0.1 BTC, on local.

/** The policy file's text, naming the two keys. */
export function twoKeyApprovalsPolicy(keys: Record<'alice' | 'bob', { key: string }>): string {
  return [
    'approvals:',
    '  required: 2',
    '  environments: [local]',
    '  above: { BTC: 0.1 }',
    '  keys:',
    `    - { name: alice, key: "${keys.alice.key}" }`,
    `    - { name: bob, key: "${keys.bob.key}" }`,
    '',
  ].join('\n');
}
