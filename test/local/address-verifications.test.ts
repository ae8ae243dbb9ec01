// Address verifications of the local service: a verification gives a message to sign; a signature that proves the
// address (EIP-191 on an EVM network, ed25519 over the JSON message on SOLANA) APPROVES it, any other is a 400 that
// says why; PENDING ones expire on the service clock; methods and networks without a signature proof are 400s.
// Every answer is checked against the OpenAPI by the harness.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressOfKey, signProof } from '../../src/contract/ownership-proof.js';
import { harness, type Harness, resetBeforeEach } from './helpers.js';

const PATH = '/v2/addresses/verifications';
const EVM_KEY = Uint8Array.from({ length: 32 }, (_, i) => i + 11);
const EVM_ADDRESS = addressOfKey('ETHEREUM', EVM_KEY);
const SOL_KEY = Uint8Array.from({ length: 32 }, (_, i) => 200 - i);
const SOL_ADDRESS = addressOfKey('SOLANA', SOL_KEY);

let h: Harness;
beforeAll(async () => {
  // Tokens that outlive the months the clock is moved by.
  h = await harness({ config: { tokenLifetimeSeconds: 400 * 24 * 3600 } });
});
afterAll(() => h.close());
resetBeforeEach(() => h);

const create = async (network: string, address: string, extra: Record<string, unknown> = {}) => {
  const r = await h.admin('POST', PATH, { network, address, verification_method: 'SIGNATURE', ...extra });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { id: string; status: string; signature_verification: { message: string; nonce: string } };
};

describe('address verification by signature', () => {
  it('an EIP-191 signature of the message approves an EVM address', async () => {
    const v = await create('ETHEREUM', EVM_ADDRESS, { ref_id: 'v-1' });
    expect(v.status).toBe('PENDING');
    expect(v.signature_verification.message).toContain(`Address: ${EVM_ADDRESS}`);
    expect(v.signature_verification.message).toContain(`Nonce: ${v.signature_verification.nonce}`);
    const signature = signProof('ETHEREUM', EVM_KEY, v.signature_verification.message);
    const r = await h.admin('POST', `${PATH}/signature`, { id: v.id, signature });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ id: v.id, status: 'APPROVED', signature_verification: { signature } });
    expect((await h.admin('GET', `${PATH}/${v.id}`)).body.status).toBe('APPROVED');
    const again = await h.admin('POST', `${PATH}/signature`, { id: v.id, signature });
    expect(again.status).toBe(409);
    const list = await h.admin('GET', `${PATH}?status=APPROVED&network=ETHEREUM&address=${EVM_ADDRESS}`);
    expect(list.body.items.map((i: { id: string }) => i.id)).toEqual([v.id]);
    expect((await h.admin('GET', `${PATH}?status=PENDING`)).body.items).toEqual([]);
  });

  it('an ed25519 signature of the JSON message approves a SOLANA address', async () => {
    const v = await create('SOLANA', SOL_ADDRESS);
    expect(JSON.parse(v.signature_verification.message)).toMatchObject({ address: SOL_ADDRESS, network: 'SOLANA' });
    const signature = signProof('SOLANA', SOL_KEY, v.signature_verification.message);
    const r = await h.admin('POST', `${PATH}/signature`, { id: v.id, signature });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.status).toBe('APPROVED');
  });

  it('a signature by another key, or of another message, is a 400 naming why, and leaves it PENDING', async () => {
    const v = await create('ETHEREUM', EVM_ADDRESS);
    const other = Uint8Array.from({ length: 32 }, (_, i) => i + 99);
    const wrongKey = await h.admin('POST', `${PATH}/signature`, {
      id: v.id,
      signature: signProof('ETHEREUM', other, v.signature_verification.message),
    });
    expect(wrongKey.status).toBe(400);
    expect(wrongKey.headers.get('content-type')).toMatch(/problem\+json/);
    expect(wrongKey.body.detail).toMatch(/^signature: was made by the key of 0x[0-9a-f]{40}, not of/);
    const wrongMessage = await h.admin('POST', `${PATH}/signature`, {
      id: v.id,
      signature: signProof('ETHEREUM', EVM_KEY, 'something else'),
    });
    expect(wrongMessage.status).toBe(400);
    const garbage = await h.admin('POST', `${PATH}/signature`, { id: v.id, signature: 'nope' });
    expect(garbage.body.detail).toMatch(/must be 65 bytes/);
    expect((await h.admin('GET', `${PATH}/${v.id}`)).body.status).toBe('PENDING');
  });

  it('a PENDING verification expires on the service clock and then takes no signature', async () => {
    const v = await create('ETHEREUM', EVM_ADDRESS);
    await h.control('POST', '/_local/clock/advance', { seconds: 24 * 3600 + 1 });
    const got = await h.admin('GET', `${PATH}/${v.id}`);
    expect(got.body.status).toBe('EXPIRED');
    expect((await h.admin('GET', `${PATH}?status=EXPIRED`)).body.items).toHaveLength(1);
    const late = await h.admin('POST', `${PATH}/signature`, {
      id: v.id,
      signature: signProof('ETHEREUM', EVM_KEY, v.signature_verification.message),
    });
    expect(late.status).toBe(400);
    expect(late.body.detail).toMatch(/^id: the verification expired at/);
  });
});

describe('address verification: what the service refuses', () => {
  it('a network without a signature proof, a method other than SIGNATURE, a bad address: 400 problems', async () => {
    const btc = await h.admin('POST', PATH, {
      network: 'BITCOIN',
      address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
      verification_method: 'SIGNATURE',
    });
    expect(btc.status).toBe(400);
    expect(btc.headers.get('content-type')).toMatch(/problem\+json/);
    expect(btc.body.detail).toMatch(/^network: no signature proves an address on BITCOIN; it must be one of ETHEREUM/);
    const manual = await h.admin('POST', PATH, {
      network: 'ETHEREUM',
      address: EVM_ADDRESS,
      verification_method: 'MANUAL',
    });
    expect(manual.status).toBe(400);
    expect(manual.body.detail).toMatch(/^verification_method: /);
    const badAddress = await h.admin('POST', PATH, {
      network: 'ETHEREUM',
      address: '0x1234',
      verification_method: 'SIGNATURE',
    });
    expect(badAddress.status).toBe(400);
    expect(badAddress.body.detail).toMatch(/^address: /);
    const missing = await h.admin('POST', PATH, { network: 'ETHEREUM' });
    expect(missing.status).toBe(400);
  });

  it('a ref_id used before is a 409 with the verification; an unknown id a 404', async () => {
    const v = await create('ETHEREUM', EVM_ADDRESS, { ref_id: 'same' });
    const dup = await h.admin('POST', PATH, {
      network: 'ETHEREUM',
      address: EVM_ADDRESS,
      verification_method: 'SIGNATURE',
      ref_id: 'same',
    });
    expect(dup.status).toBe(409);
    expect(dup.body.meta.existing.id).toBe(v.id);
    expect((await h.admin('GET', `${PATH}/nope`)).status).toBe(404);
    expect((await h.admin('POST', `${PATH}/signature`, { id: 'nope', signature: '0x00' })).status).toBe(404);
  });

  it('scopes: the read-only client lists and gets, but cannot create', async () => {
    const token = await h.token('local-readonly');
    expect((await h.req('GET', PATH, { token })).status).toBe(200);
    const r = await h.req('POST', PATH, {
      token,
      body: { network: 'ETHEREUM', address: EVM_ADDRESS, verification_method: 'SIGNATURE' },
    });
    expect(r.status).toBe(403);
  });
});
