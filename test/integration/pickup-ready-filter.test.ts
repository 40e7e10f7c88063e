/**
 * The containers list's "Ready for pickup" filter answers as the Pickup column does
 * (`pickupTruth`): boxes in every state, written through the writer, and the filter (its page,
 * count and export stream) returns exactly the boxes the column calls Ready at that moment with
 * that stale limit, and "Not ready" every other box, box by box, across moments and limits. The
 * stored `pickup_ready` would not: it reads neither fees nor the data's age, and counts a released
 * hold as a hold.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/core/store/database';
import { countContainers, iterateContainers, listContainers } from '../../src/core/store/queries/containers';
import { writeResources } from '../../src/core/store/writer';
import { pickupTruth } from '../../src/shared/pickup';
import type { ContainerRow } from '../../src/shared/rows';
import { containerResource, shipmentResource } from '../helpers/resources';
import { tempDir } from '../helpers/temp-dir';

const HOUR = 3_600_000;
const now = Date.parse('2026-03-02T12:00:00Z');
const ago = (ms: number) => new Date(now - ms).toISOString();
const hold = (status: string) => [{ name: 'customs', status, description: null }];
const day = (ms: number) => new Date(now + ms).toISOString().slice(0, 10);
/** A box unloaded at the inland ramp, whose last free day is the ramp's. */
const atRamp = {
  ind_rail_unloaded_at: ago(10 * HOUR),
  final_destination_timezone: 'America/Chicago',
  import_deadlines: { pickup_lfd_terminal: null, pickup_lfd_rail: day(2 * 24 * HOUR), pickup_lfd_line: null },
};

/** Each box: its name (the container number) and what the service says of it. */
const boxes: Record<string, Record<string, unknown>> = {
  READY: {},
  CHECKED_IN_THE_FUTURE: { terminal_checked_at: ago(-HOUR) },
  JUST_UNDER_24H: { terminal_checked_at: ago(24 * HOUR - 1000) },
  HALF_A_SECOND_UNDER_24H: { terminal_checked_at: ago(24 * HOUR - 500) },
  HALF_A_SECOND_OVER_24H: { terminal_checked_at: ago(24 * HOUR + 500) },
  EXACTLY_24H: { terminal_checked_at: ago(24 * HOUR) },
  CHECKED_25H_AGO: { terminal_checked_at: ago(25 * HOUR) },
  CHECKED_50H_AGO: { terminal_checked_at: ago(50 * HOUR) },
  NEVER_CHECKED: { terminal_checked_at: null },
  NOT_RELEASED: { current_status: 'not_available', available_for_pickup: false },
  AVAILABILITY_UNKNOWN: { available_for_pickup: null },
  DISCHARGED_AND_RELEASED: { current_status: 'not_available' },
  CUSTOMS_HOLD: { holds_at_pod_terminal: hold('hold') },
  HOLD_RELEASED: { holds_at_pod_terminal: hold('released') },
  FACILITY_HOLD: { ind_facility_holds: hold('hold') },
  FACILITY_HOLD_RELEASED: { ind_facility_holds: hold('released') },
  FEES_OWED: { fees_at_pod_terminal: [{ type: 'demurrage', amount: 150 }] },
  FEES_PAID: { fees_at_pod_terminal: [{ type: 'total', amount: 0 }] },
  FEES_OWED_BUT_STALE: {
    fees_at_pod_terminal: [{ type: 'demurrage', amount: 150 }],
    terminal_checked_at: ago(30 * HOUR),
  },
  PICKED_UP: { current_status: 'picked_up', pod_full_out_at: ago(HOUR) },
  EMPTY_RETURNED: { current_status: 'empty_returned', empty_terminated_at: ago(HOUR) },
  BOOKED: { current_status: 'new' },
  AT_SEA: { current_status: 'on_ship' },
  ARRIVED: { current_status: 'on_ship', pod_arrived_at: ago(5 * HOUR) },
  ON_RAIL: { current_status: 'on_rail' },
  // Edge cases: a last free day gone by, stale data, the rail ramp, boxes that are done.
  PAST_LFD_FRESH: { pickup_lfd: day(-2 * 24 * HOUR) },
  PAST_LFD_STALE: { pickup_lfd: day(-2 * 24 * HOUR), terminal_checked_at: ago(30 * HOUR) },
  LFD_TODAY_NEVER_CHECKED: { pickup_lfd: day(0), terminal_checked_at: null },
  LINE_LFD_ONLY: { ssl_lfd: day(24 * HOUR) },
  AT_RAMP: atRamp,
  AT_RAMP_FACILITY_HOLD: { ...atRamp, ind_facility_holds: hold('hold') },
  AT_RAMP_STALE: { ...atRamp, terminal_checked_at: ago(26 * HOUR) },
  ON_RAIL_STALE_AND_HELD: {
    current_status: 'on_rail',
    holds_at_pod_terminal: hold('hold'),
    terminal_checked_at: ago(50 * HOUR),
  },
  PICKED_UP_HELD_AND_OWING: {
    current_status: 'picked_up',
    pod_full_out_at: ago(HOUR),
    holds_at_pod_terminal: hold('hold'),
    fees_at_pod_terminal: [{ type: 'demurrage', amount: 90 }],
    terminal_checked_at: ago(50 * HOUR),
  },
  EMPTY_RETURNED_NEVER_CHECKED: { current_status: 'empty_returned', terminal_checked_at: null },
  HOLD_AND_FEES: { holds_at_pod_terminal: hold('hold'), fees_at_pod_terminal: [{ type: 'total', amount: 40 }] },
  CHECKED_WITH_AN_OFFSET: { terminal_checked_at: '2026-03-02T13:30:00+02:00' },
  ONE_MS_UNDER_24H: { terminal_checked_at: ago(24 * HOUR - 1) },
  DAMAGED_HOLDS_TEXT: {},
  DAMAGED_FACILITY_HOLDS_TEXT: {},
};

