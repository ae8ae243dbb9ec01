// What differs from one run of an example to the next, masked the same way in what a page shows and in what ran:
// each mask replaces a value with its name, so "1BvB... 0.25 BTC" must still match word for word around it.
export const MASKS: [name: string, pattern: RegExp][] = [
  // ids: uuids (the demo's fixed ones too: a page may show either), ref_ids generated from them
  ['<uuid>', /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g],
  // a short id after a name, as a confirmation shows a profile ("payroll (e950ba30)"): a profile made by the page's run.
  // Whatever its digits: one id in 43 starts with eight decimal ones ("payroll (89514038)" failed a clean-clone run
  // of the deposits page), one in 2,500 with eight letters.
  ['(<short>)', /(?<=\w )\([0-9a-f]{8}\)/g],
  // times: ISO instants, a clock's time of day
  ['<time>', /\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g],
  ['<clock>', /\b\d\d:\d\d(:\d\d(\.\d+)?)?\b/g],
  // how long ago, how long a fee holds: moves with the wall clock
  ['<ago>', /\b\d+(\.\d+)? (s|min|h) ago\b|\bjust now\b/g],
  ['<skew>', /\b\d+(\.\d+)? m?s (ahead of|behind) the service\b/g],
  ['<for>', /\bfor \d+ s\b|\bin \d+ min\b|\bexpires in \d+ min\b/g],
  // how long a delivery or a retry took, or waits: milliseconds on a loaded machine
  ['<ms>', /\b\d+ ms\b/g],
  // ports of the service, the gateway, a port a hint suggests (the one after a port another program holds)
  ['127.0.0.1:<port>', /\b127\.0\.0\.1:\d+\b/g],
  ['<port>', /(?<=--port[ =])\d+\b/g],
  // a batch journal's service address, hashed into its name (a gateway's port differs per run)
  ['<url>', /(?<=\.[a-z][a-z0-9]*-)[0-9a-f]{8}(?=\.journal\b)/g],
  // hashes, key ids, batch ids, nonces, tx hashes, signatures: 12 or more hex digits (sha256 prefixes too)
  ['<hex>', /\b(0x)?[0-9a-f]{12,}\b/g],
  // random identifiers the service makes: memo ids, match numbers, operator client ids, secrets, list cursors. A
  // local memo id is 16 of src/local/deposit-instructions.ts's MEMO_ALPHABET, and one in a hundred has no digit
  // (the address-book page failed now and then on one: "CQGGRCQCAWKWGNXH").
  ['<memo>', /\b(?:(?=[A-Z0-9]*\d)(?=[A-Z0-9]*[A-Z])[A-Z0-9]{13,16}|[A-HJ-NP-Z2-9]{16})\b/g],
  ['local-<id>', /\blocal-[0-9a-f]{8}\b/g],
  ['<client>', /\bgw-[a-z]+-[0-9a-f]{8}\b/g],
  ['<secret>', /\bwhsec_[A-Za-z0-9_-]+|(?<=\bclient_secret\s+)\S+/g],
  ['<key>', /\bed25519:[A-Za-z0-9+/]{43}=/g],
  // an Ed25519 signature in base64 (an approval file's signature line)
  ['<signature>', /(?<=\bsignature: )[A-Za-z0-9+/]{86}==/g],
  ['<cursor>', /\beyJ[A-Za-z0-9_-]+/g],
  // USD notional values, priced by the simulated market at the moment of the run
  ['<usd>', /\b\d+(\.\d+)? USD notional|\b(about|by) \d+(\.\d+)? USD|\bnotional_value(\s+)\d+(\.\d+)?/g],
];

/** Addresses: a deposit address the service makes is new on every run (those a page's commands write are kept). */
const ADDRESS = /\b0x[0-9a-fA-F]{40}\b|\b(bc1|ltc1|tb1)[02-9ac-hj-np-z]{20,}\b|\b[1-9A-HJ-NP-Za-km-z]{32,44}\b/g;

/**
 * In a block whose values vary (a simulated market): every number, with its sign (a change up or down); the words and
 * the layout are still compared.
 */
