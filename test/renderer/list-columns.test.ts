// A list's columns: the one that names the row comes first, columns are reordered and resized
// from the keyboard in the Columns panel (a header's edge is dragged with the pointer, in
// test/e2e/renderer/laptop-lists.spec.ts), and the order and widths are kept with the list's state.
import { render, screen, waitFor } from '@testing-library/svelte';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';

import { shipmentsList } from '../../src/renderer/src/lib/lists';
import ListView from '../../src/renderer/src/views/ListView.svelte';
import { bridge } from './bridge';

const ShipmentsList = ListView<'shipments'>;
const KEY = 'quayside:list:shipments';

beforeEach(() => {
  localStorage.clear();
  window.location.hash = '#/shipments';
  bridge.answer('shipments:list', () => ({ rows: [], next: null }));
  bridge.answer('shipments:count', () => 12);
});

const headers = () => screen.getAllByRole('columnheader').map((h) => h.textContent?.trim().replace(/\s+/g, ' ') ?? '');
const saved = () => JSON.parse(localStorage.getItem(KEY) ?? '{}') as { columns?: string[]; widths?: object };

describe('a list’s columns', () => {
  it('moves a column and sets its width from the keyboard, and keeps both', async () => {
    const user = userEvent.setup();
    render(ShipmentsList, { def: shipmentsList });
    await screen.findByText('12 shipments');
    expect(headers().slice(0, 3)).toEqual(['Bill of lading', 'Carrier', 'Customer']);

    await user.click(screen.getByRole('button', { name: 'Columns' }));
    const panel = screen.getByRole('dialog', { name: 'Choose columns' });
    // The bill of lading names the row: it stays first.
    expect(screen.getByRole('button', { name: 'Move Bill of lading right' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Move Carrier left' })).toHaveProperty('disabled', true);

    screen.getByRole('button', { name: 'Move Carrier right' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(headers().slice(0, 3)).toEqual(['Bill of lading', 'Customer', 'Carrier']));
    // Focus stays on the button, so the key can be pressed again.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move Carrier right' }));

    const width = screen.getByRole('spinbutton', { name: 'Width of Customer, in pixels' });
    await user.clear(width);
    await user.type(width, '260{Enter}');
    await user.tab();
    await waitFor(() => expect(saved().widths).toEqual({ customer: 260 }));
    expect(saved().columns?.slice(0, 3)).toEqual(['bl', 'customer', 'carrier']);
    expect(panel.isConnected).toBe(true);
  });

  it('loads the order and widths it kept, and state from before widths were kept', async () => {
    localStorage.setItem(
      KEY,
      JSON.stringify({
        version: 2,
        filters: {},
        sort: { field: 'eta', direction: 'asc' },
        columns: ['eta', 'bl', 'carrier'],
        widths: { eta: 300, carrier: 5, nope: 100 },
      }),
    );
    render(ShipmentsList, { def: shipmentsList });
    await screen.findByText('12 shipments');
    // The bill of lading goes first however it was kept; widths are clamped, unknown ones dropped.
    expect(headers()).toEqual(['Bill of lading', 'ETA ▲', 'Carrier']);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    expect(screen.getByRole('spinbutton', { name: 'Width of ETA, in pixels' })).toHaveProperty('value', '300');
    expect(screen.getByRole('spinbutton', { name: 'Width of Carrier, in pixels' })).toHaveProperty('value', '60');
  });
});
