// Address verification signatures: EIP-191 (personal_sign) on EVM networks and ed25519 over a JSON message on SOLANA,
// checked against published vectors and against tampering.
import { describe, expect, it } from 'vitest';
import {
  addressOfKey,
  parsePrivateKey,
  proofMessage,
  signatureProblem,
  signProof,
} from '../../src/contract/ownership-proof.js';

// The web3.js documentation's example of web3.eth.accounts.sign('Some data', key).
const KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const ADDRESS = '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23';
const SIGNATURE =
  '0xb91467e570a6466aa9e9876cbcd013baba02900b8979d43fe208a4a4f339f5fd6007e74cd82e037b800186422fc2da167c747ef045e5d18a5f5d4300f8e1a0291c';

describe('EIP-191 signatures (EVM networks)', () => {
  it('signs as personal_sign does and recovers the address', () => {
    const key = parsePrivateKey('ETHEREUM', KEY) as Uint8Array;
    expect(addressOfKey('ETHEREUM', key)).toBe(ADDRESS.toLowerCase());
    expect(signProof('ETHEREUM', key, 'Some data')).toBe(SIGNATURE);
    expect(signatureProblem('ETHEREUM', ADDRESS, 'Some data', SIGNATURE)).toBeUndefined();
    expect(signatureProblem('BASE', ADDRESS, 'Some data', SIGNATURE)).toBeUndefined();
  });
  it('refuses another message, another address, a broken signature', () => {
    expect(signatureProblem('ETHEREUM', ADDRESS, 'Some data!', SIGNATURE)).toMatch(/was made by the key of 0x/);
    expect(signatureProblem('ETHEREUM', '0x0000000000000000000000000000000000000001', 'Some data', SIGNATURE)).toMatch(
      /not of 0x0000000000000000000000000000000000000001/,
    );
    expect(signatureProblem('ETHEREUM', ADDRESS, 'Some data', '0x1234')).toMatch(/must be 65 bytes/);
    expect(signatureProblem('ETHEREUM', ADDRESS, 'Some data', `${SIGNATURE.slice(0, -2)}05`)).toMatch(/recovery byte/);
  });
  it('takes v as 0 or 1 too', () => {
    const v0 = `${SIGNATURE.slice(0, -2)}01`;
    expect(signatureProblem('ETHEREUM', ADDRESS, 'Some data', v0)).toBeUndefined();
  });
  it('refuses a key file that is not a key', () => {
    expect(parsePrivateKey('ETHEREUM', 'abc')).toMatch(/32 bytes as hex/);
    expect(parsePrivateKey('ETHEREUM', `0x${'0'.repeat(64)}`)).toMatch(/not a valid secp256k1 private key/);
  });
});

describe('ed25519 signatures over a JSON message (SOLANA)', () => {
  const secret = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
  const address = addressOfKey('SOLANA', secret);
  const message = proofMessage({
    issuer: 'test',
    network: 'SOLANA',
    address,
    nonce: 'n1',
    issuedAt: '2026-01-01T00:00:00Z',
  });
  it('the message is a JSON object naming the address and the nonce', () => {
    expect(JSON.parse(message)).toMatchObject({ network: 'SOLANA', address, nonce: 'n1' });
  });
  it('signs and verifies; a keypair file as solana-keygen writes it is taken', () => {
    const keypair = JSON.stringify([...secret, ...Array(32).fill(0)]);
    const key = parsePrivateKey('SOLANA', keypair) as Uint8Array;
    const sig = signProof('SOLANA', key, message);
    expect(signatureProblem('SOLANA', address, message, sig)).toBeUndefined();
    expect(signatureProblem('SOLANA', address, `${message} `, sig)).toMatch(/is not an ed25519 signature/);
    expect(signatureProblem('SOLANA', address, message, 'abc')).toMatch(/must be 64 bytes/);
  });
  it('no signature proves an address on a network without a scheme', () => {
    expect(signatureProblem('BITCOIN', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', 'm', 'sig')).toMatch(
      /no signature proves/,
    );
  });
});
