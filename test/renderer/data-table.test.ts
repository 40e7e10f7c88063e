// The list's table: keys move the active row and focus follows it, Enter opens it, the active row
// is scrolled into view below the sticky header, and more rows are asked for before the window
// reaches the end of what is loaded. Layout comes from ./layout.ts (happy-dom has none); what only
// a browser shows (row heights, the sticky header drawn over rows, wheel scrolling) is covered by
// test/e2e/renderer/lists.spec.ts and keyboard-under-load.spec.ts.
import { fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import DataTable from '../../src/renderer/src/components/DataTable.svelte';
import type { Column } from '../../src/renderer/src/lib/lists';
import { VIEWPORT, layOutScrollers } from './layout';

interface Row {
  id: string;
  name: string;
}

const ROW = 36;
const HEADER = 38;

const columns: Column<Row>[] = [
  {
    key: 'name',
    label: 'Name',
    sort: 'name',
    width: 200,
    exportKeys: ['name'],
    cell: (row) => ({ kind: 'text', text: row.name }),
    shownByDefault: true,
  },
];

function makeRows(count: number): Row[] {
  return Array.from({ length: count }, (_, i) => ({ id: `r${i}`, name: `Shipment ${i}` }));
}

function table({ loaded = 200, total = loaded }: { loaded?: number; total?: number } = {}) {
  const onopen = vi.fn<(row: Row) => void>();
  const onneed = vi.fn<(index: number) => void>();
  render(DataTable<Row>, {
    label: 'Shipments',
    columns,
    rows: makeRows(loaded),
    total,
    sort: { field: 'name', direction: 'asc' },
    now: Date.parse('2026-11-23T12:00:00Z'),
    onsort: () => {},
    onneed,
    onopen,
    rowLabel: (row) => row.name,
  });
  const scroller = screen.getByRole('grid', { name: 'Shipments' });
  return { onopen, onneed, scroller, user: userEvent.setup() };
}

/** The row the keyboard is on, by its index in the list. */
function focusedIndex(): number {
  const focused = document.activeElement as HTMLElement | null;
  return Number(focused?.dataset.index ?? NaN);
}

async function focusFirstRow(user: ReturnType<typeof userEvent.setup>): Promise<void> {
  await user.click(screen.getByRole('row', { name: 'Shipment 0' }));
  expect(focusedIndex()).toBe(0);
}

beforeEach(() => layOutScrollers());

describe('the list table’s keyboard', () => {
  it('moves the active row with the arrows, a page at a time, and to either end; focus follows', async () => {
    const { user, scroller } = table();
    await focusFirstRow(user);

    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(focusedIndex()).toBe(2);
    await user.keyboard('{ArrowUp}');
    expect(focusedIndex()).toBe(1);

    // A page is the rows the viewport holds below the header, less one kept for context.
    const page = Math.floor((VIEWPORT.height - HEADER) / ROW) - 1;
    await user.keyboard('{PageDown}');
    expect(focusedIndex()).toBe(1 + page);
    await user.keyboard('{PageUp}');
    expect(focusedIndex()).toBe(1);

    await user.keyboard('{End}');
    await waitFor(() => expect(focusedIndex()).toBe(199));
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Shipment 199');
    // The last row's bottom is the viewport's bottom.
    expect(scroller.scrollTop).toBe(HEADER + 200 * ROW - VIEWPORT.height);

    await user.keyboard('{Home}');
    await waitFor(() => expect(focusedIndex()).toBe(0));
    expect(scroller.scrollTop).toBe(0);
  });

  it('stops at the first and the last row', async () => {
    const { user } = table({ loaded: 3 });
    await focusFirstRow(user);
    await user.keyboard('{ArrowUp}{PageUp}');
    expect(focusedIndex()).toBe(0);
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}{PageDown}');
    expect(focusedIndex()).toBe(2);
  });

  it('opens the active row with Enter', async () => {
    const { user, onopen } = table();
    await focusFirstRow(user);
    onopen.mockClear();
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{Enter}');
    expect(onopen).toHaveBeenCalledExactlyOnceWith({ id: 'r3', name: 'Shipment 3' });
  });

  it('counts every key pressed before the screen caught up', async () => {
    const { user, onopen } = table();
    await focusFirstRow(user);
    onopen.mockClear();
    // One task, no render in between: End leaves row 199 off screen until the scroll lands, and
    // the three ArrowUps and the Enter still act on it, not on the focused node (row 0).
    const row = document.activeElement!;
    for (const key of ['End', 'ArrowUp', 'ArrowUp', 'ArrowUp', 'Enter']) void fireEvent.keyDown(row, { key });

    expect(onopen).toHaveBeenCalledExactlyOnceWith({ id: 'r196', name: 'Shipment 196' });
    await waitFor(() => expect(focusedIndex()).toBe(196));
  });

  it('leaves focus where a click put it while a move was on its way', async () => {
    const { user } = table();
    const outside = document.createElement('button');
    document.body.append(outside);
    try {
      await focusFirstRow(user);
      const row = document.activeElement!;
      void fireEvent.keyDown(row, { key: 'End' });
      outside.focus();
      // The scroll lands and row 199 shows; focus stays on the button.
      await waitFor(() => expect(screen.getByRole('row', { name: 'Shipment 199' })).toBeTruthy());
      expect(document.activeElement).toBe(outside);
    } finally {
      outside.remove();
    }
  });
});

