// coinop audit path, list, verify and export's runs with fakes of their ports: a Display that keeps what it wrote,
// the fixture's data directory (its audit log written through the real audit port), the fixed clock.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { auditLogPath } from '../../src/audit/log.js';
import { CoinopError } from '../../src/cli/errors.js';
import { exportLog, list, path, verify } from '../../src/commands/audit/run.js';
import { fakeDisplay, fixedClock, keptInterrupt, sharedLocalFixture } from './ports.js';

const local = sharedLocalFixture();

const ports = (o: Parameters<typeof fakeDisplay>[0] = {}) => ({
  display: fakeDisplay(o),
  service: local.connector(),
  clock: fixedClock(),
  interrupt: keptInterrupt(),
});

/** The integrity error `pending` rejects with (exit 9); anything else fails the test. */
async function integrityOf(pending: Promise<unknown>): Promise<CoinopError> {
  const e = await pending.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!(e instanceof CoinopError) || e.category !== 'integrity') throw new Error(`not an integrity error: ${e}`);
  return e;
}

describe('audit run', () => {
  it('path: the log in the data directory, alone or as an object when a format is asked', async () => {
    const plain = ports();
    await path(plain);
    expect(plain.display.stdout).toBe(`${auditLogPath(local.dataDir)}\n`);
    const json = ports({ format: 'json' });
    await path(json);
    expect(JSON.parse(json.display.stdout)).toEqual({ path: auditLogPath(local.dataDir) });
  });

  it('verify before anything is recorded: there is no log yet', async () => {
    const p = ports({ tty: true, format: 'table' });
    await verify(p, {});
    expect(p.display.stdout).toContain('no audit log yet at');
    expect(p.interrupt.note()).toBe('interrupted: nothing was changed (this command only reads)');
  });

  it('list, verify and export the entries recorded', async () => {
    const audit = local.audit().port;
    await audit.record({ kind: 'withdrawal', ref_id: 'r-1', what: { asset: 'BTC' }, outcome: { result: 'attempt' } });
    await audit.note({ kind: 'withdrawal', ref_id: 'r-1', what: { asset: 'BTC' }, outcome: { result: 'refused' } });
    await audit.record({ kind: 'address_book', ref_id: null, what: {}, outcome: { result: 'attempt' } });

    const listed = ports();
    await list(listed, { kinds: ['withdrawal'], results: ['refused'] });
    const rows = JSON.parse(listed.display.stdout) as { kind: string; ref_id: string; outcome: { result: string } }[];
    expect(rows.map((r) => [r.kind, r.ref_id, r.outcome.result])).toEqual([['withdrawal', 'r-1', 'refused']]);
    expect(listed.display.stderr).toBe('');

    const verified = ports();
    await verify(verified, {});
    expect(JSON.parse(verified.display.stdout)).toMatchObject({ ok: true, entries: 3, problems: [] });

    const exported = ports();
    await exportLog(exported, { format: 'csv' });
    const lines = exported.display.stdout.trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^seq,/);
  });

  it('an edited line: verify and export exit 9 naming it; list warns on stderr', async () => {
    const file = auditLogPath(local.dataDir);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"r-1"', '"r-2"'));
    const verified = ports();
    const e = await integrityOf(verify(verified, {}));
    expect(e.message).toMatch(/line 1/);
    expect((JSON.parse(verified.display.stdout) as { ok: boolean }).ok).toBe(false);
    await integrityOf(exportLog(ports(), { format: 'ndjson' }));
    const listed = ports();
    await list(listed, {});
    expect(listed.display.stderr).toMatch(/warning: .*coinop audit verify/);
  });
});
