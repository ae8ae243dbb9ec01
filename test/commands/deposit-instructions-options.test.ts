// coinop deposit-instructions create and list: raw flags to checked options, and every flag rule's message.
import { describe, expect, it } from 'vitest';
import {
  parseInstructionsCreateOptions,
  parseInstructionsListOptions,
} from '../../src/commands/deposit-instructions/options.js';
import { usageMessage } from './support.js';

describe('parseInstructionsCreateOptions', () => {
  it('takes every flag; the network upper-cased', () => {
    expect(
      parseInstructionsCreateOptions({
        network: 'wire',
        routingType: 'SWIFT',
        profileId: 'p',
        identityId: 'i',
        accountId: 'a',
        refId: 'r',
        meta: ['customer=42'],
      }),
    ).toEqual({
      network: 'WIRE',
      routingType: 'SWIFT',
      profileId: 'p',
      identityId: 'i',
      accountId: 'a',
      refId: 'r',
      metadata: { customer: '42' },
    });
    expect(parseInstructionsCreateOptions({})).toEqual({});
  });

  it.each([
    [{ network: 'ACH' }, '--network: must be one of WIRE, DBS_ACT, CUBIX, SCB, RTP'],
    [{ network: 'RTP', routingType: 'ABA' }, '--routing-type: is for --network WIRE only, not RTP'],
    [{ meta: ['novalue'] }, '--meta: "novalue" must be key=value'],
  ])('%j is refused', (raw, message) => {
    expect(usageMessage(() => parseInstructionsCreateOptions(raw))).toBe(message);
  });
});

describe('parseInstructionsListOptions', () => {
  const NOW = Date.parse('2026-11-20T12:00:00Z');

  it('filters and the shared list flags', () => {
    expect(parseInstructionsListOptions({ id: ['a'], refId: ['r'], createdFrom: '7d', all: true }, NOW)).toEqual({
      query: { ids: ['a'], ref_ids: ['r'], 'created_at.gte': '2026-11-13T12:00:00Z' },
      all: true,
    });
  });

  it.each([
    [{ limit: '1001' }, '--limit: must be from 1 to 1000'],
    [
      { createdUntil: '2026-13-01T00:00:00Z' },
      '--created-until: "2026-13-01T00:00:00Z" is not a time; give an RFC 3339',
    ],
    [{ refId: ['x'.repeat(129)] }, '--ref-id: must be at most 128 characters'],
  ])('%j is refused', (raw, message) => {
    expect(usageMessage(() => parseInstructionsListOptions(raw, NOW))).toContain(message);
  });
});
