// The columns a list shows until the forwarder chooses: on a 1366 px screen the identifying cell,
// status, the date that matters and the customer fit the table without scrolling sideways; a
// wider table shows more, each set still fitting; a choice (the Columns panel, a saved view)
// stays as chosen at any width. The real layout is measured in
// test/e2e/renderer/default-columns.spec.ts.
import { beforeEach, describe, expect, it } from 'vitest';

import { defaultColumns, defaultState, loadListState, saveListState } from '../../src/renderer/src/lib/list-state';
import { lists, type ListDef, type ListId } from '../../src/renderer/src/lib/lists';
import { newView, openView } from '../../src/renderer/src/lib/saved-views';

// The table's inside on a 1366 px screen: less the sidebar (240), the page's padding (2 × 32),
// the table's border (2) and the widest usual vertical scrollbar (17, Windows).
const LAPTOP = 1366 - 240 - 64 - 2 - 17;
// And on a 1920 px screen, the same way.
const WIDE = 1920 - 240 - 64 - 2 - 17;

const widthOf = (def: ListDef<ListId>, keys: string[]) =>
  keys.reduce((sum, key) => sum + def.columns.find((c) => c.key === key)!.width, 0);

// What each list must show at 1366 px: the cell that names the row, its status, the date that
// matters and the customer (the lists that have one).
const musts: Record<ListId, string[]> = {
  containers: ['number', 'status', 'lfd', 'customer'],
  shipments: ['bl', 'eta', 'customer'],
  trackingRequests: ['number', 'status', 'created', 'customer'],
  emailSubmissions: ['subject', 'status', 'sent'],
};

const all = Object.values(lists) as ListDef<ListId>[];

describe('default columns by the table’s width', () => {
  it.each(all.map((def) => [def.id, def] as const))('%s: the usual columns fit a 1366 px screen', (id, def) => {
    const shown = defaultColumns(def, LAPTOP);
    expect(shown).toEqual(expect.arrayContaining(musts[id]));
    expect(widthOf(def, shown)).toBeLessThanOrEqual(LAPTOP);
    // The identifying column comes first.
    expect(def.columns.find((c) => c.key === shown[0])?.sticky).toBe(true);
  });

  it.each(all.map((def) => [def.id, def] as const))('%s: each wider set still fits its width', (_id, def) => {
    for (const width of def.columns.flatMap((c) => (c.from === undefined ? [] : [c.from]))) {
      const shown = defaultColumns(def, width);
      expect(widthOf(def, shown), `at ${width} px: ${shown.join(', ')}`).toBeLessThanOrEqual(width);
    }
  });

  it('a 1920 px screen gets more columns than a laptop, and an unmeasured table the narrowest set', () => {
    expect(defaultColumns(lists.containers, WIDE)).toEqual([
      'number',
      'status',
      'lfd',
      'pickup',
      'holds',
      'bl',
      'carrier',
      'customer',
      'pod',
      'eta',
    ]);
    expect(defaultColumns(lists.containers, LAPTOP)).toEqual([
      'number',
      'status',
      'lfd',
      'pickup',
      'holds',
      'carrier',
      'customer',
    ]);
    for (const id of ['containers', 'shipments', 'trackingRequests'] as const) {
      expect(defaultColumns(lists[id], WIDE).length, id).toBeGreaterThan(defaultColumns(lists[id], LAPTOP).length);
      expect(defaultColumns(lists[id], null), id).toEqual(defaultColumns(lists[id], 0));
    }
  });
});

describe('the forwarder’s choice over the defaults', () => {
  const KEY = 'quayside:list:containers';
  beforeEach(() => localStorage.clear());

  it('a list never chosen keeps no columns of its own, so the width decides', () => {
    saveListState('containers', defaultState(lists.containers));
    expect(loadListState(lists.containers).columns).toBeNull();
  });

  it('columns chosen are kept as chosen, even the former defaults', () => {
    const chosen = ['number', 'status', 'lfd', 'pickup', 'holds', 'bl', 'carrier', 'customer'];
    saveListState('containers', { ...defaultState(lists.containers), columns: chosen });
    expect(loadListState(lists.containers).columns).toEqual(chosen);
  });

  it('state saved before holding exactly the former defaults takes the width’s; any other set is a choice', () => {
    const before = (columns: string[]) =>
      localStorage.setItem(KEY, JSON.stringify({ version: 2, filters: {}, sort: {}, columns, widths: {} }));
    before(['number', 'status', 'lfd', 'pickup', 'holds', 'bl', 'carrier', 'customer']);
    expect(loadListState(lists.containers).columns).toBeNull();
    before(['number', 'customer', 'lfd']);
    expect(loadListState(lists.containers).columns).toEqual(['number', 'customer', 'lfd']);
  });

  it('a saved view keeps its chosen columns, and one saved without a choice opens on the width’s', () => {
    const chosen = { ...defaultState(lists.containers), columns: ['number', 'customer', 'vessel'] };
    expect(openView(lists.containers, newView(lists.containers, chosen, 'Mine')).state.columns).toEqual([
      'number',
      'customer',
      'vessel',
    ]);
    const unchosen = newView(lists.containers, defaultState(lists.containers), 'Filters only');
    expect(unchosen.columns).toEqual([]);
    expect(openView(lists.containers, unchosen).state.columns).toBeNull();
  });
});
