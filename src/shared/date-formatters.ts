/**
 * Every Intl.DateTimeFormat Quayside uses, made once per style and zone and kept: building one
 * costs far more than using it (tens of microseconds against one), and lists, the timeline, the
 * derived container fields and the sandbox format the same few styles again and again. A style
 * names what the text is for; its locale is the computer's for what a forwarder reads and a fixed
 * one for what code parses.
 */

const styles = {
  /** "Dec 20, 2026, 08:13 AM PST": a date and time in a list or a card. */
  dateTime: {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  },
  /** "Sun, Dec 20, 2026, 08:13 AM Pacific Standard Time": the tooltip form. */
  exact: {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'long',
  },
  /** "Mon, Nov 23, 2026": the day of an instant. */
  day: { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' },
  /** "Tue, Nov 24, 2026": a calendar date (stored as UTC midnight, so always read in UTC). */
  calendarDate: { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' },
  /** "Tue, Nov 24": a calendar date in a chart, where the year is the axis's. */
  chartDay: { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' },
  /** Wall-clock parts in a zone, for offsets (en-US, 24-hour). */
  parts: {
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  },
  /** "2026-11-24": the calendar date of an instant in a zone (en-CA writes ISO dates). */
  isoDate: { year: 'numeric', month: '2-digit', day: '2-digit' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

export type DateStyle = keyof typeof styles;

/** The styles code reads back; the others are in the computer's locale. */
const fixedLocales: Partial<Record<DateStyle, string>> = { parts: 'en-US', isoDate: 'en-CA' };

const formatters = new Map<string, Intl.DateTimeFormat>();
const zoneValidity = new Map<string, boolean>();
// Zone names come from the service: a bound keeps a stream of bad ones from growing the cache.
const MAX_ZONES = 1000;

/**
 * The formatter for a style in a zone (this computer's when none is given; the calendar styles are
 * always UTC). Throws a RangeError for a zone Intl does not know: check it with `isTimeZone`.
 */
export function dateFormatter(style: DateStyle, zone?: string): Intl.DateTimeFormat {
  const key = `${style}|${zone ?? ''}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(fixedLocales[style], { timeZone: zone, ...styles[style] });
    formatters.set(key, formatter);
  }
  return formatter;
}

/** Whether Intl knows an IANA zone name ("Europe/Amsterdam", "UTC"); remembered either way. */
export function isTimeZone(zone: string | null | undefined): zone is string {
  if (!zone) return false;
  let valid = zoneValidity.get(zone);
  if (valid === undefined) {
    try {
      dateFormatter('isoDate', zone);
      valid = true;
    } catch {
      valid = false;
    }
    if (zoneValidity.size >= MAX_ZONES) zoneValidity.clear();
    zoneValidity.set(zone, valid);
  }
  return valid;
}

/** This computer's zone, e.g. "Europe/Amsterdam". */
export function computerTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}
