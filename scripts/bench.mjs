// `npm run bench`: runs every benchmark in scripts/bench/, prints one table of every performance target
// (name, measured value, baseline, ratio, target, met) and writes the same rows as JSON to bench-results.json.
// `npm run bench -- --quick` makes each benchmark much shorter; `npm run bench -- NAME...` runs only those files.
import { readdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args.filter((a) => !a.startsWith('--'));
const dir = join(process.cwd(), 'scripts', 'bench');

if (spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' }).status !== 0) process.exit(1);

const files = readdirSync(dir)
  .filter((f) => f.endsWith('.mjs'))
  .filter((f) => !only.length || only.includes(basename(f, '.mjs')))
  .sort();

const rows = [];
for (const [i, f] of files.entries()) {
  // Each benchmark starts on a quiet machine: the previous one's file writes flushed to disk, and a moment to settle.
  if (i > 0) {
    spawnSync('sync');
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  process.stderr.write(`bench: ${f} ...\n`);
  const started = Date.now();
  try {
    const mod = await import(pathToFileURL(join(dir, f)).href);
    const out = await mod.default({ quick });
    for (const r of out) rows.push({ file: f, ...r });
  } catch (err) {
    rows.push({
      file: f,
      name: `${basename(f, '.mjs')} (error)`,
      value: null,
      unit: '',
      baseline: null,
      ratio: null,
      target: '',
      met: false,
      error: String(err?.stack ? err.stack : err),
    });
    process.stderr.write(`bench: ${f} failed: ${err?.stack ? err.stack : err}\n`);
  }
  process.stderr.write(`bench: ${f} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

const num = (v, digits = 2) =>
  v === null || v === undefined
    ? '-'
    : typeof v === 'number'
      ? Math.abs(v) >= 100
        ? Math.round(v).toLocaleString('en-US')
        : v.toFixed(digits)
      : String(v);
const table = [['benchmark', 'value', 'unit', 'baseline', 'ratio', 'target', 'met']];
for (const r of rows) {
  table.push([
    r.name,
    num(r.value),
    r.unit ?? '',
    r.baseline === null || r.baseline === undefined
      ? '-'
      : `${num(r.baseline)}${r.baselineName ? ` (${r.baselineName})` : ''}`,
    num(r.ratio),
    r.target ?? '',
    r.met ? 'yes' : 'NO',
  ]);
}
const widths = table[0].map((_, i) => Math.max(...table.map((row) => String(row[i]).length)));
const line = (row) =>
  row.map((c, i) => (i === 0 || i >= 5 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
const machine = `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown cpu'}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
console.log(`\nMachine: ${machine}${quick ? ' (quick run)' : ''}\n`);
console.log(line(table[0]));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const row of table.slice(1)) console.log(line(row));
const met = rows.filter((r) => r.met).length;
console.log(`\n${met} of ${rows.length} targets met`);
writeFileSync(
  'bench-results.json',
  `${JSON.stringify({ date: new Date().toISOString(), machine, quick, rows }, null, 2)}\n`,
);
console.log('written: bench-results.json');
