// Properties of destination addresses (src/contract/addresses.ts), over addresses generated from random bytes with
// the same libraries: each is accepted, every single-character substitution of a checksummed one is refused, and the
// canonical spelling is fixed; and every one-case EVM account spelt as an independent EIP-55 oracle does. Long by
// design: the proof project (test/support/projects.ts); the published vectors are in addresses.test.ts.
import { keccak_256 } from '@noble/hashes/sha3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base58, bech32 } from '@scure/base';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addressFromBytes,
  addressHasChecksum,
  addressReason,
  CRYPTO_NETWORKS,
  type CryptoNetwork,
  EVM_NETWORKS,
  encodeBase58Check,
  encodeCashAddr,
  encodeSegwit,
  encodeStellar,
  canonicalAddress,
  isTestnetAddress,
  keccakReady,
  legacyToCashAddr,
} from '../../src/contract/index.js';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const HEX = '0123456789abcdefABCDEF';

const ok = (network: string, address: string) => expect(addressReason(network, address), address).toBeUndefined();

/** Every string that differs from `s` in exactly one position at or after `from`, by another character of `alphabet`. */
function* substitutions(text: string, alphabet: string, from = 0): Generator<string> {
  for (let i = from; i < text.length; i++) {
    for (const c of alphabet) if (c !== text[i]) yield text.slice(0, i) + c + text.slice(i + 1);
  }
}

/** The substitutions of a checksummed address that are accepted (there must be none). */
function acceptedMutations(network: string, address: string, alphabet: string, from = 0): string[] {
  const accepted: string[] = [];
  for (const m of substitutions(address, alphabet, from)) if (addressReason(network, m) === undefined) accepted.push(m);
  return accepted;
}

const bytes = (n: number) => fc.uint8Array({ minLength: n, maxLength: n });

function eip55Oracle(hex40: string): string {
  const lower = hex40.toLowerCase();
  const h = [...keccak_256(new TextEncoder().encode(lower))].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `0x${[...lower].map((c, i) => (Number.parseInt(h[i], 16) >= 8 ? c.toUpperCase() : c)).join('')}`;
}

