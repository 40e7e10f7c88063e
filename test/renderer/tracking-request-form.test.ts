import { render, screen, waitFor } from '@testing-library/svelte';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import TrackingRequestForm from '../../src/renderer/src/components/TrackingRequestForm.svelte';
import type { TrackingRequestRow } from '../../src/shared/rows';
import type { LookupRecord } from '../../src/shared/types';
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
});