function database() {
  const db = openDatabase(join(tempDir(), 'pickup.sqlite'));
  const names = Object.keys(boxes);
  const ids = names.map((name) => `c-${name}`);
  writeResources(
    db,
    [
      shipmentResource({}, { id: 's1', containers: ids }),
      ...names.map((name, i) =>
        containerResource(
          's1',
          {
            number: name,
            current_status: 'available',
            available_for_pickup: true,
            terminal_checked_at: ago(2 * HOUR),
            ...boxes[name],
          },
          ids[i],
        ),
      ),
    ],
    { syncedAt: ago(HOUR) },
  );
  // Text the writer never stores, read alike by the list's rows and the filter: no hold in force.
  db.prepare("UPDATE containers SET holds = 'not json' WHERE number = 'DAMAGED_HOLDS_TEXT'").run();
  db.prepare(
    `UPDATE containers SET facility_holds = '{"customs":"hold"}' WHERE number = 'DAMAGED_FACILITY_HOLDS_TEXT'`,
  ).run();
  return db;
}

const numbers = (rows: Iterable<Pick<ContainerRow, 'number'>>) => [...rows].map((r) => r.number!).sort();

describe('the Ready for pickup filter', () => {
  const db = database();
  const all = listContainers(db, {}, { limit: 500 }).rows;

  it('holds a box in every state the Pickup column tells', () => {
    expect(all).toHaveLength(Object.keys(boxes).length);
    expect(new Set(all.map((r) => pickupTruth(r, now, 24).state))).toEqual(
      new Set(['ready', 'not_ready', 'unknown', 'done']),
    );
  });

  for (const staleHours of [24, 48]) {
    it(`returns exactly the boxes the Pickup column calls Ready, with a ${staleHours} h stale limit`, () => {
      const at = { now: new Date(now).toISOString(), staleHours };
      const ready = numbers(all.filter((r) => pickupTruth(r, now, staleHours).state === 'ready'));
      const others = numbers(all.filter((r) => pickupTruth(r, now, staleHours).state !== 'ready'));

      expect(numbers(listContainers(db, { pickupReady: true }, { limit: 500, ...at }).rows)).toEqual(ready);
      expect(countContainers(db, { pickupReady: true }, at)).toBe(ready.length);
      expect(numbers(iterateContainers(db, { pickupReady: true }, undefined, at))).toEqual(ready);
      expect(numbers(listContainers(db, { pickupReady: false }, { limit: 500, ...at }).rows)).toEqual(others);
      expect(countContainers(db, { pickupReady: false }, at)).toBe(others.length);
    });
  }

  it('is ready on fresh, released, unheld, unowed boxes at the terminal only', () => {
    const at = { now: new Date(now).toISOString(), staleHours: 24 };
    expect(numbers(listContainers(db, { pickupReady: true }, { limit: 500, ...at }).rows)).toEqual(
      [
        'READY',
        'CHECKED_IN_THE_FUTURE',
        'JUST_UNDER_24H',
        'HALF_A_SECOND_UNDER_24H',
        'DISCHARGED_AND_RELEASED',
        'HOLD_RELEASED',
        'FACILITY_HOLD_RELEASED',
        'FEES_PAID',
        'PAST_LFD_FRESH',
        'LINE_LFD_ONLY',
        'AT_RAMP',
        'CHECKED_WITH_AN_OFFSET',
        'ONE_MS_UNDER_24H',
        'DAMAGED_HOLDS_TEXT',
        'DAMAGED_FACILITY_HOLDS_TEXT',
      ].sort(),
    );
    // A longer limit in Settings trusts older checks: the boxes checked 24 to 48 h ago are ready.
    const lenient = numbers(
      listContainers(db, { pickupReady: true }, { limit: 500, now: at.now, staleHours: 48 }).rows,
    );
    expect(lenient).toEqual(expect.arrayContaining(['EXACTLY_24H', 'HALF_A_SECOND_OVER_24H', 'CHECKED_25H_AGO']));
    expect(lenient).not.toContain('CHECKED_50H_AGO');
    expect(lenient).not.toContain('FEES_OWED_BUT_STALE');
  });

  it('judges at the moment asked: 30 hours on, with nothing synced, no box is ready', () => {
    const later = { now: new Date(now + 30 * HOUR).toISOString(), staleHours: 24 };
    expect(countContainers(db, { pickupReady: true }, later)).toBe(0);
    expect(countContainers(db, { pickupReady: false }, later)).toBe(all.length);
    expect(all.filter((r) => pickupTruth(r, now + 30 * HOUR, 24).state === 'ready')).toEqual([]);
  });

  it('tells each edge case as the container page does', () => {
    const state = (name: string) =>
      pickupTruth(
        all.find((r) => r.number === name)!,
        now,
        24,
      ).state;
    expect(state('PAST_LFD_FRESH')).toBe('ready');
    expect(state('PAST_LFD_STALE')).toBe('unknown');
    expect(state('LFD_TODAY_NEVER_CHECKED')).toBe('unknown');
    expect(state('AT_RAMP')).toBe('ready');
    expect(state('AT_RAMP_FACILITY_HOLD')).toBe('not_ready');
    expect(state('AT_RAMP_STALE')).toBe('unknown');
    expect(state('ON_RAIL_STALE_AND_HELD')).toBe('not_ready');
    expect(state('PICKED_UP_HELD_AND_OWING')).toBe('done');
    expect(state('EMPTY_RETURNED_NEVER_CHECKED')).toBe('done');
    expect(state('HOLD_AND_FEES')).toBe('not_ready');
    const ramp = pickupTruth(
      all.find((r) => r.number === 'AT_RAMP')!,
      now,
      24,
    );
    expect(ramp.lastFreeDay?.source).toBe('rail');
  });

  // Over a day and a half in steps that cross each box's stale limit, and the limits Settings allows.
  const moments = [0, 1, 22, 23, 24, 25, 26, 28, 30, 47, 48, 49, 50, 52].map((h) => now + h * HOUR + 250);
  for (const staleHours of [1, 24, 25, 48, 336]) {
    it(`agrees with the Pickup column box by box at every moment, with a ${staleHours} h stale limit`, () => {
      const seen = new Set<string>();
      for (const at of moments) {
        const asked = { now: new Date(at).toISOString(), staleHours };
        const yes = new Set(numbers(iterateContainers(db, { pickupReady: true }, undefined, asked)));
        const no = new Set(numbers(iterateContainers(db, { pickupReady: false }, undefined, asked)));
        const column = Object.fromEntries(all.map((r) => [r.number!, pickupTruth(r, at, staleHours).state]));
        for (const state of Object.values(column)) seen.add(state);
        const filtered = Object.fromEntries(
          all.map((r) => [r.number!, yes.has(r.number!) ? 'ready' : no.has(r.number!) ? 'not ready' : 'neither']),
        );
        const expected = Object.fromEntries(
          Object.entries(column).map(([name, state]) => [name, state === 'ready' ? 'ready' : 'not ready']),
        );
        expect(filtered, `at ${asked.now}`).toEqual(expected);
      }
      // The sweep met boxes in every state the column tells.
      expect(seen).toEqual(new Set(['ready', 'not_ready', 'unknown', 'done']));
    });
  }
});
