// Fiat accounts as commands name and choose them (fiat-accounts get, withdraw fiat): their network, number and owner
// in words, and a picker over the newest page of them on a terminal.
import type { FiatAccount } from '../contract/index.js';
import type { Connection } from './invocation.js';
import type { Prompter } from './prompt.js';

/** The network of an account ("wire" is WIRE). */
export function fiatAccountNetwork(account: Pick<FiatAccount, 'fiat_network_instructions'>): string | undefined {
  return Object.keys(account.fiat_network_instructions ?? {})[0]?.toUpperCase();
}

/** The account's number, wallet or CUBIX id as the account shows it (a list shows the last four digits only). */
export function fiatAccountNumber(account: Pick<FiatAccount, 'fiat_network_instructions'>): string | undefined {
  const [first] = Object.values(account.fiat_network_instructions ?? {}) as Record<string, unknown>[];
  const v = first?.account_number ?? first?.wallet_address ?? first?.account_id;
  return typeof v === 'string' ? v : undefined;
}

/** Who owns the account: the institution's name or the person's (a list leaves the owner out). */
export function fiatAccountOwner(account: Pick<FiatAccount, 'fiat_account_owner'>): string | undefined {
  const o = (account.fiat_account_owner ?? {}) as {
    institution_details?: { name?: string };
    person_details?: { first_name?: string; last_name?: string };
  };
  if (o.institution_details?.name) return o.institution_details.name;
  const p = o.person_details;
  return p ? [p.first_name, p.last_name].filter(Boolean).join(' ') : undefined;
}

/** An account in a few words: WIRE 12345678 (Acme Inc). */
export function fiatAccountText(account: FiatAccount): string {
  const owner = fiatAccountOwner(account);
  return `${fiatAccountNetwork(account) ?? '-'} ${fiatAccountNumber(account) ?? ''}${owner ? ` (${owner})` : ''}`.trim();
}

/** The first page of fiat accounts (newest first, at most 100). */
export async function recentFiatAccounts(conn: Connection): Promise<FiatAccount[]> {
  const { data } = await conn.client.call('listFiatAccounts', { query: { limit: 100 } });
  return data.items ?? [];
}

/** Asks which fiat account: the newest first, APPROVED ones offered before the others. */
export async function pickFiatAccount(pr: Prompter, message: string, items: FiatAccount[]): Promise<string> {
  const choices = items.map((a) => ({
    value: a.id,
    name: `${fiatAccountText(a)}  ${a.status}${a.ref_id ? `  ref ${a.ref_id}` : ''}`,
    description: `fiat account ${a.id}${a.created_at ? `, created ${a.created_at}` : ''}`,
  }));
  const approved = items.find((a) => a.status === 'APPROVED');
  return pr.select(message, choices, approved?.id ?? choices[0]?.value);
}
