// The README's gateway scenario, run exactly as written (the block after <!-- gateway-scenario -->), by bash with a
// real `coinop` on PATH, every command a child process: the local service as the upstream, a gateway in front, an
// initiator and two approvers each on a configuration folder of their own, a batch held for two approvals as one and
// sent once. The one change: the gateway's port 7358 becomes a free one (two runs on one machine must not meet).
// Then, from what it left behind: the gateway's chain whole, with the batch held once, approved by both approvers and
// each row attempted and sent exactly once; the upstream holds one transfer per row.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyLog } from '../../src/audit/verify.js';
import { GatewayStore } from '../../src/gateway/store.js';
import { openSql } from '../../src/gateway/sql.js';
import { ROOT } from '../cli/helpers.js';
import { freePort } from '../support/http-server.js';

/** A page's scenario block: the sh code block right after the marker. */
function scenarioIn(page: string): string {
  const text = readFileSync(join(ROOT, page), 'utf8');
  const at = text.indexOf('<!-- gateway-scenario -->');
  const block = /```sh\n([\s\S]*?)```/.exec(text.slice(at));
  if (at < 0 || !block) throw new Error(`${page} has no gateway scenario block`);
  return block[1];
}

function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-e', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

describe("the README's gateway scenario", () => {
  const dir = mkdtempSync(join(tmpdir(), 'coinop-readme-gw-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs as written: a batch needing two approvals is held as one, approved by two, sent once, verified in both audit views', async () => {
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(
      join(bin, 'coinop'),
      `#!/bin/sh\nexec '${process.execPath}' '${join(ROOT, 'bin', 'coinop.js')}' "$@"\n`,
      {
        mode: 0o755,
      },
    );
    const port = await freePort();
    const scenario = scenarioIn('README.md');
    expect(scenario).toContain('--port 7358');
    // docs/gateway.md shows the same block in full, with what it prints: the two cannot drift apart.
    expect(scenarioIn('docs/gateway.md')).toBe(scenario);
    // The gateway (a background job) is stopped however the script ends; then the README's lines, as written.
    const script = `trap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n${scenario.replaceAll('7358', String(port))}`;
    const env = { PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, HOME: join(dir, 'home'), NO_COLOR: '1' };
    const run = await bash(script, dir, env);
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain('approved (1 of 2)');
    expect(run.out).toMatch(/the gateway sent it \(2 of 2 rows sent\)/);
    // Both audit views verify: ivy's machine's log, and the gateway's chain as an approver reads it.
    expect(run.out.match(/✓ the audit log is whole/g)).toHaveLength(2);

    const sql = await openSql(join(dir, 'gw', 'data', 'gateway', 'gateway.db'));
    try {
      const store = new GatewayStore(sql);
      const lines = (await store.auditLines()).map((l) => l.line);
      const file = join(dir, 'chain.jsonl');
      writeFileSync(file, `${lines.join('\n')}\n`);
      expect(verifyLog(file, await store.auditHead()).problems).toEqual([]);
      const entries = lines.map((l) => JSON.parse(l)) as {
        kind: string;
        ref_id: string | null;
        who: { operator?: string };
        outcome: { result: string };
      }[];
      const of = (kind: string, result: string) =>
        entries.filter((e) => e.kind === kind && e.outcome.result === result);
      expect(of('batch', 'held').map((e) => e.who.operator)).toEqual(['ivy']);
      expect(of('approval', 'approved').map((e) => e.who.operator)).toEqual(['ana', 'bo']);
      const sent = of('withdrawal', 'sent').map((e) => e.ref_id);
      expect(sent).toHaveLength(2);
      expect(new Set(sent).size).toBe(2);
      expect(of('withdrawal', 'attempt').map((e) => e.ref_id)).toEqual(sent);
      // The upstream (the local service the gateway started over its machine's data) holds one transfer per row.
      const db = new Database(join(dir, 'gw', 'data', 'local.db'), { readonly: true });
      try {
        const rows = db
          .prepare(
            `SELECT ref_id, COUNT(*) AS n FROM transfers WHERE ref_id IN (${sent.map(() => '?').join(', ')}) GROUP BY ref_id`,
          )
          .all(...sent) as { ref_id: string; n: number }[];
        expect(rows.map((r) => r.n)).toEqual([1, 1]);
      } finally {
        db.close();
      }
    } finally {
      await sql.close();
    }
  }, 180_000);
});
