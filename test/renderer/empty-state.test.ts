// A list whose filters match nothing says what is applied and offers to take away the one that
// emptied it (counted without each); an account with none of the records says what brings them.
import { render, screen, waitFor, within } from '@testing-library/svelte';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';

import { containersList } from '../../src/renderer/src/lib/lists';
import AlertsView from '../../src/renderer/src/views/AlertsView.svelte';
import ListView from '../../src/renderer/src/views/ListView.svelte';
import type { AlertRow } from '../../src/shared/alerts';
import type { ContainerFilters } from '../../src/shared/views';
import { bridge } from './bridge';

interface Box {
  carrier: string;
  status: string;
  number: string;
}

/** The fake store's count: the boxes that match the filters the list asks for. */
function countOf(boxes: Box[], filters: ContainerFilters): number {
  return boxes.filter(
    (b) =>
      (!filters.carriers?.length || filters.carriers.includes(b.carrier)) &&
      (!filters.statuses?.length || filters.statuses.includes(b.status as never)) &&
      (!filters.search || b.number.includes(filters.search)),
  ).length;
}

function answerContainers(boxes: Box[]): void {
  bridge.answer('containers:list', () => ({ rows: [], next: null }));
  bridge.answer('containers:count', (arg) => countOf(boxes, arg.filters ?? {}));
  bridge.answer('filters:options', () => ({
    carriers: [
      { value: 'MAEU', label: 'Maersk', count: 1 },
      { value: 'CMDU', label: 'CMA CGM', count: 3 },
    ],
    portsOfLading: [],
    portsOfDischarge: [],
    destinations: [],
    terminals: [],
    customers: [],
    tags: [],
    holdTypes: [],
    failedReasons: [],
  }));
}

const ContainersView = ListView<'containers'>;

function followLink(hash: string): void {
  window.location.hash = hash;
  window.dispatchEvent(new HashChangeEvent('hashchange'));
}
const linkTo = (filters: ContainerFilters) => `#/containers?filters=${encodeURIComponent(JSON.stringify(filters))}`;

const boxes: Box[] = [
  { carrier: 'MAEU', status: 'in_transit', number: 'MAEU1234567' },
  { carrier: 'CMDU', status: 'available', number: 'CMAU7654321' },
  { carrier: 'CMDU', status: 'available', number: 'CMAU1111111' },
  { carrier: 'CMDU', status: 'discharged', number: 'CMAU2222222' },
];

beforeEach(() => {
  localStorage.clear();
  followLink('#/containers');
});

describe('an empty list', () => {
  it('names the filters that matched nothing and removes the one that emptied it', async () => {
    answerContainers(boxes);
    followLink(linkTo({ statuses: ['available'], carriers: ['MAEU'] }));
    render(ContainersView, { def: containersList });

    const message = await screen.findByText('No containers match Status: Available for pickup and Carrier: Maersk.');
    const state = message.closest('[role="status"]') as HTMLElement;
    // Without the carrier 2 boxes are available; without the status Maersk has 1: both offered, with their counts.
    const removeCarrier = await within(state).findByRole('button', { name: 'Remove Carrier (2 containers)' });
    expect(within(state).getByRole('button', { name: 'Remove Status (1 container)' })).toBeTruthy();

    await userEvent.click(removeCarrier);
    await waitFor(() => expect(bridge.argsOf('containers:list').at(-1)?.filters).toEqual({ statuses: ['available'] }));
    expect(screen.queryByRole('button', { name: /^Carrier:/ })).toBeNull();
    expect(await screen.findByText('2 of 4 containers')).toBeTruthy();
  });

  it('clears a search that matched nothing, and the search box with it', async () => {
    answerContainers(boxes);
    followLink(linkTo({ search: 'ZZZ' }));
    render(ContainersView, { def: containersList });

    expect(await screen.findByText('No containers match “ZZZ”.')).toBeTruthy();
    await userEvent.click(await screen.findByRole('button', { name: 'Clear the search (4 containers)' }));
    await waitFor(() => expect(bridge.argsOf('containers:list').at(-1)?.filters).toEqual({}));
    expect(screen.getByRole<HTMLInputElement>('searchbox', { name: 'Search containers' }).value).toBe('');
  });

  it('offers to clear everything when no single filter alone gives rows back', async () => {
    answerContainers(boxes);
    followLink(linkTo({ statuses: ['booked'], carriers: ['MSCU'] }));
    render(ContainersView, { def: containersList });

    const clear = await screen.findByRole('button', { name: 'Clear all filters and the search' });
    expect(screen.queryByRole('button', { name: /^Remove (Status|Carrier) \(/ })).toBeNull();
    await userEvent.click(clear);
    await waitFor(() => expect(bridge.argsOf('containers:list').at(-1)?.filters).toEqual({}));
  });

  it('says the account has none yet, never that the filters match nothing', async () => {
    answerContainers([]);
    followLink(linkTo({ carriers: ['MAEU'] }));
    render(ContainersView, { def: containersList });

    expect(await screen.findByText('No containers yet.')).toBeTruthy();
    expect(screen.queryByText(/match/)).toBeNull();
    expect(screen.getByRole('link', { name: 'Go to Tracking requests' }).getAttribute('href')).toBe(
      '#/tracking-requests',
    );
  });
});

describe('an empty Alerts view', () => {
  const raised = (id: number, rule: AlertRow['rule']): AlertRow => ({
    id,
    runId: 7,
    rule,
    resource: 'container',
    recordId: `c-${id}`,
    number: `MSCU000000${id}`,
    shipmentId: 's-1',
    customer: 'Harbour Imports',
    detail: 'Last free day Fri 6 Mar',
    raisedAt: '2026-03-02T10:00:00.000Z',
  });

  it('names the kind that matched nothing and shows every kind again, with how many', async () => {
    window.location.hash = '#/alerts';
    const kept = [raised(1, 'lfd_soon'), raised(2, 'hold')];
    bridge.answer('alerts:list', ({ rules }) => ({
      alerts: kept.filter((a) => !rules || rules.includes(a.rule)),
      runs: [{ runId: 7, raisedAt: '2026-03-02T10:00:00.000Z', count: 2 }],
    }));
    render(AlertsView);
    await screen.findByRole('link', { name: 'Container MSCU0000001' });

    await userEvent.selectOptions(screen.getByLabelText('Kind'), 'eta_slip');
    expect(await screen.findByText('No alerts in the latest sync with alerts match Kind: ETA slipped.')).toBeTruthy();
    const everyKind = await screen.findByRole('button', { name: 'Show every kind (2 alerts)' });
    // Every alert kept holds no slipped ETA either: not offered.
    expect(screen.queryByRole('button', { name: /^Show every alert kept/ })).toBeNull();
    await userEvent.click(everyKind);
    expect(await screen.findByRole('link', { name: 'Container MSCU0000002' })).toBeTruthy();
    expect(screen.getByLabelText<HTMLSelectElement>('Kind').value).toBe('');
  });
});
