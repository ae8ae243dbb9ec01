// Proving an address is one's own by a signature (address verification, the SIGNATURE method): the message the
// service asks to be signed, signing it with the address's key, and checking a signature against the address. The
// OpenAPI: "EVM messages follow EIP-191; Solana messages are JSON payloads signed with ed25519." So:
// - on an EVM network, the message is text signed as personal_sign does (EIP-191 version 0x45: keccak-256 of
//   "\x19Ethereum Signed Message:\n" + its length in bytes + the message), the signature 65 bytes r || s || v as
//   0x-prefixed hex (v 27 or 28, or 0 or 1), and the key recovered from it must hash to the address;
// - on SOLANA, the message is a JSON object as text, signed with ed25519 by the key the address is (its 32 bytes in
//   base58), the signature 64 bytes in base58 (as wallets' signMessage gives them; 0x hex is taken too).
// No other network has a signature proof: the service answers those with a problem naming the networks that do.
// Not exported from the contract's index: only the local service and `coinop addresses verify` load the curves.
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { base58, hex } from '@scure/base';
import { signatureScheme } from './ownership-networks.js';

export {
  type ProofMessageParts,
  proofMessage,
  SIGNATURE_NETWORKS,
  type SignatureScheme,
  signatureScheme,
} from './ownership-networks.js';

const utf8 = (s: string) => new TextEncoder().encode(s);

/** EIP-191 (version 0x45, personal_sign): the hash an EVM wallet signs for a text message. */
function personalMessageHash(message: string): Uint8Array {
  const bytes = utf8(message);
  const prefix = utf8(`\x19Ethereum Signed Message:\n${bytes.length}`);
  const all = new Uint8Array(prefix.length + bytes.length);
  all.set(prefix);
  all.set(bytes, prefix.length);
  return keccak_256(all);
}

/** The EVM address (lower case) of an uncompressed secp256k1 public key. */
function evmAddressOf(publicKey: Uint8Array): string {
  const point = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return `0x${hex.encode(keccak_256(point.subarray(1)).subarray(12))}`;
}

function hexBytes(value: string): Uint8Array | undefined {
  const h = value.startsWith('0x') || value.startsWith('0X') ? value.slice(2) : value;
  if (!/^([0-9a-fA-F]{2})*$/.test(h)) return undefined;
  return hex.decode(h.toLowerCase());
}

function base58Bytes(value: string): Uint8Array | undefined {
  try {
    return base58.decode(value);
  } catch {
    return undefined;
  }
}

/** Why a signature does not prove `address` on `network` over `message`; undefined when it does. */
export function signatureProblem(
  network: string,
  address: string,
  message: string,
  signature: string,
): string | undefined {
  const scheme = signatureScheme(network);
  if (scheme === 'eip191') {
    const sig = hexBytes(signature.trim());
    if (sig?.length !== 65) return 'must be 65 bytes (r, s, v) as 0x-prefixed hex, as personal_sign gives it';
    const v = sig[64] >= 27 ? sig[64] - 27 : sig[64];
    if (v !== 0 && v !== 1) return 'has a recovery byte v other than 27, 28, 0 or 1';
    const recovered = new Uint8Array(65);
    recovered[0] = v;
    recovered.set(sig.subarray(0, 64), 1);
    let signer: string;
    try {
      signer = evmAddressOf(secp256k1.recoverPublicKey(recovered, personalMessageHash(message), { prehash: false }));
    } catch {
      return 'is not a valid secp256k1 signature';
    }
    return signer === address.toLowerCase()
      ? undefined
      : `was made by the key of ${signer}, not of ${address} (an EIP-191 personal_sign of the verification's message)`;
  }
  if (scheme === 'ed25519') {
    const value = signature.trim();
    const sig = value.startsWith('0x') ? hexBytes(value) : base58Bytes(value);
    if (sig?.length !== 64) return 'must be 64 bytes in base58 (or 0x-prefixed hex), as signMessage gives it';
    const key = base58Bytes(address);
    if (key?.length !== 32) return `cannot be checked: ${address} is not a 32-byte ed25519 public key`;
    let ok = false;
    try {
      ok = ed25519.verify(sig, utf8(message), key, { zip215: false });
    } catch {
      ok = false;
    }
    return ok ? undefined : `is not an ed25519 signature of the verification's message by ${address}`;
  }
  return `no signature proves an address on ${network} (networks: EVM ones, SOLANA)`;
}

/**
 * A private key from a key file's text: for an EVM network 32 bytes as hex (0x optional); for SOLANA a keypair as
 * solana-keygen writes it (a JSON array of 64 numbers, or of the 32 of the secret key), or those bytes in base58.
 */
export function parsePrivateKey(network: string, text: string): Uint8Array | string {
  const value = text.trim();
  const scheme = signatureScheme(network);
  if (scheme === 'eip191') {
    const key = hexBytes(value);
    if (key?.length !== 32) return 'must hold a secp256k1 private key: 32 bytes as hex (0x optional)';
    if (!secp256k1.utils.isValidSecretKey(key)) return 'holds a value that is not a valid secp256k1 private key';
    return key;
  }
  if (scheme === 'ed25519') {
    let bytes: Uint8Array | undefined;
    if (value.startsWith('[')) {
      try {
        const list = JSON.parse(value) as unknown;
        if (Array.isArray(list) && list.every((n) => Number.isInteger(n) && n >= 0 && n <= 255))
          bytes = Uint8Array.from(list as number[]);
      } catch {
        bytes = undefined;
      }
    } else bytes = base58Bytes(value);
    if (!bytes || (bytes.length !== 64 && bytes.length !== 32))
      return 'must hold an ed25519 keypair as solana-keygen writes it (a JSON array of 64 numbers), or its base58';
    return bytes.subarray(0, 32);
  }
  return `no signature proves an address on ${network}`;
}

/** The address a private key controls on a network (EVM lower case; SOLANA base58). */
export function addressOfKey(network: string, key: Uint8Array): string {
  if (signatureScheme(network) === 'ed25519') return base58.encode(ed25519.getPublicKey(key));
  return evmAddressOf(secp256k1.getPublicKey(key, false));
}

/** The signature of a message by a key, in the form the service takes on that network. */
export function signProof(network: string, key: Uint8Array, message: string): string {
  if (signatureScheme(network) === 'ed25519') return base58.encode(ed25519.sign(utf8(message), key));
  const sig = secp256k1.sign(personalMessageHash(message), key, { prehash: false, format: 'recovered' });
  // noble's recovered form is v || r || s with v 0 or 1; personal_sign's is r || s || v with v 27 or 28.
  const out = new Uint8Array(65);
  out.set(sig.subarray(1, 65));
  out[64] = sig[0] + 27;
  return `0x${hex.encode(out)}`;
}
