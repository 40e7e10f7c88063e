/**
 * A list's Export menu (ListExport.svelte): Export CSV, Export Excel and Print… behind one button.
 * Print answers the Pickup column with the stale limit from Settings, as the list on screen does;
 * an export in progress counts its rows on the button, which keeps focus.
 */
import { render, screen, waitFor, within } from '@testing-library/svelte';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import ListExport from '../../src/renderer/src/components/ListExport.svelte';
import { app } from '../../src/renderer/src/lib/app-state.svelte';
import { containersList } from '../../src/renderer/src/lib/lists-containers';
import type { ContainerRow } from '../../src/shared/rows';
import type { Settings } from '../../src/shared/types';
import { bridge } from './bridge';
import { containerRow } from './container-row';

const HOUR = 3_600_000;

/** A box available at the terminal, its terminal data checked that many hours before the clock (the print sheet answers at the moment it is printed). */
const row = (checkedHoursAgo: number): ContainerRow =>
  containerRow({ terminalCheckedAt: new Date(Date.now() - checkedHoursAgo * HOUR).toISOString() });

const settings = (terminalStaleHours: number): Settings => ({
  theme: 'system',
  timeDisplay: 'local',
  syncIntervalMinutes: 15,
  rates: { currency: 'USD', sets: [] },
  terminalStaleHours,
});

const columns = containersList.columns.filter((c) => c.key === 'number' || c.key === 'pickup');
let results: ({ message: string; failed: boolean } | null)[] = [];

function renderExport() {
  results = [];
  render(ListExport<'containers'>, {
    def: containersList,
    query: { filters: {}, sort: containersList.defaultSort },
    columns,
    total: 1,
    options: null,
    onneedoptions: () => Promise.resolve(),
    onresult: (result: { message: string; failed: boolean } | null) => results.push(result),
  });
}

/** The printed sheet's Pickup cell. */
function printedPickup(): string {
  const sheet = document.querySelector<HTMLElement>('.print-sheet')!;
  const headers = within(sheet)
    .getAllByRole('columnheader')
    .map((h) => h.textContent);
  const cells = within(sheet)
    .getAllByRole('cell')
    .map((c) => c.textContent);
  return cells[headers.indexOf('Pickup')]!;
}

// happy-dom has no print dialog: the test's stands in for it.
const print = vi.fn();
beforeEach(() => {
  print.mockClear();
  window.print = print;
  bridge.answer('containers:list', () => ({ rows: [row(30)], next: null }));
});

describe('the Export menu', () => {
  it('offers the exports and Print… as a menu behind one button', async () => {
    app.settings = settings(24);
    renderExport();
    const button = screen.getByRole('button', { name: 'Export' });
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(screen.queryByRole('menu')).toBeNull();
    await userEvent.click(button);
    const menu = screen.getByRole('menu', { name: 'Export this list' });
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual(['Export CSV', 'Export Excel', 'Print…']);
    expect(button.getAttribute('aria-expanded')).toBe('true');
  });

  it('prints with the terminal stale limit from Settings, as the list on screen', async () => {
    // Terminal data 30 h old: too old with a 24 h limit, fresh enough with 48 h.
    app.settings = settings(48);
    renderExport();
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Print…' }));
    await waitFor(() => expect(print).toHaveBeenCalledTimes(1));
    expect(printedPickup()).toBe('Ready');

    app.settings = settings(24);
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Print…' }));
    await waitFor(() => expect(print).toHaveBeenCalledTimes(2));
    expect(printedPickup()).toBe('Can’t tell');
  });

  it('counts an export’s rows on the button, which keeps focus and opens no menu meanwhile', async () => {
    app.settings = settings(24);
    let finish: () => void = () => undefined;
    bridge.answer(
      'export:list',
      () =>
        new Promise((resolve) => {
          finish = () => resolve({ path: '/tmp/containers.csv', rows: 1, cancelled: false });
        }),
    );
    renderExport();
    const button = screen.getByRole('button', { name: 'Export' });
    await userEvent.click(button);
    await userEvent.click(screen.getByRole('menuitem', { name: 'Export CSV' }));
    await waitFor(() => expect(bridge.argsOf('export:list')).toHaveLength(1));
    expect(bridge.argsOf('export:list')[0]).toMatchObject({ view: 'containers', format: 'csv' });
    bridge.emit('export:progress', { rows: 1 });
    await waitFor(() => expect(button.textContent).toMatch(/^Exporting… 1/));
    expect(document.activeElement).toBe(button);
    expect(button.getAttribute('aria-disabled')).toBe('true');
    await userEvent.click(button);
    expect(screen.queryByRole('menu')).toBeNull();
    finish();
    await waitFor(() =>
      expect(results.at(-1)).toEqual({ failed: false, message: 'Exported 1 container to /tmp/containers.csv' }),
    );
    expect(button.textContent).toMatch(/^Export/);
    expect(button.getAttribute('aria-disabled')).toBeNull();
  });
});
