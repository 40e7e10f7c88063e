/**
 * A list's Export menu (ListExport.svelte): Export CSV, Export Excel, one file per customer and
 * Print… behind one button.
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
    ).toEqual(['Export CSV', 'Export Excel', 'One CSV file per customer…', 'One Excel file per customer…', 'Print…']);
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

  it('exports one Excel file per customer and shows what it wrote: the folder, each file and its rows', async () => {
    app.settings = settings(24);
    bridge.answer('export:perCustomer', () => ({
      folder: '/home/ana/Customers',
      files: [
        { customer: 'Harbor Freight Co', file: 'Harbor Freight Co.xlsx', rows: 3 },
        { customer: null, file: 'No customer (2).xlsx', rows: 1 },
      ],
      rows: 4,
      kept: 1,
      cancelled: false,
    }));
    renderExport();
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'One Excel file per customer…' }));
    expect(bridge.argsOf('export:perCustomer')[0]).toMatchObject({ view: 'containers', format: 'xlsx' });
    const summary = await screen.findByRole('dialog', { name: '2 files, one per customer' });
    expect(summary.textContent).toContain('4 containers in all, in the folder /home/ana/Customers');
    expect(summary.textContent).toContain('A file already in the folder had one of these names: it was kept as it was');
    const cells = within(summary)
      .getAllByRole('row')
      .slice(1)
      .map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent));
    expect(cells).toEqual([
      ['Harbor Freight Co', 'Harbor Freight Co.xlsx', '3'],
      ['No customer', 'No customer (2).xlsx', '1'],
    ]);
    expect(results.at(-1)).toEqual({
      failed: false,
      message: 'Exported 4 containers as 2 files, one per customer, to /home/ana/Customers',
    });
    await userEvent.click(within(summary).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
