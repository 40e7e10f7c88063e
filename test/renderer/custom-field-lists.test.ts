// The account's custom fields in the lists. The Columns panel offers each field of
// the list's record type, hidden until chosen; a chosen one shows each row's value as the list
// shows its own (option labels, dates, numbers right-aligned, yes/no), sorts by its header and
// is kept with the list's columns; "+ Filter" offers each field: a pick list for options, text it
// contains, a range of numbers, yes/no; chips say what they keep, and the count reads "N of M".
import { render, screen, waitFor, within } from '@testing-library/svelte';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { containersList, shipmentsList } from '../../src/renderer/src/lib/lists';
import ListView from '../../src/renderer/src/views/ListView.svelte';
import type { CustomFieldDefinitionInfo } from '../../src/shared/custom-fields';
import { contract, type ArgOf } from '../../src/shared/ipc';
import type { ContainerRow, ShipmentRow } from '../../src/shared/rows';
import { Refusal, bridge } from './bridge';
import { layOutScrollers } from './layout';

const ShipmentsList = ListView<'shipments'>;
const ContainersList = ListView<'containers'>;

const shipmentFields: CustomFieldDefinitionInfo[] = [
  { apiSlug: 'cargo_ready_date', name: 'Cargo ready date', dataType: 'date', description: null, options: [] },
  {
    apiSlug: 'incoterm',
    name: 'Incoterm',
    dataType: 'enum',
    description: null,
    options: [
      { value: 'FOB', label: 'FOB (Free on board)', count: 12 },
      { value: 'CIF', label: 'CIF (Cost, insurance and freight)', count: 7 },
      { value: 'DDP', label: 'DDP (Delivered duty paid)', count: 0 },
    ],
  },
  { apiSlug: 'po_number', name: 'PO number', dataType: 'short_text', description: null, options: [] },
];
const containerFields: CustomFieldDefinitionInfo[] = [
  { apiSlug: 'pallet_count', name: 'Pallet count', dataType: 'number', description: null, options: [] },
  {
    apiSlug: 'temperature_controlled',
    name: 'Temperature controlled',
    dataType: 'boolean',
    description: null,
    options: [],
  },
];

function shipment(id: string, customFields: ShipmentRow['customFields']): ShipmentRow {
  return {
    id,
    billOfLading: `BL${id}`,
    carrierScac: 'MAEU',
    carrierName: 'Maersk',
    customer: 'Acme',
    portOfLading: 'Shanghai',
    portOfLadingCode: 'CNSHA',
    portOfDischarge: 'Los Angeles',
    portOfDischargeCode: 'USLAX',
    destination: null,
    destinationCode: null,
    terminal: null,
    destinationTerminal: null,
    vessel: null,
    voyage: null,
    etd: null,
    atd: null,
    eta: null,
    originalEta: null,
    ata: null,
    etaSlipHours: null,
    polTimezone: null,
    podTimezone: null,
    containerCount: 1,
    refNumbers: [],
    tags: [],
    trackingStoppedAt: null,
    trackingStoppedReason: null,
    createdAt: '2026-11-01T00:00:00Z',
    customFields,
  };
}

const rows = [
  shipment('1', {
    po_number: { value: 'PO-4500-17', text: 'PO-4500-17' },
    incoterm: { value: 'FOB', text: 'FOB (Free on board)' },
    cargo_ready_date: { value: '2026-11-20', text: '2026-11-20' },
  }),
  shipment('2', {}),
];

/** The list's calls, checked against the contract as dispatch does; `count` answers filtered counts. */
function answerShipments(): void {
  const check = <C extends 'shipments:list' | 'shipments:count'>(channel: C, arg: ArgOf<C>) => {
    if (!contract[channel].args.safeParse(arg).success) {
      throw new Refusal({ code: 'invalid_argument', message: `Invalid argument for ${channel}.` });
    }
  };
  bridge.answer('shipments:list', (arg) => {
    check('shipments:list', arg);
    return { rows, next: null };
  });
  bridge.answer('shipments:count', (arg) => {
    check('shipments:count', arg);
    return Object.keys(arg.filters ?? {}).length === 0 ? 240 : 12;
  });
  bridge.answer('customFields:definitions', ({ entityType }) => (entityType === 'shipment' ? shipmentFields : []));
}