describe('the list table’s scrolling', () => {
  it('scrolls a row moved to from below into view at the bottom, and from above just below the header', async () => {
    const { user, scroller } = table();
    await focusFirstRow(user);
    // Rows 0–9 fit below the header; row 10 is the first to need a scroll.
    const fit = Math.floor((VIEWPORT.height - HEADER) / ROW);
    for (let i = 0; i < fit; i++) await user.keyboard('{ArrowDown}');
    expect(focusedIndex()).toBe(fit);
    expect(scroller.scrollTop).toBe(HEADER + (fit + 1) * ROW - VIEWPORT.height);

    // Scrolled so row 20 sits half under the sticky header: moving up to it brings it fully below.
    scroller.scrollTop = 20 * ROW + ROW / 2;
    await waitFor(() => expect(screen.getByRole('row', { name: 'Shipment 30' })).toBeTruthy());
    screen.getByRole('row', { name: 'Shipment 21' }).focus();
    await user.keyboard('{ArrowUp}');
    await waitFor(() => expect(focusedIndex()).toBe(20));
    // Row 20's top (HEADER + 20 rows into the canvas) meets the header's bottom edge.
    expect(scroller.scrollTop + HEADER).toBe(HEADER + 20 * ROW);
  });

  it('asks for more rows as the window nears the end of what is loaded, not before', async () => {
    const { scroller, onneed } = table({ loaded: 1000, total: 5000 });
    expect(onneed).not.toHaveBeenCalled();
    expect(screen.queryByRole('row', { name: 'Loading' })).toBeNull();

    scroller.scrollTop = 700 * ROW;
    await waitFor(() => expect(onneed).toHaveBeenCalled());
    const asked = onneed.mock.calls.at(-1)![0];
    // Far enough ahead that a fast scroll finds the rows there: beyond what is loaded, past the screen.
    expect(asked).toBeGreaterThan(1000);
    expect(asked).toBeGreaterThan(700 + VIEWPORT.height / ROW);
  });

  it('shows rows not loaded yet as Loading while it asks for them', async () => {
    const loading = table({ loaded: 50, total: 400 });
    loading.scroller.scrollTop = 100 * ROW;
    expect((await screen.findAllByRole('row', { name: 'Loading' })).length).toBeGreaterThan(0);
    expect(loading.onneed).toHaveBeenCalled();
  });

  it('never asks for rows when everything is loaded', async () => {
    const { scroller, onneed } = table({ loaded: 300, total: 300 });
    scroller.scrollTop = 290 * ROW;
    await waitFor(() => expect(screen.getByRole('row', { name: 'Shipment 299' })).toBeTruthy());
    expect(onneed).not.toHaveBeenCalled();
  });
});

