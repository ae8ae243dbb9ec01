// Regenerates man/coinop.1 from the command tree: `node scripts/build.mjs && node man/generate.mjs`.
// test/cli/man.test.ts fails when the page drifts from `coinop __man`.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, '..', 'bin', 'coinop.js');
const r = spawnSync(process.execPath, [bin, '__man'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
if (r.status !== 0) throw new Error(`coinop __man failed: ${r.stderr}`);
writeFileSync(join(here, 'coinop.1'), r.stdout);
console.log('wrote man/coinop.1');
