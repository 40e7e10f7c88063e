/**
 * Dates from the Tracking API, read once at the edge. The API promises ISO 8601 date-times;
 * anything else ("yesterday", "2024-02-30T00:00:00Z", a bare number) is not a date to the store:
 * its column holds NULL (the resource's `raw` keeps what was sent), so no view, sort or sync
 * ever parses it again. Valid instants are stored in one form, UTC to the second
 * (`2026-03-01T14:05:00Z`, milliseconds only when there are some), so text order is time order
 * and the views' comparisons against `new Date().toISOString()` hold.
 */

/** How far ahead of this machine's clock an instant may lie and still move a sync cursor. */
export const FUTURE_TOLERANCE_MS = 86_400_000;

const ISO_WITH_ZONE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):?(\d{2}))$/;
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const CANONICAL_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3})?Z$/;

function realDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  // Day 0 of the next month is the last day of this one (setUTCFullYear reads years 0-99 as written).
  const last = new Date(0);
  last.setUTCFullYear(year, month, 0);
  return day <= last.getUTCDate();
}

/** Epoch milliseconds of an ISO 8601 date-time with a zone (Z or ±hh:mm), or null for anything else. */
export function parseInstant(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const m = ISO_WITH_ZONE.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (!realDay(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
  if (m[7] !== undefined && (Number(m[7]) > 23 || Number(m[8]) > 59)) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/** An instant as the store keeps it: UTC, to the second unless it has milliseconds. */
export function formatInstant(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

const digits2 = (text: string, at: number) => (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48;

/**
 * Whether a string of CANONICAL_UTC's shape names a real instant: month 1-12, a day the month
 * has, hour 0-23, minute and second 0-59. Days up to 28 are read from the digits; the rest ask
 * the calendar (parseInstant).
 */
function canonicalIsReal(text: string): boolean {
  const month = digits2(text, 5);
  const day = digits2(text, 8);
  if (month < 1 || month > 12 || day < 1 || day > 28) return day > 28 && parseInstant(text) !== null;
  return digits2(text, 11) <= 23 && digits2(text, 14) <= 59 && digits2(text, 17) <= 59;
}

/** The value for a date-time column: the instant in the store's form, or null when it is not one. */
export function storedInstant(value: unknown): string | null {
  if (typeof value === 'string' && CANONICAL_UTC.test(value) && !value.endsWith('.000Z')) {
    // Already in the stored form: only the calendar needs checking (the common case, kept cheap:
    // every date column of every record of a page comes through here).
    return canonicalIsReal(value) ? value : null;
  }
  const ms = parseInstant(value);
  if (ms === null) return null;
  const text = formatInstant(ms);
  // Years beyond 9999 (or before 0) would sort as text out of time order.
  return /^\d{4}-/.test(text) ? text : null;
}

/** A column that holds a date-time or a calendar date (YYYY-MM-DD), such as a last free day. */
export function storedInstantOrDate(value: unknown): string | null {
  if (typeof value === 'string') {
    const m = CALENDAR_DATE.exec(value);
    if (m) return realDay(Number(m[1]), Number(m[2]), Number(m[3])) ? value : null;
  }
  return storedInstant(value);
}

/**
 * A stored cursor or timestamp that a sync may trust: a real instant no later than a day past
 * `now`. A cursor in year 9999 would hide every later change; one that is no date at all would
 * fail every later sync. Either is treated as no cursor at all.
 */
export function trustedInstant(value: unknown, now: Date): number | null {
  const ms = parseInstant(value);
  return ms !== null && ms <= now.getTime() + FUTURE_TOLERANCE_MS ? ms : null;
}

/**
 * A shallow copy of `attributes` with the named dates checked (a bad one becomes null), and
 * those of one nested object member too. Code that derives from attributes reads this copy, so
 * a last free day of "tomorrow" or "2025-02-30" derives no deadline (rather than a wrong one or
 * a thrown RangeError that fails the page), and a bad milestone date does not count.
 */
export function withCheckedDates(
  attributes: Record<string, unknown>,
  names: readonly string[],
  nested?: { member: string; names: readonly string[] },
): Record<string, unknown> {
  const check = (from: Record<string, unknown>, keys: readonly string[]) => {
    const copy: Record<string, unknown> = { ...from };
    for (const key of keys)
      if (copy[key] !== undefined && copy[key] !== null) copy[key] = storedInstantOrDate(copy[key]);
    return copy;
  };
  const checked = check(attributes, names);
  const inner = nested === undefined ? undefined : attributes[nested.member];
  if (nested && typeof inner === 'object' && inner !== null && !Array.isArray(inner)) {
    checked[nested.member] = check(inner as Record<string, unknown>, nested.names);
  }
  return checked;
}
