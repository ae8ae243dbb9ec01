import { sha256 } from '@noble/hashes/sha2.js';
import { bech32, createBase58check } from '@scure/base';
import { describe, expect, it } from 'vitest';
import {
  ADDRESS_RULES,
  addressFromBytes,
  addressHasChecksum,
  addressReason,
  CHECKSUM_MISMATCH,
  CRYPTO_NETWORKS,
  type CryptoNetwork,
  EVM_NETWORKS,
  encodeBase58Check,
  encodeCashAddr,
  encodeSegwit,
  canonicalAddress,
  isTestnetAddress,
  legacyToCashAddr,
} from '../../src/contract/index.js';

const ok = (network: string, address: string) => expect(addressReason(network, address), address).toBeUndefined();

describe('published vectors', () => {
  it('BIP-173 and BIP-350: valid segwit addresses', () => {
    for (const a of [
      'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4',
      'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7',
      'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y',
      'BC1SW50QGDZ25J',
      'bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs',
      'tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy',
      'tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c',
      'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
    ])
      ok('BITCOIN', a);
  });

  it('BIP-173 and BIP-350: invalid segwit addresses, each for its reason', () => {
    const cases: [string, RegExp][] = [
      ['tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut', /bech32 prefix must be bc/],
      ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd', /takes the bech32m checksum/],
      ['tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf', /takes the bech32m checksum/],
      ['BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL', /takes the bech32m checksum/],
      ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh', /version 0 witness program takes the bech32 checksum/],
      ['tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47', /version 0 .* bech32 checksum/],
      ['bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4', /outside the bech32 alphabet/],
      ['BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R', /witness version must be 0 to 16/],
      ['bc1pw5dgrnzv', /wrong length/],
      ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav', /wrong length/],
      ['BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P', /version 0 witness program is 20 or 32 bytes/],
      ['tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq', /mixes upper and lower case/],
      ['bc1gmk9yu', /wrong length|checksum/],
      ['bc1qqqqqqqqqqqqqq', /checksum does not match/],
    ];
    for (const [a, why] of cases) expect(addressReason('BITCOIN', a), a).toMatch(why);
  });

  it('Base58Check: the known Bitcoin, Dogecoin addresses; one character off is a checksum mismatch', () => {
    ok('BITCOIN', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2');
    ok('BITCOIN', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy');
    ok('BITCOIN', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa');
    ok('DOGECOIN', 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L');
    expect(addressReason('BITCOIN', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN3')).toBe(CHECKSUM_MISMATCH);
    // Another network's address is named as such (issue 23).
    expect(addressReason('BITCOIN', 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L')).toBe(
      'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L is not a BITCOIN address (it looks like a DOGECOIN address)',
    );
    expect(addressReason('LITECOIN', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2')).toBe(
      '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2 is not a LITECOIN address (it looks like a BITCOIN address)',
    );
    // A version byte no network takes keeps its reason.
    expect(addressReason('BITCOIN', encodeBase58Check(7, new Uint8Array(20)))).toMatch(
      /^not a BITCOIN address: Base58Check version byte 7/,
    );
    expect(addressReason('DOGECOIN', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toMatch(
      /is not a DOGECOIN address \(it looks like a BITCOIN address\)$/,
    );
    expect(addressReason('DOGECOIN', 'ltc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toMatch(/has no bech32/);
    expect(addressReason('BITCOIN', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNV')).toMatch(/^wrong length/);
    expect(addressReason('BITCOIN', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN0')).toMatch(/base58 alphabet/);
  });

  it('CashAddr: the specification examples, with and without prefix, either case; the legacy form of the same hash is refused with its CashAddr', () => {
    const pairs = [
      ['1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu', 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a'],
      ['1KXrWXciRDZUpQwQmuM1DbwsKDLYAYsVLR', 'bitcoincash:qr95sy3j9xwd2ap32xkykttr4cvcu7as4y0qverfuy'],
      ['16w1D5WRVKJuZUsSRzdLp9w3YGcgoxDXb', 'bitcoincash:qqq3728yw0y47sqn6l2na30mcw6zm78dzqre909m2r'],
      ['3CWFddi6m4ndiGyKqzYvsFYagqDLPVMTzC', 'bitcoincash:ppm2qsznhks23z7629mms6s4cwef74vcwvn0h829pq'],
      ['3LDsS579y7sruadqu11beEJoTjdFiFCdX4', 'bitcoincash:pr95sy3j9xwd2ap32xkykttr4cvcu7as4yc93ky28e'],
      ['31nwvkZwyPdgzjBJZXfDmSWsC4ZLKpYyUw', 'bitcoincash:pqq3728yw0y47sqn6l2na30mcw6zm78dzq5ucqzc37'],
    ];
    const b58c = createBase58check(sha256);
    for (const [legacy, cash] of pairs) {
      // Bitcoin's spelling of the hash: refused, giving the specification's CashAddr of it (issue 23).
      expect(addressReason('BITCOIN_CASH', legacy)).toBe(
        `${legacy} is not a BITCOIN_CASH address (it looks like a BITCOIN address); a Bitcoin Cash address is given in CashAddr: if this hash is meant, give it as ${cash}`,
      );
      expect(legacyToCashAddr(legacy)).toBe(cash);
      ok('BITCOIN_CASH', cash);
      ok('BITCOIN_CASH', cash.slice('bitcoincash:'.length));
      ok('BITCOIN_CASH', cash.toUpperCase());
      // The hand-written encoder gives the specification's text for the legacy address's version and hash.
      const payload = b58c.decode(legacy);
      expect(encodeCashAddr(payload[0] === 0 ? 0 : 8, payload.subarray(1))).toBe(cash);
    }
    expect(addressReason('BITCOIN_CASH', 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6c')).toBe(
      CHECKSUM_MISMATCH,
    );
    // The mainnet payload under the testnet prefix: its checksum was made for bitcoincash.
    expect(addressReason('BITCOIN_CASH', 'bchtest:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a')).toBe(CHECKSUM_MISMATCH);
    expect(addressReason('BITCOIN_CASH', 'bchreg:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a')).toMatch(
      /prefix must be bitcoincash or bchtest/,
    );
    expect(addressReason('BITCOIN_CASH', 'bitcoincash:Qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a')).toMatch(/mixes/);
  });

  it('EIP-55: the specification examples; all lower or all upper case carries no checksum; a wrong casing is refused', () => {
    for (const a of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    ]) {
      for (const n of EVM_NETWORKS) ok(n, a);
      expect(addressHasChecksum('ETHEREUM', a)).toBe(true);
      for (const uniform of [a.toLowerCase(), `0x${a.slice(2).toUpperCase()}`]) {
        ok('ETHEREUM', uniform);
        expect(addressHasChecksum('ETHEREUM', uniform)).toBe(false);
      }
    }
    expect(addressReason('ETHEREUM', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toMatch(
      /^checksum does not match: a character is mistyped/,
    );
    expect(addressReason('ETHEREUM', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe')).toMatch(/^wrong length/);
    expect(addressReason('ETHEREUM', '5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toMatch(/0x/);
    expect(addressReason('ETHEREUM', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg')).toMatch(/hex digit/);
  });

  it('Solana: well-known program ids (32-byte keys); other lengths are refused', () => {
    ok('SOLANA', '11111111111111111111111111111111');
    ok('SOLANA', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
    expect(addressHasChecksum('SOLANA', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')).toBe(false);
    expect(addressReason('SOLANA', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5D')).toMatch(/^wrong length/);
    expect(addressReason('SOLANA', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5D0')).toMatch(/base58 alphabet/);
  });

  it('Stellar StrKey: a known account id; one character off, a wrong length or lower case are refused', () => {
    ok('STELLAR', 'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ');
    expect(addressReason('STELLAR', 'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGA')).toBe(
      CHECKSUM_MISMATCH,
    );
    expect(addressReason('STELLAR', 'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSG')).toMatch(
      /^wrong length/,
    );
    expect(addressReason('STELLAR', 'ga7qynf7sowq3glr2bgmzehxavirza4kvwltjjfc7mgxua74p7ujvsgz')).toMatch(/upper case/);
  });

  it('testnets: Bitcoin Core, Litecoin Core, Dogecoin Core and CashAddr vectors; taken unless mainnet only is asked', () => {
    const vectors: [CryptoNetwork, string][] = [
      // Bitcoin Core src/test/data/key_io_valid.json (testnet4 and signet share testnet's forms).
      ['BITCOIN', 'mzK2FFDEhxqHcmrJw1ysqFkVyhUULo45hZ'],
      ['BITCOIN', 'n4YNbYuFdPwFrxSP8sjHFbAhUbLMUiY9jE'],
      ['BITCOIN', '2NC2hEhe28ULKAJkW5MjZ3jtTMJdvXmByvK'],
      ['BITCOIN', '2N5sNHomeNJDZv67AcFx9ES7FBZY4jx9KDA'],
      ['BITCOIN', 'tb1qcrh3yqn4nlleplcez2yndq2ry8h9ncg3qh7n54'],
      ['BITCOIN', 'tb1quyl9ujpgwr2chdzdnnalen48sup245vdfnh2jxhsuq3yx80rrwlq5hqfe4'],
      ['BITCOIN', 'tb1p35n52jy6xkm4wd905tdy8qtagrn73kqdz73xe4zxpvq9t3fp50aqk3s6gz'],
      // BIP-173's testnet P2WSH example.
      ['BITCOIN', 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7'],
      // Litecoin Core src/test/data/key_io_valid.json: P2PKH m..., P2SH Q....
      ['LITECOIN', 'mwXn5Vhicdav8Av3KMokx4YNuHoGRKxtWs'],
      ['LITECOIN', 'QXaUgLHkZcbJb2j5XgMYzY8cF9YM48Y81Z'],
      ['LITECOIN', 'QNfyfXGXxfeaG8SQpnHxS2J27ysokKCtZL'],
      // Dogecoin Core src/test/data/base58_keys_valid.json: P2PKH n..., P2SH 2....
      ['DOGECOIN', 'nhRsrUaxZou6sewjqaS37cJrMRJRgwVXdk'],
      ['DOGECOIN', 'ngbSgr1dhCqsLg6Z5tpsaCspwrH72x2Zk3'],
      // The CashAddr specification: a 20-byte and a 32-byte P2SH on bchtest.
      ['BITCOIN_CASH', 'bchtest:pr6m7j9njldwwzlg9v7v53unlr4jkmx6eyvwc0uz5t'],
      ['BITCOIN_CASH', 'bchtest:pvch8mmxy0rtfrlarg7ucrxxfzds5pamg73h7370aa87d80gyhqxq7fqng6m6'],
      ['BITCOIN_CASH', 'pr6m7j9njldwwzlg9v7v53unlr4jkmx6eyvwc0uz5t'],
    ];
    for (const [network, a] of vectors) {
      ok(network, a);
      expect(isTestnetAddress(network, a), a).toBe(true);
      expect(addressReason(network, a, { mainnetOnly: 'production' }), a).toBe(
        `a testnet address in production: coinop sends to ${network} testnet addresses only in the sandbox and on the local service`,
      );
    }
    // tltc1: no published vector is at hand, so BIP-173's testnet program under Litecoin's testnet prefix.
    const program = bech32.fromWords(bech32.decode(vectors[7][1] as `${string}1${string}`).words.slice(1));
    const tltc = encodeSegwit('tltc', 0, program);
    expect(tltc).toMatch(/^tltc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q/);
    ok('LITECOIN', tltc);
    expect(isTestnetAddress('LITECOIN', tltc)).toBe(true);
    // Mainnet addresses are no testnet's, and stay valid where mainnet only is asked.
    for (const [network, a] of [
      ['BITCOIN', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'],
      ['BITCOIN', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
      ['LITECOIN', 'LW98ceYNxYki9e9QxDACLn82TtVEPm4qmy'],
      ['DOGECOIN', 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L'],
      ['BITCOIN_CASH', 'bitcoincash:qr6m7j9njldwwzlg9v7v53unlr4jkmx6eylep8ekg2'],
      ['BITCOIN_CASH', 'qr6m7j9njldwwzlg9v7v53unlr4jkmx6eylep8ekg2'],
      ['ETHEREUM', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'],
    ] as [CryptoNetwork, string][]) {
      expect(isTestnetAddress(network, a), a).toBe(false);
      expect(addressReason(network, a, { mainnetOnly: 'production' }), a).toBeUndefined();
    }
    // One chain's testnet is not another's: Bitcoin's tb1 on Litecoin, regtest's bcrt1 anywhere.
    expect(addressReason('LITECOIN', 'tb1qcrh3yqn4nlleplcez2yndq2ry8h9ncg3qh7n54')).toBe(
      'tb1qcrh3yqn4nlleplcez2yndq2ry8h9ncg3qh7n54 is not a LITECOIN address (it looks like a BITCOIN address)',
    );
    expect(addressReason('LITECOIN', 'xy1qcrh3yqn4nlleplcez2yndq2ry8h9ncg3qh7n54')).toMatch(
      /^not a LITECOIN address: bech32 prefix must be ltc or tltc/,
    );
    expect(addressReason('BITCOIN', 'bcrt1qdavt4j2sd7dlhqsavtnfxvzppw6k7qy97tmnu9')).toMatch(
      /^not a BITCOIN address: bech32 prefix must be bc or tb/,
    );
    expect(addressReason('DOGECOIN', 'mzK2FFDEhxqHcmrJw1ysqFkVyhUULo45hZ')).toBe(
      'mzK2FFDEhxqHcmrJw1ysqFkVyhUULo45hZ is not a DOGECOIN address (it looks like a BITCOIN or LITECOIN address)',
    );
    // Testnet P2SH 2... is Bitcoin testnet's version byte (196): Dogecoin Core's vector is refused as one (issue 23).
    expect(addressReason('DOGECOIN', '2MsvyG12kxxipe276Au4zKqvd2xdrBuHWb3')).toBe(
      '2MsvyG12kxxipe276Au4zKqvd2xdrBuHWb3 is not a DOGECOIN address (it looks like a BITCOIN address)',
    );
    // Bitcoin's testnet legacy form for Bitcoin Cash: its bchtest CashAddr is said.
    const bchtest = legacyToCashAddr('mzK2FFDEhxqHcmrJw1ysqFkVyhUULo45hZ');
    expect(bchtest).toMatch(/^bchtest:q/);
    ok('BITCOIN_CASH', bchtest as string);
    expect(isTestnetAddress('BITCOIN_CASH', bchtest as string)).toBe(true);
    expect(addressReason('BITCOIN_CASH', 'mzK2FFDEhxqHcmrJw1ysqFkVyhUULo45hZ')).toMatch(
      new RegExp(`^mzK2FFDEhxqHcmrJw1ysqFkVyhUULo45hZ is not a BITCOIN_CASH address .*give it as ${bchtest}$`),
    );
    expect(addressReason('BITCOIN', 'mzK2FFDEhxqHcmrJw1ysqFkVyhUULo45hA')).toBe(CHECKSUM_MISMATCH);
  });

  it('Sui: 0x and 64 hex digits', () => {
    ok('SUI', ADDRESS_RULES.SUI.example);
    expect(addressReason('SUI', ADDRESS_RULES.SUI.example.slice(0, -1))).toMatch(/^wrong length/);
    expect(addressReason('SUI', ADDRESS_RULES.ETHEREUM.example)).toBe(
      `${ADDRESS_RULES.ETHEREUM.example} is not a SUI address (it looks like an EVM address)`,
    );
    expect(addressReason('ETHEREUM', ADDRESS_RULES.SUI.example)).toMatch(
      /is not an ETHEREUM address \(it looks like a SUI address\)$/,
    );
  });

  it('every network has a rule and a valid example; empty and padded addresses are refused', () => {
    for (const n of CRYPTO_NETWORKS) {
      ok(n, ADDRESS_RULES[n].example);
      expect(addressReason(n, '')).toBe('is empty');
      expect(addressReason(n, ` ${ADDRESS_RULES[n].example}`)).toBe('has spaces around it');
      // What the local service hands out as deposit addresses is valid too.
      ok(n, addressFromBytes(n, sha256(new TextEncoder().encode(n))));
    }
  });
});

/** EIP-55 written again here, independently of src (hex string of the hash, one nibble per character). */
describe('canonicalAddress: one spelling per destination (issue 23)', () => {
  it('bech32 and bech32m in lower case; the upper-case form is the same address', () => {
    expect(canonicalAddress('BITCOIN', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4')).toBe(
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
    );
    expect(canonicalAddress('BITCOIN', 'BC1SW50QGDZ25J')).toBe('bc1sw50qgdz25j');
    const ltc = encodeSegwit('ltc', 0, new Uint8Array(20).fill(7));
    expect(canonicalAddress('LITECOIN', ltc.toUpperCase())).toBe(ltc);
    const tltc = encodeSegwit('tltc', 1, new Uint8Array(32).fill(9));
    expect(canonicalAddress('LITECOIN', tltc.toUpperCase())).toBe(tltc);
  });

  it('EVM addresses in their EIP-55 casing, from lower, upper or checksummed case, on every EVM network', () => {
    const a = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    for (const n of EVM_NETWORKS)
      for (const spelling of [a, a.toLowerCase(), `0x${a.slice(2).toUpperCase()}`])
        expect(canonicalAddress(n, spelling)).toBe(a);
  });

  it('CashAddr in lower case with its prefix, the prefix found by the checksum when left out', () => {
    const main = 'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a';
    for (const spelling of [main, main.toUpperCase(), main.slice(12), main.slice(12).toUpperCase()])
      expect(canonicalAddress('BITCOIN_CASH', spelling)).toBe(main);
    const test = 'bchtest:pr6m7j9njldwwzlg9v7v53unlr4jkmx6eyvwc0uz5t';
    for (const spelling of [test, test.toUpperCase(), test.slice(8)])
      expect(canonicalAddress('BITCOIN_CASH', spelling)).toBe(test);
  });

  it('base58 and Stellar as given (their case is meaning); Sui hex in lower case', () => {
    for (const [n, a] of [
      ['BITCOIN', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'],
      ['BITCOIN', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy'],
      ['LITECOIN', 'LW98ceYNxYki9e9QxDACLn82TtVEPm4qmy'],
      ['DOGECOIN', 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L'],
      ['SOLANA', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'],
      ['STELLAR', 'GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ'],
    ] as [CryptoNetwork, string][])
      expect(canonicalAddress(n, a)).toBe(a);
    const sui = ADDRESS_RULES.SUI.example;
    expect(canonicalAddress('SUI', `0x${sui.slice(2).toUpperCase()}`)).toBe(sui);
  });

  it("an address of none of the network's forms is returned as given", () => {
    expect(canonicalAddress('BITCOIN', '0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED')).toBe(
      '0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED',
    );
    expect(canonicalAddress('NOT_A_NETWORK', 'ABC')).toBe('ABC');
  });
});
