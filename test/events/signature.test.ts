// The forwarding signature: the header coinop sends is the HMAC-SHA256 of "t.body" under the whole secret (as
// node:crypto computes it here, apart from coinop's code), and verifySignature accepts exactly that: not another
// body, another secret, or a time outside the tolerance.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signatureHeader, verifySignature } from '../../src/events/signature.js';

const SECRET = 'whsec_test-secret-of-thirty-characters';
const BODY = '{"id":"e1","type":"deposit_address.created","object":{"id":"a1"}}';

describe('forwarding signatures', () => {
  it('are t=<seconds>,v1=<hex HMAC-SHA256 of "t.body">', () => {
    const want = createHmac('sha256', SECRET).update(`1700000000.${BODY}`).digest('hex');
    expect(signatureHeader(SECRET, BODY, 1_700_000_000.9)).toBe(`t=1700000000,v1=${want}`);
  });

  it('verify only for the same secret, body and a time within the tolerance', () => {
    const h = signatureHeader(SECRET, BODY, 1_700_000_000);
    expect(verifySignature(SECRET, h, BODY, 1_700_000_100)).toBe(true);
    expect(verifySignature(SECRET, h, `${BODY} `, 1_700_000_100)).toBe(false);
    expect(verifySignature(`${SECRET}x`, h, BODY, 1_700_000_100)).toBe(false);
    expect(verifySignature(SECRET, h, BODY, 1_700_000_301)).toBe(false);
    expect(verifySignature(SECRET, h.replace('t=1700000000', 't=1700000001'), BODY, 1_700_000_100)).toBe(false);
    expect(verifySignature(SECRET, 'v1=abc', BODY, 1_700_000_100)).toBe(false);
    expect(verifySignature(SECRET, '', BODY, 1_700_000_100)).toBe(false);
  });
});
