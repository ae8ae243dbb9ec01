// The baseline of the batch benchmark's validation rows (scripts/bench/batch.mjs): `node bare-validate.mjs FILE`
// reads a withdrawal file of the benchmark's shape the plainest way node can and checks each row's fields by the same
// rules coinop applies to them, minimally: a CSV line split at its commas (the benchmark's cells hold no quotes), or a
// JSON array element parsed from its line (the benchmark writes one per line), then the address's form for its network,
// the asset and network as a pair the catalogue lists, the amount's form, sign, decimals and the asset's smallest and
// largest withdrawal (as floating-point numbers), and the metadata value's length. Nothing is hashed, kept, staged or
// totalled, and no row's errors are worded: it counts the invalid rows and, like coinop, says how many and exits 2
// when there are any. What coinop does beyond this floor is its own cost: the ratio of the two rates is the
// benchmark's figure, measured in the same run so that the machine's speed cancels out.
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createInterface } from 'node:readline';

const file = process.argv[2];
const { ASSETS } = await import(pathToFileURL(join(process.cwd(), 'dist/contract/catalogue.js')).href);
const { METADATA_MAX_LENGTH } = await import(pathToFileURL(join(process.cwd(), 'dist/contract/schemas.js')).href);
const AMOUNT = /^[0-9]*\.?[0-9]+$/;
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** Whether the row's fields pass the checks. */
function valid(address, asset, network, amount, meta) {
  const info = ASSETS[asset];
  if (!info || info.fiat || !info.networks[network]) return false;
  if (typeof address !== 'string' || !EVM_ADDRESS.test(address)) return false;
  if (typeof amount !== 'string' || !AMOUNT.test(amount) || !/[1-9]/.test(amount)) return false;
  const point = amount.indexOf('.');
  if (point >= 0 && amount.length - point - 1 > info.decimals) return false;
  const n = Number(amount);
  if (n < Number(info.minWithdrawal) || n > Number(info.maxWithdrawal)) return false;
  return typeof meta === 'string' && meta.length <= METADATA_MAX_LENGTH;
}

const json = file.endsWith('.json');
let rows = 0;
let invalid = 0;
let header = !json;
const lines = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
for await (const line of lines) {
  if (header) {
    header = false;
    continue;
  }
  let cells;
  if (json) {
    if (!line.startsWith('{')) continue;
    const row = JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line);
    cells = [row.destination_address, row.asset, row.crypto_network, row.amount, row['meta.n']];
  } else {
    if (!line) continue;
    cells = line.split(',');
  }
  rows++;
  if (cells.length !== 5 || !valid(...cells)) invalid++;
}
if (invalid) {
  process.stderr.write(`${invalid} of ${rows} rows are invalid\n`);
  process.exitCode = 2;
}
