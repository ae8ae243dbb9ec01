// Destination addresses of every network the catalogue knows, checked by their real format and checksum (not by a
// pattern): a mistyped character is found before anything is sent, by the CLI and by the local service alike.
// The testnet forms of the Bitcoin-family chains (the hosted sandbox pays on testnets) are checked exactly as their
// mainnet forms; whether a testnet address may be sent is the caller's to say (AddressCheck): the CLI refuses one
// in production, the local service (a stand-in for the sandbox and production alike) takes both.
// An address of another network is refused naming it ("3J98... is not a LITECOIN address (it looks like a BITCOIN
// address)"; a Bitcoin legacy address for BITCOIN_CASH with its CashAddr), and canonicalAddress gives each destination
// one spelling, so the same payment written two ways is one payment to the batch's ref_ids, the policy and the service.
// The codecs and hashes are @scure/base and @noble/hashes; only CashAddr's polymod and Stellar's CRC16-XModem,
// which those libraries do not offer, are written here.
import { keccak_256, keccakP } from '@noble/hashes/sha3.js';
import { createKeccak, type IHasher } from 'hash-wasm';
import { sha256 } from '@noble/hashes/sha2.js';
import { base32nopad, base58, bech32, bech32m, createBase58check } from '@scure/base';
import type { CryptoNetwork } from './enums.js';

// Made on first use: the built CLI evaluates the codecs only when an address is checked (scripts/build.mjs,
// lazy-packages), so nothing of theirs may run when this module is evaluated.
let base58checkCodec: ReturnType<typeof createBase58check> | undefined;
const base58check = () => (base58checkCodec ??= createBase58check(sha256));

/** What a destination is wrong by, in one line (the field is named by the caller). */
export type AddressReason = string;

export const CHECKSUM_MISMATCH = 'checksum does not match: a character is mistyped';

const BASE58_CHARS = /^[1-9A-HJ-NP-Za-km-z]+$/;
const BECH32_CHARS = /^[02-9ac-hj-np-z]+$/;

// ---- Base58Check (Bitcoin-family legacy addresses) -------------------------------------------------------------

/**
 * Base58Check: base58 of version byte + 20-byte hash160 + the first 4 bytes of sha256(sha256(version + hash)).
 * `versions` maps each accepted version byte to what it is (P2PKH, P2SH).
 */
function base58CheckReason(
  network: string,
  address: string,
  versions: Record<number, string>,
): AddressReason | undefined {
  if (!BASE58_CHARS.test(address)) return 'has a character outside the base58 alphabet (0, O, I and l are not used)';
  const raw = base58.decode(address);
  if (raw.length !== 25) return 'wrong length: not a 20-byte hash with its version byte and checksum';
  let payload: Uint8Array;
  try {
    payload = base58check().decode(address);
  } catch {
    return CHECKSUM_MISMATCH;
  }
  if (!(payload[0] in versions)) {
    const accepted = Object.entries(versions)
      .map(([v, what]) => `${v} (${what})`)
      .join(', ');
    return `not a ${network} address: Base58Check version byte ${payload[0]}, expected ${accepted}`;
  }
  return undefined;
}

// ---- Segwit: bech32 / bech32m (BIP-173, BIP-350) ----------------------------------------------------------------

/**
 * A segwit address: prefix (hrp) "1" data, one case only, at most 90 characters. The first 5-bit word is the
 * witness version (0..16); version 0 uses the bech32 checksum and a program of 20 or 32 bytes, versions 1..16 use
 * bech32m and a program of 2 to 40 bytes.
 */
