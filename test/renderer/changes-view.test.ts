/**
 * The Changes view: what it asks core for as the forwarder picks a period (since I last looked,
 * the last 7 days, a custom range) and chips (kind, customer, carrier), each change told as the
 * event it is, and that export and "mark all as looked at" send what is on screen.
 */
import { render, screen, waitFor, within } from '@testing-library/svelte';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';

import ChangesView from '../../src/renderer/src/views/ChangesView.svelte';
import { app } from '../../src/renderer/src/lib/app-state.svelte';
import type { ChangeFilters, ChangeRow } from '../../src/shared/changes';
import type { Settings } from '../../src/shared/types';
import { bridge } from './bridge';
import { layOutScrollers } from './layout';

const settings: Settings = {
  theme: 'system',
  timeDisplay: 'local',
  syncIntervalMinutes: 15,
  rates: { currency: 'USD', sets: [] },
};

function change(id: number, overrides: Partial<ChangeRow>): ChangeRow {
  return {
    id: String(id),
    resource: 'container',
    recordId: `c-${id}`,
    number: `MSCU000000${id}`,
    shipmentId: 's-1',
    billOfLading: 'MEDU00001234',
    customer: 'Harbour Imports',
    carrierScac: 'MSCU',
    field: 'status',
    detail: null,
    old: 'discharged',
    new: 'available',
    seenAt: '2026-03-02T10:00:00.000Z',
    zone: null,
    ...overrides,
  };
}

const rows: ChangeRow[] = [
  change(1, {}),
  change(2, { field: 'hold', detail: 'CUSTOMS', old: null, new: 'hold' }),
  change(3, {
    resource: 'shipment',
    recordId: 's-1',
    number: 'MEDU00001234',
    field: 'eta',
    old: '2026-03-20T08:00:00Z',
    new: '2026-03-22T08:00:00Z',
    zone: 'America/Los_Angeles',
  }),
  change(4, {
    resource: 'shipment',
    recordId: 's-1',
    number: 'MEDU00001234',
    field: 'ata',
    old: null,
    new: '2026-03-01T22:15:00Z',
    zone: 'America/Los_Angeles',
  }),
  change(5, { field: 'lfd_terminal', old: null, new: '2026-03-06' }),
];

/** The filters of every changes:list call, in order. */
const asked = () => bridge.argsOf('changes:list').map((a) => a?.filters as ChangeFilters);
const lastAsked = () => asked().at(-1);

beforeEach(() => {
  layOutScrollers();
  app.settings = { ...settings };
  // A day after the changes were seen: dates near now are shown without their year.
  app.now = Date.parse('2026-03-03T00:00:00Z');
  bridge.answer('changes:list', () => ({ rows, next: null }));
  bridge.answer('changes:count', ({ filters }) => ({
    count: filters?.period === 'range' && filters.to?.startsWith('2000') ? 0 : rows.length,
    from: null,
    to: null,
    lookedAt: '2026-03-01T09:00:00.000Z',
    retentionDays: 180,
  }));
  bridge.answer('filters:options', () => ({
    carriers: [{ value: 'MSCU', label: 'MSC', count: 3 }],
    portsOfLading: [],
    portsOfDischarge: [],
    destinations: [],
    terminals: [],
    customers: [
      { value: 'Harbour Imports', label: 'Harbour Imports', count: 2 },
      { value: 'Coastal Foods', label: 'Coastal Foods', count: 1 },
    ],
    tags: [],
    holdTypes: [],
    failedReasons: [],
  }));
  // An open chip's pick list, asked of the store for its source alone.
  bridge.answer('filters:values', ({ source }) => ({
    options:
      source === 'carriers'
        ? [{ value: 'MSCU', label: 'MSC', count: 3 }]
        : source === 'customers'
          ? [
              { value: 'Coastal Foods', label: 'Coastal Foods', count: 1 },
              { value: 'Harbour Imports', label: 'Harbour Imports', count: 2 },
            ]
          : [],
    more: false,
  }));
});

