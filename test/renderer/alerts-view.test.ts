/**
 * The Alerts view: what it asks core for as the forwarder picks which alerts to
 * show. The latest sync's are one `alerts:list` call (core picks the newest sync that raised any),
 * every choice of Show is one call, and a row says what happened.
 */
import { render, screen, waitFor, within } from '@testing-library/svelte';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import AlertsView from '../../src/renderer/src/views/AlertsView.svelte';
import { app } from '../../src/renderer/src/lib/app-state.svelte';
import type { AlertRow, AlertsList } from '../../src/shared/alerts';
import { bridge } from './bridge';

function alert(id: number, runId: number, overrides: Partial<AlertRow> = {}): AlertRow {
  return {
    id,
    runId,
    rule: 'lfd_soon',
    resource: 'container',
    recordId: `c-${id}`,
    number: `MSCU000000${id}`,
    shipmentId: 's-1',
    customer: 'Harbour Imports',
    detail: 'Last free day Fri 6 Mar',
    raisedAt: '2026-03-02T10:00:00.000Z',
    ...overrides,
  };
}

const runs: AlertsList['runs'] = [
  { runId: 12, raisedAt: '2026-03-02T10:00:00.000Z', count: 2 },
  { runId: 9, raisedAt: '2026-02-28T10:00:00.000Z', count: 1 },
];
const byRun: Record<number, AlertRow[]> = {
  12: [alert(3, 12), alert(2, 12, { rule: 'hold', detail: 'Customs hold released', number: 'MSCU0000002' })],
  9: [alert(1, 9, { raisedAt: '2026-02-28T10:00:00.000Z' })],
};

beforeEach(() => {
  window.location.hash = '#/alerts';
  // "The last 7 days" counts back from this computer's clock.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.parse('2026-03-03T00:00:00Z'));
  app.now = Date.now();
  bridge.answer('alerts:list', ({ runId, since, all }) => {
    if (runId !== undefined) return { alerts: byRun[runId] ?? [], runs };
    if (since !== undefined || all) return { alerts: [...byRun[12]!, ...byRun[9]!], runs };
    // Neither: the newest sync's, as core answers it.
    return { alerts: byRun[12]!, runs };
  });
});

/** The count as it reads ("2 alerts"). */
const countOf = (element: HTMLElement) => element.textContent?.replace(/\s+/g, ' ').trim();

afterEach(() => {
  vi.useRealTimers();
});

describe('Alerts view', () => {
  it('shows the latest sync’s alerts from one call that names neither a sync nor an instant', async () => {
    render(AlertsView);
    const count = await screen.findByRole('status', { name: 'Alert count' });
    await waitFor(() => expect(countOf(count)).toBe('2 alerts'));
    expect(bridge.argsOf('alerts:list')).toEqual([{ limit: 1000 }]);
    const hold = screen.getByRole('link', { name: 'Container MSCU0000002' }).closest('tr')!;
    expect(within(hold).getByText('Customs hold released')).toBeTruthy();
    expect(within(hold).getByText('Hold put on or released')).toBeTruthy();
  });

  it('asks once per choice: a sync, the last 7 days, every alert kept, a kind', async () => {
    const user = userEvent.setup();
    render(AlertsView);
    const count = await screen.findByRole('status', { name: 'Alert count' });
    await waitFor(() => expect(countOf(count)).toBe('2 alerts'));
    const show = screen.getByLabelText('Show');

    await user.selectOptions(show, 'run:9');
    await waitFor(() => expect(countOf(count)).toBe('1 alert'));
    expect(bridge.argsOf('alerts:list').at(-1)).toEqual({ runId: 9, limit: 1000 });

    await user.selectOptions(show, 'last_7_days');
    await waitFor(() => expect(countOf(count)).toBe('3 alerts'));
    expect(bridge.argsOf('alerts:list').at(-1)).toEqual({ since: '2026-02-24T00:00:00.000Z', limit: 1000 });

    await user.selectOptions(show, 'all');
    await waitFor(() => expect(bridge.argsOf('alerts:list').at(-1)).toEqual({ all: true, limit: 1000 }));
    expect(countOf(count)).toBe('3 alerts');

    await user.selectOptions(show, 'latest');
    await user.selectOptions(screen.getByLabelText('Kind'), 'hold');
    await waitFor(() => expect(bridge.argsOf('alerts:list').at(-1)).toEqual({ rules: ['hold'], limit: 1000 }));
    expect(bridge.argsOf('alerts:list')).toHaveLength(6);
  });
});
