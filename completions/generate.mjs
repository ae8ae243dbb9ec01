// Regenerates the completion scripts in this folder from the command tree: `npm run build && node completions/generate.mjs`.
// The test in test/cli/commands.test.ts fails when they drift from `coinop completion SHELL`.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, '..', 'bin', 'coinop.js');
for (const [shell, file] of [['bash', 'coinop.bash'], ['zsh', '_coinop'], ['fish', 'coinop.fish']]) {
  const r = spawnSync(process.execPath, [bin, 'completion', shell], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  if (r.status !== 0) throw new Error(`coinop completion ${shell} failed: ${r.stderr}`);
  writeFileSync(join(here, file), r.stdout);
  console.log(`wrote completions/${file}`);
}
