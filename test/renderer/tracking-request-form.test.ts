import { render, screen, waitFor } from '@testing-library/svelte';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import TrackingRequestForm from '../../src/renderer/src/components/TrackingRequestForm.svelte';
import type { TrackingRequestRow } from '../../src/shared/rows';
import type { LookupRecord } from '../../src/shared/types';
import { app } from '../../src/renderer/src/lib/app-state.svelte';
import { Refusal, bridge } from './bridge';

const maersk: LookupRecord = {
  id: 'line-maeu',
  type: 'shipping_line',
  title: 'Maersk',
  attributes: {
    scac: 'MAEU',
    bill_of_lading_tracking_support: true,
    booking_number_tracking_support: false,
    container_number_tracking_support: true,
  },
  syncedAt: null,
};

function created(overrides: Partial<TrackingRequestRow> = {}): TrackingRequestRow {
  return {
    id: 'tr-1',
    customFields: {},
    requestNumber: 'MAEU123456789',
    requestType: 'bill_of_lading',
    carrierScac: 'MAEU',
    status: 'pending',
    failedReason: null,
    isRetrying: false,
    shipmentId: null,
    customer: null,
    refNumbers: [],
    tags: [],
    createdAt: null,
    updatedAt: null,
    ...overrides,
  };
}

async function openForm() {
  bridge.answer('shippingLines:list', () => [maersk]);
  const oncreated = vi.fn<(row: TrackingRequestRow) => void>();
  render(TrackingRequestForm, { oncreated, oncancel: () => {} });
  // The carrier hint counts the lines once they are loaded.
  await screen.findByText('1 carriers known');
  return { oncreated, user: userEvent.setup() };
}

