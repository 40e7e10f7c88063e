/**
 * Change history as the writer records it: one change per watched field that
 * moved between two writes of a record already stored, with old value, new value and the time
 * the page was written; nothing for a record's first appearance; holds per hold type; the
 * retention prune.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pruneChangeHistory, resolveChangeQuery, toChangeRow } from '../../src/core/history/change-history';
import { openDatabase, type Db } from '../../src/core/store/database';
import { changesOfRecord, countChanges, listChanges, markChangesLooked } from '../../src/core/store/queries/changes';
import type { StoredResource } from '../../src/core/store/resource';
import { writeResources } from '../../src/core/store/writer';
import { holdChanges } from '../../src/core/store/writer-changes';
import type { ChangeRow } from '../../src/shared/changes';
import { containerResource, shipmentResource } from '../helpers/resources';
import { tempDir } from '../helpers/temp-dir';

const T1 = '2026-03-01T10:00:00.000Z';
const T2 = '2026-03-02T10:00:00.000Z';
const T3 = '2026-03-03T10:00:00.000Z';

function freshDb(): Db {
  return openDatabase(join(tempDir(), 'changes.sqlite'));
}

/** Every change stored, oldest first, as the views read them. */
function allChanges(db: Db): ChangeRow[] {
  return listChanges(db, { from: null, to: null }, 'oldest', { limit: 500 }).rows.map((r) => toChangeRow(r)!);
}

/** What a change says, without the parts that name the record. */
const said = (c: ChangeRow) => ({ field: c.field, detail: c.detail, old: c.old, new: c.new, seenAt: c.seenAt });

const terminal = (id: string, name: string): StoredResource => ({ id, type: 'terminal', attributes: { name } });

function shipment(attributes: Record<string, unknown> = {}, terminalId = 't-1'): StoredResource {
  return shipmentResource(
    {
      bill_of_lading_number: 'MEDU00001234',
      customer_name: 'Harbour Imports',
      pod_eta_at: '2026-03-20T08:00:00Z',
      pod_vessel_name: 'MSC Aurora',
      ...attributes,
    },
    { id: 's-1', containers: ['c-1'], terminal: terminalId },
  );
}

function container(attributes: Record<string, unknown> = {}): StoredResource {
  return containerResource('s-1', { number: 'MSCU1234565', current_status: 'on_ship', ...attributes }, 'c-1');
}

