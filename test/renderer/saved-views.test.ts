import { beforeEach, describe, expect, it } from 'vitest';

import { defaultState } from '../../src/renderer/src/lib/list-state';
import { containersList } from '../../src/renderer/src/lib/lists';
import { capMessage, cellText, describeFilters } from '../../src/renderer/src/lib/print';
import { loadSavedViews, openView, type SavedView } from '../../src/renderer/src/lib/saved-views';
import { savedViews } from '../../src/renderer/src/lib/saved-views-store.svelte';
import type { FilterOptions } from '../../src/shared/types';

const noOptions: FilterOptions = {
  carriers: [],
  portsOfLading: [],
  portsOfDischarge: [],
  destinations: [],
  terminals: [],
  customers: [],
  tags: [],
  holdTypes: [{ value: 'customs', label: 'Customs', count: 3 }],
  failedReasons: [],
};

function pickupState() {
  const state = defaultState(containersList);
  return {
    ...state,
    filters: { statuses: ['available' as const], onHold: false },
    sort: { field: 'number' as const, direction: 'desc' as const },
    columns: ['number', 'status', 'lfd'],
    widths: { status: 200 },
  };
}

describe('saved views', () => {
  beforeEach(() => {
    localStorage.clear();
    savedViews.profile = '';
    savedViews.sync();
  });

  it('saves a list’s filters, sort, columns and widths and opens them exactly as saved, after a restart', () => {
    const saved = savedViews.create(containersList, pickupState(), '  Harbor pickups ');
    expect(saved.name).toBe('Harbor pickups');
    expect(savedViews.active.containers).toBe(saved.id);
    // A restart: the views are read again from storage.
    const [again] = loadSavedViews('demo');
    expect(again!.name).toBe('Harbor pickups');
    const { state, dropped } = openView(containersList, again!);
    expect(dropped).toEqual([]);
    expect(state.filters).toEqual({ statuses: ['available'], onHold: false });
    expect(state.sort).toEqual({ field: 'number', direction: 'desc' });
    expect(state.columns).toEqual(['number', 'status', 'lfd']);
    expect(state.widths).toEqual({ status: 200 });
  });

  it('keeps each account’s views apart', () => {
    savedViews.create(containersList, pickupState(), 'Demo view');
    expect(loadSavedViews('acme')).toEqual([]);
    expect(loadSavedViews('demo').map((v) => v.name)).toEqual(['Demo view']);
  });

  it('refuses an empty name or one the list already has, with a sentence, and saves nothing', () => {
    savedViews.create(containersList, pickupState(), 'Harbor pickups');
    expect(() => savedViews.create(containersList, pickupState(), '   ')).toThrow('Give the view a name.');
    expect(() => savedViews.create(containersList, pickupState(), 'harbor PICKUPS')).toThrow(
      'A view named “harbor PICKUPS” already exists for this list: choose another name.',
    );
    expect(loadSavedViews('demo')).toHaveLength(1);
  });

  it('renames, saves changes to and deletes a view', () => {
    const view = savedViews.create(containersList, pickupState(), 'Harbor pickups');
    savedViews.rename(view.id, 'Pickups Tuesday');
    savedViews.update(view.id, containersList, { ...pickupState(), columns: ['number', 'eta'] });
    const [updated] = loadSavedViews('demo');
    expect(updated!.name).toBe('Pickups Tuesday');
    expect(updated!.columns).toEqual(['number', 'eta']);
    savedViews.remove(view.id);
    expect(loadSavedViews('demo')).toEqual([]);
    expect(savedViews.active.containers).toBeUndefined();
  });

  it('opens a view the list has outgrown with what still applies, and says what was left out', () => {
    const view: SavedView = {
      id: 'old',
      list: 'containers',
      name: 'Old',
      filters: { statuses: ['available', 'on_barge'], holdTypes: ['customs', 'usda'], railRamp: ['x'] },
      sort: { field: 'rampDate', direction: 'asc' },
      columns: ['number', 'ramp', 'status'],
      widths: { ramp: 120 },
      labels: { 'column:ramp': 'Rail ramp', 'filter:railRamp': 'Rail ramp', 'sort:rampDate': 'Ramp date' },
      savedAt: '2026-01-01T00:00:00.000Z',
    };
    const { state, dropped } = openView(containersList, view, noOptions);
    expect(state.filters).toEqual({ statuses: ['available'], holdTypes: ['customs'] });
    expect(state.columns).toEqual(['number', 'status']);
    expect(state.sort).toEqual(containersList.defaultSort);
    expect(dropped).toEqual([
      'the column “Rail ramp”',
      'Status: “on_barge”',
      'Hold type: “usda”',
      'the filter “Rail ramp”',
      'the sort by “Ramp date”',
    ]);
  });

  it('says which saved view is gone when its link is followed', async () => {
    const opened = await savedViews.openIn(containersList, 'nope', () => Promise.resolve(null));
    expect(opened.state).toBeNull();
    expect(opened.note).toBe('This saved view no longer exists: the list shows what it showed before.');
  });
});

describe('print', () => {
  it('says the filters in words, with the names of their values', () => {
    expect(
      describeFilters(
        containersList,
        { search: 'MSCU', statuses: ['available'], holdTypes: ['customs'], onHold: false },
        noOptions,
      ),
    ).toEqual(['Search: “MSCU”', 'Status: Available for pickup', 'Holds: No holds', 'Hold type: Customs']);
  });

  it('prints cells as text: a last free day with its countdown, tags joined', () => {
    const now = Date.parse('2026-11-26T12:00:00Z');
    expect(cellText({ kind: 'tags', tags: ['reefer', 'hazmat'] }, 'local', now)).toBe('reefer, hazmat');
    expect(
      cellText({ kind: 'lfd', date: '2026-11-24', deadline: '2026-11-24T23:59:59Z', done: false }, 'local', now),
    ).toMatch(/^Tue, Nov 24, 2026 \(Overdue/);
    expect(capMessage(12_345, 'containers')).toBe(
      'Only the first 5,000 of 12,345 containers are printed: narrow the filters to print the rest.',
    );
  });
});
