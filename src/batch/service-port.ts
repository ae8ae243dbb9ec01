// What the batch engine needs from the service, and its adapter over the CLI's API client: every answer sorted into
// done, refused (final), retry (throttled, 5xx, no answer) or fatal (nothing else can succeed either).
import {
  problemName,
  type CreateCryptoWithdrawalRequest,
  type CryptoWithdrawalFee,
  type Problem,
  type Transfer,
} from '../contract/index.js';
import type { ServiceClient } from '../client/service-client.js';
import { CoinopError } from '../errors.js';

export type SendResult =
  /** `date`: the answer's Date (the service's clock), for the rules of time checked as rows are sent. */
  | { kind: 'created' | 'exists'; transfer: Transfer; date?: string }
  | { kind: 'refused'; problem: Problem }
  | { kind: 'retry'; problem: Problem; throttled: boolean }
  | { kind: 'fatal'; error: Error };

export type QuoteResult =
  | { kind: 'quote'; quote: CryptoWithdrawalFee }
  | { kind: 'refused'; problem: Problem }
  | { kind: 'retry'; problem: Problem; throttled: boolean }
  | { kind: 'fatal'; error: Error };

export interface BatchService {
  createWithdrawal(body: CreateCryptoWithdrawalRequest): Promise<SendResult>;
  quoteFee(body: {
    asset: string;
    destination_address: string;
    crypto_network: string;
    amount?: string;
    total?: string;
  }): Promise<QuoteResult>;
  /** The transfers with these ids (at most 100). */
  transfers(ids: string[]): Promise<Transfer[]>;
  /** The transfers holding these ref_ids (at most 100). */
  transfersByRef(refIds: string[]): Promise<Transfer[]>;
}

/** Sorts anything the client threw into the three ways a batch goes on. */
export function classify(
  error: unknown,
):
  | { kind: 'refused'; problem: Problem }
  | { kind: 'retry'; problem: Problem; throttled: boolean }
  | { kind: 'fatal'; error: Error } {
  const known = error instanceof CoinopError ? error : undefined;
  if (known?.category === 'network') {
    return {
      kind: 'retry',
      throttled: false,
      problem: { type: 'about:blank', title: 'No answer', status: 0, detail: known.message },
    };
  }
  if (known?.category === 'auth') return { kind: 'fatal', error: known };
  const p = known?.problem;
  if (!p) {
    if (known?.category === 'usage') {
      return {
        kind: 'refused',
        problem: { type: 'about:blank', title: 'Invalid request', status: 0, detail: known.message },
      };
    }
    // Anything else (a socket error the transport does not name, a broken answer) leaves the outcome unknown:
    // asking again with the same ref_id is safe, so it is retried like a lost connection.
    const err = error as { code?: unknown; message?: string } | undefined;
    const detail = `${typeof err?.code === 'string' ? err.code : ''} ${err?.message ?? String(error)}`.trim();
    return { kind: 'retry', throttled: false, problem: { type: 'about:blank', title: 'No answer', status: 0, detail } };
  }
  if (p.status === 429) return { kind: 'retry', throttled: true, problem: p };
  if (p.status >= 500) return { kind: 'retry', throttled: false, problem: p };
  if (p.status === 409 && problemName(p) === 'already-exists') {
    // The client accepts a 409 only when the existing transfer matches the row; this one does not.
    const existing = (p.meta as { existing?: { id?: string } } | undefined)?.existing;
    return {
      kind: 'refused',
      problem: {
        ...p,
        detail: `the ref_id is already used by a different withdrawal${existing?.id ? ` (transfer ${existing.id})` : ''}`,
      },
    };
  }
  return { kind: 'refused', problem: p };
}

/** A row a gateway holds for approvals, as the batch reports it: not sent by this run, sent once approved. */
function heldProblem(pendingId: string): Problem {
  return {
    type: 'https://coinop.dev/problems/gateway/held',
    title: 'Held for approvals',
    status: 202,
    detail: `the gateway holds this row for approvals as ${pendingId}: it is sent once approved (coinop approvals approve ${pendingId})`,
  };
}

/**
 * The batch engine's service over the API client. `bodiesChecked`: every body given to createWithdrawal is a journal's
 * row, validated against the contract when its file was read and confirmed unchanged since (its row_hash), so it is
 * not validated again as it leaves (that was a tenth of a batch's CPU per row).
 */
export function clientBatchService(client: ServiceClient, bodiesChecked = false): BatchService {
  return {
    async createWithdrawal(body) {
      try {
        const r = await client.call('createCryptoWithdrawal', { body }, undefined, bodiesChecked);
        // A coinop gateway that holds the row for its approvers: not sent yet; sent once approved (its ref_id).
        const pending = (r.data as { pending_id?: unknown }).pending_id;
        if (typeof pending === 'string') return { kind: 'refused', problem: heldProblem(pending) };
        return { kind: r.alreadySubmitted ? 'exists' : 'created', transfer: r.data, date: r.date };
      } catch (e) {
        return classify(e);
      }
    },
    async quoteFee(body) {
      try {
        const r = await client.call('createCryptoWithdrawalFee', { body });
        return { kind: 'quote', quote: r.data };
      } catch (e) {
        return classify(e);
      }
    },
    async transfers(ids) {
      const r = await client.call('listTransfers', {
        query: { ids, limit: String(Math.max(ids.length, 1)) },
      });
      return r.data.items ?? [];
    },
    async transfersByRef(refIds) {
      // A ref_id names one transfer per customer; the largest page leaves room should the service hold more.
      const r = await client.call('listTransfers', {
        query: { ref_ids: refIds, limit: '1000' },
      });
      return r.data.items ?? [];
    },
  };
}
