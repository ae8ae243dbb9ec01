// The address book of the local service: PUT creates or updates (by id, or by network, address and identity), nicknames
// are unique within an identity, and the list filters and pages as the OpenAPI describes (items under `addresses`).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BTC_ADDRESS, DEMO, ETH_ADDRESS, harness, type Harness, resetBeforeEach } from './helpers.js';

const PUT = '/v2/transfer/crypto-destination-address';
const LIST = '/v2/transfer/crypto-destination-addresses';
const OTHER_ETH = '0x52908400098527886E0F7030069857D2E4169EE7';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());
resetBeforeEach(() => h);

const put = (body: Record<string, unknown>) => h.req('PUT', PUT, { body });

describe('PUT /v2/transfer/crypto-destination-address', () => {
  it('creates an approved address with its nickname, and updates it by network and address, keeping its id', async () => {
    const a = await put({
      crypto_network: 'ETHEREUM',
      address: ETH_ADDRESS,
      nickname: 'treasury',
      bookmarked_status: true,
    });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.body.address).toMatchObject({
      crypto_network: 'ETHEREUM',
      address: ETH_ADDRESS,
      nickname: 'treasury',
      bookmarked: true,
      status: 'APPROVED',
    });
    const b = await put({
      crypto_network: 'ETHEREUM',
      address: ETH_ADDRESS,
      nickname: 'cold',
      bookmarked_status: false,
    });
    expect(b.body.address).toMatchObject({ id: a.body.address.id, nickname: 'cold', bookmarked: false });
    expect(b.body.address.created_at).toBe(a.body.address.created_at);
    // Fields left out stay as they were.
    const c = await put({ id: a.body.address.id, bookmarked_status: true });
    expect(c.body.address).toMatchObject({ id: a.body.address.id, nickname: 'cold', bookmarked: true });
    const list = await h.admin('GET', LIST);
    expect(list.body.addresses.map((x: { nickname: string }) => x.nickname)).toEqual(['cold']);
  });

  it('names a new address without a nickname after its network and address, uniquely', async () => {
    const a = await put({ crypto_network: 'ETHEREUM', address: ETH_ADDRESS });
    expect(a.body.address).toMatchObject({ nickname: 'ethereum-9a55', bookmarked: false });
    const b = await put({ crypto_network: 'BASE', address: ETH_ADDRESS });
    expect(b.body.address.nickname).toBe('base-9a55');
    await put({ id: b.body.address.id, nickname: 'other' });
    const c = await put({ crypto_network: 'ARBITRUM_ONE', address: ETH_ADDRESS, nickname: 'ethereum-9a55-2' });
    expect(c.status).toBe(200);
    const d = await put({ crypto_network: 'INK', address: '0x0000000000000000000000000000000000009a55' });
    expect(d.body.address.nickname).toBe('ink-9a55');
  });

  it('a nickname another address holds is a 409 naming that address; another identity may use it', async () => {
    const first = await put({ crypto_network: 'ETHEREUM', address: ETH_ADDRESS, nickname: 'ops' });
    const clash = await put({ crypto_network: 'BITCOIN', address: BTC_ADDRESS, nickname: 'ops' });
    expect(clash.status).toBe(409);
    expect(clash.body.type).toMatch(/already-exists$/);
    expect(clash.body.meta.existing).toMatchObject({ id: first.body.address.id, nickname: 'ops' });
    const renamed = await put({ crypto_network: 'BITCOIN', address: BTC_ADDRESS });
    const clash2 = await put({ id: renamed.body.address.id, nickname: 'ops' });
    expect(clash2.status).toBe(409);
    const theirs = await put({
      crypto_network: 'BITCOIN',
      address: BTC_ADDRESS,
      nickname: 'ops',
      identity_id: 'idt-1',
    });
    expect(theirs.status).toBe(200);
    expect(theirs.body.address).toMatchObject({ identity_id: 'idt-1', nickname: 'ops' });
    // The same address for another identity is another entry.
    expect(theirs.body.address.id).not.toBe(renamed.body.address.id);
  });

  it.each([
    [{ id: 'x', crypto_network: 'ETHEREUM' }, 'crypto_network: give either id or crypto_network and address, not both'],
    [{ crypto_network: 'ETHEREUM' }, 'address: is required (or give the id of an address)'],
    [{ address: ETH_ADDRESS }, 'crypto_network: is required (or give the id of an address)'],
    [
      { crypto_network: 'BITCOIN', address: ETH_ADDRESS },
      `address: ${ETH_ADDRESS} is not a BITCOIN address (it looks like an EVM address)`,
    ],
    [{ crypto_network: 'ETHEREUM', address: ETH_ADDRESS, nickname: '' }, 'nickname: must not be empty'],
    [{ crypto_network: 'ETHEREUM', address: ETH_ADDRESS, colour: 'red' }, 'colour: is not a known field'],
    [
      { crypto_network: 'ETHEREUM', address: ETH_ADDRESS, bookmarked_status: 'yes' },
      'bookmarked_status: must be a boolean',
    ],
    [
      { crypto_network: 'ETHEREUM', address: ETH_ADDRESS, travelrule_metadata: { vasp: { custom_vasp_name: 'X' } } },
      'travelrule_metadata.vasp: custom_vasp_name and custom_vasp_website go together',
    ],
    [
      { crypto_network: 'ETHEREUM', address: ETH_ADDRESS, travelrule_metadata: { beneficiary: {} } },
      'travelrule_metadata.beneficiary: give exactly one of person_details, institution_details and self: true',
    ],
  ])('refuses %j: %s', async (body, detail) => {
    const r = await put(body);
    expect(r.status).toBe(400);
    expect(r.body.detail).toBe(detail);
    expect((await h.admin('GET', LIST)).body.addresses).toEqual([]);
  });

  it('an unknown id is a 404', async () => {
    const r = await put({ id: 'f190b163-208f-4d73-8deb-4fb8b24add00', nickname: 'x' });
    expect(r.status).toBe(404);
  });

  it('keeps travel rule metadata', async () => {
    const travelrule_metadata = {
      beneficiary: { institution_details: { name: 'Acme Ltd', physical_address: { country: 'GBR', city: 'London' } } },
      vasp: { custom_vasp_name: 'Acme Exchange', custom_vasp_website: 'https://acme.example' },
      custodian_type: 'VASP',
      transfer_purpose: 'treasury',
    };
    const a = await put({ crypto_network: 'ETHEREUM', address: ETH_ADDRESS, travelrule_metadata });
    expect(a.body.address.travelrule_metadata).toEqual(travelrule_metadata);
    const b = await put({ id: a.body.address.id, nickname: 'acme' });
    expect(b.body.address.travelrule_metadata).toEqual(travelrule_metadata);
  });

  it('needs the write scope; the read-only client reads the book', async () => {
    const ro = await h.token(DEMO.readonlyClientId);
    const w = await h.req('PUT', PUT, { body: { crypto_network: 'ETHEREUM', address: ETH_ADDRESS }, token: ro });
    expect(w.status).toBe(403);
    expect(w.body.detail).toContain('transfer:write_crypto_destination_address');
    expect((await h.req('GET', LIST, { token: ro })).status).toBe(200);
  });
});

