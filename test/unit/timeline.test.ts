import { describe, expect, it } from 'vitest';
import { buildMilestones } from '../../src/core/details/timeline';

const now = Date.parse('2026-03-10T00:00:00Z');
const event = (name: string, timestamp: string | null) => ({
  event: `container.transport.${name}`,
  timestamp,
  timezone: null,
  location_locode: 'USLAX',
  port_name: 'Los Angeles',
});

describe('a container timeline', () => {
  it('shows departed, arrival due and discharge in order, future moments as estimated', () => {
    const milestones = buildMilestones(
      { pol_atd_at: '2026-03-01T10:00:00Z', pod_eta_at: '2026-03-20T08:00:00+02:00', port_of_lading_name: 'Shanghai' },
      {},
      [event('vessel_loaded', '2026-02-28T10:00:00Z')],
      now,
    );
    expect(milestones.map((m) => [m.key, m.at, m.estimated])).toEqual([
      ['vessel_loaded', '2026-02-28T10:00:00Z', false],
      ['vessel_departed', '2026-03-01T10:00:00Z', false],
      ['vessel_arrived', '2026-03-20T06:00:00Z', true],
    ]);
  });

  it('leaves out a date that is not one (raw "yesterday", 30 February) instead of showing it', () => {
    const milestones = buildMilestones(
      { pol_atd_at: 'yesterday', pol_etd_at: '2026-03-01T10:00:00Z', pod_eta_at: '2026-02-30T10:00:00Z' },
      { pod_discharged_at: 'soon' },
      [event('vessel_loaded', 'not a date'), event('vessel_discharged', '2026-03-09T12:00:00Z')],
      now,
    );
    // The departure falls back to the planned one; the bad arrival, load and discharge dates count as none.
    expect(milestones.map((m) => [m.key, m.at, m.estimated])).toEqual([
      ['vessel_departed', '2026-03-01T10:00:00Z', true],
      ['vessel_discharged', '2026-03-09T12:00:00Z', false],
    ]);
    for (const m of milestones) expect(Number.isNaN(Date.parse(m.at!))).toBe(false);
  });

  it('starts with the empty out and tells the delivery after full out, from the container’s own attributes', () => {
    const milestones = buildMilestones(
      { pol_atd_at: '2026-02-11T00:00:00Z', port_of_lading_name: 'Shanghai', port_of_discharge_name: 'Los Angeles' },
      {
        empty_out_at: '2026-02-01T08:00:00Z',
        pol_full_in_at: '2026-02-05T09:00:00Z',
        pol_vessel_loaded_at: '2026-02-09T10:00:00Z',
        pol_vessel_departed_at: '2026-02-10T11:00:00Z',
        pod_discharged_at: '2026-03-01T12:00:00Z',
        pod_full_out_at: '2026-03-04T13:00:00Z',
        delivered_at: '2026-03-05T14:00:00Z',
        empty_terminated_at: '2026-03-08T15:00:00Z',
      },
      [],
      now,
    );
    expect(milestones.map((m) => [m.key, m.at, m.place])).toEqual([
      ['empty_out', '2026-02-01T08:00:00Z', 'Shanghai'],
      ['full_in', '2026-02-05T09:00:00Z', 'Shanghai'],
      ['vessel_loaded', '2026-02-09T10:00:00Z', 'Shanghai'],
      // The box's own departure before the shipment's.
      ['vessel_departed', '2026-02-10T11:00:00Z', 'Shanghai'],
      ['vessel_discharged', '2026-03-01T12:00:00Z', 'Los Angeles'],
      ['full_out', '2026-03-04T13:00:00Z', 'Los Angeles'],
      ['delivered', '2026-03-05T14:00:00Z', null],
      ['empty_in', '2026-03-08T15:00:00Z', null],
    ]);
    expect(milestones.find((m) => m.key === 'delivered')!.label).toBe('Delivered');
  });

  describe('with an event the carrier withdrew', () => {
    const withdrawn = (name: string, timestamp: string) => ({
      ...event(name, timestamp),
      invalidated_at: '2026-03-09T18:00:00Z',
    });

    it('takes the correction, never the withdrawn discharge, and says it was corrected', () => {
      const milestones = buildMilestones(
        {},
        { pod_discharged_at: '2026-03-09T12:00:00Z' },
        [
          // Oldest first, as the store reads them: the withdrawn report would win as the first actual.
          withdrawn('vessel_discharged', '2026-03-08T02:00:00Z'),
          { ...event('vessel_discharged', '2026-03-09T12:00:00Z'), corrects: 1 },
        ],
        now,
      );
      expect(milestones).toEqual([
        {
          key: 'vessel_discharged',
          label: 'Discharged',
          at: '2026-03-09T12:00:00Z',
          estimated: false,
          place: 'Los Angeles',
          timezone: null,
          corrected: true,
        },
      ]);
    });

    it('skips an event a correction replaces even when it carries no invalidated_at', () => {
      const milestones = buildMilestones(
        {},
        {},
        [
          { ...event('vessel_discharged', '2026-03-08T02:00:00Z'), replaced: 1 },
          { ...event('vessel_discharged', '2026-03-09T12:00:00Z'), corrects: 1 },
        ],
        now,
      );
      expect(milestones.map((m) => [m.key, m.at, m.corrected])).toEqual([
        ['vessel_discharged', '2026-03-09T12:00:00Z', true],
      ]);
    });

    it('falls back to the estimate when only the withdrawn departure is there, even if the record repeats it', () => {
      const milestones = buildMilestones(
        { pol_atd_at: '2026-03-01T10:00:00Z', pol_etd_at: '2026-03-02T06:00:00Z', port_of_lading_name: 'Shanghai' },
        {},
        [withdrawn('vessel_departed', '2026-03-01T10:00:00Z')],
        now,
      );
      expect(milestones.map((m) => [m.key, m.at, m.estimated])).toEqual([
        ['vessel_departed', '2026-03-02T06:00:00Z', true],
      ]);
    });

    it("falls back to the container's own date when it differs from the withdrawn one", () => {
      const milestones = buildMilestones(
        { port_of_discharge_name: 'Los Angeles' },
        { pod_discharged_at: '2026-03-09T12:00:00Z' },
        [withdrawn('vessel_discharged', '2026-03-08T02:00:00Z')],
        now,
      );
      expect(milestones.map((m) => [m.key, m.at, m.estimated, m.corrected])).toEqual([
        ['vessel_discharged', '2026-03-09T12:00:00Z', false, undefined],
      ]);
    });
  });

  it('puts a rail box’s availability at the ramp after its rail legs, and a port availability before them', () => {
    const rail = buildMilestones(
      { port_of_discharge_name: 'Los Angeles', destination_name: 'Chicago' },
      {
        pod_discharged_at: '2026-03-01T12:00:00Z',
        pod_rail_loaded_at: '2026-03-02T12:00:00Z',
        pod_rail_departed_at: '2026-03-02T18:00:00Z',
        ind_ata_at: '2026-03-06T08:00:00Z',
        ind_rail_unloaded_at: '2026-03-06T14:00:00Z',
      },
      [event('available', '2026-03-07T09:00:00Z')],
      now,
    );
    expect(rail.map((m) => m.key)).toEqual([
      'vessel_discharged',
      'rail_loaded',
      'rail_departed',
      'rail_arrived',
      'rail_unloaded',
      'available',
    ]);
    // Arrived at the inland destination before the ramp made it available: availability follows.
    const inland = buildMilestones(
      {},
      { pod_rail_loaded_at: '2026-03-02T12:00:00Z', ind_rail_unloaded_at: '2026-03-06T14:00:00Z' },
      [event('arrived_at_inland_destination', '2026-03-06T16:00:00Z'), event('available', '2026-03-07T09:00:00Z')],
      now,
    );
    expect(inland.map((m) => m.key)).toEqual([
      'rail_loaded',
      'rail_unloaded',
      'arrived_at_inland_destination',
      'available',
    ]);
    // Still on the rail: the ramp has not made it available yet, the port did before loading.
    const port = buildMilestones(
      {},
      { pod_discharged_at: '2026-03-01T12:00:00Z', pod_rail_loaded_at: '2026-03-02T12:00:00Z' },
      [event('available', '2026-03-01T20:00:00Z')],
      now,
    );
    expect(port.map((m) => m.key)).toEqual(['vessel_discharged', 'available', 'rail_loaded']);
  });
});