describe('the tracking request form', () => {
  it('shows each field’s problem next to it, tied by aria-invalid and aria-describedby, and sends nothing', async () => {
    const { user, oncreated } = await openForm();
    await user.click(screen.getByRole('button', { name: 'Start tracking' }));

    const number = screen.getByRole('textbox', { name: 'Number' });
    expect(number.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(number.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Enter the number to track.',
    );
    expect(document.activeElement).toBe(number);
    const carrier = screen.getByRole('combobox', { name: 'Carrier' });
    expect(carrier.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(carrier.getAttribute('aria-describedby')!)?.textContent).toBe('Pick the carrier.');
    expect(bridge.argsOf('trackingRequests:create')).toEqual([]);
    expect(oncreated).not.toHaveBeenCalled();
  });

  it('says what the carrier cannot track by, and the carrier’s name as the hint when it can', async () => {
    const { user } = await openForm();
    const carrier = screen.getByRole('combobox', { name: 'Carrier' });
    await user.click(screen.getByRole('radio', { name: 'Booking number' }));
    await user.type(carrier, 'MAEU');
    await user.tab();
    expect(carrier.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('The Tracking API cannot track Maersk by booking number.')).toBeTruthy();

    await user.click(screen.getByRole('radio', { name: 'Bill of lading' }));
    expect(carrier.getAttribute('aria-invalid')).toBeNull();
    expect(document.getElementById(carrier.getAttribute('aria-describedby')!)?.textContent).toBe('Maersk');
  });

  it('sends the request through the api and hands back the created row', async () => {
    const { user, oncreated } = await openForm();
    bridge.answer('trackingRequests:create', (arg) => created({ refNumbers: arg.refNumbers ?? [] }));
    await user.type(screen.getByRole('textbox', { name: 'Number' }), 'maeu123456789');
    await user.type(screen.getByRole('combobox', { name: 'Carrier' }), 'MAEU');
    await user.type(screen.getByRole('textbox', { name: /Reference numbers/ }), 'PO-1, PO-2');
    await user.click(screen.getByRole('button', { name: 'Start tracking' }));

    await waitFor(() => expect(oncreated).toHaveBeenCalledOnce());
    expect(bridge.argsOf('trackingRequests:create')).toEqual([
      {
        requestType: 'bill_of_lading',
        requestNumber: 'maeu123456789',
        scac: 'MAEU',
        refNumbers: ['PO-1', 'PO-2'],
        tags: [],
      },
    ]);
    expect(oncreated.mock.calls[0]![0].refNumbers).toEqual(['PO-1', 'PO-2']);
  });

  it('puts the service’s refusal under the field it names, and typing again clears it', async () => {
    const { user, oncreated } = await openForm();
    bridge.answer('trackingRequests:create', () => {
      throw new Refusal({
        code: 'rejected',
        message: 'The Tracking API did not accept this.',
        fields: { tags: 'A tag is at most 60 characters.' },
      });
    });
    await user.type(screen.getByRole('textbox', { name: 'Number' }), 'MAEU123456789');
    await user.type(screen.getByRole('combobox', { name: 'Carrier' }), 'MAEU');
    await user.click(screen.getByRole('button', { name: 'Start tracking' }));

    const tags = screen.getByRole('textbox', { name: /Tags/ });
    await waitFor(() => expect(tags.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(tags.getAttribute('aria-describedby')!)?.textContent).toBe(
      'A tag is at most 60 characters.',
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(oncreated).not.toHaveBeenCalled();
  });

  it('shows a refusal that names no field at the foot of the form', async () => {
    const { user } = await openForm();
    bridge.answer('trackingRequests:create', () => {
      throw new Refusal({ code: 'needs_connection', message: 'The Tracking API cannot be reached.' });
    });
    await user.type(screen.getByRole('textbox', { name: 'Number' }), 'MAEU123456789');
    await user.type(screen.getByRole('combobox', { name: 'Carrier' }), 'MAEU');
    await user.click(screen.getByRole('button', { name: 'Start tracking' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The Tracking API cannot be reached.');
  });

  it('says a number is already tracked beside it, and links to the request that exists', async () => {
    const { user, oncreated } = await openForm();
    bridge.answer('trackingRequests:create', () => {
      throw new Refusal({
        code: 'already_tracked',
        message: 'Already tracked: MAEU123456789 (MAEU) has a tracking request.',
        fields: { requestNumber: 'Already tracked' },
        existing: { id: 'tr-9', inLocalCopy: true, shipmentId: 'sh-9', requestNumber: 'MAEU123456789', scac: 'MAEU' },
      });
    });
    const number = screen.getByRole('textbox', { name: 'Number' });
    await user.type(number, 'MAEU123456789');
    await user.type(screen.getByRole('combobox', { name: 'Carrier' }), 'MAEU');
    await user.click(screen.getByRole('button', { name: 'Start tracking' }));

    await waitFor(() => expect(number.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(number.getAttribute('aria-describedby')!)?.textContent).toBe('Already tracked');
    expect(document.activeElement).toBe(number);
    const show = screen.getByRole('link', { name: 'Show tracking request MAEU123456789' });
    expect(decodeURIComponent(show.getAttribute('href')!)).toBe(
      '#/tracking-requests?filters={"search":"MAEU123456789"}',
    );
    expect(screen.getByRole('link', { name: 'Open its shipment' }).getAttribute('href')).toBe('#/shipments/sh-9');
    // Tab from the number reaches the link next.
    await user.tab();
    expect(document.activeElement).toBe(show);
    expect(oncreated).not.toHaveBeenCalled();

    await user.type(number, '0');
    expect(screen.queryByRole('link', { name: /Show tracking request/ })).toBeNull();
  });

  it('offers a sync when the request that exists is not in the local copy yet, then links to it', async () => {
    const { user } = await openForm();
    bridge.answer('trackingRequests:create', () => {
      throw new Refusal({
        code: 'already_tracked',
        message: 'Already tracked: MAEU123456789 (MAEU) has a tracking request. It is not in the local copy yet.',
        fields: { requestNumber: 'Already tracked' },
        existing: { id: 'tr-9', inLocalCopy: false, shipmentId: null, requestNumber: 'MAEU123456789', scac: 'MAEU' },
      });
    });
    let synced = false;
    bridge.answer('trackingRequests:get', ({ id }) => {
      if (!synced) throw new Refusal({ code: 'not_found', message: 'Not synced yet.' });
      return created({ id });
    });
    bridge.answer('sync:start', () => ({ started: true }));
    await user.type(screen.getByRole('textbox', { name: 'Number' }), 'MAEU123456789');
    await user.type(screen.getByRole('combobox', { name: 'Carrier' }), 'MAEU');
    await user.click(screen.getByRole('button', { name: 'Start tracking' }));

    expect(await screen.findByText('Its tracking request is not in the local copy yet.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Sync now' }));
    expect(bridge.argsOf('sync:start')).toEqual([{ mode: 'incremental' }]);
    synced = true;
    app.dataVersion++;
    const show = await screen.findByRole('link', { name: 'Show tracking request MAEU123456789' });
    expect(show.getAttribute('href')).toContain('#/tracking-requests?filters=');
  });
});
