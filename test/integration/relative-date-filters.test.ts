/**
 * The lists' relative date filters in the store: a last free day "in the next 5 days", "today",
 * "overdue" or both, an ETA passed without an arrival, arrivals of the last 7 days, each resolved
 * at the query's moment in the user's zone. The same filter, kept as it was given, lists other
 * boxes a day later; in Chicago late on Sunday evening "today" is Sunday, not UTC's Monday.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveChangeQuery } from '../../src/core/history/change-history';
import { openDatabase } from '../../src/core/store/database';
import { countContainers, iterateContainers, listContainers } from '../../src/core/store/queries/containers';
import { countShipments, listShipments } from '../../src/core/store/queries/shipments';
import { writeResources } from '../../src/core/store/writer';
import type { ContainerFilters, ShipmentFilters } from '../../src/shared/views';
import { containerResource, shipmentResource } from '../helpers/resources';
import { tempDir } from '../helpers/temp-dir';

const CHICAGO = 'America/Chicago';
// Sunday, March 1, 2026, 10 PM in Chicago; Monday 04:00 in UTC.
const now = Date.parse('2026-03-02T04:00:00Z');
const HOUR = 3_600_000;
const at = (hours: number) => new Date(now + hours * HOUR).toISOString();

/** Boxes waiting at a Chicago ramp-free terminal, by number, with their last free day (a calendar day there). */
const boxes: Record<string, Record<string, unknown>> = {
  LFD_FEB_27: { pickup_lfd: '2026-02-27' },
  LFD_FEB_28_PICKED_UP: { pickup_lfd: '2026-02-28', current_status: 'picked_up', pod_full_out_at: at(-30) },
  LFD_MAR_01: { pickup_lfd: '2026-03-01' },
  LFD_MAR_02: { pickup_lfd: '2026-03-02' },
  LFD_MAR_06: { pickup_lfd: '2026-03-06' },
  LFD_MAR_07: { pickup_lfd: '2026-03-07' },
  LFD_MAR_08: { pickup_lfd: '2026-03-08' },
  NO_LFD: {},
};

/** Shipments by bill of lading, with their ETA and ATA. */
const shipments: Record<string, Record<string, unknown>> = {
  LATE: { pod_eta_at: at(-30), pod_ata_at: null },
  ARRIVED_YESTERDAY: { pod_eta_at: at(-40), pod_ata_at: at(-24) },
  ARRIVED_LAST_MONTH: { pod_eta_at: at(-24 * 20), pod_ata_at: at(-24 * 20) },
  DUE_TONIGHT: { pod_eta_at: at(1), pod_ata_at: null },
  DUE_IN_4_DAYS: { pod_eta_at: at(24 * 4), pod_ata_at: null },
  DUE_IN_9_DAYS: { pod_eta_at: at(24 * 9), pod_ata_at: null },
};

function database() {
  const db = openDatabase(join(tempDir(), 'relative-dates.sqlite'));
  const names = Object.keys(boxes);
  writeResources(
    db,
    [
      shipmentResource({ pod_timezone: CHICAGO }, { id: 's-boxes', containers: names.map((n) => `c-${n}`) }),
      ...names.map((name) =>
        containerResource(
          's-boxes',
          {
            number: name,
            pod_timezone: CHICAGO,
            current_status: 'available',
            available_for_pickup: true,
            terminal_checked_at: at(-1),
            ...boxes[name],
          },
          `c-${name}`,
        ),
      ),
      ...Object.entries(shipments).map(([bl, attributes]) =>
        shipmentResource({ bill_of_lading_number: bl, pod_timezone: CHICAGO, ...attributes }, { id: `s-${bl}` }),
      ),
    ],
    { syncedAt: at(-1) },
  );
  return db;
}

