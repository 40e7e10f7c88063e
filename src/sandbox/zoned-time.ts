/** Local-calendar arithmetic in IANA time zones, without a date library. */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The zone's offset from UTC at an instant, in milliseconds (positive east of Greenwich). */
export function zoneOffsetMs(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day, parts.hour, parts.minute, parts.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The instant of local midnight, `days` calendar days after the local date of `instant`. */
export function localMidnightAfter(instant: number, timeZone: string, days: number): number {
  const offset = zoneOffsetMs(instant, timeZone);
  const local = new Date(instant + offset);
  const midnightAsUtc = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + days);
  // The offset at the target date may differ (daylight saving): settle it in one more step.
  const guess = midnightAsUtc - offset;
  return midnightAsUtc - zoneOffsetMs(guess, timeZone);
}
