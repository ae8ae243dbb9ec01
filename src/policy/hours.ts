// The hours of the day when sending is allowed: windows such as "09:00-18:00 Europe/Zurich" (an IANA time zone, UTC
// when none is written), read with Intl so a window follows its zone's daylight saving time. A window whose end is
// before its start runs over midnight ("22:00-06:00 UTC").

export interface HoursWindow {
  /** As written in the policy. */
  text: string;
  /** Minutes after midnight, in the zone: start included, end excluded. */
  start: number;
  end: number;
  zone: string;
}

const WINDOW = /^(\d{2}):(\d{2})\s*-\s*(\d{2}):(\d{2})(?:\s+(\S+))?$/;

const minutes = (hours: string, mins: string): number | undefined => {
  const hh = Number(hours);
  const mm = Number(mins);
  // 24:00 is the end of the day, allowed as an end only (checked by the caller).
  if (hh > 24 || mm > 59 || (hh === 24 && mm !== 0)) return undefined;
  return hh * 60 + mm;
};

/** Whether the runtime knows the time zone (an IANA name such as Europe/Zurich, or UTC). */
export function knownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A window from its text, or the rule it breaks. */
export function parseWindow(text: string): HoursWindow | { rule: string } {
  const m = WINDOW.exec(text.trim());
  if (!m) return { rule: 'must be a window such as "09:00-18:00 Europe/Zurich" (HH:MM-HH:MM and a time zone)' };
  const start = minutes(m[1], m[2]);
  const end = minutes(m[3], m[4]);
  if (start === undefined || end === undefined || start === 24 * 60)
    return { rule: `"${text}": hours run from 00:00 to 24:00, minutes to 59` };
  if (start === end) return { rule: `"${text}": starts and ends at the same time (give 00:00-24:00 for all day)` };
  const zone = m[5] ?? 'UTC';
  if (!knownZone(zone))
    return { rule: `"${text}": ${zone} is not a time zone (give an IANA name such as Europe/Zurich)` };
  return { text: text.trim(), start, end, zone };
}

/** The time of day in a zone at a moment, in minutes after midnight, and as HH:MM. */
export function timeOfDay(ms: number, zone: string): { minutes: number; text: string } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(ms));
  const h = Number(parts.find((p) => p.type === 'hour')?.value ?? 0);
  const m = Number(parts.find((p) => p.type === 'minute')?.value ?? 0);
  return { minutes: h * 60 + m, text: `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}` };
}

/** Whether a moment falls in the window (over midnight when its end comes before its start). */
export function inWindow(window: HoursWindow, ms: number): boolean {
  const t = timeOfDay(ms, window.zone).minutes;
  return window.start < window.end ? t >= window.start && t < window.end : t >= window.start || t < window.end;
}