function segwitReason(network: string, address: string, prefixes: readonly string[]): AddressReason | undefined {
  const lower = address.toLowerCase();
  if (address !== lower && address !== address.toUpperCase()) return 'mixes upper and lower case (bech32 uses one)';
  const sep = lower.lastIndexOf('1');
  if (!prefixes.includes(lower.slice(0, sep)))
    return `not a ${network} address: bech32 prefix must be ${prefixes.join(' or ')}`;
  if (lower.length > 90) return 'wrong length: a segwit address has at most 90 characters';
  if (!BECH32_CHARS.test(lower.slice(sep + 1)))
    return 'has a character outside the bech32 alphabet (1, b, i and o are not used after the prefix)';
  const asBech32 = bech32.decodeUnsafe(lower, 90);
  const asBech32m = bech32m.decodeUnsafe(lower, 90);
  const decoded = asBech32 || asBech32m;
  if (!decoded) return CHECKSUM_MISMATCH;
  if (decoded.words.length === 0) return 'wrong length: no witness version or program';
  const [version, ...words] = decoded.words;
  if (version > 16) return 'witness version must be 0 to 16';
  if (version === 0 && !asBech32) return 'a version 0 witness program takes the bech32 checksum, not bech32m (BIP-350)';
  if (version !== 0 && !asBech32m) return `a version ${version} witness program takes the bech32m checksum (BIP-350)`;
  const program = bech32.fromWordsUnsafe(words);
  if (!program) return 'wrong length: the witness program does not end on a whole byte';
  if (version === 0 && program.length !== 20 && program.length !== 32)
    return 'wrong length: a version 0 witness program is 20 or 32 bytes';
  if (program.length < 2 || program.length > 40) return 'wrong length: a witness program is 2 to 40 bytes';
  return undefined;
}

/** The addresses of one chain of a Bitcoin-family network: segwit prefixes (none for Dogecoin) and Base58Check versions. */
interface UtxoChain {
  segwit: readonly string[];
  versions: Record<number, string>;
}

/** A Bitcoin-family network: its mainnet and its testnet (the hosted sandbox pays on the testnet). */
interface UtxoRule {
  mainnet: UtxoChain;
  testnet: UtxoChain;
}

const UTXO_RULES = {
  // Mainnet P2PKH 1..., P2SH 3..., segwit bc1...; testnet (testnet3, testnet4, signet) m.../n..., 2..., tb1...
  BITCOIN: {
    mainnet: { segwit: ['bc'], versions: { 0: 'P2PKH', 5: 'P2SH' } },
    testnet: { segwit: ['tb'], versions: { 111: 'testnet P2PKH', 196: 'testnet P2SH' } },
  },
  // P2PKH L..., P2SH M..., segwit ltc1...; testnet m.../n..., Q..., tltc1.... The older P2SH forms 3... and 2...
  // (Bitcoin's version bytes) are refused: read as Bitcoin's, they are the commonest wrong-chain payment (issue 23);
  // Litecoin Core writes the same script as M... and Q.... Testnet m.../n... is Litecoin's only P2PKH form: kept.
  LITECOIN: {
    mainnet: { segwit: ['ltc'], versions: { 48: 'P2PKH', 50: 'P2SH' } },
    testnet: { segwit: ['tltc'], versions: { 111: 'testnet P2PKH', 58: 'testnet P2SH' } },
  },
  // P2PKH D..., P2SH 9.../A...; testnet n...; Dogecoin has no segwit. Its testnet P2SH 2... shares Bitcoin testnet's
  // version byte (196) and is refused as one (issue 23).
  DOGECOIN: {
    mainnet: { segwit: [], versions: { 30: 'P2PKH', 22: 'P2SH' } },
    testnet: { segwit: [], versions: { 113: 'testnet P2PKH' } },
  },
} as const satisfies Record<string, UtxoRule>;

/** Both chains' prefixes and versions: what a well-formed address of the network may carry. */
const either = (rule: UtxoRule): UtxoChain => ({
  segwit: [...rule.mainnet.segwit, ...rule.testnet.segwit],
  versions: { ...rule.mainnet.versions, ...rule.testnet.versions },
});

/** The bech32 prefix of an address shaped as one (text before its last "1"), lower case; undefined otherwise. */
function segwitPrefix(address: string): string | undefined {
  const sep = address.lastIndexOf('1');
  return sep > 0 ? address.slice(0, sep).toLowerCase() : undefined;
}

function utxoReason(network: string, address: string, rule: UtxoRule): AddressReason | undefined {
  const all = either(rule);
  const legacy = base58CheckReason(network, address, all.versions);
  if (!legacy) return undefined;
  const prefix = segwitPrefix(address);
  if (prefix !== undefined && all.segwit.includes(prefix)) return segwitReason(network, address, all.segwit);
  // Shaped as some other chain's bech32 address (ltc1... given for BITCOIN): say which prefix is wanted.
  if (/^[a-z]{1,83}1[02-9ac-hj-np-z]{6,}$/i.test(address))
    return all.segwit.length
      ? segwitReason(network, address, all.segwit)
      : `not a ${network} address: ${network} has no bech32 addresses`;
  return legacy;
}

