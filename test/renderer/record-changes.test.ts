/**
 * A container's or shipment's "What happened?": each sync's changes told as the events they are,
 * newest first, one event recorded as several changes told once (an arrival clears the ETA; a box
 * picked up is no longer available; the terminal's and the line's last free day set alike).
 */
import { render, screen, within } from '@testing-library/svelte';
import { beforeEach, describe, expect, it } from 'vitest';

import RecordChanges from '../../src/renderer/src/components/RecordChanges.svelte';
import { app } from '../../src/renderer/src/lib/app-state.svelte';
import { changeSentence, syncEvents } from '../../src/renderer/src/lib/change-events';
import type { ChangeRow } from '../../src/shared/changes';
import { bridge } from './bridge';

let next = 0;
function change(overrides: Partial<ChangeRow>): ChangeRow {
  next += 1;
  return {
    id: String(next),
    resource: 'container',
    recordId: 'c-1',
    number: 'MSCU0000001',
    shipmentId: 's-1',
    billOfLading: 'MEDU00001234',
    customer: null,
    carrierScac: 'MSCU',
    field: 'status',
    detail: null,
    old: null,
    new: null,
    seenAt: '2026-03-02T10:00:00.000Z',
    zone: null,
    ...overrides,
  };
}

const formats = { instant: (iso: string) => `<${iso}>`, date: (day: string) => `[${day}]` };

beforeEach(() => {
  app.settings = {
    theme: 'system',
    timeDisplay: 'local',
    syncIntervalMinutes: 15,
    rates: { currency: 'USD', sets: [] },
  };
});

describe('a change as an event', () => {
  it('says each kind in words, with what it replaced where that matters', () => {
    const say = (c: Partial<ChangeRow>) => changeSentence(change(c), formats);
    expect(say({ field: 'eta', old: '2026-03-20T08:00:00Z', new: '2026-03-22T20:00:00Z' })).toBe(
      'ETA moved 2.5 days later, to <2026-03-22T20:00:00Z>',
    );
    expect(say({ field: 'eta', old: '2026-03-20T08:00:00Z', new: '2026-03-20T02:00:00Z' })).toBe(
      'ETA moved 6 h earlier, to <2026-03-20T02:00:00Z>',
    );
    expect(say({ field: 'eta', old: '2026-03-20T08:00:00Z', new: null })).toBe(
      'ETA no longer given (was <2026-03-20T08:00:00Z>)',
    );
    expect(say({ field: 'ata', old: null, new: '2026-03-20T09:30:00Z' })).toBe('Arrived <2026-03-20T09:30:00Z>');
    expect(say({ field: 'destination_ata', old: null, new: '2026-03-24T09:30:00Z' })).toBe(
      'Arrived at destination <2026-03-24T09:30:00Z>',
    );
    expect(say({ field: 'status', old: 'discharged', new: 'available' })).toBe(
      'Available for pickup (was Discharged, not available)',
    );
    expect(say({ field: 'lfd_terminal', old: null, new: '2026-03-06' })).toBe(
      'Last free day set: [2026-03-06] (terminal)',
    );
    expect(say({ field: 'lfd_rail', old: '2026-03-06', new: '2026-03-08' })).toBe(
      'Last free day moved to [2026-03-08] (rail ramp; was [2026-03-06])',
    );
    expect(say({ field: 'hold', detail: 'customs', old: null, new: 'hold' })).toBe('Customs hold put on');
    expect(say({ field: 'facility_hold', detail: 'usda', old: 'hold', new: 'released' })).toBe(
      'USDA hold released at the inland facility',
    );
    expect(say({ field: 'available', old: null, new: true })).toBe('Released for pickup by the terminal');
    expect(say({ field: 'fees', old: 1400, new: 1575 })).toMatch(/^Fees now \$1,575\.00 \(were \$1,400\.00\)$/);
    expect(say({ field: 'vessel', old: 'MSC Aurora', new: 'MSC Iris' })).toBe(
      'Vessel changed to MSC Iris (was MSC Aurora)',
    );
    expect(say({ field: 'tracking_stopped', old: '2026-03-01T00:00:00Z', new: null })).toBe('Tracking resumed');
  });

  it('tells one sync’s changes as its events, each once', () => {
    const sync = [
      change({ resource: 'shipment', field: 'eta', old: '2026-03-20T08:00:00Z', new: null }),
      change({ resource: 'shipment', field: 'ata', old: null, new: '2026-03-20T09:30:00Z' }),
    ];
    expect(syncEvents(sync, formats)).toEqual(['Arrived <2026-03-20T09:30:00Z>']);
    const box = [
      change({ field: 'available', old: true, new: false }),
      change({ field: 'lfd_line', old: null, new: '2026-03-06' }),
      change({ field: 'status', old: 'available', new: 'picked_up' }),
      change({ field: 'lfd_terminal', old: null, new: '2026-03-06' }),
      change({ field: 'hold', detail: 'customs', old: null, new: 'hold' }),
    ];
    expect(syncEvents(box, formats)).toEqual([
      'Picked up (was Available for pickup)',
      'Last free day set: [2026-03-06] (terminal and shipping line)',
      'Customs hold put on',
    ]);
    // An availability the status does not say stays: released while still discharged.
    expect(
      syncEvents(
        [
          change({ field: 'status', old: 'in_transit', new: 'discharged' }),
          change({ field: 'available', old: null, new: true }),
        ],
        formats,
      ),
    ).toEqual(['Discharged, not available (was In transit)', 'Released for pickup by the terminal']);
  });
});

describe('What happened on a record’s page', () => {
  it('lists each sync’s events, newest first, leaving out the kinds the page tells elsewhere', async () => {
    bridge.answer('changes:forRecord', () => [
      change({ resource: 'shipment', recordId: 's-1', field: 'vessel', old: 'MSC Aurora', new: 'MSC Iris' }),
      change({
        resource: 'shipment',
        recordId: 's-1',
        field: 'eta',
        old: '2026-03-20T08:00:00Z',
        new: null,
        seenAt: '2026-03-21T10:00:00.000Z',
      }),
      change({
        resource: 'shipment',
        recordId: 's-1',
        field: 'destination_ata',
        old: null,
        new: '2026-03-21T06:00:00Z',
        seenAt: '2026-03-21T10:00:00.000Z',
      }),
    ]);
    render(RecordChanges, { recordId: 's-1', noun: 'shipment', without: ['eta', 'ata'] });
    const list = await screen.findByRole('list', { name: 'What changed on this shipment, newest first' });
    expect(bridge.argsOf('changes:forRecord')).toEqual([{ id: 's-1' }]);
    const syncs = within(list)
      .getAllByRole('listitem')
      .filter((li) => li.parentElement === list);
    expect(syncs.map((li) => li.querySelector('time')?.dateTime)).toEqual([
      '2026-03-21T10:00:00.000Z',
      '2026-03-02T10:00:00.000Z',
    ]);
    expect(syncs[0]!.textContent).toMatch(/Arrived at destination Mar 21, 2026, 06:00\sAM UTC/);
    expect(syncs[1]!.textContent).toContain('Vessel changed to MSC Iris (was MSC Aurora)');
    expect(list.textContent).not.toContain('ETA');
  });

  it('says so when nothing changed since the first sync', async () => {
    bridge.answer('changes:forRecord', () => []);
    render(RecordChanges, { recordId: 'c-1', noun: 'container' });
    expect(await screen.findByText('Nothing has changed since Quayside first synced this container.')).toBeTruthy();
  });
});
