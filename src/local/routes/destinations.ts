// GET /v2/transfer/crypto-destination-addresses and PUT /v2/transfer/crypto-destination-address: the address book.
import type { Router } from '../router.js';
import { operations, type PutCryptoDestinationAddressRequest } from '../../contract/index.js';
import { destinationResource, putDestination } from '../destinations.js';
import { accept, serve, listPage, timeComparison, type Service } from '../route-helpers.js';

export function registerDestinations(app: Router, svc: Service): void {
  serve(app, operations.listCryptoDestinationAddresses, async (req) => {
    const { query: q } = accept<Record<string, unknown>>(svc, operations.listCryptoDestinationAddresses, req);
    const arr = (k: string) => q[k] as string[] | undefined;
    const bookmarked = q.bookmarked_status as boolean | undefined;
    const page = listPage(
      'crypto-destination-addresses',
      q,
      {
        inFilters: {
          id: arr('ids'),
          identity_id: arr('identity_ids'),
          crypto_network: arr('crypto_networks'),
          address: arr('addresses'),
          nickname: arr('nicknames'),
          bookmarked: bookmarked === undefined ? undefined : [bookmarked ? 1 : 0],
        },
        timeFilters: { created_ms: timeComparison(q, 'created_at') },
        sortColumn: 'created_ms',
      },
      (lq) => svc.store.listDestinations(lq),
      destinationResource,
    );
    // This list names its items `addresses` (the OpenAPI's ListCryptoDestinationAddressesResponse).
    return { addresses: page.items, ...(page.next_page_cursor ? { next_page_cursor: page.next_page_cursor } : {}) };
  });

  serve(app, operations.putCryptoDestinationAddress, async (req) => {
    const { body } = accept<never, PutCryptoDestinationAddressRequest>(
      svc,
      operations.putCryptoDestinationAddress,
      req,
    );
    return { address: putDestination(svc, body) };
  });
}
