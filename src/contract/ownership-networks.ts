// Which networks a signature proves an address on, how, and the message signed there (ownership-proof.ts signs and
// checks): light, so a command's flags and the local service can name them without loading the curves.
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

/** What the message to sign says: who asks, for which address, and a nonce that makes it single use. */
export interface ProofMessageParts {
  issuer: string;
  network: string;
  address: string;
  nonce: string;
  issuedAt: string;
}

/** The message the owner of the address signs, in its network's form (text for EVM, a JSON object for SOLANA). */
export function proofMessage(parts: ProofMessageParts): string {
  const statement = `Sign to prove that you control this address. ${parts.issuer} records the signature and moves no funds.`;
  if (signatureScheme(parts.network) === 'ed25519')
    return JSON.stringify({
      statement,
      network: parts.network,
      address: parts.address,
      nonce: parts.nonce,
      issued_at: parts.issuedAt,
    });
  return [
    statement,
    '',
    `Network: ${parts.network}`,
    `Address: ${parts.address}`,
    `Nonce: ${parts.nonce}`,
    `Issued at: ${parts.issuedAt}`,
  ].join('\n');
}
