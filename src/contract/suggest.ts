// "Did you mean": the one rule for suggesting a close name when a value is none of a closed list (a command, an
// asset, a network, a status, a market, an output format, a field of a batch, a nickname). Case is ignored, and so is
// the difference between - _ and a space (withdraw-batch is `withdraw batch`, transfer list is `transfers list`).

/** Edit distance of two strings (insertions, deletions, substitutions, and a swap of two neighbours as one edit). */
export function editDistance(left: string, right: string): number {
  const x = [...left];
  const y = [...right];
  // Three rows of the table: the one before last (for swaps), the last, the current.
  let before: number[] = [];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1])
        row[j] = Math.min(row[j], before[j - 2] + 1);
    }
    before = prev;
    prev = row;
  }
  return prev[y.length];
}

/** A name as compared: lower case, `-`, `_` and runs of spaces as one space. */
export const comparable = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/[-_\s]+/g, ' ');

/** The most edits a suggestion may be away from what was typed: about one in three characters, at least one. */
const tolerance = (typed: string) => Math.max(1, Math.floor(typed.length / 3));

/**
 * The names of `candidates` close to `typed`, closest first (ties in the list's order), at most `max`: the same but for
 * case and separators, a few edits away, or (for a typed word of 3 characters or more) the start of it.
 */
export function closeNames(typed: string, candidates: readonly string[], max = 3): string[] {
  const t = comparable(typed);
  if (!t) return [];
  const scored: { name: string; d: number; at: number }[] = [];
  [...new Set(candidates)].forEach((name, at) => {
    const c = comparable(name);
    const edits = editDistance(t, c);
    // A prefix typed (PEN for PENGU) counts as one edit; a longer candidate is not near merely by its length.
    const d = t.length >= 3 && c.startsWith(t) ? Math.min(edits, 1) : edits;
    if (d <= tolerance(t)) scored.push({ name, d, at });
  });
  scored.sort((a, b) => a.d - b.d || a.at - b.at);
  const best = scored[0]?.d;
  // Only the closest ones: BTX suggests BTC, not also every name two edits away.
  return scored
    .filter((s) => s.d === best)
    .slice(0, max)
    .map((s) => s.name);
}

/** " (did you mean X?)", " (did you mean X or Y?)" for names found close, or "" for none. */
export function meaning(close: readonly string[]): string {
  if (!close.length) return '';
  const named = close.length === 1 ? close[0] : `${close.slice(0, -1).join(', ')} or ${close[close.length - 1]}`;
  return ` (did you mean ${named}?)`;
}

/** " (did you mean X?)" for the names of `candidates` close to `typed`, or "" when none is. */
export const didYouMean = (typed: string, candidates: readonly string[]) => meaning(closeNames(typed, candidates));

/**
 * The rule for a value that is none of `choices`, in one line: a close one when there is one (then the list only when
 * it is short), else the whole list.
 */
export function oneOfRule(typed: string, choices: readonly string[], longList = 8): string {
  const hint = didYouMean(typed, choices);
  if (hint && choices.length > longList) return `"${typed}" is not one of the ${choices.length} choices${hint}`;
  return `must be one of ${choices.join(', ')}${hint}`;
}
