// Dates as a forwarder reads them, in en-US and with this computer in UTC (pinned by the renderer
// project in test/vitest.config.ts, as the Playwright specs pin theirs).
import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';

import DateTime from '../../src/renderer/src/components/DateTime.svelte';
import { app } from '../../src/renderer/src/lib/app-state.svelte';
import {
  displayZone,
  formatCalendarDate,
  formatCellDateTime,
  formatChartDay,
  formatDateTime,
  formatDay,
  formatExact,
  formatHover,
} from '../../src/renderer/src/lib/format';
import { computerTimeZone, dateFormatter, isTimeZone } from '../../src/shared/date-formatters';
import { localDate, zoneOffsetMs } from '../../src/shared/zoned-time';

const winter = '2026-12-20T16:13:00Z';
const summer = '2026-07-01T16:13:00Z';

describe('date and time in a zone', () => {
  it('names the zone it is shown in, daylight saving included', () => {
    expect(formatDateTime(winter, 'America/Los_Angeles')).toBe('Dec 20, 2026, 08:13 AM PST');
    expect(formatDateTime(summer, 'America/Los_Angeles')).toBe('Jul 1, 2026, 09:13 AM PDT');
    expect(formatDateTime(winter, 'Asia/Shanghai')).toBe('Dec 21, 2026, 12:13 AM GMT+8');
  });

  it('names UTC as UTC, and this computer’s zone when none is given', () => {
    expect(computerTimeZone()).toBe('UTC');
    expect(formatDateTime(winter, 'UTC')).toBe('Dec 20, 2026, 04:13 PM UTC');
    expect(formatDateTime(winter)).toBe('Dec 20, 2026, 04:13 PM UTC');
    expect(formatExact(winter)).toBe('Sun, Dec 20, 2026, 04:13 PM Coordinated Universal Time · UTC');
  });

  it('gives the exact form with the zone’s full name for the tooltip', () => {
    expect(formatExact(winter, 'Europe/Amsterdam')).toBe(
      'Sun, Dec 20, 2026, 05:13 PM Central European Standard Time · Europe/Amsterdam',
    );
    expect(formatHover(winter, 'America/Los_Angeles', true, Date.parse(winter) - 3 * 86_400_000)).toBe(
      'Estimated: Sun, Dec 20, 2026, 08:13 AM Pacific Standard Time · America/Los_Angeles (in 3 days)',
    );
  });

  it('shows the port’s zone only when Settings ask for it and the zone is real', () => {
    expect(displayZone('port', 'Europe/Amsterdam')).toBe('Europe/Amsterdam');
    expect(displayZone('local', 'Europe/Amsterdam')).toBeUndefined();
    expect(displayZone('port', 'Mars/Olympus_Mons')).toBeUndefined();
    expect(displayZone('port', null)).toBeUndefined();
  });

  it('shows nothing for a missing or unreadable instant, and DateTime shows a dash', () => {
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('not a date', 'UTC')).toBe('');
    expect(formatExact('2026-13-45T00:00:00Z')).toBe('');
    expect(formatDay('')).toBe('');
    app.settings = null;
    render(DateTime, { at: 'yesterday-ish' });
    expect(screen.getByLabelText('not known').textContent).toBe('—');
  });

  it('DateTime shows the port’s time when Settings ask for it', () => {
    app.settings = { timeDisplay: 'port' } as NonNullable<typeof app.settings>;
    render(DateTime, { at: winter, zone: 'America/Los_Angeles' });
    expect(screen.getByText('Dec 20, 2026, 08:13 AM PST').getAttribute('datetime')).toBe(winter);
    app.settings = null;
  });
});

