// What the CLI does with the catalogue's rules (src/contract/catalogue.ts, each operation's `catalogue`), per service. The
// catalogue is the local service's own reference data: against the local service a name outside it is refused before
// anything is sent. Another service (the hosted sandbox or production, a custom server) lists what it lists: a name
// outside the catalogue is checked for its shape only, said in a one-line note on stderr, and sent for that service
// to decide. A service that lists its markets (GET /markets, src/client/market-list.ts) has the ones it lists.
import type { CatalogueIssue } from '../contract/index.js';
import type { Environment } from '../config/environments.js';

export interface CataloguePolicy {
  /** The catalogue is this service's own (the local service): a request beyond it is a usage error. */
  readonly authoritative: boolean;
  /** Names the service listed itself (its GET /markets): it has them, whatever the catalogue says. */
  readonly listed: Set<string>;
  /** Says a note on stderr, each text once per command. */
  note(text: string): void;
}

/** The policy for a service of this environment; `note` writes one line on stderr. */
export function cataloguePolicy(environment: Environment, note: (text: string) => void): CataloguePolicy {
  const said = new Set<string>();
  return {
    authoritative: environment === 'local',
    listed: new Set(),
    note(text) {
      if (said.has(text)) return;
      said.add(text);
      note(text);
    },
  };
}

/**
 * For a check made before the service is known (a parse function): the shape of each name only. The run checks the
 * request again with the service's policy before anything is sent.
 */
export const SHAPE_ONLY: CataloguePolicy = { authoritative: false, listed: new Set(), note: () => undefined };

/** The local service's policy with nobody to tell: for code that checks requests as the local service does. */
export const ENFORCE: CataloguePolicy = { authoritative: true, listed: new Set(), note: () => undefined };

/** The issues `policy` lets through, each said as a note (`name` gives the flag of a field); the rest to refuse. */
export function sortUnlisted(
  policy: CataloguePolicy,
  unlisted: CatalogueIssue[],
  name: (field: string) => string,
): CatalogueIssue[] {
  if (policy.authoritative) return unlisted;
  for (const u of unlisted) {
    if (!policy.listed.has(u.value))
      policy.note(`note: ${name(u.field)}: ${u.note}; it is sent as is, for the service to decide`);
  }
  return [];
}
