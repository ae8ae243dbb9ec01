// GET /v2/transfer/crypto-destination-addresses and PUT /v2/transfer/crypto-destination-address: the address book.
import type { Router } from '../router.js';
import { operations } from '../../contract/index.js';
import { destinationResource, putDestination } from '../destinations.js';
import { serve, listPage, timeComparison, type Service } from '../route-helpers.js';

export function registerDestinations(app: Router, svc: Service): void {
  serve(app, svc, operations.listCryptoDestinationAddresses, async ({ query: q }) => {
    const bookmarked = q.bookmarked_status;
    const page = listPage(
      'crypto-destination-addresses',
      q,
      {
        inFilters: {
          id: q.ids,
          identity_id: q.identity_ids,
          crypto_network: q.crypto_networks,
          address: q.addresses,
          nickname: q.nicknames,
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

  serve(app, svc, operations.putCryptoDestinationAddress, async ({ body }) => ({
    address: putDestination(svc, body),
  }));
}
