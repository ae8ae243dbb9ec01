// coinop policy show, check and init's runs with fakes of their ports: a Display that keeps what it wrote, the
// fixture's context (its name) and a configuration directory of the test's own. Nothing is sent by any of them.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { check, init, show } from '../../src/commands/policy/run.js';
import { fakeDisplay, sharedLocalFixture } from './ports.js';
import { usageMessageOf } from './support.js';

const local = sharedLocalFixture();

const ports = (shown: Parameters<typeof fakeDisplay>[0] = {}) => {
  const display = fakeDisplay(shown);
  return { display, service: local.connector(), policy: local.policy };
};
const policyFile = () => join(local.policy.configDir(), 'policies', 'local.yaml');

describe('policy run', () => {
  it('show without a policy file: found false as JSON, and in words on a terminal', async () => {
    const json = ports();
    await show(json);
    expect(JSON.parse(json.display.stdout)).toEqual({
      profile: 'local',
      file: policyFile(),
      found: false,
      sha256: null,
      policy: null,
    });
    const tty = ports({ tty: true });
    await show(tty);
    expect(tty.display.stdout).toMatch(/context\s+local/);
    expect(tty.display.stdout).toContain('(not there)');
  });

  it('init writes a starter that loads, says so, and is refused a second time without --force', async () => {
    const p = ports();
    await init(p, { force: false });
    expect(existsSync(policyFile())).toBe(true);
    expect(p.display.stderr).toContain(`wrote ${policyFile()}: a starter policy`);
    const shown = ports();
    await show(shown);
    const doc = JSON.parse(shown.display.stdout) as { found: boolean; sha256: string };
    expect(doc.found).toBe(true);
    expect(doc.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(await usageMessageOf(init(ports(), { force: false }))).toBe(
      `${policyFile()}: the context has a policy file already (coinop policy show)`,
    );
    await init(ports(), { force: true });
  });

  it('check: a valid file is named with its rules; a bad one is a usage error, each problem on stderr first', async () => {
    const dir = join(local.policy.configDir(), 'elsewhere');
    mkdirSync(dir, { recursive: true });
    const good = join(dir, 'good.yaml');
    writeFileSync(good, 'version: 1\n');
    const ok = ports();
    await check(ok, { file: good });
    expect(ok.display.stderr).toContain(`${good}: a valid policy`);
    expect(JSON.parse(ok.display.stdout)).toMatchObject({ file: good, valid: true });

    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'version: 1\nnot_a_rule: 3\nwithdrawals:\n  max_amount: lots\n');
    const refused = ports();
    const message = await usageMessageOf(check(refused, { file: bad }));
    expect(message).toMatch(new RegExp(`^${bad.replaceAll('.', '\\.')}: `));
    expect(refused.display.stdout).toBe('');
  });
});
