/**
 * Pickup truth (src/shared/pickup.ts): one answer per box from availability, holds, fees and the
 * last free day, never claiming "ready" or urgency on terminal data older than the setting.
 */
import { describe, expect, it } from 'vitest';
import { formatAge, pickupTruth, urgencyText, type PickupInput } from '../../src/shared/pickup';

// 2026-03-10 15:00 in Los Angeles (PDT, UTC-7).
const now = Date.parse('2026-03-10T22:00:00Z');
const hoursAgo = (h: number) => new Date(now - h * 3_600_000).toISOString();

const box = (over: Partial<PickupInput> = {}): PickupInput => ({
  status: 'available',
  availableForPickup: true,
  holds: [],
  facilityHolds: null,
  feesTotal: null,
  lastFreeDay: '2026-03-12',
  lfdSource: 'terminal',
  lfdTimezone: 'America/Los_Angeles',
  lineLastFreeDay: null,
  podTimezone: 'America/Los_Angeles',
  terminalCheckedAt: hoursAgo(2),
  ...over,
});

describe('pickupTruth', () => {
  it('is ready when available, without holds or fees, on fresh data', () => {
    const truth = pickupTruth(box(), now);
    expect(truth).toMatchObject({
      state: 'ready',
      headline: 'Ready for pickup',
      reasons: [],
      lastFreeDay: { date: '2026-03-12', source: 'terminal', zone: 'America/Los_Angeles' },
      daysLeft: 2,
      urgency: 'soon',
      ageHours: 2,
      stale: false,
      staleNote: null,
    });
    expect(urgencyText(truth)).toBe('2 days left');
  });

  it('names every reason a box is not ready: not released, holds at the terminal and the facility, fees', () => {
    const truth = pickupTruth(
      box({
        availableForPickup: false,
        holds: [
          { name: 'customs', status: 'hold' },
          { name: 'freight', status: 'released' },
        ],
        facilityHolds: [{ name: 'usda', status: 'hold' }],
        feesTotal: 350,
      }),
      now,
    );
    expect(truth.state).toBe('not_ready');
    expect(truth.reasons).toEqual([
      'Not released by the terminal',
      'Customs hold',
      'USDA hold at the inland facility',
      '350.00 USD in terminal fees to pay',
    ]);
    expect(truth.headline).toBe(
      'Not ready: Not released by the terminal; Customs hold; USDA hold at the inland facility; 350.00 USD in terminal fees to pay',
    );
  });

  it('does not count released holds or zero fees', () => {
    const truth = pickupTruth(
      box({ holds: [{ name: 'customs', status: 'released' }], facilityHolds: [], feesTotal: 0 }),
      now,
    );
    expect(truth.state).toBe('ready');
  });

  it('says it cannot tell when the terminal data is older than the setting, with no urgency', () => {
    const overdue = box({ lastFreeDay: '2026-03-08', terminalCheckedAt: hoursAgo(31) });
    const truth = pickupTruth(overdue, now);
    expect(truth).toMatchObject({
      state: 'unknown',
      headline: 'Can’t tell: terminal data 31 h old',
      stale: true,
      ageHours: 31,
      staleNote: 'Terminal last checked 31 h ago — availability may have changed',
      urgency: null,
      daysLeft: -2,
    });
    expect(urgencyText(truth)).toBeNull();
    // The same box on fresh data is overdue.
    expect(urgencyText(pickupTruth({ ...overdue, terminalCheckedAt: hoursAgo(1) }, now))).toBe('Overdue 2 days');
  });

  it('takes the stale limit from the setting, stale from the limit on', () => {
    const at30 = box({ terminalCheckedAt: hoursAgo(30) });
    expect(pickupTruth(at30, now, 48).state).toBe('ready');
    expect(pickupTruth(at30, now, 30).state).toBe('unknown');
    expect(pickupTruth(box({ terminalCheckedAt: hoursAgo(23.9) }), now).state).toBe('ready');
    expect(pickupTruth(box({ terminalCheckedAt: hoursAgo(24) }), now).state).toBe('unknown');
  });

  it('cannot tell for a box at the terminal that was never checked', () => {
    const truth = pickupTruth(box({ terminalCheckedAt: null, status: 'discharged', availableForPickup: false }), now);
    expect(truth).toMatchObject({ state: 'unknown', ageHours: null, stale: true, urgency: null });
    expect(truth.headline).toBe('Can’t tell: the terminal has not been checked');
    expect(truth.staleNote).toMatch(/has not been checked/);
  });

  it('says where a box not at the terminal yet is, stale data or not', () => {
    expect(pickupTruth(box({ status: 'in_transit', terminalCheckedAt: null }), now)).toMatchObject({
      state: 'not_ready',
      headline: 'Not ready: At sea',
      staleNote: null,
      urgency: null,
    });
    expect(pickupTruth(box({ status: 'on_rail', terminalCheckedAt: hoursAgo(100) }), now).reasons).toEqual([
      'On rail to the inland ramp',
    ]);
    expect(pickupTruth(box({ status: 'arrived' }), now).state).toBe('not_ready');
  });

  it('is done once picked up or returned, whatever the data', () => {
    for (const status of ['picked_up', 'empty_returned'] as const) {
      expect(pickupTruth(box({ status, terminalCheckedAt: hoursAgo(500) }), now)).toMatchObject({
        state: 'done',
        headline: 'Picked up',
        urgency: null,
        staleNote: null,
      });
    }
  });

  it('names the last free day’s source: terminal, rail ramp, or the line’s when no other', () => {
    expect(pickupTruth(box({ lfdSource: 'rail', lfdTimezone: 'America/Chicago' }), now).lastFreeDay).toEqual({
      date: '2026-03-12',
      source: 'rail',
      zone: 'America/Chicago',
    });
    const lineOnly = pickupTruth(box({ lastFreeDay: null, lfdSource: null, lineLastFreeDay: '2026-03-10' }), now);
    expect(lineOnly.lastFreeDay).toEqual({ date: '2026-03-10', source: 'line', zone: 'America/Los_Angeles' });
    expect(urgencyText(lineOnly)).toBe('Last day today');
    expect(pickupTruth(box({ lastFreeDay: null, lfdSource: null }), now)).toMatchObject({
      lastFreeDay: null,
      daysLeft: null,
      urgency: null,
    });
  });

  it('counts days in the box’s own zone: late evening in Los Angeles is already tomorrow in UTC', () => {
    // 2026-03-11 05:00 UTC is 22:00 on the 10th in Los Angeles: the 12th is still two days away.
    const truth = pickupTruth(box({ terminalCheckedAt: '2026-03-11T04:00:00Z' }), Date.parse('2026-03-11T05:00:00Z'));
    expect(truth.daysLeft).toBe(2);
    // A zone that is no zone falls back to the port's, then UTC.
    const utc = pickupTruth(box({ lfdTimezone: 'Mars/Olympus', podTimezone: null }), now);
    expect(utc.lastFreeDay?.zone).toBe('UTC');
  });

  it('warns of an availability the terminal does not state', () => {
    expect(pickupTruth(box({ availableForPickup: null }), now).reasons).toEqual([
      'The terminal does not say whether it is available',
    ]);
  });

  it('is not fooled by a check time in the future or unreadable', () => {
    expect(pickupTruth(box({ terminalCheckedAt: new Date(now + 3_600_000).toISOString() }), now)).toMatchObject({
      state: 'ready',
      ageHours: 0,
    });
    expect(pickupTruth(box({ terminalCheckedAt: 'yesterday' }), now)).toMatchObject({
      state: 'unknown',
      checkedAt: null,
    });
  });
});

describe('formatAge', () => {
  it('says hours under two days, then days', () => {
    expect([formatAge(0), formatAge(31), formatAge(47), formatAge(49), formatAge(100)]).toEqual([
      'under 1 h',
      '31 h',
      '47 h',
      '2 days',
      '4 days',
    ]);
  });
});
