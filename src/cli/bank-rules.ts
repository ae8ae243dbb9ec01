// The form of a bank account's numbers, which the OpenAPI leaves to the bank: one rule for each, used alike by the
// flag, a file's value and the answer typed at a prompt (coinop sandbox deposit, coinop fiat-accounts create), so a
// prompt never takes what the flag would refuse (a whole shell command line typed as an account number).

/** Examples the rules' messages give: JPMorgan Chase's published ABA routing number and BIC. */
export const BANK_EXAMPLES = { account: '000123456789', aba: '021000021', swift: 'CHASUS33' } as const;

/**
 * An account number: letters and digits (an IBAN's capitals too), dashes between them, at most 34 (an IBAN's
 * longest); spaces, quotes and shell words are no part of one.
 */
export function accountNumberRule(number: unknown): string | undefined {
  if (typeof number !== 'string') return undefined;
  if (/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,32}[A-Za-z0-9])?$/.test(number)) return undefined;
  return `must be letters and digits (dashes between them), at most 34 (such as ${BANK_EXAMPLES.account})`;
}

/**
 * The routing number's form for its type: an ABA routing number is 9 digits, a SWIFT one a BIC (4 letters of the bank,
 * 2 of the country, 2 of the place, and maybe 3 of the branch).
 */
export function routingNumberRule(type: unknown, number: unknown): string | undefined {
  if (typeof number !== 'string') return undefined;
  if (type === 'ABA' && !/^\d{9}$/.test(number)) return `must be 9 digits for ABA (such as ${BANK_EXAMPLES.aba})`;
  if (type === 'SWIFT' && !/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(number))
    return `must be a BIC of 8 or 11 capitals and digits for SWIFT (such as ${BANK_EXAMPLES.swift})`;
  return undefined;
}

/** A rule as a prompt's validate takes it: true, or what is wrong. */
export const asPromptRule =
  (rule: (v: string) => string | undefined) =>
  (v: string): true | string =>
    rule(v) ?? true;
