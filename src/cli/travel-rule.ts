// The Travel Rule as commands meet it (withdraw, destinations put, deposits update, the batch's columns): a
// beneficiary or an originator from flags or asked for on a terminal, the VASP picker over the service's directory,
// and what the address book says of a destination (custodied by a VASP, with or without its beneficiary).
import type { CryptoNetwork, Vasp } from '../contract/index.js';
import { usageError } from './errors.js';
import type { Connection } from './invocation.js';
import type { Prompter } from './prompt.js';

/** A party as the flags name it: a person's two names, or an institution's name. */
export interface PartyNames {
  firstName?: string;
  lastName?: string;
  institution?: string;
}

export type Party = { person: { first: string; last: string } } | { institution: string };

/**
 * The party the flags name (`prefix` is the flags' prefix: --beneficiary, --originator), or undefined when none is
 * given: a person needs both names, and a person and an institution do not go together.
 */
export function partyOf(prefix: string, names: PartyNames): Party | undefined {
  const person = names.firstName !== undefined || names.lastName !== undefined;
  if (names.institution !== undefined && person)
    throw usageError(
      `${prefix}-institution: a person or an institution, not both (${prefix}-first-name, ${prefix}-last-name)`,
    );
  if (names.institution !== undefined) {
    if (!names.institution.trim()) throw usageError(`${prefix}-institution: must not be empty`);
    return { institution: names.institution };
  }
  if (!person) return undefined;
  const missing = names.firstName === undefined ? 'first' : names.lastName === undefined ? 'last' : undefined;
  if (missing) throw usageError(`missing ${prefix}-${missing}-name: a person needs both names`);
  return { person: { first: names.firstName as string, last: names.lastName as string } };
}

/** Asks who the party is on a terminal: a person (both names) or an institution (its name). */
export async function askParty(pr: Prompter, who: string): Promise<Party> {
  const kind = await pr.select(`The ${who} is`, ['a person', 'an institution'], 'a person');
  if (kind === 'an institution') return { institution: await pr.text(`The ${who} institution's name`) };
  return { person: { first: await pr.text(`The ${who}'s first name`), last: await pr.text(`The ${who}'s last name`) } };
}

/** A withdrawal's beneficiary (CryptoWithdrawalBeneficiary) or a destination's (Beneficiary): the same two shapes. */
export function beneficiaryBody(party: Party): Record<string, unknown> {
  return 'institution' in party
    ? { institution_details: { name: party.institution } }
    : { person_details: { first_name: party.person.first, last_name: party.person.last } };
}

/** A deposit's originator (AddressInfo). */
export function originatorBody(party: Party): Record<string, unknown> {
  return 'institution' in party
    ? { institution_info: { institution_name: party.institution } }
    : { individual_info: { first_name: party.person.first, last_name: party.person.last } };
}

/** What the address book says of a destination's custody, when it says anything. */
export interface DestinationTravelRule {
  /** The book's entry. */
  id: string;
  nickname?: string;
  custodian_type?: string;
  beneficiary?: unknown;
  vasp?: { id?: string; name?: string; custom_vasp_name?: string };
}

/** Of the book's entries for one address, the one a withdrawal uses: the identity's, else the first party's. */
export function bookEntryFor<T extends { identity_id?: string }>(
  entries: readonly T[],
  identityId?: string,
): T | undefined {
  return (
    entries.find((a) => identityId !== undefined && a.identity_id === identityId) ??
    entries.find((a) => a.identity_id === undefined)
  );
}

/**
 * The travel rule details the address book holds for a destination (the identity's entry, else the first party's),
 * or undefined: not in the book, no details, or the book could not be read (a read-only gateway role, say).
 */
export async function bookTravelRule(
  conn: Connection,
  network: CryptoNetwork,
  address: string,
  identityId?: string,
): Promise<DestinationTravelRule | undefined> {
  try {
    const { data } = await conn.client.call('listCryptoDestinationAddresses', {
      query: { crypto_networks: [network], addresses: [address], limit: 100 },
    });
    const entry = bookEntryFor(data.addresses ?? [], identityId);
    const meta = entry?.travelrule_metadata as Omit<DestinationTravelRule, 'id' | 'nickname'> | undefined;
    return entry && meta ? { id: entry.id, nickname: entry.nickname, ...meta } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a withdrawal there needs a beneficiary it does not have: custodied by a VASP, none in the book or request. */
export const beneficiaryMissing = (book: DestinationTravelRule | undefined, beneficiary: unknown): boolean =>
  book?.custodian_type === 'VASP' && book.beneficiary === undefined && beneficiary === undefined;

/** The VASPs whose names start with `prefix` (or the first page), by name. */
export async function findVasps(conn: Connection, prefix: string | undefined, limit = 50): Promise<Vasp[]> {
  const { data } = await conn.client.call('listVasps', {
    query: { limit, ...(prefix !== undefined ? { search: prefix } : {}) },
  });
  return data.items ?? [];
}

/** The VASP picker: type the start of a name, choose from the directory. */
export async function pickVasp(conn: Connection, pr: Prompter, message = 'The VASP (type to search)'): Promise<string> {
  return pr.search(message, async (term) =>
    (await findVasps(conn, term)).map((v) => ({ value: v.id, name: v.name, description: `VASP ${v.id}` })),
  );
}
