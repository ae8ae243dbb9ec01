// coinop destinations list and put's runs with fakes of their ports: a Display that keeps what it wrote, a local
// service in this process, the fixture's audit trail and policy, no terminal to ask on.
import { describe, expect, it } from 'vitest';
import { list, put } from '../../src/commands/destinations/run.js';
import { auditSince, fakeDisplay, sharedLocalFixture, moneyPorts, noPrompts } from './ports.js';
import { usageMessageOf } from './support.js';

const ADDRESS = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';

const local = sharedLocalFixture();

describe('destinations run', () => {
  it('put saves the address in the book, prints it, and writes its attempt and outcome in the audit trail', async () => {
    const from = local.audit().entries().length;
    const ports = moneyPorts(local);
    await put(ports, { network: 'BITCOIN', address: ADDRESS, nickname: 'cold wallet' });
    const saved = JSON.parse(ports.display.stdout) as { address: string; nickname: string; crypto_network: string };
    expect([saved.address, saved.nickname, saved.crypto_network]).toEqual([ADDRESS, 'cold wallet', 'BITCOIN']);
    expect(auditSince(local, from).map(([kind, result]) => [kind, result])).toEqual([
      ['address_book', 'attempt'],
      ['address_book', 'sent'],
    ]);
  });

  it('on a terminal: says where it was saved, on stderr', async () => {
    const ports = moneyPorts(local, { tty: true });
    await put(ports, { network: 'BITCOIN', address: ADDRESS, nickname: 'cold wallet', bookmark: true });
    expect(ports.display.stderr).toContain('saved in the address book as cold wallet');
  });

  it('put without a network, and no terminal to ask on: the usage error naming the flag; nothing is sent', async () => {
    const from = local.audit().entries().length;
    const message = await usageMessageOf(put(moneyPorts(local), { address: ADDRESS }));
    expect(message).toBe('missing --network');
    expect(local.audit().entries().length).toBe(from);
  });

  it('list: the saved addresses as JSON, filtered by the query', async () => {
    const display = fakeDisplay();
    await list({ display, service: local.connector() }, { query: { nicknames: ['cold wallet'] }, all: false });
    const rows = JSON.parse(display.stdout) as { address: string; bookmarked?: boolean }[];
    expect(rows.map((r) => r.address)).toEqual([ADDRESS]);
    const none = fakeDisplay({ tty: true });
    await list({ display: none, service: local.connector() }, { query: { nicknames: ['nobody'] }, all: false });
    expect(none.stderr).toContain('no destination addresses match');
    expect(noPrompts(none).allowed).toBe(false);
  });
});
