// The split of the suite into vitest projects (test/support/projects.ts): which file runs where.
// vitest project: unit
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectOf, testProjects } from './projects.js';

describe('test projects', () => {
  it('puts a file that starts a process or a terminal in e2e, and the rest in unit', () => {
    const e2e = [
      "import { spawn } from 'node:child_process';",
      "import * as pty from 'node-pty';",
      "import { Term, KEY } from './terminal.js';",
      "import { run, startEnv } from './support/harness.js';",
      "const r = await runCoinop(['--help'], env);",
      "const r = await sb.run(['prices', '-o', 'json']);",
      "const r = await other.run(['prices']);",
      "import { Pager } from '../../src/cli/pager.js';",
    ];
    for (const text of e2e) expect(projectOf('test/cli/x.test.ts', text), text).toBe('e2e');
    const unit = [
      "const r = await sb.runIn(['prices', '-o', 'json']);",
      'const running = client.run();',
      "import { renderTerminal } from '../../src/commands/stream/terminal.js';",
      "import { startLocalService } from '../../src/local/service.js';",
    ];
    for (const text of unit) expect(projectOf('test/local/x.test.ts', text), text).toBe('unit');
  });

  it('puts the proofs in proof, whatever they run', () => {
    expect(projectOf('test/proof/fuzz-http.test.ts', '')).toBe('proof');
    expect(projectOf('test/proof-cli/secrets.test.ts', "import { spawn } from 'node:child_process';")).toBe('proof');
    expect(projectOf('test/local/money.property.test.ts', '')).toBe('proof');
    expect(projectOf('test/local/desk-fuzz.test.ts', '')).toBe('proof');
    expect(
      projectOf('test/cli/x.test.ts', "// vitest project: unit\nimport { spawn } from 'node:child_process';"),
    ).toBe('unit');
  });

  it('runs every test file in exactly one project', () => {
    const p = testProjects(join(__dirname, '../..'));
    const all = [...p.unit, ...p.e2e, ...p.proof];
    expect(new Set(all).size).toBe(all.length);
    expect(p.unit).toContain('test/support/projects.test.ts');
    expect(p.unit).toContain('test/commands/withdraw-options.test.ts');
    expect(p.e2e).toContain('test/cli/terminal.test.ts');
    expect(all.length).toBeGreaterThan(100);
  });
});