describe('GET /v2/transfer/crypto-destination-addresses', () => {
  beforeEach(async () => {
    await put({ crypto_network: 'ETHEREUM', address: ETH_ADDRESS, nickname: 'treasury', bookmarked_status: true });
    await put({ crypto_network: 'BASE', address: OTHER_ETH, nickname: 'payroll' });
    await put({ crypto_network: 'BITCOIN', address: BTC_ADDRESS, nickname: 'cold', bookmarked_status: true });
  });

  const nicknames = async (query: string) => {
    const r = await h.admin('GET', `${LIST}${query}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.addresses.map((a: { nickname: string }) => a.nickname);
  };

  it('filters by nickname, network, address, bookmark and id; newest first unless ASC', async () => {
    expect(await nicknames('')).toEqual(['cold', 'payroll', 'treasury']);
    expect(await nicknames('?order=ASC')).toEqual(['treasury', 'payroll', 'cold']);
    expect(await nicknames('?nicknames=payroll&nicknames=cold')).toEqual(['cold', 'payroll']);
    expect(await nicknames('?crypto_networks=ETHEREUM&crypto_networks=BASE')).toEqual(['payroll', 'treasury']);
    expect(await nicknames(`?addresses=${BTC_ADDRESS}`)).toEqual(['cold']);
    expect(await nicknames('?bookmarked_status=true')).toEqual(['cold', 'treasury']);
    expect(await nicknames('?bookmarked_status=false')).toEqual(['payroll']);
    const [one] = (await h.admin('GET', `${LIST}?nicknames=treasury`)).body.addresses;
    expect(await nicknames(`?ids=${one.id}`)).toEqual(['treasury']);
    expect(await nicknames('?identity_ids=nobody')).toEqual([]);
  });

  it('pages with a cursor bound to the filters', async () => {
    const first = await h.admin('GET', `${LIST}?limit=2`);
    expect(first.body.addresses).toHaveLength(2);
    const next = await h.admin('GET', `${LIST}?limit=2&page_cursor=${first.body.next_page_cursor}`);
    expect(next.body.addresses.map((a: { nickname: string }) => a.nickname)).toEqual(['treasury']);
    expect(next.body.next_page_cursor).toBeUndefined();
    const other = await h.admin('GET', `${LIST}?limit=2&order=ASC&page_cursor=${first.body.next_page_cursor}`);
    expect(other.status).toBe(400);
    expect(other.body.detail).toMatch(/^page_cursor: /);
  });

  it.each([
    ['?bookmarked_status=maybe', 'bookmarked_status: must be a boolean'],
    ['?crypto_networks=MOON', 'crypto_networks.0: must be one of'],
    ['?order_by=UPDATED_AT', 'order_by: must be one of CREATED_AT'],
    ['?limit=1001', 'limit: must be at most 1000'],
    ['?networks=BITCOIN', 'networks: is not a known field'],
  ])('refuses %s', async (query, detail) => {
    const r = await h.admin('GET', `${LIST}${query}`);
    expect(r.status).toBe(400);
    expect(r.body.detail).toContain(detail);
  });
});