describe('Changes view', () => {
  it('opens on the changes since the last look and tells each one as the event it is', async () => {
    render(ChangesView);
    const count = screen.getByRole('status', { name: 'Change count' });
    await waitFor(() => expect(count.textContent?.trim()).toBe('5 changes'));
    expect(lastAsked()).toEqual({ period: 'since_looked' });
    expect(bridge.argsOf('changes:list').at(-1)).toMatchObject({ order: 'newest', page: { limit: 100 } });
    const grid = screen.getByRole('grid', { name: 'Changes' });
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((h) => h.textContent?.trim()),
    ).toEqual(['Container / BL', 'What happened', expect.stringMatching(/^Seen/), 'Customer', 'Carrier']);
    const hold = await within(grid).findByRole('row', { name: 'Container MSCU0000002: Customs hold put on' });
    expect(
      within(hold)
        .getAllByRole('gridcell')
        .map((c) => c.textContent),
    ).toEqual([
      'MSCU0000002',
      'Customs hold put on',
      expect.stringMatching(/^Mar 2, 10:00\sAM UTC$/),
      'Harbour Imports',
      'MSCU',
    ]);
    const event = (name: string | RegExp) =>
      within(within(grid).getByRole('row', { name })).getAllByRole('gridcell')[1]!;
    // A status in words, with the one it replaced; a last free day set, whose it is.
    expect(event(/^Container MSCU0000001: /).textContent).toBe('Available for pickup (was Discharged, not available)');
    expect(event(/^Container MSCU0000005: /).textContent).toBe('Last free day set: Fri, Mar 6 (terminal)');
    // An ETA that moved says by how much and to when; an arrival reads as one, not as a value set.
    const moved = event(/^Shipment MEDU00001234: ETA moved/);
    expect(moved.textContent).toMatch(/^ETA moved 2 days later, to Mar 22, 08:00\sAM UTC$/);
    expect(event(/^Shipment MEDU00001234: Arrived/).textContent).toMatch(/^Arrived Mar 1, 10:15\sPM UTC$/);
    // The cell leaves out a near year; the row's name and the hover text say the date whole.
    expect(
      within(grid)
        .getByRole('row', { name: /^Shipment MEDU00001234: ETA moved/ })
        .getAttribute('aria-label'),
    ).toMatch(/ETA moved 2 days later, to Mar 22, 2026, 08:00\sAM UTC$/);
  });

  it('asks for today, the last 7 days, and for a custom range of whole days once typed whole, refusing one that ends before it starts', async () => {
    const user = userEvent.setup();
    render(ChangesView);
    await screen.findByRole('status', { name: 'Change count' });
    await user.click(screen.getByRole('radio', { name: 'Today' }));
    await waitFor(() => expect(lastAsked()).toEqual({ period: 'today' }));
    expect(screen.getByText(/Seen since midnight, on this computer’s calendar\./)).toBeTruthy();
    await user.click(screen.getByRole('radio', { name: 'Last 7 days' }));
    await waitFor(() => expect(lastAsked()).toEqual({ period: 'last_7_days' }));

    await user.click(screen.getByRole('radio', { name: 'Custom range' }));
    await waitFor(() => expect(lastAsked()).toEqual({ period: 'range' }));
    // A year half typed ("03/05/202" holds 0202-03-05) is not asked for, even on leaving the field.
    const asked = bridge.argsOf('changes:count').length;
    await user.type(screen.getByLabelText('From', { exact: true }), '0202-03-05');
    await user.tab();
    expect(await screen.findByText('Finish the date: month, day and a 4-digit year.')).toBeTruthy();
    expect(bridge.argsOf('changes:count')).toHaveLength(asked);
    await user.clear(screen.getByLabelText('From', { exact: true }));
    await user.type(screen.getByLabelText('From', { exact: true }), '2026-03-05{Enter}');
    await user.type(screen.getByLabelText('To', { exact: true }), '2026-03-01{Enter}');
    expect(await screen.findByText('The end is before the start.')).toBeTruthy();
    await user.clear(screen.getByLabelText('To', { exact: true }));
    await user.type(screen.getByLabelText('To', { exact: true }), '2026-03-09{Enter}');
    // This computer's days (UTC here), from the first moment of the first to the last of the last.
    await waitFor(() =>
      expect(lastAsked()).toEqual({
        period: 'range',
        from: '2026-03-05T00:00:00.000Z',
        to: '2026-03-09T23:59:59.999Z',
      }),
    );
    expect(screen.queryByText('The end is before the start.')).toBeNull();

    await user.clear(screen.getByLabelText('To', { exact: true }));
    await user.type(screen.getByLabelText('To', { exact: true }), '2000-01-31{Enter}');
    expect(await screen.findByText('No changes in this period.')).toBeTruthy();
    // Back to the default for the next test (the view keeps its period while the app runs).
    await user.click(screen.getByRole('radio', { name: 'Since I last looked' }));
    await waitFor(() => expect(lastAsked()).toEqual({ period: 'since_looked' }));
  });

  it('filters by kind, customer and carrier through its chips, and clears them', async () => {
    const user = userEvent.setup();
    render(ChangesView);
    await screen.findByRole('status', { name: 'Change count' });
    await user.click(screen.getByRole('button', { name: '+ Filter' }));
    await user.click(screen.getByRole('menuitem', { name: 'Kind' }));
    const kinds = screen.getByRole('dialog', { name: 'Filter: Kind' });
    // Each kind in words, with the field name the CLI prints beside it.
    await user.click(within(kinds).getByRole('checkbox', { name: 'Last free day (terminal)' }));
    await user.click(within(kinds).getByRole('checkbox', { name: 'Hold' }));
    await waitFor(() => expect(lastAsked()).toEqual({ period: 'since_looked', fields: ['lfd_terminal', 'hold'] }));

    await user.click(screen.getByRole('button', { name: '+ Filter' }));
    await user.click(screen.getByRole('menuitem', { name: 'Customer' }));
    const customers = screen.getByRole('dialog', { name: 'Filter: Customer' });
    await user.click(await within(customers).findByRole('checkbox', { name: /Coastal Foods/ }));
    await user.click(screen.getByRole('button', { name: '+ Filter' }));
    await user.click(screen.getByRole('menuitem', { name: 'Carrier' }));
    await user.click(await screen.findByRole('checkbox', { name: /^MSC MSCU/ }));
    await waitFor(() =>
      expect(lastAsked()).toEqual({
        period: 'since_looked',
        fields: ['lfd_terminal', 'hold'],
        customers: ['Coastal Foods'],
        carriers: ['MSCU'],
      }),
    );
    // The count asked with the same filters as the rows.
    expect(bridge.argsOf('changes:count').at(-1)?.filters).toEqual(lastAsked());

    await user.keyboard('{Escape}');
    await user.click(screen.getAllByRole('button', { name: 'Clear filters' })[0]!);
    await waitFor(() => expect(lastAsked()).toEqual({ period: 'since_looked' }));
  });

  it('exports what it shows and marks everything looked at', async () => {
    const user = userEvent.setup();
    bridge.answer('export:changes', () => ({ path: '/tmp/changes.csv', rows: 3, cancelled: false }));
    bridge.answer('changes:markLooked', () => ({ lookedAt: '2026-03-03T00:00:00.000Z' }));
    render(ChangesView);
    await screen.findByRole('status', { name: 'Change count' });
    await user.click(screen.getByRole('radio', { name: 'Last 7 days' }));
    await waitFor(() => expect(lastAsked()).toEqual({ period: 'last_7_days' }));
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(bridge.argsOf('export:changes')).toEqual([{ filters: { period: 'last_7_days' } }]);
    expect(await screen.findByText('Exported 3 changes to /tmp/changes.csv')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Mark all as looked at' }));
    expect(bridge.argsOf('changes:markLooked')).toHaveLength(1);
    expect(await screen.findByText(/Marked as looked at/)).toBeTruthy();
    await user.click(screen.getByRole('radio', { name: 'Since I last looked' }));
  });

  it('says when nothing changed since the last look', async () => {
    bridge.answer('changes:list', () => ({ rows: [], next: null }));
    bridge.answer('changes:count', () => ({
      count: 0,
      from: '2026-03-01T09:00:00.000Z',
      to: null,
      lookedAt: '2026-03-01T09:00:00.000Z',
      retentionDays: 30,
    }));
    render(ChangesView);
    expect(await screen.findByText('Nothing has changed since you last looked.')).toBeTruthy();
    expect(screen.getByText(/Changes are kept 30 days/)).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Export CSV' }).disabled).toBe(true);
  });

  it('says no change is recorded yet before any look and any change (a first sync records none)', async () => {
    bridge.answer('changes:list', () => ({ rows: [], next: null }));
    bridge.answer('changes:count', () => ({ count: 0, from: null, to: null, lookedAt: null, retentionDays: 180 }));
    render(ChangesView);
    expect(await screen.findByText('No changes recorded yet.')).toBeTruthy();
    expect(screen.getByText(/A first sync sees everything for the first time and records none\./)).toBeTruthy();
    expect(screen.getByText(/You have not marked any as looked at yet/)).toBeTruthy();
  });
});
