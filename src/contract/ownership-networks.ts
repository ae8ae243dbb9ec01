// Which networks a signature proves an address on, and how (ownership-proof.ts signs and checks): light, so a
// command's flags and options can name them without loading the curves.
import { EVM_NETWORKS } from './addresses.js';

export type SignatureScheme = 'eip191' | 'ed25519';

/** The networks a signature proves an address on, and how: EIP-191 on the EVM ones, ed25519 on SOLANA. */
export function signatureScheme(network: string): SignatureScheme | undefined {
  if ((EVM_NETWORKS as readonly string[]).includes(network)) return 'eip191';
  if (network === 'SOLANA') return 'ed25519';
  return undefined;
}

/** Every network a signature can prove an address on (the EVM ones and SOLANA). */
export const SIGNATURE_NETWORKS: readonly string[] = [...EVM_NETWORKS, 'SOLANA'];
