// What every way of sending money shares (withdraw, transfer internal, withdraw batch, the MCP server's tools): the
// ref_id a write carries, the fee quote's request for a withdrawal, the figures of a withdrawal as far as they are
// known, and the destination checked against its network's address format.
import { randomUUID } from 'node:crypto';
import {
  type AddressCheck,
  addressIssues,
  canonicalAddress,
  dec,
  fmt,
  type CreateCryptoWithdrawalFeeRequest,
  type Decimal,
} from '../contract/index.js';
import { type FlagNames, issueMessage } from '../client/service-client.js';
import { usageError } from '../errors.js';

/** The ref_id to send: the one given, or a new one (`generated`: the caller says it before anything is sent). */
export function refIdFor(given: string | undefined): { refId: string; generated: boolean } {
  return given === undefined
    ? { refId: `coinop-${randomUUID()}`, generated: true }
    : { refId: given, generated: false };
}

/** The fee quote's request for a withdrawal (its asset, destination, network, and amount or total). */
export function feeRequestOf(body: CreateCryptoWithdrawalFeeRequest): CreateCryptoWithdrawalFeeRequest {
  return {
    asset: body.asset,
    destination_address: body.destination_address,
    crypto_network: body.crypto_network,
    ...(body.amount !== undefined ? { amount: body.amount } : { total: body.total }),
  };
}

/** A withdrawal's amount, fee and total as far as they are known, and what leaves the balance. */
export interface WithdrawalFigures {
  /** The amount given, or worked out from the total once the fee is known. */
  amount?: string;
  fee?: string;
  /** The total given, or worked out from the amount once the fee is known. */
  total?: string;
  /** The total, or the amount plus the fee when known (the amount alone when not). */
  leaving: Decimal;
}

export function withdrawalFigures(
  req: { amount?: string; total?: string },
  fee: string | undefined,
): WithdrawalFigures {
  const amount = req.amount ?? (fee && req.total ? fmt(dec(req.total).minus(fee)) : undefined);
  const total = req.total ?? (fee && req.amount ? fmt(dec(req.amount).plus(fee)) : undefined);
  const leaving =
    req.total !== undefined ? dec(req.total) : dec(req.amount ?? '0').plus(fee !== undefined ? dec(fee) : 0);
  return { amount, fee, total, leaving };
}

/** What leaves, in words: the total, the amount plus the fee, or the amount alone when the fee is not known. */
export function leavingWords(req: { total?: string }, feeKnown: boolean): string {
  return req.total !== undefined ? 'the total' : feeKnown ? 'the amount plus fee' : 'the amount';
}

/**
 * The destination against its network's address format (the contract alone does not know it), and a testnet address
 * only where `check` takes one (addressCheckFor the profile's environment): a usage error naming the field by `names`.
 */
export function checkAddress(network: string, address: string, check: AddressCheck, names: FlagNames = {}): void {
  const issues = addressIssues(network, address, check);
  if (issues.length) throw usageError(issueMessage(issues, names));
}

/**
 * The request as the service will receive it: its destination checked (checkAddress) and written in its one spelling
 * (canonicalAddress: bech32 and CashAddr in lower case, CashAddr with its prefix, EVM in its EIP-55 casing), so the
 * same payment spelled two ways is one request to every check after this one and to the service (issue 23).
 */
export function canonicalRequest<T extends { crypto_network: string; destination_address: string }>(
  body: T,
  check: AddressCheck,
  names: FlagNames = {},
): T {
  checkAddress(body.crypto_network, body.destination_address, check, names);
  return { ...body, destination_address: canonicalAddress(body.crypto_network, body.destination_address) };
}
