// coinop addresses verify and coinop addresses verifications list|get|submit: the raw flags, checked once. A key file
// is read and its key checked here (it must control the address), before anything is sent; what verify leaves out
// is asked for on a terminal by the run.
import { operations } from '../../../contract/index.js';
import { SIGNATURE_NETWORKS } from '../../../contract/ownership-networks.js';
import { addressOfKey, parsePrivateKey } from '../../../contract/ownership-proof.js';
import { usageError } from '../../../cli/errors.js';
import { readTextFile } from '../../../cli/files.js';
import { LIST_FLAG_NAMES, readListFlags, readTableView } from '../../../cli/list-flags.js';
import type { RawFlags } from '../../../cli/options.js';
import { checkRequest, type FlagNames } from '../../../client/service-client.js';
import { SHAPE_ONLY } from '../../../client/catalogue-policy.js';
import { VERIFICATION_COLUMNS } from '../../../render/columns.js';
import type { TableView } from '../../../render/table.js';
import { VERIFICATION_SUBMIT_FLAG_TABLE, VERIFICATIONS_LIST_FLAG_TABLE, VERIFY_FLAG_TABLE } from './flags.js';

export const VERIFY_FLAGS: FlagNames = VERIFY_FLAG_TABLE.fields;
export const SUBMIT_FLAGS: FlagNames = { ...VERIFICATION_SUBMIT_FLAG_TABLE.fields, id: 'ID' };

/** A private key read from --key-file, for the network it was read for. */
export interface SigningKey {
  file: string;
  network: string;
  key: Uint8Array;
  /** The address the key controls (EVM in lower case). */
  address: string;
}

/** The key in a --key-file, read for a network. */
export function readSigningKey(file: string, network: string): SigningKey {
  const parsed = parsePrivateKey(network, readTextFile('--key-file', file));
  if (typeof parsed === 'string') throw usageError(`--key-file: ${file} ${parsed}`);
  return { file, network, key: parsed, address: addressOfKey(network, parsed) };
}

/** The key must control the address: an EVM address in any casing, a SOLANA one as written. */
export function keyControls(key: SigningKey, address: string): boolean {
  return key.network === 'SOLANA' ? key.address === address : key.address === address.toLowerCase();
}

export interface VerifyOptions {
  network?: string;
  address?: string;
  /** The key file, read once the network is known (asked for on a terminal, or given). */
  keyFile?: string;
  refId?: string;
}

export function parseVerifyOptions(raw: RawFlags): VerifyOptions {
  const f = VERIFY_FLAG_TABLE.read(raw);
  if (f.network !== undefined && !SIGNATURE_NETWORKS.includes(f.network))
    throw usageError(
      `--network: no signature proves an address on ${f.network}; it must be one of ${SIGNATURE_NETWORKS.join(', ')}`,
    );
  if (f.keyFile !== undefined && f.network !== undefined) {
    const key = readSigningKey(f.keyFile, f.network);
    if (f.address !== undefined && !keyControls(key, f.address))
      throw usageError(`--key-file: the key in ${f.keyFile} controls ${key.address}, not --address ${f.address}`);
  }
  return { network: f.network, address: f.address, keyFile: f.keyFile, refId: f.refId };
}

export interface SubmitOptions {
  id: string;
  keyFile?: string;
  signature?: string;
}

export function parseSubmitOptions(id: string, raw: RawFlags): SubmitOptions {
  const f = VERIFICATION_SUBMIT_FLAG_TABLE.read(raw);
  if (f.keyFile !== undefined && f.signature !== undefined)
    throw usageError(
      '--key-file and --signature: give one (sign here with the key, or give a signature made elsewhere)',
    );
  checkRequest(
    operations.submitVerificationSignature,
    { body: { id, signature: f.signature ?? 'x' } },
    SUBMIT_FLAGS,
    SHAPE_ONLY,
  );
  if (f.keyFile !== undefined) readTextFile('--key-file', f.keyFile);
  return { id, keyFile: f.keyFile, signature: f.signature };
}

export const LIST_FLAGS: FlagNames = { ...LIST_FLAG_NAMES, ...VERIFICATIONS_LIST_FLAG_TABLE.fields };

export interface VerificationsListOptions {
  query: Record<string, unknown>;
  all: boolean;
  view?: TableView;
}

export function parseVerificationsListOptions(raw: RawFlags, now: number): VerificationsListOptions {
  const f = VERIFICATIONS_LIST_FLAG_TABLE.read(raw);
  const { query: page, all } = readListFlags(raw, now);
  const query: Record<string, unknown> = {
    status: f.status,
    verification_method: f.method,
    network: f.network,
    address: f.address,
    ...page,
  };
  for (const k of Object.keys(query)) if (query[k] === undefined) delete query[k];
  checkRequest(operations.listVerifications, { query }, LIST_FLAGS, SHAPE_ONLY);
  return { query, all, view: readTableView(raw, VERIFICATION_COLUMNS) };
}
