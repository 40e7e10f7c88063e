import { describe, expect, it } from 'vitest';
import { iso } from '../../src/sandbox/entity';

/** The standard's own writing of an instant, to the second, as the service sends it. */
const standard = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

describe('sandbox timestamps', () => {
  it('writes every instant as Date#toISOString does, to the second', () => {
    const instants = [
      0,
      -1,
      951_782_400_000, // 2000-02-29, a leap day in a century leap year
      4_107_542_399_999, // 2100-02-28T23:59:59.999, a century that is no leap year
      4_107_542_400_000,
      1_767_225_599_000, // the last second of 2025
      -30_610_224_000_000, // 1000-01-01
      253_402_300_799_000, // 9999-12-31T23:59:59
    ];
    // Every day of four centuries, each at a different second of the day.
    for (let day = -200_000; day < 200_000; day += 37)
      instants.push(day * 86_400_000 + ((day * 7919) % 86_400) * 1000 + 123);
    for (const ms of instants) expect(iso(ms), String(ms)).toBe(standard(ms));
  });

  it('writes years beyond four digits as the standard does, and nothing for no instant', () => {
    expect(iso(253_402_300_800_000)).toBe('+010000-01-01T00:00:00Z');
    expect(iso(-62_198_755_200_000)).toBe('-000001-01-01T00:00:00Z');
    expect(iso(null)).toBeNull();
    expect(iso(Number.NaN)).toBeNull();
  });
});