describe('change history: what the writer records', () => {
  it('records nothing the first time a record is written, nor when it is written again unchanged', () => {
    const db = freshDb();
    const page = [terminal('t-1', 'Pier 400'), shipment(), container()];
    writeResources(db, page, { syncedAt: T1 });
    writeResources(db, page, { syncedAt: T2 });
    expect(allChanges(db)).toEqual([]);
  });

  it('records nothing when a stub (a record referenced before it arrived) is filled in', () => {
    const db = freshDb();
    // The container arrives first: its shipment is a stub until its own page comes.
    writeResources(db, [container()], { syncedAt: T1 });
    writeResources(db, [terminal('t-1', 'Pier 400'), shipment({ pod_eta_at: '2026-04-01T00:00:00Z' })], {
      syncedAt: T2,
    });
    expect(allChanges(db)).toEqual([]);
  });

  it('records each shipment field that moved, with old and new value and when the sync saw it', () => {
    const db = freshDb();
    writeResources(db, [terminal('t-1', 'Pier 400'), terminal('t-2', 'Yusen Terminals'), shipment()], {
      syncedAt: T1,
    });
    writeResources(
      db,
      [
        terminal('t-1', 'Pier 400'),
        terminal('t-2', 'Yusen Terminals'),
        shipment(
          {
            pod_eta_at: '2026-03-22T08:00:00Z',
            pod_ata_at: '2026-03-22T09:30:00Z',
            destination_eta_at: '2026-03-27T12:00:00Z',
            destination_ata_at: '2026-03-28T00:00:00Z',
            pod_vessel_name: 'MSC Borealis',
            line_tracking_stopped_at: '2026-03-29T00:00:00Z',
          },
          't-2',
        ),
      ],
      { syncedAt: T2 },
    );
    const changes = allChanges(db);
    expect(changes.map(said)).toEqual([
      { field: 'eta', detail: null, old: '2026-03-20T08:00:00Z', new: '2026-03-22T08:00:00Z', seenAt: T2 },
      { field: 'ata', detail: null, old: null, new: '2026-03-22T09:30:00Z', seenAt: T2 },
      { field: 'destination_eta', detail: null, old: null, new: '2026-03-27T12:00:00Z', seenAt: T2 },
      { field: 'destination_ata', detail: null, old: null, new: '2026-03-28T00:00:00Z', seenAt: T2 },
      // A terminal is told by its name, not its id.
      { field: 'terminal', detail: null, old: 'Pier 400', new: 'Yusen Terminals', seenAt: T2 },
      { field: 'vessel', detail: null, old: 'MSC Aurora', new: 'MSC Borealis', seenAt: T2 },
      { field: 'tracking_stopped', detail: null, old: null, new: '2026-03-29T00:00:00Z', seenAt: T2 },
    ]);
    expect(changes[0]).toMatchObject({
      resource: 'shipment',
      recordId: 's-1',
      number: 'MEDU00001234',
      shipmentId: 's-1',
      customer: 'Harbour Imports',
      carrierScac: 'MSCU',
      // The ETA reads in the port's zone.
      zone: 'America/Los_Angeles',
    });
  });

  it('records each container field that moved: status, the terminal and line last free days, availability, fees', () => {
    const db = freshDb();
    writeResources(db, [shipment(), container({ pickup_lfd: '2026-03-25T07:00:00Z' })], { syncedAt: T1 });
    writeResources(
      db,
      [
        shipment(),
        container({
          current_status: 'available',
          available_for_pickup: true,
          pickup_lfd: '2026-03-27T07:00:00Z',
          ssl_lfd: '2026-03-30',
          fees_at_pod_terminal: [{ type: 'total', amount: 250 }],
        }),
      ],
      { syncedAt: T2 },
    );
    const changes = allChanges(db);
    expect(changes.map(said)).toEqual([
      { field: 'status', detail: null, old: 'in_transit', new: 'available', seenAt: T2 },
      // The terminal's last free day, as the calendar day at the port.
      { field: 'lfd_terminal', detail: null, old: '2026-03-25', new: '2026-03-27', seenAt: T2 },
      { field: 'lfd_line', detail: null, old: null, new: '2026-03-30', seenAt: T2 },
      { field: 'available', detail: null, old: null, new: true, seenAt: T2 },
      { field: 'fees', detail: null, old: null, new: 250, seenAt: T2 },
    ]);
    expect(changes[0]).toMatchObject({
      resource: 'container',
      recordId: 'c-1',
      number: 'MSCU1234565',
      shipmentId: 's-1',
      billOfLading: 'MEDU00001234',
    });
  });

  it('names a rail ramp’s last free day as the rail’s', () => {
    const db = freshDb();
    const inland = (day: string) =>
      container({
        final_destination_timezone: 'America/Chicago',
        import_deadlines: { pickup_lfd_rail: day },
      });
    writeResources(db, [shipment(), inland('2026-04-02T05:00:00Z')], { syncedAt: T1 });
    writeResources(db, [shipment(), inland('2026-04-04T05:00:00Z')], { syncedAt: T2 });
    expect(allChanges(db).map(said)).toEqual([
      { field: 'lfd_rail', detail: null, old: '2026-04-02', new: '2026-04-04', seenAt: T2 },
    ]);
  });

  it('records holds put on and released, one change per hold type', () => {
    const db = freshDb();
    const held = (holds: unknown[], facility?: unknown[]) =>
      container({ holds_at_pod_terminal: holds, ...(facility ? { ind_facility_holds: facility } : {}) });
    writeResources(
      db,
      [
        shipment(),
        held([
          { name: 'FREIGHT', status: 'hold', description: null },
          { name: 'USDA', status: 'hold', description: null },
        ]),
      ],
      { syncedAt: T1 },
    );
    writeResources(
      db,
      [
        shipment(),
        held(
          [
            { name: 'FREIGHT', status: 'released', description: null },
            { name: 'CUSTOMS', status: 'hold', description: 'Exam' },
          ],
          [{ name: 'RAIL', status: 'hold', description: null }],
        ),
      ],
      { syncedAt: T2 },
    );
    // A description that changes on a hold still in force is no change.
    writeResources(
      db,
      [
        shipment(),
        held(
          [
            { name: 'FREIGHT', status: 'released', description: null },
            { name: 'CUSTOMS', status: 'hold', description: 'Exam booked' },
          ],
          [],
        ),
      ],
      { syncedAt: T3 },
    );
    expect(allChanges(db).map(said)).toEqual([
      { field: 'hold', detail: 'FREIGHT', old: 'hold', new: 'released', seenAt: T2 },
      // No longer listed counts as released.
      { field: 'hold', detail: 'USDA', old: 'hold', new: 'released', seenAt: T2 },
      { field: 'hold', detail: 'CUSTOMS', old: null, new: 'hold', seenAt: T2 },
      { field: 'facility_hold', detail: 'RAIL', old: null, new: 'hold', seenAt: T2 },
      { field: 'facility_hold', detail: 'RAIL', old: 'hold', new: 'released', seenAt: T3 },
    ]);
  });

  it('compares holds lists per type: a hold listed released again, or put on again', () => {
    const list = (...holds: [string, string][]) => JSON.stringify(holds.map(([name, status]) => ({ name, status })));
    expect(holdChanges(list(['CUSTOMS', 'released']), list(['CUSTOMS', 'hold']))).toEqual([
      ['CUSTOMS', 'released', 'hold'],
    ]);
    // Two holds of one type: the type is on hold while either is.
    expect(holdChanges(list(['CUSTOMS', 'hold'], ['CUSTOMS', 'released']), list(['CUSTOMS', 'released']))).toEqual([
      ['CUSTOMS', 'hold', 'released'],
    ]);
    expect(holdChanges(null, list())).toEqual([]);
    expect(holdChanges('not json', list(['USDA', 'hold']))).toEqual([['USDA', null, 'hold']]);
  });

  it('does not compare a container whose record did not change (only its check times moved)', () => {
    const db = freshDb();
    writeResources(db, [shipment(), container({ terminal_checked_at: '2026-03-01T00:00:00Z' })], { syncedAt: T1 });
    // Its stored status is made to differ; the hash says the box's own data is the same, so nothing is compared.
    db.prepare("UPDATE containers SET status = 'discharged' WHERE id = 'c-1'").run();
    writeResources(db, [shipment(), container({ terminal_checked_at: '2026-03-02T00:00:00Z' })], { syncedAt: T2 });
    expect(allChanges(db)).toEqual([]);
  });

  it('records nothing for a box stored before the last free day’s source was kept (a database from migration 5)', () => {
    const db = freshDb();
    const box = container({ pickup_lfd: '2026-03-25T07:00:00Z', ssl_lfd: '2026-03-26' });
    writeResources(db, [shipment(), box], { syncedAt: T1 });
    // As migration 0006 leaves a box written by an older Quayside: no source, and a hash of its own.
    db.prepare("UPDATE containers SET lfd_source = NULL, raw_hash = 'older' WHERE id = 'c-1'").run();
    writeResources(db, [shipment(), box], { syncedAt: T2 });
    expect(allChanges(db)).toEqual([]);
  });

  it('compares a record the page carries twice with its first write', () => {
    const db = freshDb();
    writeResources(db, [shipment()], { syncedAt: T1 });
    writeResources(
      db,
      [shipment({ pod_eta_at: '2026-03-21T08:00:00Z' }), shipment({ pod_eta_at: '2026-03-23T08:00:00Z' })],
      {
        syncedAt: T2,
      },
    );
    expect(allChanges(db).map((c) => [c.old, c.new])).toEqual([
      ['2026-03-20T08:00:00Z', '2026-03-21T08:00:00Z'],
      ['2026-03-21T08:00:00Z', '2026-03-23T08:00:00Z'],
    ]);
  });
});

