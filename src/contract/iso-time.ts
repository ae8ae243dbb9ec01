// RFC 3339 times in UTC, as the contract writes them (2026-01-02T15:04:05.000Z), from the date's UTC fields: a
// process's first toISOString() looks up the machine's time zone (it reads /etc/localtime and loads ICU's zone data,
// 1 ms and more), which a UTC time never needs. Every time a plain `coinop prices` writes, and every time the local
// service writes (the embedded default runs both in one process), comes from here. Outside years 0-9999 (an extended
// year) or for an invalid time, toISOString's own answer (or its RangeError).

const two = (n: number) => String(n).padStart(2, '0');

/** The time as toISOString writes it, milliseconds included. */
export function isoMillis(ms: number): string {
  const d = new Date(ms);
  const year = d.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) return d.toISOString();
  const date = `${String(year).padStart(4, '0')}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`;
  const time = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
  return `${date}T${time}.${String(d.getUTCMilliseconds()).padStart(3, '0')}Z`;
}

/** The time in whole seconds (the fraction dropped), as the time flags send it: 2026-01-02T15:04:05Z. */
export function isoSeconds(ms: number): string {
  return isoMillis(Math.floor(ms / 1000) * 1000).replace('.000Z', 'Z');
}
