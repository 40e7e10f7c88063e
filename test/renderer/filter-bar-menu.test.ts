/**
 * FilterBar's "+ Filter" menu answers the keyboard as the Export menu (MenuButton.svelte) does,
 * both through `lib/menu-keys.ts`: ↓/↑ on the button open it on its first/last item, ↑/↓ move
 * round, Home/End, a letter jumps, Escape and Tab close it with focus back on the button. A filter
 * chosen with Enter opens its editor with focus on its first field.
 */
import { render, screen, waitFor, within } from '@testing-library/svelte';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import FilterBar from '../../src/renderer/src/components/FilterBar.svelte';
import MenuButton from '../../src/renderer/src/components/MenuButton.svelte';
import type { FilterDef } from '../../src/renderer/src/lib/lists-model';
import type { DaysFilter } from '../../src/shared/date-filters';
import { bridge } from './bridge';

interface Filters {
  statuses?: string[];
  carriers?: string[];
  etaFrom?: string;
  etaTo?: string;
  etaDays?: DaysFilter;
  onHold?: boolean;
}

const defs: FilterDef<Filters>[] = [
  {
    key: 'statuses',
    label: 'Status',
    kind: 'choices',
    choices: [
      { value: 'available', label: 'Available' },
      { value: 'on_vessel', label: 'On vessel' },
    ],
  },
  { key: 'carriers', label: 'Carrier', kind: 'options', source: 'carriers' },
  { key: 'eta', label: 'ETA', kind: 'range', days: 'etaDays', from: 'etaFrom', to: 'etaTo' },
  { key: 'onHold', label: 'Holds', kind: 'flag', yes: 'On hold', no: 'No holds' },
];

const onneedoptions = vi.fn();

function renderFilterBar(): void {
  render(FilterBar<Filters>, { defs, filters: {}, options: null, onneedoptions, onchange: () => {} });
}

function renderExportMenu(): void {
  const item = (label: string) => ({ key: label, label, onselect: () => {} });
  render(MenuButton, {
    label: 'Export',
    menuLabel: 'Export this list',
    items: [item('Export CSV'), item('Export Excel'), item('Print…')],
  });
}

const focusedText = () => document.activeElement?.textContent?.trim();

describe('a menu button’s keys', () => {
  it.each([
    {
      menu: 'Add a filter',
      draw: renderFilterBar,
      button: '+ Filter',
      items: ['Status', 'Carrier', 'ETA', 'Holds'],
      letter: { key: 'e', to: 'ETA' },
    },
    {
      menu: 'Export this list',
      draw: renderExportMenu,
      button: 'Export',
      items: ['Export CSV', 'Export Excel', 'Print…'],
      letter: { key: 'p', to: 'Print…' },
    },
  ])(
    '$menu: ↓/↑ open it, ↑/↓ move round, Home/End, a letter, Escape and Tab close it on the button',
    async ({ draw, button: name, menu: menuName, items, letter }) => {
      const user = userEvent.setup();
      draw();
      const button = screen.getByRole('button', { name });
      expect(button.getAttribute('aria-haspopup')).toBe('menu');
      button.focus();

      await user.keyboard('{ArrowDown}');
      const menu = await screen.findByRole('menu', { name: menuName });
      expect(button.getAttribute('aria-expanded')).toBe('true');
      expect(button.getAttribute('aria-controls')).toBe(menu.id);
      expect(
        within(menu)
          .getAllByRole('menuitem')
          .map((i) => i.textContent?.trim()),
      ).toEqual(items);
      await waitFor(() => expect(focusedText()).toBe(items[0]));
      await user.keyboard('{ArrowDown}');
      expect(focusedText()).toBe(items[1]);
      await user.keyboard('{ArrowUp}{ArrowUp}');
      expect(focusedText()).toBe(items.at(-1));
      await user.keyboard('{ArrowDown}');
      expect(focusedText()).toBe(items[0]);
      await user.keyboard('{End}');
      expect(focusedText()).toBe(items.at(-1));
      await user.keyboard('{Home}');
      expect(focusedText()).toBe(items[0]);
      await user.keyboard(letter.key);
      expect(focusedText()).toBe(letter.to);

      await user.keyboard('{Escape}');
      expect(screen.queryByRole('menu')).toBeNull();
      expect(document.activeElement).toBe(button);
      expect(button.getAttribute('aria-expanded')).toBe('false');

      // ↑ opens it on its last item; Tab closes it, from the button.
      await user.keyboard('{ArrowUp}');
      await screen.findByRole('menu', { name: menuName });
      await waitFor(() => expect(focusedText()).toBe(items.at(-1)));
      await user.tab();
      expect(screen.queryByRole('menu')).toBeNull();
      // Its items are not Tab stops: Tab moved on from the button, not into the menu.
      expect(items).not.toContain(focusedText());

      // Enter opens it on its first item; a click on the button closes it, focus on the button.
      button.focus();
      await user.keyboard('{Enter}');
      await waitFor(() => expect(focusedText()).toBe(items[0]));
      await user.click(button);
      expect(screen.queryByRole('menu')).toBeNull();
      expect(document.activeElement).toBe(button);
    },
  );
});

describe('"+ Filter"', () => {
  it('a filter chosen with Enter opens its editor, focus on its first field', async () => {
    const user = userEvent.setup();
    renderFilterBar();
    screen.getByRole('button', { name: '+ Filter' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(focusedText()).toBe('Status'));
    await user.keyboard('{ArrowDown}{Enter}');
    const editor = await screen.findByRole('dialog', { name: 'Filter: Carrier' });
    expect(screen.queryByRole('menu')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(within(editor).getByRole('searchbox')));
    // Its values are asked of the store for that chip alone, none typed yet.
    await waitFor(() => expect(bridge.argsOf('filters:values')).toEqual([{ source: 'carriers', query: '' }]));

    // Escape closes the editor and gives focus back to "+ Filter".
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: '+ Filter' }));

    // A date: its first choice.
    await user.keyboard('{ArrowUp}');
    await waitFor(() => expect(focusedText()).toBe('Holds'));
    await user.keyboard('{ArrowUp}{Enter}');
    const range = await screen.findByRole('dialog', { name: 'Filter: ETA' });
    await waitFor(() => expect(document.activeElement).toBe(within(range).getByRole('radio', { name: 'Today' })));
  });
});