describe('properties: generated addresses are accepted, every single-character substitution refused', () => {
  const hash160 = bytes(20);
  const runs = { numRuns: 15 };

  const base58Cases: [CryptoNetwork, number][] = [
    ['BITCOIN', 0],
    ['BITCOIN', 5],
    ['LITECOIN', 48],
    ['LITECOIN', 50],
    ['DOGECOIN', 30],
    ['DOGECOIN', 22],
    // Testnets.
    ['BITCOIN', 111],
    ['BITCOIN', 196],
    ['LITECOIN', 111],
    ['LITECOIN', 58],
    ['DOGECOIN', 113],
  ];
  it.each(base58Cases)('Base58Check on %s, version byte %i', (network, version) => {
    fc.assert(
      fc.property(hash160, (hash) => {
        const a = encodeBase58Check(version, hash);
        ok(network, a);
        expect(acceptedMutations(network, a, BASE58)).toEqual([]);
      }),
      runs,
    );
  });

  it.each([
    ['BITCOIN', 'bc'],
    ['LITECOIN', 'ltc'],
    ['BITCOIN', 'tb'],
    ['LITECOIN', 'tltc'],
  ] as const)('segwit on %s (prefix %s): version 0 (20 or 32 bytes), taproot, later versions', (network, prefix) => {
    const program = fc.oneof(
      fc.tuple(fc.constant(0), fc.oneof(bytes(20), bytes(32))),
      fc.tuple(fc.constant(1), bytes(32)),
      fc.tuple(fc.integer({ min: 1, max: 16 }), fc.uint8Array({ minLength: 2, maxLength: 40 })),
    );
    fc.assert(
      fc.property(program, ([version, p]) => {
        const a = encodeSegwit(prefix, version, p);
        ok(network, a);
        ok(network, a.toUpperCase());
        expect(acceptedMutations(network, a, BECH32, prefix.length + 1)).toEqual([]);
      }),
      runs,
    );
  });

  it('CashAddr: P2PKH and P2SH of 20 bytes, P2SH of 32 bytes, with and without prefix, mainnet and testnet', () => {
    const kind = fc.oneof(fc.tuple(fc.constantFrom(0, 8), hash160), fc.tuple(fc.constant(11), bytes(32)));
    fc.assert(
      fc.property(kind, fc.constantFrom('bitcoincash', 'bchtest'), ([version, h], prefix) => {
        const a = encodeCashAddr(version, h, prefix);
        ok('BITCOIN_CASH', a);
        const bare = a.slice(prefix.length + 1);
        ok('BITCOIN_CASH', bare);
        expect(isTestnetAddress('BITCOIN_CASH', bare)).toBe(prefix === 'bchtest');
        expect(acceptedMutations('BITCOIN_CASH', a, BECH32, prefix.length + 1)).toEqual([]);
        expect(acceptedMutations('BITCOIN_CASH', bare, BECH32)).toEqual([]);
      }),
      runs,
    );
  });

  it('Stellar: account ids of random keys', () => {
    fc.assert(
      fc.property(bytes(32), (key) => {
        const a = encodeStellar(key);
        ok('STELLAR', a);
        expect(acceptedMutations('STELLAR', a, BASE32)).toEqual([]);
      }),
      runs,
    );
  });

  it('EVM: EIP-55 casings of random accounts on every EVM network; a case flip is caught, a changed digit unless its own checksum happens to fit', () => {
    fc.assert(
      fc.property(hash160, fc.constantFrom(...EVM_NETWORKS), (hash, network) => {
        const a = eip55Oracle(Buffer.from(hash).toString('hex'));
        ok(network, a);
        for (const m of substitutions(a, HEX, 2)) {
          const hex = m.slice(2);
          const uniform = hex === hex.toLowerCase() || hex === hex.toUpperCase();
          // EIP-55's limits: a substitution that leaves one case only carries no checksum, and a changed digit is
          // accepted only when the new account's casing is, by chance, the one written.
          const expected = uniform || eip55Oracle(hex) === m;
          expect(addressReason(network, m) === undefined, m).toBe(expected);
        }
      }),
      runs,
    );
  });

  it('Solana and Sui: random 32-byte keys are accepted (no checksum: the confirmation says so)', () => {
    fc.assert(
      fc.property(bytes(32), (key) => {
        const sol = base58.encode(key);
        ok('SOLANA', sol);
        expect(addressHasChecksum('SOLANA', sol)).toBe(false);
        const sui = `0x${Buffer.from(key).toString('hex')}`;
        ok('SUI', sui);
        expect(addressHasChecksum('SUI', sui)).toBe(false);
      }),
    );
  });

  // Bitcoin's version bytes where another network once took them too (issue 23): refused, naming Bitcoin; on Bitcoin
  // Cash with the CashAddr of the same hash, which is valid there and decodes to that hash.
  const bitcoinsOwn: [CryptoNetwork, number, string][] = [
    ['LITECOIN', 5, 'BITCOIN'],
    ['LITECOIN', 196, 'BITCOIN'],
    ['DOGECOIN', 196, 'BITCOIN'],
    ['BITCOIN_CASH', 0, 'BITCOIN'],
    ['BITCOIN_CASH', 5, 'BITCOIN'],
    ['BITCOIN_CASH', 111, 'BITCOIN or LITECOIN'],
    ['BITCOIN_CASH', 196, 'BITCOIN'],
  ];
  it.each(bitcoinsOwn)('Base58Check on %s, version byte %i: refused as %s', (network, version, like) => {
    fc.assert(
      fc.property(hash160, (hash) => {
        const a = encodeBase58Check(version, hash);
        ok('BITCOIN', a);
        const reason = addressReason(network, a);
        expect(reason).toMatch(new RegExp(`^${a} is not an? ${network} address \\(it looks like a ${like} address\\)`));
        if (network !== 'BITCOIN_CASH') return;
        const cash = legacyToCashAddr(a) as string;
        expect(reason).toMatch(new RegExp(`give it as ${cash}$`));
        ok('BITCOIN_CASH', cash);
        expect(isTestnetAddress('BITCOIN_CASH', cash)).toBe(version > 5);
        const words = bech32.decodeUnsafe(cash.replace(':', '1'), 200);
        expect(words).toBeUndefined(); // CashAddr is not bech32: its own checksum (sanity check of the test)
        const hex = Buffer.from(hash).toString('hex');
        expect(
          Buffer.from(
            bech32.fromWords([...cash.slice(cash.indexOf(':') + 1, -8)].map((c) => BECH32.indexOf(c))),
          ).toString('hex'),
        ).toBe(`${(version === 0 || version === 111 ? 0 : 8).toString(16).padStart(2, '0')}${hex}`);
      }),
      runs,
    );
  });

  it('the bech32 library and the rule agree: words that are not whole bytes are refused', () => {
    // 20 bytes are 32 words; one word more leaves 3 bits of padding that are not a byte.
    const words = [0, ...bech32.toWords(new Uint8Array(20)), 0];
    expect(addressReason('BITCOIN', bech32.encode('bc', words))).toMatch(/wrong length/);
  });
});