const headers = () => screen.getAllByRole('columnheader').map((h) => h.textContent?.trim().replace(/\s+/g, ' ') ?? '');
const lastList = () => bridge.argsOf('shipments:list').at(-1)!;

beforeEach(() => {
  localStorage.clear();
  window.location.hash = '#/shipments';
  layOutScrollers();
  // Dates in cells leave out the year within half a year of today: today is pinned.
  vi.useFakeTimers({ now: new Date('2026-11-10T12:00:00Z'), toFake: ['Date'] });
});
afterEach(() => vi.useRealTimers());

describe('custom fields as list columns', () => {
  it('offers each field in the Columns panel, shows a chosen one’s values, sorts by it and keeps it', async () => {
    answerShipments();
    const user = userEvent.setup();
    const { unmount } = render(ShipmentsList, { def: shipmentsList });
    await screen.findByText('240 shipments');
    expect(bridge.argsOf('customFields:definitions')).toEqual([{ entityType: 'shipment' }]);

    await user.click(screen.getByRole('button', { name: 'Columns' }));
    const panel = screen.getByRole('dialog', { name: 'Choose columns' });
    const custom = within(panel).getByRole('group', { name: 'Custom fields' });
    expect(
      within(custom)
        .getAllByRole('checkbox')
        .map((c) => c.closest('label')?.textContent?.trim()),
    ).toEqual(['Cargo ready date', 'Incoterm', 'PO number']);
    // Hidden until chosen.
    expect(headers()).not.toContain('PO number');
    await user.click(within(custom).getByRole('checkbox', { name: 'PO number' }));
    await user.click(within(panel).getByRole('checkbox', { name: 'Incoterm' }));
    await user.click(within(panel).getByRole('checkbox', { name: 'Cargo ready date' }));
    await waitFor(() => expect(headers().slice(-3)).toEqual(['PO number', 'Incoterm', 'Cargo ready date']));

    const first = screen.getByRole('row', { name: 'Shipment BL1' });
    const cells = [...first.querySelectorAll('[role="gridcell"]')].slice(-3).map((c) => c.textContent);
    expect(cells).toEqual(['PO-4500-17', 'FOB (Free on board)', 'Fri, Nov 20']);
    const empty = screen.getByRole('row', { name: 'Shipment BL2' });
    expect([...empty.querySelectorAll('[role="gridcell"]')].slice(-3).map((c) => c.textContent)).toEqual(['', '', '']);

    await user.click(screen.getByRole('columnheader', { name: /PO number/ }).querySelector('button')!);
    await waitFor(() => expect(lastList().sort).toEqual({ field: 'cf.po_number', direction: 'asc' }));
    await user.click(screen.getByRole('columnheader', { name: /PO number/ }).querySelector('button')!);
    await waitFor(() => expect(lastList().sort).toEqual({ field: 'cf.po_number', direction: 'desc' }));
    expect(screen.getByRole('columnheader', { name: /PO number/ }).getAttribute('aria-sort')).toBe('descending');

    // Kept with the list's state, and there again when the list opens.
    const saved = JSON.parse(localStorage.getItem('quayside:list:shipments')!) as { columns: string[]; sort: object };
    expect(saved.columns.slice(-3)).toEqual(['cf.po_number', 'cf.incoterm', 'cf.cargo_ready_date']);
    expect(saved.sort).toEqual({ field: 'cf.po_number', direction: 'desc' });
    unmount();
    bridge.calls.length = 0;
    render(ShipmentsList, { def: shipmentsList });
    await waitFor(() => expect(headers().slice(-3)).toEqual(['PO number ▼', 'Incoterm', 'Cargo ready date']));
    expect(bridge.argsOf('shipments:list')[0]!.sort).toEqual({ field: 'cf.po_number', direction: 'desc' });
  });

  it('asks the usual sort and no filter for a field the account no longer has', async () => {
    answerShipments();
    localStorage.setItem(
      'quayside:list:shipments',
      JSON.stringify({
        version: 2,
        filters: {
          customFields: { gone: { kind: 'text', contains: 'x' }, po_number: { kind: 'text', contains: '45' } },
        },
        sort: { field: 'cf.gone', direction: 'asc' },
        columns: ['bl', 'cf.gone', 'cf.po_number'],
        widths: { 'cf.po_number': 200 },
      }),
    );
    render(ShipmentsList, { def: shipmentsList });
    await waitFor(() => expect(headers()).toEqual(['Bill of lading', 'PO number']));
    await waitFor(() =>
      expect(lastList()).toMatchObject({
        filters: { customFields: { po_number: { kind: 'text', contains: '45' } } },
        sort: shipmentsList.defaultSort,
      }),
    );
    expect(screen.getByRole('button', { name: /PO number:/ }).textContent).toContain('contains “45”');
  });
});

