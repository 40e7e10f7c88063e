/**
 * A list is named by its registry name in code (`trackingRequests`) and by its view id where
 * it is kept or linked (`tracking-requests`: the URL, the saved state's key): state an earlier
 * Quayside saved, and a dashboard link, still reach the list.
 */
import { render, screen } from '@testing-library/svelte';
import { beforeEach, describe, expect, it } from 'vitest';

import { trackingRequestsList } from '../../src/renderer/src/lib/lists';
import ListView from '../../src/renderer/src/views/ListView.svelte';
import { bridge } from './bridge';

const TrackingRequestsList = ListView<'trackingRequests'>;

function answerTrackingRequests(count: number): void {
  bridge.answer('trackingRequests:list', () => ({ rows: [], next: null }));
  // The whole list holds 90; `count` match the filters.
  bridge.answer('trackingRequests:count', (arg) => (Object.keys(arg.filters ?? {}).length > 0 ? count : 90));
  bridge.answer('filters:options', () => ({
    carriers: [],
    portsOfLading: [],
    portsOfDischarge: [],
    destinations: [],
    terminals: [],
    customers: [],
    tags: [],
    holdTypes: [],
    failedReasons: [{ value: 'not_found', label: 'Not found', count: 2 }],
  }));
}

function followLink(hash: string): void {
  window.location.hash = hash;
  window.dispatchEvent(new HashChangeEvent('hashchange'));
}

beforeEach(() => {
  localStorage.clear();
  followLink('#/tracking-requests');
});

describe('the tracking requests list, named trackingRequests in code', () => {
  it('restores the state an earlier release saved under quayside:list:tracking-requests, and saves it there', async () => {
    answerTrackingRequests(4);
    localStorage.setItem(
      'quayside:list:tracking-requests',
      JSON.stringify({
        filters: { statuses: ['failed'] },
        sort: { field: 'request_number', direction: 'asc' },
        columns: ['number', 'status'],
      }),
    );
    render(TrackingRequestsList, { def: trackingRequestsList });

    expect(await screen.findByText('4 of 90 tracking requests')).toBeTruthy();
    expect(bridge.argsOf('trackingRequests:list').at(-1)).toMatchObject({
      filters: { statuses: ['failed'] },
      sort: { field: 'request_number', direction: 'asc' },
    });
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent?.trim().replace(/\s+/g, ' '))).toEqual([
      expect.stringMatching(/^Number/),
      expect.stringMatching(/^Status/),
    ]);
    expect(Object.keys(localStorage)).toEqual(['quayside:list:tracking-requests']);
    expect(JSON.parse(localStorage.getItem('quayside:list:tracking-requests')!)).toMatchObject({
      filters: { statuses: ['failed'] },
    });
  });

  it('takes the filters of a #/tracking-requests link (a dashboard tile)', async () => {
    answerTrackingRequests(2);
    followLink(
      `#/tracking-requests?filters=${encodeURIComponent(JSON.stringify({ statuses: ['failed'], failedReasons: ['not_found'] }))}`,
    );
    render(TrackingRequestsList, { def: trackingRequestsList });

    expect(await screen.findByText('2 of 90 tracking requests')).toBeTruthy();
    expect(bridge.argsOf('trackingRequests:list').at(-1)).toMatchObject({
      filters: { statuses: ['failed'], failedReasons: ['not_found'] },
    });
    // The one-time filter parameter is dropped from the address, which stays the list's.
    expect(window.location.hash).toBe('#/tracking-requests');

    // Another tile followed while the list is open.
    answerTrackingRequests(5);
    followLink(`#/tracking-requests?filters=${encodeURIComponent(JSON.stringify({ statuses: ['created'] }))}`);
    expect(await screen.findByText('5 of 90 tracking requests')).toBeTruthy();
    expect(bridge.argsOf('trackingRequests:list').at(-1)).toMatchObject({ filters: { statuses: ['created'] } });
    expect(window.location.hash).toBe('#/tracking-requests');
  });
});
