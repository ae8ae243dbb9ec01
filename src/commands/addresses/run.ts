// coinop addresses list (create is in create/).
import { profileIdsNamed } from '../../cli/service-profiles.js';
import { operations } from '../../contract/operations.js';
import type { Ports } from '../../cli/ports.js';
import type { RawFlags } from '../../cli/options.js';
import { listFooter } from '../../cli/list-flags.js';
import { checkRequest, type Paging } from '../../client/service-client.js';
import { DEPOSIT_ADDRESS_COLUMNS } from '../../render/columns.js';
import { LIST_FLAGS, parseAddressesListOptions } from './options.js';

export async function list(
  { display, service, clock }: Pick<Ports, 'display' | 'service' | 'clock'>,
  raw: RawFlags,
): Promise<void> {
  const { query, all, view } = parseAddressesListOptions(raw, clock.now());
  // The request's own checks first (nothing is asked of the service for a command line it refuses), then names.
  checkRequest(operations.listDepositAddresses, { query }, LIST_FLAGS, service.catalogue());
  if (query.profile_ids !== undefined)
    query.profile_ids = await profileIdsNamed({ service }, '--profile-id', query.profile_ids as string[]);
  const conn = await service.connect();
  const out = display.output(view);
  const paging: Paging = {};
  const n = await out.list(
    conn.client.items('listDepositAddresses', { query }, LIST_FLAGS, all, paging),
    DEPOSIT_ADDRESS_COLUMNS,
    { empty: 'no deposit addresses match' },
  );
  listFooter(display, out, n, ['deposit address', 'deposit addresses'], all ? undefined : paging.next);
}