describe('canonicalAddress: one spelling per destination (issue 23)', () => {
  it('property: every network, any valid spelling: the canonical form is valid, fixed, and the same for every casing of it', () => {
    fc.assert(
      fc.property(fc.constantFrom(...CRYPTO_NETWORKS), bytes(32), (network, raw) => {
        const a = addressFromBytes(network, raw);
        const c = canonicalAddress(network, a);
        ok(network, c);
        expect(canonicalAddress(network, c)).toBe(c);
        // Where case is no part of the address (bech32, CashAddr, hex), every casing is the same destination.
        if (!['SOLANA', 'STELLAR', 'DOGECOIN'].includes(network))
          for (const v of [a.toLowerCase(), a.toUpperCase()])
            if (addressReason(network, v) === undefined) expect(canonicalAddress(network, v), v).toBe(c);
      }),
      { numRuns: 60 },
    );
  });
});

describe('canonicalAddress of one-case EVM addresses (EIP-55, its one-block keccak and the map of spellings seen)', () => {
  it('spells every one-case account as the independent EIP-55 oracle does, again from the map, past its bound', () => {
    const accounts = Array.from({ length: 5000 }, (_, i) =>
      Buffer.from(sha256(new TextEncoder().encode(`account ${i}`)).subarray(0, 20)).toString('hex'),
    );
    // Twice over: the second pass reads spellings the map kept, or spells them again once the map was emptied.
    for (const pass of [1, 2]) {
      for (const [i, hex] of accounts.entries()) {
        const given = i % 2 ? `0x${hex.toUpperCase()}` : `0x${hex}`;
        expect(canonicalAddress('ETHEREUM', given), `pass ${pass}, ${given}`).toBe(eip55Oracle(hex));
      }
    }
  });
});

describe('canonicalAddress with the WebAssembly keccak (hash-wasm) compiled', () => {
  it('spells one-case accounts as the independent EIP-55 oracle does once keccak runs in WebAssembly', async () => {
    expect(await keccakReady()).toBe(true);
    // Accounts the map of spellings seen cannot hold yet: each one hashed by the compiled keccak.
    for (let i = 0; i < 3000; i++) {
      const hex = Buffer.from(sha256(new TextEncoder().encode(`wasm account ${i}`)).subarray(0, 20)).toString('hex');
      const given = i % 2 ? `0x${hex.toUpperCase()}` : `0x${hex}`;
      expect(canonicalAddress('ETHEREUM', given), given).toBe(eip55Oracle(hex));
      // A mixed-case spelling is checked against the same keccak: the right one passes.
      const good = eip55Oracle(hex);
      expect(addressReason('ETHEREUM', good)).toBeUndefined();
    }
  });
});
