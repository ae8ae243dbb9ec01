// The addresses the tests send to: valid for their networks in the local service's catalogue.
export const BTC_ADDRESS = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
export const ETH_ADDRESS = '0xF0Aa84466e353E5390be37FE2934301c07c19a55';
/** Solana addresses carry no checksum. */
export const SOL_ADDRESS = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
/** A valid Ethereum address the local service fails every withdrawal to. */
export const FAILING_ETH_ADDRESS = '0x000000000000000000000000000000000000dEaD';
