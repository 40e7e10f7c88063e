/**
 * Ctrl+K's section "On the service": the local results come first and never wait for it, the
 * newest text's answer is the one shown, offline is one quiet line, and short text is not sent.
 */
import { render, screen, waitFor } from '@testing-library/svelte';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import SearchPalette from '../../src/renderer/src/components/SearchPalette.svelte';
import type { ServiceSearchAnswer, ServiceSearchResult } from '../../src/shared/service-search';
import type { SearchResults } from '../../src/shared/types';
import { bridge } from './bridge';

const nothingHere: SearchResults = { shipments: [], containers: [], trackingRequests: [], locations: [] };

const shipmentOnService = (number: string): ServiceSearchResult => ({
  kind: 'shipment',
  id: `s-${number}`,
  number,
  shipmentId: null,
  scac: 'MSCU',
  portOfLading: 'Antwerp',
  portOfDischarge: 'Tacoma',
  containersCount: 2,
  status: null,
});

function openPalette() {
  const { component } = render(SearchPalette);
  component.open();
  const input = screen.getByRole('combobox', { name: /Search BL, booking, container/ });
  return { input, user: userEvent.setup() };
}

const liveStatus = () => screen.getAllByRole('status').find((s) => s.textContent.includes('on this computer'));

describe('Ctrl+K on the service', () => {
  it('shows the newest text’s answer, not an older one that arrives after it', async () => {
    bridge.answer('shipments:search', () => nothingHere);
    const pending = new Map<string, (answer: ServiceSearchAnswer) => void>();
    bridge.answer('search:service', ({ query }) => new Promise((resolve) => pending.set(query, resolve)));
    const { input, user } = openPalette();

    await user.type(input, 'MEDU12345');
    await screen.findByText(/Asking the Tracking API for “MEDU12345”/);
    expect(screen.getByText('Nothing in the local data matches “MEDU12345”.')).toBeTruthy();
    await waitFor(() => expect(pending.has('MEDU12345')).toBe(true));

    // Typing on: the older answer lands after the newer question and is not shown.
    await user.type(input, '67');
    await waitFor(() => expect(pending.has('MEDU1234567')).toBe(true));
    pending.get('MEDU12345')!({
      outcome: 'answered',
      query: 'MEDU12345',
      results: [shipmentOnService('MEDU123459999')],
      alreadyHere: 0,
    });
    // Every promise callback queued by that answer has run once a macrotask comes round.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.queryByRole('option', { name: /MEDU123459999/ })).toBeNull();
    expect(screen.getByText(/Asking the Tracking API for “MEDU1234567”/)).toBeTruthy();
    pending.get('MEDU1234567')!({
      outcome: 'answered',
      query: 'MEDU1234567',
      results: [shipmentOnService('MEDU1234567')],
      alreadyHere: 0,
    });
    const option = await screen.findByRole('option', { name: /MEDU1234567 Shipment · MSCU · Antwerp → Tacoma/ });
    expect(option.textContent).toContain('Open');
    expect(screen.queryByRole('option', { name: /MEDU123459999/ })).toBeNull();
    expect(liveStatus()!.textContent).toBe('Nothing found on this computer. 1 more on the Tracking API.');
  });

  it('says offline in one quiet line, and does not send text too short to be a number', async () => {
    bridge.answer('shipments:search', () => nothingHere);
    bridge.answer('search:service', () => ({
      outcome: 'offline',
      message: 'Offline: only this computer’s copy was searched.',
    }));
    const { input, user } = openPalette();

    await user.type(input, 'ms');
    await screen.findByText('Nothing in the local data matches “ms”.');
    expect(bridge.argsOf('search:service')).toEqual([]);

    await user.type(input, 'cu1234566');
    await screen.findByText('Offline: only this computer’s copy was searched.');
    expect(screen.queryByText('On the service')).toBeNull();
    expect(screen.queryAllByRole('option')).toEqual([]);
    expect(liveStatus()!.textContent).toBe(
      'Nothing found on this computer. Offline: only this computer’s copy was searched.',
    );
    expect(bridge.argsOf('search:service')).toEqual([{ query: 'mscu1234566' }]);
  });
});