describe('relative date filters in the lists', () => {
  const db = database();
  const inChicago = (moment = now) => ({ now: new Date(moment).toISOString(), zone: CHICAGO });
  const boxesOf = (filters: ContainerFilters, moment = now) => {
    const page = listContainers(db, filters, { ...inChicago(moment), limit: 100 });
    const listed = page.rows.map((r) => r.number!).sort();
    // The page, the count and the export's stream list the same boxes.
    expect(countContainers(db, filters, inChicago(moment))).toBe(listed.length);
    const streamed = [...iterateContainers(db, filters, undefined, inChicago(moment))].map((r) => r.number!).sort();
    expect(streamed).toEqual(listed);
    return listed;
  };
  const billsOf = (filters: ShipmentFilters) => {
    const listed = listShipments(db, filters, { ...inChicago(), limit: 100 })
      .rows.map((r) => r.billOfLading!)
      .sort();
    expect(countShipments(db, filters, inChicago())).toBe(listed.length);
    return listed;
  };

  it('lists the boxes whose last free day is today to 5 days on, as the column shows the day', () => {
    expect(boxesOf({ lfdDays: { next: 5 } })).toEqual(['LFD_MAR_01', 'LFD_MAR_02', 'LFD_MAR_06']);
    expect(boxesOf({ lfdDays: { preset: 'today' } })).toEqual(['LFD_MAR_01']);
  });

  it('lists other boxes for the same filter the next day: it stays relative', () => {
    const mondayNoon = now + 14 * HOUR;
    expect(boxesOf({ lfdDays: { next: 5 } }, mondayNoon)).toEqual(['LFD_MAR_02', 'LFD_MAR_06', 'LFD_MAR_07']);
    expect(boxesOf({ lfdDays: { preset: 'today' } }, mondayNoon)).toEqual(['LFD_MAR_02']);
    expect(boxesOf({ lfdDays: { preset: 'thisWeek' } }, mondayNoon)).toEqual([
      'LFD_MAR_02',
      'LFD_MAR_06',
      'LFD_MAR_07',
      'LFD_MAR_08',
    ]);
  });

  it('counts today in the user’s zone: late Sunday in Chicago is not UTC’s Monday', () => {
    const utc = { now: new Date(now).toISOString(), zone: 'UTC' };
    const listed = listContainers(db, { lfdDays: { preset: 'today' } }, { ...utc, limit: 100 }).rows;
    expect(listed.map((r) => r.number)).toEqual(['LFD_MAR_02']);
  });

  it('takes overdue as the Overdue filter does (passed and not picked up), alone or with the next days', () => {
    expect(boxesOf({ lfdDays: { preset: 'overdue' } })).toEqual(['LFD_FEB_27']);
    expect(boxesOf({ lfdDays: { preset: 'overdue' } })).toEqual(boxesOf({ overdue: true }));
    expect(boxesOf({ lfdDays: { next: 5, overdue: true } })).toEqual([
      'LFD_FEB_27',
      'LFD_MAR_01',
      'LFD_MAR_02',
      'LFD_MAR_06',
    ]);
    // Beside another filter the two are one condition: overdue or due, and then picked up (none).
    expect(boxesOf({ lfdDays: { next: 5, overdue: true }, statuses: ['picked_up'] })).toEqual([]);
    expect(boxesOf({ lfdDays: { from: '2026-02-28' }, statuses: ['picked_up'] })).toEqual(['LFD_FEB_28_PICKED_UP']);
  });

  it('takes a range of days as the days given, both included', () => {
    expect(boxesOf({ lfdDays: { from: '2026-02-28', to: '2026-03-06' } })).toEqual([
      'LFD_FEB_28_PICKED_UP',
      'LFD_MAR_01',
      'LFD_MAR_02',
      'LFD_MAR_06',
    ]);
    expect(boxesOf({ lfdDays: { to: '2026-02-27' } })).toEqual(['LFD_FEB_27']);
  });

  it('calls a shipment late when its ETA passed without an arrival, and counts arrivals by day', () => {
    expect(billsOf({ etaDays: { preset: 'overdue' } })).toEqual(['LATE']);
    // Arriving today: Sunday in Chicago, until its midnight (6 AM UTC).
    expect(billsOf({ etaDays: { preset: 'today' } })).toEqual(['DUE_TONIGHT']);
    expect(billsOf({ etaDays: { next: 5 } })).toEqual(['DUE_IN_4_DAYS', 'DUE_TONIGHT']);
    expect(billsOf({ etaDays: { next: 5, overdue: true } })).toEqual(['DUE_IN_4_DAYS', 'DUE_TONIGHT', 'LATE']);
    expect(billsOf({ ataDays: { last: 7 } })).toEqual(['ARRIVED_YESTERDAY']);
  });

  it('filters the boxes by their shipment’s arrival too', () => {
    expect(boxesOf({ etaDays: { preset: 'overdue' } })).toEqual([]);
    expect(boxesOf({ ataDays: { last: 7 } })).toEqual([]);
    db.prepare("UPDATE shipments SET pod_ata_at = ? WHERE id = 's-boxes'").run(at(-2));
    expect(boxesOf({ ataDays: { preset: 'today' } })).toHaveLength(Object.keys(boxes).length);
  });

  it('reads the changes of today and of this week from their first midnight in the user’s zone', () => {
    const sunday = new Date(now);
    expect(resolveChangeQuery(db, { period: 'today' }, sunday, CHICAGO).from).toBe('2026-03-01T06:00:00.000Z');
    expect(resolveChangeQuery(db, { period: 'this_week' }, sunday, CHICAGO).from).toBe('2026-02-23T06:00:00.000Z');
    expect(resolveChangeQuery(db, { period: 'today' }, sunday, 'UTC').from).toBe('2026-03-02T00:00:00.000Z');
  });
});
