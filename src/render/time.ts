// Times for people: relative ("3 min ago", "in 42 s") on a terminal, the RFC 3339 string as sent otherwise.

export function relativeTime(iso: string, now: number): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const d = Math.round((t - now) / 1000);
  const a = Math.abs(d);
  const [n, unit] =
    a < 60
      ? [a, 's']
      : a < 3600
        ? [Math.floor(a / 60), 'min']
        : a < 86400
          ? [Math.floor(a / 3600), 'h']
          : a < 86400 * 60
            ? [Math.floor(a / 86400), 'd']
            : [Math.floor(a / (86400 * 30)), 'mo'];
  if (a < 2) return 'just now';
  return d < 0 ? `${n} ${unit} ago` : `in ${n} ${unit}`;
}

/** The time of day of an RFC 3339 string, UTC, to the second ("14:46:30"); anything else as it is. */
export function clockOf(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : new Date(t).toISOString().slice(11, 19);
}

/** A length of time in the largest unit that divides it: "24 h", "7 days", "15 min", "90 s". */
export function durationText(seconds: number): string {
  if (seconds > 86_400 && seconds % 86_400 === 0) return `${seconds / 86_400} days`;
  if (seconds >= 3_600 && seconds % 3_600 === 0) return `${seconds / 3_600} h`;
  if (seconds >= 60 && seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}