/** Whether a valid address of a Bitcoin-family network is its testnet's: by its segwit prefix or its version byte. */
function utxoTestnet(address: string, rule: UtxoRule): boolean {
  const prefix = segwitPrefix(address);
  if (prefix !== undefined && (rule.testnet.segwit as readonly string[]).includes(prefix)) return true;
  if (!BASE58_CHARS.test(address)) return false;
  const raw = base58.decode(address);
  return raw.length === 25 && raw[0] in rule.testnet.versions;
}

// ---- CashAddr (Bitcoin Cash) -----------------------------------------------------------------------------------

const CASHADDR_PREFIX = 'bitcoincash';
/** The prefix of Bitcoin Cash's testnets (testnet3, testnet4, chipnet). */
const CASHADDR_TESTNET_PREFIX = 'bchtest';
const CASHADDR_PREFIXES = [CASHADDR_PREFIX, CASHADDR_TESTNET_PREFIX];

/**
 * CashAddr's BCH-code checksum (40 bits), written here: @scure/base has bech32's polymod but not this one. The
 * generator constants are those of the CashAddr specification.
 */
function cashAddrPolymod(values: number[]): bigint {
  const generators = [0x98f2bc8e61n, 0x79b76d99e2n, 0xf33e5fb3c4n, 0xae2eabe2a8n, 0x1e4f43e470n];
  let c = 1n;
  for (const d of values) {
    const c0 = c >> 35n;
    c = ((c & 0x07ffffffffn) << 5n) ^ BigInt(d);
    for (let i = 0; i < 5; i++) if ((c0 >> BigInt(i)) & 1n) c ^= generators[i];
  }
  return c ^ 1n;
}

const BECH32_ALPHABET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

/** The prefix as CashAddr checksums it: the low 5 bits of each character, then a 0. */
const cashAddrPrefixWords = (prefix: string) => [...[...prefix].map((c) => c.charCodeAt(0) & 31), 0];

/** The prefix a CashAddr's checksum holds for: the one written, else the mainnet's or the testnet's; undefined if none. */
function cashAddrChecksummed(address: string): { prefix?: string; words: number[] } | undefined {
  const lower = address.toLowerCase();
  const colon = lower.indexOf(':');
  const payload = lower.slice(colon + 1);
  if (!BECH32_CHARS.test(payload)) return undefined;
  const words = [...payload].map((c) => BECH32_ALPHABET.indexOf(c));
  const candidates = colon >= 0 ? [lower.slice(0, colon)] : CASHADDR_PREFIXES;
  const prefix = candidates.find((p) => cashAddrPolymod([...cashAddrPrefixWords(p), ...words]) === 0n);
  return { prefix, words };
}

/**
 * CashAddr: [prefix:]payload, one case only, the prefix bitcoincash (mainnet) or bchtest (testnets); the payload is
 * the bech32 alphabet: a version byte (type P2PKH 0 or P2SH 1 in bits 3..6, hash size in bits 0..2: 20 or 32 bytes),
 * the hash, then an 8-character checksum over the prefix (which, left out, is either network's).
 */
function cashAddrReason(address: string): AddressReason | undefined {
  const lower = address.toLowerCase();
  if (address !== lower && address !== address.toUpperCase()) return 'mixes upper and lower case (CashAddr uses one)';
  const colon = lower.indexOf(':');
  if (colon >= 0 && !CASHADDR_PREFIXES.includes(lower.slice(0, colon)))
    return `not a BITCOIN_CASH address: CashAddr prefix must be ${CASHADDR_PREFIXES.join(' or ')}`;
  const checked = cashAddrChecksummed(address);
  if (!checked) return 'has a character outside the CashAddr alphabet (1, b, i and o are not used)';
  if (checked.prefix === undefined) return CHECKSUM_MISMATCH;
  const bytes = bech32.fromWordsUnsafe(checked.words.slice(0, -8));
  if (!bytes || bytes.length < 1) return 'wrong length';
  const version = bytes[0];
  const size = [20, 24, 28, 32, 40, 48, 56, 64][version & 7];
  if (version & 0x80 || version >> 3 > 1) return 'not a BITCOIN_CASH address: CashAddr type must be P2PKH or P2SH';
  if (bytes.length - 1 !== size || (size !== 20 && size !== 32))
    return 'wrong length: a CashAddr hash is 20 or 32 bytes';
  return undefined;
}