describe('dates in a list’s cells', () => {
  it('leave the year out within half a year of now, and say it further off', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    expect(formatCellDateTime(winter, 'America/Los_Angeles', now).replace(/\s/g, ' ')).toBe('Dec 20, 08:13 AM PST');
    expect(formatCellDateTime('2025-12-20T16:13:00Z', 'America/Los_Angeles', now).replace(/\s/g, ' ')).toBe(
      'Dec 20, 2025, 08:13 AM PST',
    );
    expect(formatCellDateTime(null)).toBe('');
  });

  it('say the minute an instant falls in, however it is written and whatever was shown before', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    const cell = (iso: string, zone?: string) => formatCellDateTime(iso, zone, now).replace(/\s/g, ' ');
    expect(cell('2026-12-20T16:13:00Z', 'Asia/Kolkata')).toBe('Dec 20, 09:43 PM GMT+5:30');
    // Seconds on: still 09:43 (never rounded up), written with an offset or milliseconds alike.
    expect(cell('2026-12-20T16:13:59Z', 'Asia/Kolkata')).toBe('Dec 20, 09:43 PM GMT+5:30');
    expect(cell('2026-12-20T21:43:30.500+05:30', 'Asia/Kolkata')).toBe('Dec 20, 09:43 PM GMT+5:30');
    expect(cell('2026-12-20T16:14:00Z', 'Asia/Kolkata')).toBe('Dec 20, 09:44 PM GMT+5:30');
    // The same instant in another zone is that zone's text, not the one shown first.
    expect(cell('2026-12-20T16:13:59Z', 'America/Los_Angeles')).toBe('Dec 20, 08:13 AM PST');
    expect(cell('2026-12-20T16:13:59Z')).toBe('Dec 20, 04:13 PM UTC');
    expect(formatDateTime('2026-12-20T16:13:59Z', 'America/Los_Angeles')).toBe('Dec 20, 2026, 08:13 AM PST');
  });

  it('say for every minute what formatting that minute says, across clock changes and half-hour zones', () => {
    // Cells are made from an hour's text with the minutes put in: the answer must not differ.
    const zones = [
      undefined,
      'America/New_York',
      'Europe/London',
      'Asia/Kolkata',
      'Asia/Kathmandu',
      'Australia/Lord_Howe',
      'America/St_Johns',
      'Pacific/Chatham',
    ];
    const expected = (instant: number, zone: string | undefined) => {
      const parts = dateFormatter('dateTime', zone).formatToParts(instant);
      const year = parts.findIndex((p) => p.type === 'year');
      return parts
        .filter((_, i) => i !== year && !(i === year - 1 && parts[i]!.type === 'literal'))
        .map((p) => p.value)
        .join('');
    };
    const wrong: string[] = [];
    // Days on which clocks change here or in the southern zones, every 7 minutes (and each UTC hour's edges).
    for (const day of ['2026-03-08', '2026-03-29', '2026-04-05', '2026-10-04', '2026-11-01', '2026-03-21']) {
      const start = Date.parse(`${day}T00:00:00Z`) - 12 * 3_600_000;
      for (let t = start; t < start + 48 * 3_600_000; t += 7 * 60_000) {
        for (const instant of [t, Math.floor(t / 3_600_000) * 3_600_000 + 59 * 60_000 + 30_000]) {
          for (const zone of zones) {
            const iso = new Date(instant).toISOString();
            const shown = formatCellDateTime(iso, zone, instant);
            if (shown !== expected(instant, zone)) wrong.push(`${zone} ${iso}: ${shown}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('calendar dates', () => {
  it('reads a calendar date as that day wherever the computer is', () => {
    expect(formatCalendarDate('2026-11-24')).toBe('Tue, Nov 24, 2026');
    // A date with a time keeps its calendar day, not the instant's day in some zone.
    expect(formatCalendarDate('2026-11-24T23:30:00-08:00')).toBe('Tue, Nov 24, 2026');
    expect(formatChartDay('2026-11-24')).toBe('Tue, Nov 24');
    expect(formatDay(winter)).toBe('Sun, Dec 20, 2026');
  });

  it('shows nothing for what is not a calendar date', () => {
    expect(formatCalendarDate('24/11/2026')).toBe('');
    expect(formatCalendarDate(null)).toBe('');
  });
});

describe('the shared formatters', () => {
  it('makes one formatter per style and zone and keeps it', () => {
    expect(dateFormatter('dateTime', 'Asia/Tokyo')).toBe(dateFormatter('dateTime', 'Asia/Tokyo'));
    expect(dateFormatter('dateTime', 'Asia/Tokyo')).not.toBe(dateFormatter('dateTime', 'Asia/Seoul'));
    expect(dateFormatter('exact', 'Asia/Tokyo')).not.toBe(dateFormatter('dateTime', 'Asia/Tokyo'));
  });

  it('knows real zones and refuses made-up ones without throwing', () => {
    expect(isTimeZone('Europe/Amsterdam')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Not/AZone')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(() => dateFormatter('dateTime', 'Not/AZone')).toThrow(RangeError);
  });

  it('gives the calendar arithmetic the same answers (offsets and local dates)', () => {
    expect(zoneOffsetMs(Date.parse(winter), 'America/Los_Angeles')).toBe(-8 * 3_600_000);
    expect(zoneOffsetMs(Date.parse(summer), 'America/Los_Angeles')).toBe(-7 * 3_600_000);
    expect(localDate(Date.parse(winter), 'Asia/Shanghai')).toBe('2026-12-21');
    expect(localDate(Date.parse(winter), 'America/Los_Angeles')).toBe('2026-12-20');
  });
});
