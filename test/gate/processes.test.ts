// The gate's lock holds between processes: six coinop processes started together against a 24-hour cap that
// allows two of their withdrawals send exactly two; the others are refused by the policy (exit 8), nothing more sent.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sandbox, type Sandbox } from '../cli/helpers.js';
import { transferFlags } from '../support/command-lines.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await sandbox();
});
afterAll(async () => sb?.close());

it('six processes at once against a cap that allows two: exactly two sent', async () => {
  mkdirSync(join(sb.env.COINOP_CONFIG_DIR, 'policies'), { recursive: true });
  writeFileSync(join(sb.env.COINOP_CONFIG_DIR, 'policies', 'local.yaml'), 'max_per_24h:\n  ETH: 0.2\n');
  await sb.sent();
  const runs = await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      sb.run(['withdraw', ...transferFlags('ETH', '0.1'), '--ref-id', `process-${i}`, '--yes']),
    ),
  );
  const codes = runs.map((r) => r.code);
  expect(
    codes.filter((c) => c === 0),
    runs.map((r) => r.stderr).join('\n'),
  ).toHaveLength(2);
  expect(codes.filter((c) => c === 8)).toHaveLength(4);
  const posts = (await sb.sent()).filter(
    (e) => e.method === 'POST' && e.url.startsWith('/v2/transfer/crypto-withdrawals'),
  );
  expect(posts).toHaveLength(2);
});