const DECIMAL: [string, RegExp] = ['<n>', /(?:(?<=^|[\s(])[+-])?\b\d+(\.\d+)?\b/g];

/** In a block whose values vary: a live book's depth bars, as long as the amounts they draw (none for a small one). */
const BARS = / *[▏▎▍▌▋▊▉█]+/g;

/** A batch's progress line on stderr (piped: every two seconds, so how many show depends on the machine's speed). */
const PROGRESS = /^progress: \d+\/\d+ · /;

export function mask(text: string, vary = false, keep: ReadonlySet<string> = new Set()): string {
  return masked(text, vary, keep).text;
}

/** A text masked, and each value a mask took, in the order the masks took them. */
function masked(text: string, vary: boolean, keep: ReadonlySet<string>): { text: string; values: [string, string][] } {
  const values: [string, string][] = [];
  const take = (name: string) => (value: string) => {
    values.push([name, value]);
    return name;
  };
  let out = text;
  for (const [name, pattern] of MASKS) out = out.replace(pattern, take(name));
  out = out.replace(ADDRESS, (a) => (keep.has(a) ? a : take('<address>')(a)));
  return { text: vary ? out.replace(BARS, '').replace(DECIMAL[1], DECIMAL[0]) : out, values };
}

/** Whether the lines ran match the lines shown (both masked): `...` shown stands for any number of lines. */
export function matches(shown: string[], ran: string[]): boolean {
  return alignment(shown, ran) !== undefined;
}

/** The shown lines matched line for line with lines ran, as pairs of indexes (a `...` pairs with none), or undefined. */
function alignment(shown: string[], ran: string[]): [number, number][] | undefined {
  const memo = new Map<string, boolean>();
  /** Whether shown[from...] matches ran[to...]. */
  const go = (from: number, to: number): boolean => {
    const key = `${from},${to}`;
    if (memo.has(key)) return memo.get(key)!;
    let ok: boolean;
    if (from === shown.length) ok = to === ran.length;
    else if (shown[from] === '...') ok = go(from + 1, to) || (to < ran.length && go(from, to + 1));
    else ok = to < ran.length && shown[from] === ran[to] && go(from + 1, to + 1);
    memo.set(key, ok);
    return ok;
  };
  if (!go(0, 0)) return undefined;
  const pairs: [number, number][] = [];
  for (let from = 0, to = 0; from < shown.length; ) {
    if (shown[from] !== '...') pairs.push([from++, to++]);
    else if (go(from + 1, to)) from++;
    else to++;
  }
  return pairs;
}

/** A text's lines as compared, before they are masked: progress lines off, trailing empty lines off. */
function linesOf(text: string): string[] {
  const lines = text.split('\n').filter((l) => !PROGRESS.test(l));
  while (lines.length > 0 && lines[lines.length - 1].trim() === '') lines.pop();
  return lines;
}

/** A line as compared: masked, runs of spaces as two, trailing spaces off. */
const compared = (line: string, vary: boolean, keep?: ReadonlySet<string>) =>
  mask(line, vary, keep).replace(/\s+$/, '').replace(/ {2,}/g, '  ');

/**
 * The lines of a text as compared: progress lines off, masked, runs of spaces as two (a masked value is not as wide as
 * the value, so a table's padding moves), trailing spaces and trailing empty lines off.
 */
export function comparable(text: string, vary = false, keep?: ReadonlySet<string>): string[] {
  return linesOf(text).map((l) => compared(l, vary, keep));
}

/** The masks whose values a later command or file of a page may name: ids, keys, secrets, addresses, ports. */
const CARRIED = new Set([
  '<uuid>',
  '(<short>)',
  '<hex>',
  '<memo>',
  'local-<id>',
  '<client>',
  '<secret>',
  '<key>',
  '<cursor>',
  '127.0.0.1:<port>',
  '<address>',
]);

/**
 * What the page's values stand for in this run: for an example whose output matches what the page shows, each id,
 * key, secret, address or port the page shows, paired with the one the run printed in its place (only those that
 * differ). A later command or file of the page that names the page's value is given the run's.
 */
export function carriedValues(shown: string, ran: string, keep?: ReadonlySet<string>): Map<string, string> {
  const [shownLines, ranLines] = [linesOf(shown), linesOf(ran)];
  const carried = new Map<string, string>();
  const pairs = alignment(
    shownLines.map((l) => compared(l, false, keep)),
    ranLines.map((l) => compared(l, false, keep)),
  );
  for (const [s, r] of pairs ?? []) {
    const [a, b] = [masked(shownLines[s], false, keep ?? new Set()), masked(ranLines[r], false, keep ?? new Set())];
    a.values.forEach(([name, value], at) => {
      const [otherName, other] = b.values[at] ?? [];
      if (CARRIED.has(name) && otherName === name && other !== value) carried.set(value, other!);
    });
  }
  return carried;
}

/** A command or a file of the page with the run's values in place of the page's (carriedValues), longest first. */
export function carry(text: string, carried: ReadonlyMap<string, string>): string {
  let out = text;
  for (const [page, run] of [...carried].sort((x, y) => y[0].length - x[0].length)) out = out.replaceAll(page, run);
  return out;
}
