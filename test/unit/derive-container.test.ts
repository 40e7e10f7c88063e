import { describe, expect, it } from 'vitest';
import { daysLeft, deriveContainer, endOfLocalDay } from '../../src/core/derive/container';

const shipment = { polAtdAt: '2026-03-01T10:00:00Z', podTimezone: 'America/Los_Angeles', destinationTimezone: null };

describe('derived container status', () => {
  it('uses the API status when present, refined by a known arrival', () => {
    expect(deriveContainer({ current_status: 'available', available_for_pickup: true }, shipment).status).toBe(
      'available',
    );
    expect(deriveContainer({ current_status: 'on_ship' }, shipment).status).toBe('in_transit');
    expect(
      deriveContainer({ current_status: 'on_ship', pod_arrived_at: '2026-03-20T10:00:00Z' }, shipment).status,
    ).toBe('arrived');
    expect(deriveContainer({ current_status: 'delivered' }, shipment).status).toBe('picked_up');
  });

  it('derives it from milestones when the API sends none (or one it does not know)', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'in_transit'],
      [{ pod_arrived_at: 'x' }, 'arrived'],
      [{ pod_discharged_at: 'x' }, 'discharged'],
      [{ pod_discharged_at: 'x', available_for_pickup: true }, 'available'],
      [{ pod_discharged_at: 'x', pod_rail_loaded_at: 'y' }, 'on_rail'],
      [{ pod_full_out_at: 'x' }, 'picked_up'],
      [{ empty_terminated_at: 'x', pod_full_out_at: 'y' }, 'empty_returned'],
      [{ current_status: 'teleported', pod_discharged_at: 'x' }, 'discharged'],
    ];
    for (const [attributes, status] of cases)
      expect(deriveContainer(attributes, shipment).status, JSON.stringify(attributes)).toBe(status);
    expect(deriveContainer({}, { ...shipment, polAtdAt: null }).status).toBe('booked');
  });

  it('reads the last free day in the port’s time zone and knows when it ends', () => {
    // 08:00Z is midnight in Los Angeles (PST): the last free day is that local date.
    const d = deriveContainer({ pickup_lfd: '2026-01-21T08:00:00Z' }, shipment);
    expect(d.lastFreeDay).toBe('2026-01-21');
    expect(d.lfdTimezone).toBe('America/Los_Angeles');
    expect(d.lfdDeadlineAt).toBe('2026-01-22T08:00:00Z');
    // In New York the same instant is 03:00 on the 21st.
    expect(
      deriveContainer({ pickup_lfd: '2026-01-21T08:00:00Z', pod_timezone: 'America/New_York' }, shipment).lfdDeadlineAt,
    ).toBe('2026-01-22T05:00:00Z');
  });

  it('handles a daylight-saving change on the last free day', () => {
    // 8 March 2026: clocks go forward in Los Angeles; the day is 23 hours long.
    expect(new Date(endOfLocalDay('2026-03-08', 'America/Los_Angeles')).toISOString()).toBe('2026-03-09T07:00:00.000Z');
    expect(new Date(endOfLocalDay('2026-03-07', 'America/Los_Angeles')).toISOString()).toBe('2026-03-08T08:00:00.000Z');
  });

  it('falls back to rail and line deadlines, and to UTC for an unknown zone', () => {
    const rail = deriveContainer(
      { import_deadlines: { pickup_lfd_rail: '2026-02-10T06:00:00Z' }, final_destination_timezone: 'America/Chicago' },
      shipment,
    );
    expect(rail).toMatchObject({ lastFreeDay: '2026-02-10', lfdTimezone: 'America/Chicago' });
    // pickup_lfd repeating the rail deadline is still the ramp's day (not 9 February, Los Angeles time).
    const coalesced = deriveContainer(
      {
        pickup_lfd: '2026-02-10T06:00:00Z',
        import_deadlines: { pickup_lfd_rail: '2026-02-10T06:00:00Z' },
        final_destination_timezone: 'America/Chicago',
      },
      shipment,
    );
    expect(coalesced).toMatchObject({ lastFreeDay: '2026-02-10', lfdTimezone: 'America/Chicago' });
    const nowhere = deriveContainer(
      { pickup_lfd: '2026-02-10T06:00:00Z', pod_timezone: 'Mars/Olympus' },
      { ...shipment, podTimezone: null },
    );
    expect(nowhere).toMatchObject({ lastFreeDay: '2026-02-10', lfdTimezone: 'UTC' });
    expect(deriveContainer({ pickup_lfd: 'soon' }, shipment).lastFreeDay).toBeNull();
  });

  it('counts days left in the port’s calendar', () => {
    const now = Date.parse('2026-01-20T07:30:00Z'); // 23:30 on the 19th in Los Angeles
    expect(daysLeft('2026-01-21', 'America/Los_Angeles', now)).toBe(2);
    expect(daysLeft('2026-01-21', 'Asia/Shanghai', now)).toBe(1);
    expect(daysLeft('2026-01-18', 'America/Los_Angeles', now)).toBe(-1);
  });

  it('says pickup is ready only when available, free of holds and still there', () => {
    const hold = { name: 'customs', status: 'hold', description: 'Customs hold' };
    expect(deriveContainer({ available_for_pickup: true, holds_at_pod_terminal: [] }, shipment).pickupReady).toBe(true);
    const held = deriveContainer({ available_for_pickup: true, holds_at_pod_terminal: [hold, 'junk'] }, shipment);
    expect(held).toMatchObject({ pickupReady: false, holdTypes: ['customs'] });
    expect(held.holds).toHaveLength(1);
    expect(deriveContainer({ available_for_pickup: true, pod_full_out_at: 'x' }, shipment).pickupReady).toBe(false);
  });

  it('totals fees, preferring the service’s own total', () => {
    expect(
      deriveContainer(
        {
          fees_at_pod_terminal: [
            { type: 'demurrage', amount: 300 },
            { type: 'total', amount: 685 },
          ],
        },
        shipment,
      ).feesTotal,
    ).toBe(685);
    expect(
      deriveContainer(
        {
          fees_at_pod_terminal: [
            { type: 'exam', amount: 385 },
            { type: 'other', amount: 15 },
          ],
        },
        shipment,
      ).feesTotal,
    ).toBe(400);
    expect(deriveContainer({}, shipment).feesTotal).toBeNull();
  });

  it('reads the line’s own last free day as a date where the box waits: the port, or the ramp inland', () => {
    // In March 2026 (summer time) midnight is 07:00 UTC in Los Angeles, 06:00 in Denver, 05:00 in Chicago.
    expect(deriveContainer({ ssl_lfd: '2026-03-20T07:00:00Z' }, shipment).lineLfd).toBe('2026-03-20');
    expect(deriveContainer({ ssl_lfd: '2026-03-20T06:30:00Z' }, shipment).lineLfd).toBe('2026-03-19');
    const inland = { ...shipment, destinationTimezone: 'America/Chicago' };
    const onRail = { ind_rail_carrier_scac: 'BNSF', ssl_lfd: '2026-03-20T05:30:00Z' };
    expect(deriveContainer(onRail, inland).lineLfd).toBe('2026-03-20');
    expect(deriveContainer({ ...onRail, final_destination_timezone: 'America/Denver' }, inland).lineLfd).toBe(
      '2026-03-19',
    );
    // A date stays the date; without ssl_lfd the line's import deadline says it; neither, none.
    expect(deriveContainer({ ssl_lfd: '2026-03-21' }, shipment).lineLfd).toBe('2026-03-21');
    const deadlines = { import_deadlines: { pickup_lfd_line: '2026-03-22T07:00:00Z' } };
    expect(deriveContainer(deadlines, shipment).lineLfd).toBe('2026-03-22');
    expect(deriveContainer({ import_deadlines: null }, shipment).lineLfd).toBeNull();
  });

  it('reads facility holds as holds, and a facility hold in force keeps an inland box from pickup', () => {
    const held = { name: 'freight', status: 'hold', description: 'Rail freight charges unpaid' };
    const atRamp = { available_for_pickup: true, holds_at_pod_terminal: [], ind_rail_carrier_scac: 'BNSF' };
    const blocked = deriveContainer({ ...atRamp, ind_facility_holds: [held, 42, { status: 'hold' }] }, shipment);
    expect(blocked.facilityHolds).toEqual([held, { name: 'hold', status: 'hold', description: null }]);
    expect(blocked.pickupReady).toBe(false);
    // Released: ready. The port terminal's holds are not the facility's.
    const released = deriveContainer({ ...atRamp, ind_facility_holds: [{ ...held, status: 'released' }] }, shipment);
    expect(released).toMatchObject({ pickupReady: true, holds: [] });
    expect(deriveContainer(atRamp, shipment)).toMatchObject({ pickupReady: true, facilityHolds: null });
  });
});