/** Encodes a CashAddr (with its prefix) from a version byte and a hash; for generated addresses and tests. */
export function encodeCashAddr(version: number, hash: Uint8Array, prefix = CASHADDR_PREFIX): string {
  const words = bech32.toWords(Uint8Array.from([version, ...hash]));
  const mod = cashAddrPolymod([...cashAddrPrefixWords(prefix), ...words, 0, 0, 0, 0, 0, 0, 0, 0]);
  const checksum = Array.from({ length: 8 }, (_, i) => Number((mod >> BigInt(5 * (7 - i))) & 31n));
  return `${prefix}:${[...words, ...checksum].map((w) => BECH32_ALPHABET[w]).join('')}`;
}

/** Legacy Bitcoin Cash addresses are Bitcoin's Base58Check: P2PKH 1..., P2SH 3...; testnet m.../n..., 2.... */
const isBitcoinCashLegacy = (address: string) => /^[13mn2]/.test(address) && !address.includes(':');

/**
 * Bitcoin Cash is given as CashAddr. A legacy address (1..., 3..., testnet m.../n.../2...) is Bitcoin's spelling of
 * the same hash, and the commonest wrong-chain payment: refused, with its CashAddr spelling (addressReason says it).
 */
function bitcoinCashReason(address: string): AddressReason | undefined {
  // Everything that is not a legacy address is CashAddr.
  if (isBitcoinCashLegacy(address))
    return (
      base58CheckReason('BITCOIN_CASH', address, either(UTXO_RULES.BITCOIN).versions) ??
      'is a legacy address: BITCOIN_CASH takes CashAddr (bitcoincash:q...)'
    );
  return cashAddrReason(address);
}

/** The CashAddr of a valid Bitcoin legacy address's hash (P2PKH or P2SH, mainnet or testnet); undefined otherwise. */
export function legacyToCashAddr(address: string): string | undefined {
  if (!BASE58_CHARS.test(address) || base58.decode(address).length !== 25) return undefined;
  let payload: Uint8Array;
  try {
    payload = base58check().decode(address);
  } catch {
    return undefined;
  }
  const kind = {
    0: [0, CASHADDR_PREFIX],
    5: [8, CASHADDR_PREFIX],
    111: [0, CASHADDR_TESTNET_PREFIX],
    196: [8, CASHADDR_TESTNET_PREFIX],
  }[payload[0]] as [number, string] | undefined;
  return kind && encodeCashAddr(kind[0], payload.subarray(1), kind[1]);
}

/** A valid CashAddr written with its prefix, in lower case (the prefix a bare one's checksum holds for). */
function cashAddrCanonical(address: string): string {
  if (isBitcoinCashLegacy(address)) return address;
  const checked = cashAddrChecksummed(address);
  if (checked?.prefix === undefined) return address;
  const lower = address.toLowerCase();
  return `${checked.prefix}:${lower.slice(lower.indexOf(':') + 1)}`;
}

/** Whether a valid Bitcoin Cash address is a testnet one: its CashAddr prefix, or its legacy version byte. */
function bitcoinCashTestnet(address: string): boolean {
  if (isBitcoinCashLegacy(address)) return utxoTestnet(address, UTXO_RULES.BITCOIN);
  return cashAddrChecksummed(address)?.prefix === CASHADDR_TESTNET_PREFIX;
}

// ---- EVM (EIP-55) -------------------------------------------------------------------------------------------------

/** The EIP-55 casing of 40 hex digits: a letter is upper case where that nibble of keccak256(lowercase hex) >= 8. */
export function eip55(hex40: string): string {
  const lower = hex40.toLowerCase();
  const known = eip55Seen.get(lower);
  if (known) return known;
  const hash = keccak40(lower);
  // Spelled into a scratch buffer of character codes (a letter a-f at 97-102 goes up by 32), read out once.
  for (let i = 0; i < 40; i++) {
    const c = lower.charCodeAt(i);
    const nibble = (hash[i >> 1] >> (i & 1 ? 0 : 4)) & 15;
    EIP55_OUT[i + 2] = c >= 97 && nibble >= 8 ? c - 32 : c;
  }
  const out = EIP55_OUT.toString('latin1', 0, 42);
  if (eip55Seen.size >= EIP55_SEEN) eip55Seen.clear();
  eip55Seen.set(lower, out);
  return out;
}

