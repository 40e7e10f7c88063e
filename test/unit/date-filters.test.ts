/**
 * The lists' date filters resolved to days: "today", "this week", "next N days", "last N days"
 * and "overdue" are counted in the user's time zone at the core's clock, so a forwarder in
 * Chicago late on Sunday evening (already Monday in UTC) gets Sunday's boxes, and a day that
 * loses an hour to daylight saving still runs midnight to midnight.
 */
import { describe, expect, it } from 'vitest';
import { dueDaysSchema, instantsOf, pastDaysSchema, resolveDays } from '../../src/shared/date-filters';
import { parseListFilters } from '../../src/shared/requests';

const CHICAGO = 'America/Chicago';
// Sunday, March 1, 2026, 11:59:59 PM in Chicago (CST, UTC-6): Monday in UTC already.
const sundayNight = Date.parse('2026-03-02T05:59:59Z');
// One second later: Monday, March 2, midnight in Chicago.
const mondayMidnight = Date.parse('2026-03-02T06:00:00Z');

describe('relative days at a zone’s day boundaries', () => {
  it('counts today in the user’s zone, not in UTC', () => {
    expect(resolveDays({ preset: 'today' }, sundayNight, CHICAGO)).toEqual({
      days: { first: '2026-03-01', last: '2026-03-01' },
      overdue: false,
    });
    expect(resolveDays({ preset: 'today' }, sundayNight, 'UTC').days).toEqual({
      first: '2026-03-02',
      last: '2026-03-02',
    });
    expect(resolveDays({ preset: 'today' }, mondayMidnight, CHICAGO).days).toEqual({
      first: '2026-03-02',
      last: '2026-03-02',
    });
  });

  it('runs this week Monday to Sunday, turning over at Monday’s local midnight', () => {
    expect(resolveDays({ preset: 'thisWeek' }, sundayNight, CHICAGO).days).toEqual({
      first: '2026-02-23',
      last: '2026-03-01',
    });
    expect(resolveDays({ preset: 'thisWeek' }, mondayMidnight, CHICAGO).days).toEqual({
      first: '2026-03-02',
      last: '2026-03-08',
    });
  });

  it('takes the next N days as today and the N days after, across a month end', () => {
    expect(resolveDays({ next: 3 }, sundayNight, CHICAGO)).toEqual({
      days: { first: '2026-03-01', last: '2026-03-04' },
      overdue: false,
    });
    expect(resolveDays({ next: 5 }, Date.parse('2026-02-27T18:00:00Z'), CHICAGO).days).toEqual({
      first: '2026-02-27',
      last: '2026-03-04',
    });
    expect(resolveDays({ next: 7, overdue: true }, mondayMidnight, CHICAGO)).toEqual({
      days: { first: '2026-03-02', last: '2026-03-09' },
      overdue: true,
    });
  });

  it('takes the last N days back from today, across a leap day', () => {
    expect(resolveDays({ last: 7 }, Date.parse('2028-03-03T12:00:00Z'), CHICAGO).days).toEqual({
      first: '2028-02-25',
      last: '2028-03-03',
    });
  });

  it('asks only for overdue ones with the overdue preset, and keeps given days as they are', () => {
    expect(resolveDays({ preset: 'overdue' }, sundayNight, CHICAGO)).toEqual({ days: null, overdue: true });
    expect(resolveDays({ from: '2026-12-03' }, sundayNight, CHICAGO)).toEqual({
      days: { first: '2026-12-03', last: null },
      overdue: false,
    });
  });

  it('makes a day of local midnight to local midnight, 23 hours on the day clocks go forward', () => {
    // Daylight saving starts in Chicago on Sunday, March 8, 2026 at 2 AM.
    expect(instantsOf({ first: '2026-03-08', last: '2026-03-08' }, CHICAGO)).toEqual({
      from: '2026-03-08T06:00:00.000Z',
      until: '2026-03-09T05:00:00.000Z',
    });
    expect(instantsOf({ first: null, last: '2026-03-01' }, CHICAGO)).toEqual({
      from: null,
      until: '2026-03-02T06:00:00.000Z',
    });
  });
});

describe('what a date filter takes', () => {
  it('refuses counts that are not whole days from 1 to 366, and days that are not on the calendar', () => {
    for (const bad of [
      { next: 0 },
      { next: 2.5 },
      { next: 367 },
      { last: -1 },
      { from: '2026-02-30' },
      { from: '0202-12-03x' },
      { from: '2026-12-05', to: '2026-12-03' },
      {},
      { preset: 'tomorrow' },
      { next: 5, overdue: false },
    ]) {
      expect(dueDaysSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(dueDaysSchema.safeParse({ next: 366 }).success).toBe(true);
  });

  it('offers overdue and the next days only to dates that fall due', () => {
    expect(pastDaysSchema.safeParse({ preset: 'overdue' }).success).toBe(false);
    expect(pastDaysSchema.safeParse({ next: 5 }).success).toBe(false);
    expect(pastDaysSchema.safeParse({ last: 7 }).success).toBe(true);
  });

  it('keeps a relative filter relative in a list’s state, and drops a bad one alone', () => {
    expect(
      parseListFilters('containers', {
        lfdDays: { next: 5 },
        etaDays: { preset: 'overdue' },
        ataDays: { preset: 'overdue' },
        statuses: ['available'],
      }),
    ).toEqual({ lfdDays: { next: 5 }, etaDays: { preset: 'overdue' }, statuses: ['available'] });
    expect(parseListFilters('shipments', { lfdDays: { next: 5 } })).toEqual({});
    expect(parseListFilters('trackingRequests', { createdDays: { last: 7 } })).toEqual({ createdDays: { last: 7 } });
  });
});