describe('change history: reading, marking and retention', () => {
  function history(): Db {
    const db = freshDb();
    const other = shipmentResource(
      { bill_of_lading_number: 'MAEU00009999', customer_name: 'Coastal Foods', shipping_line_scac: 'MAEU' },
      { id: 's-2' },
    );
    writeResources(db, [shipment(), container(), other], { syncedAt: T1 });
    writeResources(db, [shipment({ pod_eta_at: '2026-03-21T08:00:00Z' }), container({ current_status: 'available' })], {
      syncedAt: T2,
    });
    writeResources(
      db,
      [
        shipment({ pod_eta_at: '2026-03-24T08:00:00Z' }),
        { ...other, attributes: { ...other.attributes, pod_eta_at: '2026-05-01T00:00:00Z' } },
      ],
      { syncedAt: T3 },
    );
    return db;
  }

  it('filters by period, kind, customer and carrier, and pages newest first', () => {
    const db = history();
    const count = (filters: Parameters<typeof resolveChangeQuery>[1]) =>
      countChanges(db, resolveChangeQuery(db, filters, new Date(T3)));
    expect(count({ period: 'since_looked' })).toBe(4);
    expect(count({ period: 'range', from: '2026-03-02T00:00:00Z', to: '2026-03-02T23:59:59Z' })).toBe(2);
    expect(count({ period: 'since_looked', fields: ['status'] })).toBe(1);
    expect(count({ period: 'since_looked', customers: ['Coastal Foods'] })).toBe(1);
    expect(count({ period: 'since_looked', carriers: ['MSCU'], fields: ['eta'] })).toBe(2);
    markChangesLooked(db, '2026-03-02T12:00:00.000Z');
    expect(count({ period: 'since_looked' })).toBe(2);
    const first = listChanges(db, resolveChangeQuery(db, { period: 'range' }, new Date(T3)), 'newest', { limit: 3 });
    expect(first.rows.map((r) => r.seen_at)).toEqual([T3, T3, T2]);
    const rest = listChanges(db, { from: null, to: null }, 'newest', { limit: 3, after: first.next! });
    expect(rest.rows.map((r) => r.seen_at)).toEqual([T2]);
    expect(rest.next).toBeNull();
  });

  it('reads one record’s successive ETAs, oldest first', () => {
    const db = history();
    expect(changesOfRecord(db, 's-1', ['eta']).map((r) => [r.old_value, r.new_value, r.seen_at])).toEqual([
      ['"2026-03-20T08:00:00Z"', '"2026-03-21T08:00:00Z"', T2],
      ['"2026-03-21T08:00:00Z"', '"2026-03-24T08:00:00Z"', T3],
    ]);
  });

  it('prunes the changes older than the retention, keeping the rest', () => {
    const db = history();
    // 180 days after T2 (the default): T2's changes go, T3's stay.
    const now = new Date(Date.parse(T2) + 180 * 86_400_000 + 1000);
    expect(pruneChangeHistory(db, undefined, now)).toBe(2);
    expect(allChanges(db).map((c) => c.seenAt)).toEqual([T3, T3]);
    expect(pruneChangeHistory(db, 1, new Date(Date.parse(T3) + 86_400_000 + 1))).toBe(2);
    expect(allChanges(db)).toEqual([]);
  });
});
