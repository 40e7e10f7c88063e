/**
 * `localDate` keeps the days it was asked about with their bounds (a sync derives dates for every
 * container); asked in any order, across daylight-saving changes, skipped days and local
 * midnights, it must answer what formatting the instant answers.
 */
import { describe, expect, it } from 'vitest';
import { endOfLocalDay, localDate } from '../../src/shared/zoned-time';

const zones = [
  'UTC',
  'America/New_York',
  'America/Los_Angeles',
  'Europe/Amsterdam',
  'Asia/Shanghai',
  'Asia/Kolkata',
  'Australia/Lord_Howe', // half-hour daylight saving
  'Pacific/Apia', // skipped 2011-12-30
  'Pacific/Chatham', // +12:45
  'America/Santiago', // changes at local midnight
];

const references = new Map<string, Intl.DateTimeFormat>();
function formatted(instant: number, zone: string): string {
  let format = references.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
    references.set(zone, format);
  }
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(instant)) parts[part.type] = part.value;
  return `${parts.year}-${parts.month}-${parts.day}`;
}

describe('localDate with its days kept', () => {
  it('answers as formatting does, instants in any order, around midnights and clock changes', () => {
    const HOUR = 3_600_000;
    const starts = [Date.UTC(2011, 11, 28), Date.UTC(2026, 2, 6), Date.UTC(2026, 3, 3), Date.UTC(2026, 9, 23)];
    const instants: number[] = [];
    for (const start of starts) {
      // Every 7.5 minutes over five days, then a minute either side of each hour (midnights included).
      for (let t = start; t < start + 120 * HOUR; t += 450_000) instants.push(t);
      for (let t = start; t < start + 120 * HOUR; t += HOUR) instants.push(t - 1, t + 1, t - 60_000, t + 60_000);
    }
    // A fixed shuffle: the same days asked again and again, out of order, as a page of containers does.
    let seed = 7;
    const shuffled = instants
      .map((t) => ({ t, k: (seed = (seed * 1103515245 + 12345) % 2 ** 31) }))
      .sort((a, b) => a.k - b.k)
      .map((x) => x.t);
    const wrong: string[] = [];
    for (const zone of zones) {
      for (const t of shuffled) {
        const date = localDate(t, zone);
        if (date !== formatted(t, zone)) wrong.push(`${zone} ${new Date(t).toISOString()}: ${date}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('ends a day at the next local midnight, asked once or again', () => {
    // Amsterdam on the day clocks go forward: 23 hours; New York on the day they go back: 25.
    for (let i = 0; i < 2; i++) {
      expect(new Date(endOfLocalDay('2026-03-28', 'Europe/Amsterdam')).toISOString()).toBe('2026-03-28T23:00:00.000Z');
      expect(new Date(endOfLocalDay('2026-03-29', 'Europe/Amsterdam')).toISOString()).toBe('2026-03-29T22:00:00.000Z');
      expect(new Date(endOfLocalDay('2026-11-01', 'America/New_York')).toISOString()).toBe('2026-11-02T05:00:00.000Z');
    }
  });

  it('still refuses what formatting refuses', () => {
    expect(() => localDate(Number.NaN, 'UTC')).toThrow(RangeError);
    expect(() => localDate(0, 'Not/AZone')).toThrow(RangeError);
  });
});
