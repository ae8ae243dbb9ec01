// The read commands' runs with fakes of their ports (test/commands/ports.ts): profiles, limits, transfers list and get,
// events list and get, addresses list, against a local service in this process. What the operator sees: the data on
// stdout in the chosen format, the notes and footers on stderr, the usage errors before anything is sent.
import { beforeAll, describe, expect, it } from 'vitest';
import * as addresses from '../../src/commands/addresses/run.js';
import * as events from '../../src/commands/events/run.js';
import { limits } from '../../src/commands/limits/run.js';
import * as profiles from '../../src/commands/profiles/run.js';
import * as transfers from '../../src/commands/transfers/run.js';
import type { Transfer } from '../../src/contract/index.js';
import { DEMO, DEMO_DEPOSIT_ADDRESSES } from '../../src/embedded/demo.js';
import { sharedLocalFixture, readPorts } from './ports.js';
import { usageMessageOf } from './support.js';

const local = sharedLocalFixture();
/** Two internal transfers made before the tests, oldest first. */
const made: Transfer[] = [];

beforeAll(async () => {
  const conn = await local.connector().connect();
  for (const ref of ['run-ports-1', 'run-ports-2']) {
    const body = {
      from_profile_id: DEMO.profileId,
      to_profile_id: DEMO.emptyProfileId,
      asset: 'USD',
      amount: '2.5',
      ref_id: ref,
    };
    made.push((await conn.client.call('createInternalTransfer', { body })).data);
  }
});

/** The ports of a read, over a fresh Display. */
const reads = (displayOptions: Parameters<typeof readPorts>[1] = {}) => readPorts(local, displayOptions);

describe('profiles run', () => {
  it('list: the profiles as JSON', async () => {
    const d = reads();
    await profiles.list(d, { query: {}, all: false });
    const ids = (JSON.parse(d.display.stdout) as { id: string }[]).map((p) => p.id);
    expect(ids).toEqual(expect.arrayContaining([DEMO.profileId, DEMO.emptyProfileId]));
  });

  it('list on a terminal, one a page: the footer names the next page as the command typed', async () => {
    const d = reads({ tty: true, argv: ['profiles', 'list', '--limit', '1'] });
    await profiles.list(d, { query: { limit: '1' }, all: false });
    expect(d.display.stderr).toMatch(
      /^1 profile · next cursor (\S+)\nnext page: coinop profiles list --limit 1 --cursor \1 \(or --all for every page\)\n$/,
    );
  });

  it("get: the context's service profile when no id is given", async () => {
    const d = reads({ format: 'json' });
    await profiles.get(d, { includeDeactivated: false });
    expect(JSON.parse(d.display.stdout)).toMatchObject({ id: DEMO.profileId });
  });

  it('create: the new profile on stdout, a tick on stderr, and what Ctrl-C would say', async () => {
    const d = reads({ tty: true });
    await profiles.create(d, { nickname: 'payroll-run-ports', description: 'ports test' });
    expect(d.display.stdout).toMatch(/nickname\s+payroll-run-ports/);
    expect(d.display.stderr).toMatch(/^✓ service profile created: [0-9a-f-]{36}\n$/);
    expect(d.interrupt.note()).toBe(
      'interrupted: profile payroll-run-ports may have been created: check with coinop profiles list --nickname payroll-run-ports',
    );
  });

  it('create with no nickname and nobody to ask: a usage error, nothing sent', async () => {
    const d = reads();
    expect(await usageMessageOf(profiles.create(d, {}))).toBe('missing --nickname');
    expect(d.service.connections).toEqual([]);
  });
});

describe('limits run', () => {
  it('on a terminal: the limits, then what one transfer may move now', async () => {
    const d = reads({ tty: true });
    await limits(d, { type: 'CRYPTO_WITHDRAWAL' });
    expect(d.display.stdout).not.toBe('');
    expect(d.display.stderr).toMatch(/^CRYPTO_WITHDRAWAL now: at most \d.* in one transfer\n$/);
  });

  it('as JSON: the limits as the service sent them, with what is used', async () => {
    const d = reads();
    await limits(d, { type: 'CRYPTO_WITHDRAWAL' });
    const items = JSON.parse(d.display.stdout) as { limit: string; remaining: string; used?: string }[];
    expect(items.length).toBeGreaterThan(0);
    expect(d.display.stderr).toBe('');
  });
});

describe('transfers run', () => {
  it('list: the transfers made, by their ref_id', async () => {
    const d = reads();
    await transfers.list(d, { refId: ['run-ports-1', 'run-ports-2'] });
    const got = JSON.parse(d.display.stdout) as Transfer[];
    expect(got.map((t) => t.id).sort()).toEqual(made.map((t) => t.id).sort());
  });

  it('list, nothing matches, on a terminal: said on stderr, nothing on stdout', async () => {
    const d = reads({ tty: true });
    await transfers.list(d, { refId: ['no-such-ref'] });
    expect(d.display.stdout).toBe('');
    expect(d.display.stderr).toBe('no transfers match\n');
  });

  it('get by id and by --ref-id: the same transfer', async () => {
    const byId = reads();
    await transfers.get(byId, made[0].id, {});
    const byRef = reads();
    await transfers.get(byRef, undefined, { refId: 'run-ports-1' });
    expect(JSON.parse(byId.display.stdout)).toMatchObject({ id: made[0].id, amount: '2.5' });
    expect(JSON.parse(byRef.display.stdout).id).toBe(made[0].id);
  });

  it('get of a ref_id nobody used: an error naming it', async () => {
    await expect(transfers.get(reads(), undefined, { refId: 'nobody' })).rejects.toThrow(
      'no transfer has ref_id nobody',
    );
  });

  it('get with no id and nobody to ask: a usage error', async () => {
    expect(await usageMessageOf(transfers.get(reads(), undefined, {}))).toBe('missing ID');
  });
});

describe('events run', () => {
  it('list on a terminal: the events, their count on stderr, and a read-only Ctrl-C note', async () => {
    const d = reads({ tty: true });
    await events.list(d, {});
    // At 120 columns the event ids go (the objects' stay whole): one note says so and how to see them.
    expect(d.display.stderr).toMatch(
      /^left out to fit 120 columns: event \(see all: -o json or a wider terminal\)\n\d+ events?\n$/,
    );
    expect(d.interrupt.note()).toBe(events.READ_ONLY);
  });

  it('get: one event of the list, by its id', async () => {
    const all = reads();
    await events.list(all, {});
    const [first] = JSON.parse(all.display.stdout) as { id: string }[];
    const d = reads();
    await events.get(d, first.id);
    expect(JSON.parse(d.display.stdout).id).toBe(first.id);
  });
});

describe('addresses list run', () => {
  it("the demo's deposit addresses as CSV", async () => {
    const d = reads({ format: 'csv' });
    await addresses.list(d, {});
    for (const a of DEMO_DEPOSIT_ADDRESSES) expect(d.display.stdout).toContain(`,${a.ref_id},`);
  });

  it('a network outside the catalogue: a usage error, nothing sent', async () => {
    const d = reads();
    expect(await usageMessageOf(addresses.list(d, { network: ['DOGECHAIN'] }))).toMatch(
      /^--network: "DOGECHAIN" is not one of the 16 choices \(did you mean DOGECOIN\?\)/,
    );
    expect(d.service.connections).toEqual([]);
  });
});