describe('the list table’s row nodes', () => {
  /** Each shown row's node, by list index. */
  const rowNodes = () =>
    new Map(
      [...document.querySelectorAll<HTMLElement>('[role="row"][data-index]')].map((node) => [
        Number(node.dataset.index),
        node,
      ]),
    );

  it('keeps the node of every row that stays on screen, whatever the scroll offset', async () => {
    const { scroller } = table({ loaded: 2000 });
    // Offsets that are not whole rows, as a trackpad gives them: the number of rows on screen
    // goes up and down by one as the offset crosses row boundaries.
    let before = rowNodes();
    for (let top = 0; top < 60 * ROW; top += 50) {
      scroller.scrollTop = top;
      await fireEvent.scroll(scroller);
      const first = Math.floor(top / ROW);
      await waitFor(() => expect(rowNodes().has(first + 5)).toBe(true));
      const after = rowNodes();
      for (const [index, node] of after) {
        if (before.has(index)) expect(before.get(index), `row ${index} at offset ${top}`).toBe(node);
      }
      before = after;
    }
  });

  it('makes and removes no row node in a fast scroll, and leaves a row that stays on screen as it is', async () => {
    const { scroller } = table({ loaded: 2000 });
    const nodes = new Set(rowNodes().values());
    const observer = new MutationObserver(() => {});
    observer.observe(scroller, { subtree: true, childList: true, characterData: true, attributes: true });
    // Seven rows a frame and a bit (the viewport here shows eleven), as a trackpad fling gives them.
    for (let top = 250; top < 200 * ROW; top += 250) {
      const first = Math.floor(top / ROW);
      const stays = rowNodes().get(first + 3)!;
      expect(stays, `row ${first + 3} shown before offset ${top}`).toBeDefined();
      scroller.scrollTop = top;
      await fireEvent.scroll(scroller);
      await waitFor(() => expect(rowNodes().has(first + 5)).toBe(true));
      const records = observer.takeRecords();
      const removed = records
        .flatMap((record) => [...record.removedNodes])
        .filter((node) => nodes.has(node as HTMLElement));
      expect(removed, `row nodes removed at offset ${top}`).toEqual([]);
      expect(new Set(rowNodes().values())).toEqual(nodes);
      const touched = records.some((record) => stays.contains(record.target));
      expect(touched, `row ${first + 3} written again at offset ${top}`).toBe(false);
      expect(stays.textContent).toBe(`Shipment ${first + 3}`);
    }
    observer.disconnect();
  });
});

describe('the list table’s cells', () => {
  const named: Column<Row>[] = [
    {
      ...columns[0]!,
      cell: (row) => ({ kind: 'text', text: row.name, title: `Whole name: ${row.name}` }),
    },
  ];

  it('puts a cell’s tooltip on when the pointer comes over it', async () => {
    const onneed = vi.fn<(index: number) => void>();
    render(DataTable<Row>, {
      label: 'Shipments',
      columns: named,
      rows: makeRows(2000),
      total: 2000,
      sort: { field: 'name', direction: 'asc' },
      now: Date.parse('2026-11-23T12:00:00Z'),
      onsort: () => {},
      onneed,
      rowLabel: (row) => row.name,
    });
    const cellOf = (name: string) => screen.getByRole('row', { name }).querySelector('[role="gridcell"]')!;
    const first = cellOf('Shipment 0');
    expect(first.textContent).toBe('Shipment 0');
    await fireEvent.pointerOver(first);
    expect(first.getAttribute('title')).toBe('Whole name: Shipment 0');
  });
});
