// coinop balances' run with fakes of its ports: a Display that keeps what it wrote, a Connector to a local service in
// this process, no terminal to ask on. What the operator sees: the rows on stdout, the notes on stderr, the usage errors.
import { describe, expect, it } from 'vitest';
import { balances } from '../../src/commands/balances/run.js';
import { DEMO } from '../../src/embedded/demo.js';
import { fakeDisplay, sharedLocalFixture, noPrompts } from './ports.js';
import { usageMessageOf } from './support.js';

const local = sharedLocalFixture();

describe('balances run', () => {
  it("lists the named assets of the context's service profile as JSON", async () => {
    const display = fakeDisplay();
    await balances(
      { display, service: local.connector(), prompter: noPrompts(display) },
      { assets: ['BTC', 'USD'], allProfiles: false, includeZero: false },
    );
    const rows = JSON.parse(display.stdout) as { asset: string; available: string }[];
    expect(rows.map((r) => [r.asset, r.available])).toEqual([
      ['BTC', '1000'],
      ['USD', '10000000'],
    ]);
    expect(display.stderr).toBe('');
  });

  it('on a terminal: a table, the service profile named on stderr', async () => {
    const display = fakeDisplay({ tty: true });
    await balances(
      { display, service: local.connector(), prompter: noPrompts(display) },
      { assets: ['ETH'], allProfiles: false, includeZero: false },
    );
    expect(display.stdout).toMatch(/ETH\s+20,000/);
    expect(display.stderr).toBe(`service profile ${DEMO.profileId}\n`);
  });

  it('an empty profile says so, on stderr, with nothing on stdout', async () => {
    const display = fakeDisplay({ tty: true });
    await balances(
      { display, service: local.connector(), prompter: noPrompts(display) },
      { profileId: DEMO.emptyProfileId, allProfiles: false, includeZero: false },
    );
    expect(display.stdout).toBe('');
    expect(display.stderr).toContain('nothing in any asset (add --include-zero to list them)');
  });

  it('--all-profiles: a row per profile holding the asset', async () => {
    const display = fakeDisplay({ format: 'csv' });
    await balances(
      { display, service: local.connector(), prompter: noPrompts(display) },
      { assets: ['BTC'], allProfiles: true, includeZero: false },
    );
    const lines = display.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^profile_id,/);
    expect(lines.some((l) => l.startsWith(`${DEMO.profileId},`) && l.includes(',BTC,1000'))).toBe(true);
  });

  it('an asset outside the catalogue is refused before anything is sent', async () => {
    const display = fakeDisplay();
    const service = local.connector();
    const message = await usageMessageOf(
      balances(
        { display, service, prompter: noPrompts(display) },
        { assets: ['NOPE'], allProfiles: false, includeZero: false },
      ),
    );
    expect(message).toMatch(/^ASSET: NOPE is not an asset of this service \(BTC, ETH/);
    expect(service.connections).toEqual([]);
  });

  it('no profile id in the context and none given: a usage error naming --profile-id', async () => {
    const display = fakeDisplay();
    const message = await usageMessageOf(
      balances(
        { display, service: local.connector({ profileId: '' }), prompter: noPrompts(display) },
        { allProfiles: false, includeZero: false },
      ),
    );
    expect(message).toBe('missing --profile-id');
  });
});
