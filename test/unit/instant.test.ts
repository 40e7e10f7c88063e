import { describe, expect, it } from 'vitest';
import { parseInstant, storedInstant } from '../../src/core/store/instant';

describe('date-time columns', () => {
  it('keep a real instant in the stored form as it is, and refuse one the calendar does not have', () => {
    expect(storedInstant('2026-03-01T14:05:00Z')).toBe('2026-03-01T14:05:00Z');
    expect(storedInstant('2024-02-29T00:00:00Z')).toBe('2024-02-29T00:00:00Z');
    expect(storedInstant('2026-03-01T14:05:00.250Z')).toBe('2026-03-01T14:05:00.250Z');
    for (const bad of [
      '2025-02-29T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-00-10T00:00:00Z',
      '2026-01-00T00:00:00Z',
      '2026-01-10T24:00:00Z',
      '2026-01-10T23:60:00Z',
      '2026-01-10T23:59:60Z',
    ]) {
      expect(storedInstant(bad), bad).toBeNull();
    }
  });

  it('agree with the calendar on every day, hour and minute boundary of a leap and a common year', () => {
    for (const year of ['2024', '2026']) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 32; day++) {
          for (const time of ['00:00:00', '23:59:59', '24:00:00', '12:60:00', '12:00:60']) {
            const text = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T${time}Z`;
            expect(storedInstant(text) !== null, text).toBe(parseInstant(text) !== null);
          }
        }
      }
    }
  });

  it('store other forms of a real instant in the one stored form, UTC to the second', () => {
    expect(storedInstant('2026-03-01T15:05:00+01:00')).toBe('2026-03-01T14:05:00Z');
    expect(storedInstant('2026-03-01T14:05:00.000Z')).toBe('2026-03-01T14:05:00Z');
    expect(storedInstant('yesterday')).toBeNull();
    expect(storedInstant(1_700_000_000)).toBeNull();
  });
});