/**
 * The addresses spelled lately: a payout file pays the same destinations again and again, and a batch spells each
 * row's destination more than once (validation, staging, the checks); a bounded map, emptied when full.
 */
const EIP55_SEEN = 4096;
/** "0x" and the 40 characters eip55 spells. */
const EIP55_OUT = Buffer.from('0x'.padEnd(42, '0'), 'latin1');
const eip55Seen = new Map<string, string>();

/** keccak_256's state for 40 ASCII bytes (one block: no object or buffer per hash); little-endian hosts only. */
const K_STATE = new Uint32Array(50);
const K_BYTES = new Uint8Array(K_STATE.buffer);
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * hash-wasm's keccak-256 (WebAssembly: several times the speed of keccakP in JavaScript, which a big payout file's
 * validation spends a third of its time in), once compiled: compiling starts at the first address spelled, and the
 * addresses before it is ready take keccakP. Both are keccak-256; a failure to compile leaves keccakP.
 */
let wasmKeccak: IHasher | undefined;
let wasmKeccakReady: Promise<boolean> | undefined;

/** Starts compiling hash-wasm's keccak (once); resolves true once it is in use, false if it failed (keccakP stays). */
export function keccakReady(): Promise<boolean> {
  wasmKeccakReady ??= createKeccak(256).then(
    (hasher) => {
      wasmKeccak = hasher;
      return true;
    },
    () => false,
  );
  return wasmKeccakReady;
}

/**
 * keccak_256 of 40 hex digits: hash-wasm's when compiled (keccakReady); else the library's permutation (keccakP)
 * over one block, padded as keccak_256 pads it (0x01 after the message, 0x80 in the last byte of the 136-byte rate);
 * else the library's keccak_256.
 */
function keccak40(lower: string): Uint8Array {
  if (wasmKeccak) {
    wasmKeccak.init();
    wasmKeccak.update(lower);
    return wasmKeccak.digest('binary');
  }
  void keccakReady();
  if (!LITTLE_ENDIAN || lower.length !== 40) return keccak_256(new TextEncoder().encode(lower));
  K_STATE.fill(0);
  for (let i = 0; i < 40; i++) K_BYTES[i] = lower.charCodeAt(i);
  K_BYTES[40] ^= 0x01;
  K_BYTES[135] ^= 0x80;
  keccakP(K_STATE, 24);
  return K_BYTES.subarray(0, 32);
}

const isUniformCase = (hex: string) => hex === hex.toLowerCase() || hex === hex.toUpperCase();

/**
 * 0x and 40 hex digits (a 20-byte account). Mixed case carries the EIP-55 checksum and must match it; all lower or
 * all upper case carries none and is accepted (the withdrawal confirmation says so).
 */
function evmReason(address: string): AddressReason | undefined {
  if (!address.startsWith('0x')) return 'must start with 0x';
  const hex = address.slice(2);
  if (!/^[0-9a-fA-F]*$/.test(hex)) return 'has a character that is not a hex digit';
  if (hex.length !== 40) return 'wrong length: 0x and 40 hex digits';
  if (!isUniformCase(hex) && eip55(hex) !== address) return `${CHECKSUM_MISMATCH} (EIP-55 upper/lower case)`;
  return undefined;
}

// ---- Solana, Stellar, Sui ----------------------------------------------------------------------------------------

/** Solana: the base58 of a 32-byte ed25519 public key; no checksum. */
function solanaReason(address: string): AddressReason | undefined {
  if (!BASE58_CHARS.test(address)) return 'has a character outside the base58 alphabet (0, O, I and l are not used)';
  if (base58.decode(address).length !== 32) return 'wrong length: not a 32-byte key';
  return undefined;
}

