// coinop addresses verify and coinop addresses verifications list|get|submit: their flags, declared once: index.ts
// declares them, options.ts reads their typed values, and the request field each gives names it in messages.
import type { Command } from 'commander';
import { VERIFICATION_METHODS, VERIFICATION_ORDER_BY, VERIFICATION_STATUSES } from '../../../contract/enums.js';
import { SIGNATURE_NETWORKS } from '../../../contract/ownership-networks.js';
import { defineFlags, REF_ID_SPEC } from '../../../cli/flags.js';
import { listOptions, tableOptions } from '../../../cli/list-flags.js';

/** How the signature is had: made here with the address's key, or made elsewhere and given. */
const SIGNING_FLAGS = {
  keyFile: {
    kind: 'text',
    flag: '--key-file <file>',
    help: 'sign here with the private key in this file (EVM: 32 bytes as hex; SOLANA: a solana-keygen keypair file); for the sandbox and the local service, keep production keys off this machine',
  },
  signature: {
    kind: 'text',
    flag: '--signature <signature>',
    help: "the signature of the verification's message made elsewhere (EVM: personal_sign's 0x hex; SOLANA: base58)",
    field: 'signature',
  },
} as const;

export const VERIFY_FLAG_TABLE = defineFlags({
  network: {
    kind: 'choice',
    flag: '--network <network>',
    help: 'the network of the address (asked for on a terminal)',
    choices: SIGNATURE_NETWORKS,
    field: 'network',
  },
  address: {
    kind: 'text',
    flag: '--address <address>',
    help: 'the address to prove the customer owns (asked for on a terminal)',
    field: 'address',
  },
  keyFile: SIGNING_FLAGS.keyFile,
  refId: REF_ID_SPEC,
});

export const VERIFICATION_SUBMIT_FLAG_TABLE = defineFlags(SIGNING_FLAGS);

export const VERIFICATIONS_LIST_FLAG_TABLE = defineFlags({
  status: {
    kind: 'choice',
    flag: '--status <status>',
    help: 'PENDING, APPROVED or EXPIRED',
    choices: VERIFICATION_STATUSES,
    field: 'status',
  },
  method: {
    kind: 'choice',
    flag: '--method <method>',
    help: 'how it was proven',
    choices: VERIFICATION_METHODS,
    field: 'verification_method',
  },
  network: { kind: 'text', flag: '--network <network>', help: 'the network, such as ETHEREUM', field: 'network' },
  address: { kind: 'text', flag: '--address <address>', help: 'the address', field: 'address' },
});

/** verifications list's flags on `cmd`: its own, then the shared list and table flags. */
export function declareVerificationsList(cmd: Command): Command {
  return tableOptions(listOptions(VERIFICATIONS_LIST_FLAG_TABLE.declare(cmd), { orderBy: VERIFICATION_ORDER_BY }));
}
