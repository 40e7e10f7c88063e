import { render, screen, waitFor } from '@testing-library/svelte';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import TrackingRequestForm from '../../src/renderer/src/components/TrackingRequestForm.svelte';
import { app } from '../../src/renderer/src/lib/app-state.svelte';
import type { CarrierSuggestion } from '../../src/shared/service-actions';
import type { LookupRecord } from '../../src/shared/types';
import { bridge } from './bridge';

const line = (scac: string, title: string): LookupRecord => ({
  id: `line-${scac}`,
  type: 'shipping_line',
  title,
  attributes: {
    scac,
    bill_of_lading_tracking_support: true,
    booking_number_tracking_support: true,
    container_number_tracking_support: true,
  },
  syncedAt: null,
});

const msc = { scac: 'MSCU', name: 'Mediterranean Shipping Company', confidence: 1 };
const cma = { scac: 'CMDU', name: 'CMA CGM', confidence: 0.5 };

async function openForm(answer: (number: string) => CarrierSuggestion | null) {
  bridge.answer('shippingLines:list', () => [line('MSCU', 'Mediterranean Shipping Company'), line('CMDU', 'CMA CGM')]);
  bridge.answer('trackingRequests:inferCarrier', ({ number }) => answer(number));
  render(TrackingRequestForm, { oncreated: () => {}, oncancel: () => {} });
  await screen.findByText('2 carriers known');
}

afterEach(() => {
  vi.useRealTimers();
  app.online = true;
});

describe('the carrier suggested as a number is typed', () => {
  it('asks once typing pauses, for the whole number, and fills an empty carrier field with a sure answer', async () => {
    vi.useFakeTimers();
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    await openForm((number) => ({
      number,
      numberType: 'bill_of_lading',
      decision: 'auto_select',
      selected: msc,
      candidates: [msc],
    }));
    await user.type(screen.getByRole('textbox', { name: 'Number' }), 'medu ab12 3456');
    // Typing is never held up: nothing asked while keys come in.
    expect(bridge.argsOf('trackingRequests:inferCarrier')).toEqual([]);
    await vi.advanceTimersByTimeAsync(400);
    expect(bridge.argsOf('trackingRequests:inferCarrier')).toEqual([{ number: 'MEDUAB123456' }]);
    vi.useRealTimers();
    const carrier = screen.getByRole<HTMLInputElement>('combobox', { name: 'Carrier' });
    await waitFor(() => expect(carrier.value).toBe('MSCU'));
    expect(screen.getByRole('status').textContent).toMatch(
      /Carrier filled in from the number:\s+Mediterranean Shipping Company \(MSCU\)\./,
    );
  });

  it('offers a guess among several carriers as buttons, and never overwrites a carrier already chosen', async () => {
    const user = userEvent.setup();
    await openForm((number) => ({
      number,
      numberType: 'container',
      decision: 'needs_confirmation',
      selected: null,
      candidates: [msc, cma],
    }));
    const carrier = screen.getByRole<HTMLInputElement>('combobox', { name: 'Carrier' });
    await user.type(carrier, 'CMDU');
    await user.type(screen.getByRole('textbox', { name: 'Number' }), 'TGHU1234567');
    const use = await screen.findByRole(
      'button',
      { name: 'Use Mediterranean Shipping Company (MSCU)' },
      { timeout: 5000 },
    );
    expect(carrier.value).toBe('CMDU');
    // The chosen carrier is not offered again.
    expect(screen.queryByRole('button', { name: 'Use CMA CGM (CMDU)' })).toBeNull();
    await user.click(use);
    expect(carrier.value).toBe('MSCU');
  });

  it('offline, asks nothing and suggests nothing', async () => {
    vi.useFakeTimers();
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    await openForm(() => {
      throw new Error('not asked offline');
    });
    app.online = false;
    await user.type(screen.getByRole('textbox', { name: 'Number' }), 'MEDUAB123456');
    await vi.advanceTimersByTimeAsync(2000);
    expect(bridge.argsOf('trackingRequests:inferCarrier')).toEqual([]);
    expect(screen.getByRole<HTMLInputElement>('combobox', { name: 'Carrier' }).value).toBe('');
  });
});