describe('custom fields in the filter bar', () => {
  it('filters by a pick list of the field’s options, says so on its chip, counts “N of M” and clears', async () => {
    answerShipments();
    const user = userEvent.setup();
    render(ShipmentsList, { def: shipmentsList });
    await screen.findByText('240 shipments');

    await user.click(screen.getByRole('button', { name: '+ Filter' }));
    const menu = screen.getByRole('menu', { name: 'Add a filter' });
    const items = within(menu)
      .getAllByRole('menuitem')
      .map((i) => i.textContent);
    expect(items.slice(-3)).toEqual(['Cargo ready date', 'Incoterm', 'PO number']);
    await user.click(within(menu).getByRole('menuitem', { name: 'Incoterm' }));

    const editor = screen.getByRole('dialog', { name: 'Filter: Incoterm' });
    const options = within(editor).getByRole('list', { name: 'Incoterm options' });
    expect(
      within(options)
        .getAllByRole('listitem')
        .map((li) => li.textContent?.replace(/\s+/g, ' ').trim()),
    ).toEqual([
      'FOB (Free on board) FOB 12',
      'CIF (Cost, insurance and freight) CIF 7',
      'DDP (Delivered duty paid) DDP 0',
    ]);
    await user.click(within(options).getByRole('checkbox', { name: /FOB/ }));
    await user.click(within(options).getByRole('checkbox', { name: /CIF/ }));
    await waitFor(() =>
      expect(lastList().filters).toEqual({ customFields: { incoterm: { kind: 'options', values: ['FOB', 'CIF'] } } }),
    );
    // The filtered count and the whole list's, for "N of M".
    expect(bridge.argsOf('shipments:count')).toContainEqual({
      filters: { customFields: { incoterm: { kind: 'options', values: ['FOB', 'CIF'] } } },
    });
    await screen.findByText('12 of 240 shipments');
    const chip = screen.getByRole('button', { name: /^Incoterm:/ });
    expect(chip.textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'Incoterm: FOB (Free on board), CIF (Cost, insurance and freight)',
    );

    // A second field narrows the first: text it contains, applied with Enter.
    await user.click(screen.getByRole('button', { name: '+ Filter' }));
    await user.click(screen.getByRole('menuitem', { name: 'PO number' }));
    await user.type(screen.getByRole('searchbox', { name: 'Contains' }), '4500{Enter}');
    await waitFor(() =>
      expect(lastList().filters).toEqual({
        customFields: {
          incoterm: { kind: 'options', values: ['FOB', 'CIF'] },
          po_number: { kind: 'text', contains: '4500' },
        },
      }),
    );
    expect(
      screen
        .getByRole('button', { name: /^PO number:/ })
        .textContent?.replace(/\s+/g, ' ')
        .trim(),
    ).toBe('PO number: contains “4500”');

    await user.click(screen.getByRole('button', { name: 'Remove filter Incoterm' }));
    await waitFor(() =>
      expect(lastList().filters).toEqual({ customFields: { po_number: { kind: 'text', contains: '4500' } } }),
    );
    await user.click(screen.getAllByRole('button', { name: 'Clear filters' })[0]!);
    await waitFor(() => expect(lastList().filters).toEqual({}));
    await screen.findByText('240 shipments');
  });

  it('filters a number field by a range and a yes/no field by its answer, and shows them as the list does', async () => {
    const boxes: ContainerRow[] = [
      {
        id: 'c1',
        shipmentId: 's1',
        number: 'MSCU1234565',
        status: 'in_transit',
        equipment: '40HC',
        billOfLading: 'BL1',
        carrierScac: 'MSCU',
        customer: null,
        portOfDischarge: null,
        destination: null,
        terminal: null,
        vessel: null,
        eta: null,
        ata: null,
        dischargedAt: null,
        availableForPickup: null,
        lastFreeDay: null,
        lfdDeadlineAt: null,
        lfdTimezone: null,
        lineLastFreeDay: null,
        holds: [],
        facilityHolds: [],
        lfdSource: null,
        terminalCheckedAt: null,
        feesTotal: null,
        pickupReady: false,
        pickupAppointmentAt: null,
        pickedUpAt: null,
        emptyReturnedAt: null,
        podTimezone: null,
        tags: [],
        createdAt: null,
        customFields: {
          pallet_count: { value: 1200, text: '1200' },
          temperature_controlled: { value: false, text: 'No' },
        },
      },
    ];
    bridge.answer('containers:list', () => ({ rows: boxes, next: null }));
    bridge.answer('containers:count', ({ filters }) => (Object.keys(filters ?? {}).length === 0 ? 30 : 1));
    bridge.answer('customFields:definitions', () => containerFields);
    localStorage.setItem(
      'quayside:list:containers',
      JSON.stringify({
        version: 2,
        filters: {},
        sort: { field: 'last_free_day', direction: 'asc' },
        columns: ['number', 'cf.pallet_count', 'cf.temperature_controlled'],
        widths: {},
      }),
    );
    const user = userEvent.setup();
    render(ContainersList, { def: containersList });
    await waitFor(() => expect(headers()).toEqual(['Container', 'Pallet count', 'Temperature controlled']));
    const cells = [...screen.getByRole('row', { name: 'Container MSCU1234565' }).querySelectorAll('[role="gridcell"]')];
    expect(cells.map((c) => c.textContent)).toEqual(['MSCU1234565', '1,200', 'No']);
    expect(cells[1]!.className).toContain('end');

    await user.click(screen.getByRole('button', { name: '+ Filter' }));
    await user.click(screen.getByRole('menuitem', { name: 'Pallet count' }));
    await user.type(screen.getByRole('spinbutton', { name: 'From' }), '10');
    await user.tab();
    await waitFor(() =>
      expect(bridge.argsOf('containers:list').at(-1)!.filters).toEqual({
        customFields: { pallet_count: { kind: 'number', min: 10 } },
      }),
    );
    await user.type(screen.getByRole('spinbutton', { name: 'To' }), '5');
    await user.tab();
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'The lowest number is above the highest.');
    await user.clear(screen.getByRole('spinbutton', { name: 'To' }));
    await user.type(screen.getByRole('spinbutton', { name: 'To' }), '40');
    await user.tab();
    await waitFor(() =>
      expect(bridge.argsOf('containers:list').at(-1)!.filters).toEqual({
        customFields: { pallet_count: { kind: 'number', min: 10, max: 40 } },
      }),
    );
    expect(
      screen
        .getByRole('button', { name: /^Pallet count:/ })
        .textContent?.replace(/\s+/g, ' ')
        .trim(),
    ).toBe('Pallet count: 10 – 40');

    await user.click(screen.getByRole('button', { name: '+ Filter' }));
    await user.click(screen.getByRole('menuitem', { name: 'Temperature controlled' }));
    await user.click(screen.getByRole('radio', { name: 'No' }));
    await waitFor(() =>
      expect(bridge.argsOf('containers:list').at(-1)!.filters).toEqual({
        customFields: {
          pallet_count: { kind: 'number', min: 10, max: 40 },
          temperature_controlled: { kind: 'flag', is: false },
        },
      }),
    );
    await screen.findByText('1 of 30 containers');
    expect(screen.getByRole('button', { name: /^Temperature controlled:/ }).textContent).toContain('No');
  });
});