/** CRC16-XModem (poly 0x1021, init 0), written here: @noble/hashes has no CRCs. */
export function crc16xmodem(bytes: Uint8Array): number {
  let crc = 0;
  for (const b of bytes) {
    crc ^= b << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** StrKey version byte of a Stellar account id (G...): 6 << 3. */
export const STELLAR_ACCOUNT_VERSION = 6 << 3;

/**
 * Stellar account id (StrKey): base32 (RFC 4648, no padding) of the version byte 6 << 3 ("G"), the 32-byte ed25519
 * key and the CRC16-XModem of those 33 bytes, little-endian: 56 characters.
 */
function stellarReason(address: string): AddressReason | undefined {
  if (!/^[A-Z2-7]*$/.test(address)) return 'has a character outside the base32 alphabet (A-Z and 2-7, upper case)';
  if (address.length !== 56) return 'wrong length: a Stellar account id is 56 characters';
  const bytes = base32nopad.decode(address);
  const crc = crc16xmodem(bytes.subarray(0, 33));
  if (bytes[33] !== (crc & 0xff) || bytes[34] !== crc >> 8) return CHECKSUM_MISMATCH;
  if (bytes[0] !== STELLAR_ACCOUNT_VERSION) return 'not a STELLAR account id: it must start with G';
  return undefined;
}

/** Sui: 0x and 64 hex digits (a 32-byte account); no checksum. */
function suiReason(address: string): AddressReason | undefined {
  if (!address.startsWith('0x')) return 'must start with 0x';
  if (!/^[0-9a-fA-F]*$/.test(address.slice(2))) return 'has a character that is not a hex digit';
  if (address.length !== 66) return 'wrong length: 0x and 64 hex digits';
  return undefined;
}

// ---- Per network -----------------------------------------------------------------------------------------------

interface AddressRule {
  reason(address: string): AddressReason | undefined;
  /** The one spelling of a valid address (canonicalAddress); unset: as given. */
  canonical?(address: string): string;
  /** Whether a valid address of this form carries a checksum (a mistyped character would be found). */
  checksummed(address: string): boolean;
  /** Whether a valid address is a testnet's (only where the testnet's addresses differ from the mainnet's). */
  testnet?(address: string): boolean;
  example: string;
}

/** A bech32 address of a Bitcoin-family chain in lower case (BIP-173: one case, lower preferred); base58 as given. */
function utxoCanonical(address: string, rule: UtxoRule): string {
  const prefix = segwitPrefix(address);
  return prefix !== undefined && (either(rule).segwit as readonly string[]).includes(prefix)
    ? address.toLowerCase()
    : address;
}

const EVM: AddressRule = {
  reason: evmReason,
  // Mixed case is EIP-55 already when valid (and as given when not): keccak only for one-case addresses.
  canonical: (a) => (/^0x[0-9a-fA-F]{40}$/.test(a) && isUniformCase(a.slice(2)) ? eip55(a.slice(2)) : a),
  checksummed: (a) => !isUniformCase(a.slice(2)),
  example: '0xF0Aa84466e353E5390be37FE2934301c07c19a55',
};

const always = () => true;
const never = () => false;

export const ADDRESS_RULES: Record<CryptoNetwork, AddressRule> = {
  BITCOIN: {
    reason: (a) => utxoReason('BITCOIN', a, UTXO_RULES.BITCOIN),
    canonical: (a) => utxoCanonical(a, UTXO_RULES.BITCOIN),
    checksummed: always,
    testnet: (a) => utxoTestnet(a, UTXO_RULES.BITCOIN),
    example: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
  },
  BITCOIN_CASH: {
    reason: bitcoinCashReason,
    canonical: cashAddrCanonical,
    checksummed: always,
    testnet: bitcoinCashTestnet,
    example: 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a',
  },
  LITECOIN: {
    reason: (a) => utxoReason('LITECOIN', a, UTXO_RULES.LITECOIN),
    canonical: (a) => utxoCanonical(a, UTXO_RULES.LITECOIN),
    checksummed: always,
    testnet: (a) => utxoTestnet(a, UTXO_RULES.LITECOIN),
    example: 'LW98ceYNxYki9e9QxDACLn82TtVEPm4qmy',
  },
  // Every EVM chain: Avalanche's C-Chain, BNB Smart Chain, Robinhood Chain (an Arbitrum Orbit chain), X Layer and
  // Ink are EVM chains with the same 0x addresses.
  ETHEREUM: EVM,
  POLYGON_POS: EVM,
  BASE: EVM,
  ARBITRUM_ONE: EVM,
  INK: EVM,
  XLAYER: EVM,
  AVALANCHE: EVM,
  BNB: EVM,
  ROBINHOOD: EVM,
  SOLANA: { reason: solanaReason, checksummed: never, example: '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV' },
  STELLAR: {
    reason: stellarReason,
    checksummed: always,
    example: 'GDQE7IXJ4HUHV6RQHIUPRJSEZE4DRS5WY577O2FY6YQ5LVWZ7JZTU2V5',
  },
  DOGECOIN: {
    reason: (a) => utxoReason('DOGECOIN', a, UTXO_RULES.DOGECOIN),
    canonical: (a) => utxoCanonical(a, UTXO_RULES.DOGECOIN),
    checksummed: always,
    testnet: (a) => utxoTestnet(a, UTXO_RULES.DOGECOIN),
    example: 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L',
  },
  SUI: {
    reason: suiReason,
    // Hex: the same account in either case; Sui writes it in lower case.
    canonical: (a) => (/^0x[0-9a-fA-F]{64}$/.test(a) ? a.toLowerCase() : a),
    checksummed: never,
    example: '0x02a212de6a9dfa3a69e22387acfbafbb1a9e591bd9d636e7895dcfc8de05f331',
  },
};
Object.setPrototypeOf(ADDRESS_RULES, null);

/** The EVM networks: one address format, and a deposit address on one of them receives on all of them. */
export const EVM_NETWORKS: readonly CryptoNetwork[] = (Object.keys(ADDRESS_RULES) as CryptoNetwork[]).filter(
  (n) => ADDRESS_RULES[n] === EVM,
);

/**
 * Where an address is checked. Unset: a well-formed address of the network's mainnet or testnet is taken (the local
 * service, the sandbox). `mainnetOnly` names an environment that pays on mainnets only ("production"): a testnet
 * address is refused there, saying so.
 */
export interface AddressCheck {
  mainnetOnly?: string;
}

/** Why the address is not one of the network's, in one line; undefined when it is valid (or the network unknown). */
export function addressReason(network: string, address: string, check: AddressCheck = {}): AddressReason | undefined {
  const rule = ADDRESS_RULES[network as CryptoNetwork];
  if (!rule) return undefined;
  if (address === '') return 'is empty';
  if (address.trim() !== address) return 'has spaces around it';
  // No address of any network is this long (and base58 decoding grows with the square of the length).
  if (address.length > 128) return 'wrong length: far longer than any address';
  const reason = rule.reason(address);
  // A checksum that does not match says the address is in the network's own form, mistyped: no other network's.
  if (reason)
    return (!reason.startsWith(CHECKSUM_MISMATCH) && wrongNetwork(network as CryptoNetwork, address)) || reason;
  if (check.mainnetOnly === undefined || !rule.testnet?.(address)) return undefined;
  return `a testnet address in ${check.mainnetOnly}: coinop sends to ${network} testnet addresses only in the sandbox and on the local service`;
}

/**
 * The networks an address of none of `network`'s forms is valid on ("EVM" for the EVM chains, named once), in the
 * catalogue's order.
 */
export function lookalikeNetworks(network: CryptoNetwork, address: string): string[] {
  const own = ADDRESS_RULES[network];
  const names: string[] = [];
  const ownShape = hasOwnPrefix(network, address);
  const tried = new Set<AddressRule>([own]);
  for (const [other, rule] of Object.entries(ADDRESS_RULES) as [CryptoNetwork, AddressRule][]) {
    if (tried.has(rule)) continue;
    tried.add(rule);
    if (rule.reason(address) !== undefined) continue;
    // Nearly any 32-byte base58 text is a Solana key: a mistyped bc1... is no Solana address.
    if (ownShape && !rule.checksummed(address)) continue;
    const name = rule === EVM ? 'EVM' : other;
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/** Whether the address starts as the network's own bech32 or CashAddr addresses do (bc1..., bitcoincash:...). */
function hasOwnPrefix(network: CryptoNetwork, address: string): boolean {
  const utxo = (UTXO_RULES as Record<string, UtxoRule>)[network];
  const prefix = segwitPrefix(address);
  if (utxo && prefix !== undefined && (either(utxo).segwit as readonly string[]).includes(prefix)) return true;
  const colon = address.indexOf(':');
  return network === 'BITCOIN_CASH' && colon > 0 && CASHADDR_PREFIXES.includes(address.slice(0, colon).toLowerCase());
}

/** "is not a LITECOIN address (it looks like a BITCOIN address)", for an address valid on another network. */
function wrongNetwork(network: CryptoNetwork, address: string): AddressReason | undefined {
  const like = lookalikeNetworks(network, address);
  if (!like.length) return undefined;
  const an = (name: string) => (/^[AEIOU]/.test(name) ? 'an' : 'a');
  let reason = `${address} is not ${an(network)} ${network} address (it looks like ${an(like[0])} ${like.join(' or ')} address)`;
  const cash = network === 'BITCOIN_CASH' ? legacyToCashAddr(address) : undefined;
  if (cash) reason += `; a Bitcoin Cash address is given in CashAddr: if this hash is meant, give it as ${cash}`;
  return reason;
}

/**
 * The one spelling of a destination, so the same payment written two ways is one payment (issue 23): bech32 and
 * bech32m in lower case, EVM addresses in their EIP-55 casing, CashAddr in lower case with its prefix
 * (bitcoincash: or bchtest:), Sui's hex in lower case; base58 (case is meaning) and Stellar's upper-case StrKey as
 * given. For a valid address of the network; anything else is returned as given (checking it is addressReason's).
 */
export function canonicalAddress(network: string, address: string): string {
  const rule = ADDRESS_RULES[network as CryptoNetwork];
  return rule?.canonical ? rule.canonical(address) : address;
}

export function isValidAddress(network: CryptoNetwork, address: string, check: AddressCheck = {}): boolean {
  return !!ADDRESS_RULES[network] && addressReason(network, address, check) === undefined;
}

/** Whether a valid address is a testnet's (BITCOIN tb1..., m..., LITECOIN tltc1..., BITCOIN_CASH bchtest:...). */
export function isTestnetAddress(network: CryptoNetwork, address: string): boolean {
  return ADDRESS_RULES[network]?.testnet?.(address) ?? false;
}

/** Whether a (valid) address carries a checksum: an EVM address in one case, a Solana or Sui address do not. */
export function addressHasChecksum(network: CryptoNetwork, address: string): boolean {
  return ADDRESS_RULES[network]?.checksummed(address) ?? false;
}

/** Base58Check of a version byte and a hash (legacy Bitcoin-family addresses); for generated addresses and tests. */
export const encodeBase58Check = (version: number, hash: Uint8Array): string =>
  base58check().encode(Uint8Array.from([version, ...hash]));

/** A segwit address (bech32 for version 0, bech32m after); for generated addresses and tests. */
export function encodeSegwit(prefix: string, version: number, program: Uint8Array): string {
  const words = [version, ...bech32.toWords(program)];
  return version === 0 ? bech32.encode(prefix, words) : bech32m.encode(prefix, words);
}

/** A Stellar account id of a 32-byte key; for generated addresses and tests. */
export function encodeStellar(key: Uint8Array): string {
  const body = Uint8Array.from([STELLAR_ACCOUNT_VERSION, ...key]);
  const crc = crc16xmodem(body);
  return base32nopad.encode(Uint8Array.from([...body, crc & 0xff, crc >> 8]));
}

/** A valid address of the network made from (at least 32) bytes; the local service's deposit addresses use it. */
export function addressFromBytes(network: CryptoNetwork, bytes: Uint8Array): string {
  const hex = (n: number) => [...bytes.subarray(0, n)].map((b) => b.toString(16).padStart(2, '0')).join('');
  switch (network) {
    case 'BITCOIN':
      return encodeSegwit('bc', 0, bytes.subarray(0, 20));
    case 'LITECOIN':
      return encodeSegwit('ltc', 0, bytes.subarray(0, 20));
    case 'BITCOIN_CASH':
      return encodeCashAddr(0, bytes.subarray(0, 20));
    case 'DOGECOIN':
      return encodeBase58Check(30, bytes.subarray(0, 20));
    case 'SOLANA':
      return base58.encode(bytes.subarray(0, 32));
    case 'STELLAR':
      return encodeStellar(bytes.subarray(0, 32));
    case 'SUI':
      return `0x${hex(32)}`;
    default:
      return eip55(hex(20));
  }
}
