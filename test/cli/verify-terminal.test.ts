// coinop addresses verify on a real terminal (node-pty): it asks for the network and the address, shows the message to
// sign, and takes the signature pasted in (made elsewhere); the verification is then APPROVED.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressOfKey, signProof } from '../../src/contract/ownership-proof.js';
import { sandbox, type Sandbox } from './helpers.js';
import { KEY, Term } from './terminal.js';

const SECRET = Uint8Array.from({ length: 32 }, (_, i) => i + 51);
const ADDRESS = addressOfKey('ETHEREUM', SECRET);

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => sb?.close());

describe('addresses verify on a terminal', () => {
  it('asks for the network and the address, shows the message, takes the pasted signature', async () => {
    const term = new Term(['addresses', 'verify'], sb.env);
    await term.waitFor('Network of the address');
    term.type(KEY.enter); // ETHEREUM, the first
    await term.waitFor('Address to verify');
    term.type(`${ADDRESS}${KEY.enter}`);
    await term.waitFor('Signature (empty');
    expect(term.screen()).toContain(`Sign this message with the key of ${ADDRESS} (ETHEREUM)`);
    const pending = await sb.runIn(['addresses', 'verifications', 'list', '--status', 'PENDING', '-o', 'json']);
    const [v] = JSON.parse(pending.stdout) as { signature_verification: { message: string } }[];
    term.type(`${signProof('ETHEREUM', SECRET, v.signature_verification.message)}${KEY.enter}`);
    expect(await term.exit()).toBe(0);
    expect(term.screen()).toContain(`✓ ${ADDRESS} (ETHEREUM) is verified as the customer's own`);
  });
});
