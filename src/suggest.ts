// "Did you mean": the names nearest to what was typed, by edit distance. Below every layer: the batch's columns and
// the service profiles a command names both use it.

/** The Levenshtein distance between two strings (insertions, deletions and substitutions each count one). */
export function editDistance(left: string, right: string): number {
  const dp = Array.from({ length: right.length + 1 }, (_, j) => j);
  for (let i = 1; i <= left.length; i++) {
    let prev = dp[0];
    dp[0] = i;
    for (let j = 1; j <= right.length; j++) {
      const t = dp[j];
      dp[j] = Math.min(dp[j] + 1, dp[j - 1] + 1, prev + (left[i - 1] === right[j - 1] ? 0 : 1));
      prev = t;
    }
  }
  return dp[right.length];
}

/**
 * The candidates within `max` edits of `typed` (case aside), nearest first, at most `limit` of them; a candidate that
 * starts with what was typed (or the other way round) counts as near too.
 */
export function nearMatches(typed: string, candidates: readonly string[], max = 2, limit = 3): string[] {
  const t = typed.toLowerCase();
  return candidates
    .map((candidate) => {
      const l = candidate.toLowerCase();
      const d = t && (l.startsWith(t) || t.startsWith(l)) ? 0 : editDistance(t, l);
      return { c: candidate, d };
    })
    .filter((x) => x.d <= max)
    .sort((a, b) => a.d - b.d)
    .slice(0, limit)
    .map((x) => x.c);
}
